"""The package as a user gets it: the sdist builds, the pure-Python wheel built from that
sdist (``INTERLINGUA_PURE_PYTHON=1``: what a machine without a C compiler builds) installs into
a fresh virtual environment with only its runtime dependencies, and every command works there,
outside the repository checkout (the wheel must carry every file the runtime reads).
test_compiled.py builds the compiled wheel the same way.
"""

from __future__ import annotations

import json
import os
import zipfile
from pathlib import Path

import pytest

from tests.packaging.wheels import ROOT, build_wheel, install, ok, run
from tests.streams.helpers import framed

EXAMPLES = ROOT / "schemas" / "formats"

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bin/ directory of a fresh venv holding the pure wheel built from the sdist."""
    work = tmp_path_factory.mktemp("packaging")
    return install(work, build_wheel(work, pure=True))


def test_the_pure_wheel_is_pure(installed: Path) -> None:
    """No extension module, and a wheel any platform installs."""
    (wheel,) = installed.parent.parent.glob("dist/interlingua-*.whl")
    assert wheel.name.endswith("-py3-none-any.whl"), wheel.name
    assert not [n for n in zipfile.ZipFile(wheel).namelist() if n.endswith((".so", ".pyd"))]


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
    listed = ok(run([str(installed / "python"), "-m", "pip", "list", "--format=json"], installed))
    names = {p["name"].lower() for p in json.loads(listed)}
    assert "interlingua" in names
    assert not names & {"bpe-openai", "pytest", "hypothesis", "jinja2", "mkdocs", "litellm"}


def test_the_installed_commands_work_outside_the_checkout(installed: Path, tmp_path: Path) -> None:
    cli = str(installed / "interlingua")
    request = EXAMPLES / "openai-chat" / "examples" / "request"
    body = tmp_path / "x.json"
    body.write_bytes(next(iter(sorted(request.glob("*.json")))).read_bytes())

    version = ok(run([cli, "--version"], tmp_path))
    assert version.startswith("interlingua ")
    converted = json.loads(
        ok(run([cli, "convert", "--from", "openai-chat", "--to", "anthropic", str(body)], tmp_path))
    )
    assert "messages" in converted
    assert ok(run([cli, "detect", str(body)], tmp_path)).startswith("openai-chat request")
    canonical = tmp_path / "c.json"
    canonical.write_text(
        ok(run([cli, "convert", "--from", "openai-chat", "--to", "canonical", str(body)], tmp_path))
    )
    assert json.loads(ok(run([cli, "validate", str(canonical)], tmp_path))) == []
    assert ok(run([cli, "views", str(canonical)], tmp_path)).startswith("part")
    ok(run([cli, "pairs", str(body)], tmp_path))

    stream_case = json.loads(
        (ROOT / "conformance" / "cases" / "anthropic" / "stream.json").read_text()
    )
    chunks = stream_case["cases"][0]["chunks"]
    sse = "".join(framed("anthropic", chunks)).encode("utf-8")
    streamed = ok(run([cli, "stream", "--from", "anthropic", "--to", "openai-chat"], tmp_path, sse))
    assert streamed.rstrip().endswith("data: [DONE]")


def test_the_installed_conformance_runner_runs_its_cases(installed: Path, tmp_path: Path) -> None:
    out = ok(
        run([str(installed / "interlingua-conformance"), "run", "--group", "canonical"], tmp_path)
    )
    assert " cases against " in out


def test_a_card_without_the_gateway_extra_is_a_coded_error(installed: Path, tmp_path: Path) -> None:
    tool = ROOT / "schemas" / "examples" / "GatewayTool"
    document = tmp_path / "tool.json"
    document.write_bytes(next(iter(sorted(tool.glob("*.json")))).read_bytes())
    result = run([str(installed / "interlingua"), "card", str(document)], tmp_path)
    assert result.returncode == 2
    assert json.loads(result.stderr)["error"] == "TOKENIZER_UNAVAILABLE"
