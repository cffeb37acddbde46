"""Building the package as a user gets it: an sdist from a copy of the checkout, a wheel from
that sdist (pure Python, or compiled with mypyc), installed into a fresh virtual environment.

The build uses the setuptools (and mypy) already installed (``--no-build-isolation``, the dev
extra pins them), so the build itself needs no package index; installing the runtime
dependencies into the fresh environment does (through pip's cache when it has them), at the
versions ``constraints.txt`` pins.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tarfile
from pathlib import Path

from build_support.compiled import OPT_ENV, PURE_ENV
from tests.tracing import CHILD_COVERAGE

ROOT = Path(__file__).resolve().parents[2]
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


#: This process's import path, its coverage (pytest-cov's variable, and the one coverage's
#: ``patch = ["subprocess"]`` sets, which would trace a whole mypyc build), and the build's
#: switches (pure, the C optimisation level): a build is told them.
_NOT_PASSED_ON = frozenset({"PYTHONPATH", "COV_CORE_SOURCE", CHILD_COVERAGE, PURE_ENV, OPT_ENV})


def run(
    argv: list[str],
    cwd: Path,
    stdin: bytes | None = None,
    env: dict[str, str] | None = None,
    timeout: float = 1200,
) -> subprocess.CompletedProcess[str]:
    """``argv`` outside this process's import path (and coverage), with ``env`` added. It runs
    in a process group of its own, killed whole if the test stops (a timeout, an interrupt):
    a wheel build's compilers are grandchildren, which killing pip alone would leave running."""
    clean = {k: v for k, v in os.environ.items() if k not in _NOT_PASSED_ON}
    clean["PYTHONNOUSERSITE"] = "1"
    clean.update(env or {})
    with subprocess.Popen(
        argv,
        cwd=cwd,
        env=clean,
        stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    ) as process:
        try:
            out, err = process.communicate(
                stdin.decode("utf-8") if stdin is not None else None, timeout=timeout
            )
        except BaseException:
            os.killpg(process.pid, signal.SIGKILL)
            raise
    return subprocess.CompletedProcess(argv, process.returncode, out, err)


def ok(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 0, f"{result.args}\n{result.stdout}\n{result.stderr}"
    return result.stdout


#: The C optimisation level of the compiled wheel the tests build (`build_support.compiled`).
TEST_OPT_LEVEL = "1"


def build_wheel(work: Path, *, pure: bool) -> Path:
    """The wheel built from the sdist of a copy of the checkout (compiled: its mypyc modules at
    `TEST_OPT_LEVEL`)."""
    tree = work / "checkout"
    shutil.copytree(ROOT, tree, symlinks=True, ignore=_SKIP)
    dist = work / "dist"
    build_sdist = f"from setuptools import build_meta; build_meta.build_sdist({str(dist)!r})"
    ok(run([sys.executable, "-c", build_sdist], tree))
    (sdist,) = dist.glob("interlingua-*.tar.gz")
    with tarfile.open(sdist) as archive:
        archive.extractall(work / "unpacked", filter="data")
    (unpacked,) = (work / "unpacked").iterdir()
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input"]
    wheel_argv = [*pip, "wheel", "--no-deps", "--no-build-isolation", "-w", str(dist)]
    switch = {PURE_ENV: "1"} if pure else {OPT_ENV: TEST_OPT_LEVEL}
    ok(run([*wheel_argv, str(unpacked)], work, env=switch))
    (wheel,) = dist.glob("interlingua-*.whl")
    return wheel


def install(work: Path, wheel: Path, extras: str = "") -> Path:
    """The bin/ directory of a fresh venv holding ``wheel`` and its runtime dependencies (and
    those of ``extras``, e.g. ``"[gateway]"``)."""
    venv = work / "venv"
    ok(run([sys.executable, "-m", "venv", str(venv)], work))
    bin_dir = venv / "bin"
    pip = [str(bin_dir / "python"), "-m", "pip", "--disable-pip-version-check", "install"]
    ok(run([*pip, "--quiet", "-c", str(ROOT / "constraints.txt"), f"{wheel}{extras}"], work))
    return bin_dir
