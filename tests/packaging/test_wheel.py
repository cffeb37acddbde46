"""The package as a user gets it: the sdist builds, the wheel built from that sdist installs
into a fresh virtual environment with only its runtime dependencies, and every command works
there, outside the repository checkout (the wheel must carry every file the runtime reads).

The build uses the setuptools already installed (``--no-build-isolation``, the dev extra pins
it) so the build itself needs no package index; installing the runtime dependencies into the
fresh environment does (through pip's cache when it has them), at the versions
``constraints.txt`` pins.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from tests.streams.helpers import framed

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "schemas" / "formats"
#: Not part of any distribution, and large or volatile (coverage data files come and go while
#: parallel workers run): never copied into the build tree.
_SKIP = shutil.ignore_patterns(
    ".git",
    ".venv",
    "build",
    "dist",
    "site",
    ".hypothesis",
    "*_cache",
    "__pycache__",
    "*.egg-info",
    ".coverage*",
    "htmlcov",
)

pytestmark = pytest.mark.slow


def _run(
    argv: list[str], cwd: Path, stdin: bytes | None = None
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "COV_CORE_SOURCE")}
    env["PYTHONNOUSERSITE"] = "1"
    return subprocess.run(
        argv,
        cwd=cwd,
        env=env,
        input=stdin.decode("utf-8") if stdin is not None else None,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def _ok(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 0, f"{result.args}\n{result.stdout}\n{result.stderr}"
    return result.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bin/ directory of a fresh venv holding the wheel built from the sdist."""
    work = tmp_path_factory.mktemp("packaging")
    tree = work / "checkout"
    shutil.copytree(ROOT, tree, symlinks=True, ignore=_SKIP)
    dist = work / "dist"
    build_sdist = f"from setuptools import build_meta; build_meta.build_sdist({str(dist)!r})"
    _ok(_run([sys.executable, "-c", build_sdist], tree))
    (sdist,) = dist.glob("interlingua-*.tar.gz")
    with tarfile.open(sdist) as archive:
        archive.extractall(work / "unpacked", filter="data")
    (unpacked,) = (work / "unpacked").iterdir()
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input"]
    _ok(
        _run(
            [*pip, "wheel", "--no-deps", "--no-build-isolation", "-w", str(dist), str(unpacked)],
            work,
        )
    )
    (wheel,) = dist.glob("interlingua-*.whl")
    venv = work / "venv"
    _ok(_run([sys.executable, "-m", "venv", str(venv)], work))
    bin_dir = venv / "bin"
    _ok(
        _run(
            [
                str(bin_dir / "python"),
                "-m",
                "pip",
                "--disable-pip-version-check",
                "install",
                "--quiet",
                "-c",
                str(ROOT / "constraints.txt"),
                str(wheel),
            ],
            work,
        )
    )
    return bin_dir


def _files(folder: Path) -> set[Path]:
    """Every file under ``folder``, through its links (``interlingua/generated`` is one)."""
    return {
        Path(top, name)
        for top, _, names in os.walk(folder, followlinks=True)
        if "__pycache__" not in Path(top).parts
        for name in names
    }


def test_the_wheel_carries_every_file_of_its_packages(installed: Path) -> None:
    """Every file under the package folders (code, wire schemas, the bundled schema, the
    conformance cases, whatever their extension): a new kind of data file fails here until
    pyproject.toml's package-data names it."""
    (wheel,) = installed.parent.parent.glob("dist/interlingua-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    folders = {
        "interlingua": ROOT / "src" / "interlingua",  # generated/ and schemas/ are links into it
        "conformance": ROOT / "conformance",
    }
    for name, folder in folders.items():
        expected = {f"{name}/{p.relative_to(folder).as_posix()}" for p in _files(folder)}
        assert not expected - names, sorted(expected - names)[:20]
    assert "interlingua/generated/wire_schemas/openai-chat/request.json" in names
    assert "interlingua/schemas/interlingua-v1.json" in names


def test_only_runtime_dependencies_are_installed(installed: Path) -> None:
    listed = _ok(_run([str(installed / "python"), "-m", "pip", "list", "--format=json"], installed))
    names = {p["name"].lower() for p in json.loads(listed)}
    assert "interlingua" in names
    assert not names & {"bpe-openai", "pytest", "hypothesis", "jinja2", "mkdocs", "litellm"}


def test_the_installed_commands_work_outside_the_checkout(installed: Path, tmp_path: Path) -> None:
    cli = str(installed / "interlingua")
    request = EXAMPLES / "openai-chat" / "examples" / "request"
    body = tmp_path / "x.json"
    body.write_bytes(next(iter(sorted(request.glob("*.json")))).read_bytes())

    version = _ok(_run([cli, "--version"], tmp_path))
    assert version.startswith("interlingua ")
    converted = json.loads(
        _ok(
            _run(
                [cli, "convert", "--from", "openai-chat", "--to", "anthropic", str(body)], tmp_path
            )
        )
    )
    assert "messages" in converted
    assert _ok(_run([cli, "detect", str(body)], tmp_path)).startswith("openai-chat request")
    canonical = tmp_path / "c.json"
    canonical.write_text(
        _ok(
            _run(
                [cli, "convert", "--from", "openai-chat", "--to", "canonical", str(body)], tmp_path
            )
        )
    )
    assert json.loads(_ok(_run([cli, "validate", str(canonical)], tmp_path))) == []
    assert _ok(_run([cli, "views", str(canonical)], tmp_path)).startswith("part")
    _ok(_run([cli, "pairs", str(body)], tmp_path))

    stream_case = json.loads(
        (ROOT / "conformance" / "cases" / "anthropic" / "stream.json").read_text()
    )
    chunks = stream_case["cases"][0]["chunks"]
    sse = "".join(framed("anthropic", chunks)).encode("utf-8")
    streamed = _ok(
        _run([cli, "stream", "--from", "anthropic", "--to", "openai-chat"], tmp_path, sse)
    )
    assert streamed.rstrip().endswith("data: [DONE]")


def test_the_installed_conformance_runner_runs_its_cases(installed: Path, tmp_path: Path) -> None:
    out = _ok(
        _run([str(installed / "interlingua-conformance"), "run", "--group", "canonical"], tmp_path)
    )
    assert " cases against " in out


def test_a_card_without_the_gateway_extra_is_a_coded_error(installed: Path, tmp_path: Path) -> None:
    tool = ROOT / "schemas" / "examples" / "GatewayTool"
    document = tmp_path / "tool.json"
    document.write_bytes(next(iter(sorted(tool.glob("*.json")))).read_bytes())
    result = _run([str(installed / "interlingua"), "card", str(document)], tmp_path)
    assert result.returncode == 2
    assert json.loads(result.stderr)["error"] == "TOKENIZER_UNAVAILABLE"
