"""`tsc --noEmit --strict`: the generated package compiles on its own (no Node types, as a
consumer builds it), and tools/node/usage.ts, compiled with it, shows what the types refuse:
each of its `@ts-expect-error` lines (a misspelt field, a misspelt tag, a known tag made an
unknown part, a role outside the enum) must fail to type-check, or tsc reports the line."""

from __future__ import annotations

import subprocess

from tests.typescript.toolchain import PACKAGE, TOOLS, compiled, install, node


def _tsc(*arguments: str) -> subprocess.CompletedProcess[str]:
    tsc = install() / "typescript" / "bin" / "tsc"
    return subprocess.run(
        [node(), str(tsc), *arguments], capture_output=True, text=True, check=False
    )


def test_the_package_type_checks_on_its_own() -> None:
    result = _tsc("--noEmit", "--strict", "-p", str(PACKAGE))
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_usage_file_type_checks_with_every_refusal() -> None:
    usage = (TOOLS / "usage.ts").read_text(encoding="utf-8")
    assert usage.count("@ts-expect-error") >= 4
    build = compiled()  # tsc --strict over tools/node/*.ts and the package; raises on an error
    assert (build / "tools" / "node" / "usage.js").is_file()
