"""The Node toolchain the TypeScript tests run: `npm ci` in tools/node, `tsc`, and `node`.

CI starts from a clean clone, so the first test that needs Node installs the locked packages
itself (`npm ci`, from tools/node/package-lock.json) and compiles the generated TypeScript
package; a lock file keeps parallel workers from doing either twice at once.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ROOT / "tools" / "node"
BUILD = ROOT / "build" / "node"
PACKAGE = ROOT / "generated" / "typescript"


def node() -> str:
    found = shutil.which("node")
    if found is None:  # a failure, not a skip: CI must run these tests
        raise RuntimeError("node is not on PATH; the TypeScript tests need Node.js 20 or later")
    return found


@contextmanager
def _locked() -> Iterator[None]:
    BUILD.mkdir(parents=True, exist_ok=True)
    with (BUILD / ".lock").open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _run(command: list[str], cwd: Path = ROOT) -> None:
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed:\n{result.stdout}{result.stderr}")


def install() -> Path:
    """tools/node/node_modules, installed from the lock file when missing or out of date."""
    lock = TOOLS / "package-lock.json"
    stamp = TOOLS / "node_modules" / ".interlingua-lock-sha256"
    digest = hashlib.sha256(lock.read_bytes()).hexdigest()
    with _locked():
        if not stamp.is_file() or stamp.read_text() != digest:
            npm = shutil.which("npm")
            if npm is None:
                raise RuntimeError("npm is not on PATH; the TypeScript tests install with npm ci")
            _run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], TOOLS)
            stamp.write_text(digest)
    return TOOLS / "node_modules"


def compiled() -> Path:
    """build/node: the generated package and tools/node/*.ts compiled by `tsc --strict`.

    Compiled again whenever a source changed (the digest of every input is kept beside it).
    """
    modules = install()
    hand_written = [*TOOLS.glob("*.ts"), *TOOLS.glob("gateway/*.ts"), TOOLS / "tsconfig.json"]
    sources = sorted([*PACKAGE.rglob("*.ts"), *hand_written])
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in sources)).hexdigest()
    stamp = BUILD / ".sources-sha256"
    with _locked():
        if not stamp.is_file() or stamp.read_text() != digest:
            _run([node(), str(modules / "typescript" / "bin" / "tsc"), "-p", str(TOOLS)])
            stamp.write_text(digest)
        link_modules()
    return BUILD


def link_modules() -> None:
    """build/node/tools/node/node_modules -> tools/node/node_modules: the compiled harness
    requires its npm packages (Ajv, re2js, js-tiktoken) from beside itself, as Node resolves them."""
    link = BUILD / "tools" / "node" / "node_modules"
    if not link.is_symlink():
        link.symlink_to(Path("../../../../tools/node/node_modules"), target_is_directory=True)


def run_node(script: Path, arguments: list[str], batch: Any) -> Any:
    """Run one Node script over a whole batch (one process, JSON in, JSON out)."""
    install()
    result = subprocess.run(
        [node(), str(script), *arguments],
        input=json.dumps(batch),
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    if result.returncode != 0:
        raise RuntimeError(f"{script.name} failed:\n{result.stdout}{result.stderr}")
    return json.loads(result.stdout)
