"""The compiled wheel: built from the sdist with mypyc (a C compiler is on every machine that
runs this suite), installed into a fresh virtual environment, its modules are the compiled
ones, the conformance suite passes there, and every answer equals the pure-Python source's.

The editable install the rest of the suite runs on stays pure Python (coverage measures the
source); test_wheel.py checks the pure wheel. Building takes minutes (mypyc type-checks and
translates ~20k lines, then the C compiler runs): one build for the whole module.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from build_support.compiled import compiler_missing, modules
from conformance.cases import load_cases
from conformance.harness import answer
from conformance.protocol import External
from conformance.real import load_real_cases, quiet_losses
from tests.packaging.outputs import outputs
from tests.packaging.wheels import ROOT, build_wheel, install, ok, run

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(compiler_missing() is not None, reason=f"{compiler_missing()}"),
]


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bin/ directory of a fresh venv holding the compiled wheel built from the sdist, with
    the gateway extra (its tokenizer), so every conformance case can run."""
    work = tmp_path_factory.mktemp("compiled")
    return install(work, build_wheel(work, pure=False), "[gateway]")


def _module_names() -> list[str]:
    """The dotted names of the modules the build compiles."""
    return [
        ".".join(Path(path).with_suffix("").parts[1:]).removesuffix(".__init__")
        for path in modules()
    ]


def test_every_module_the_build_names_is_compiled(installed: Path, tmp_path: Path) -> None:
    names = _module_names()
    assert "interlingua.generated.validators" in names
    assert "interlingua.generated.adapters.anthropic" in names
    assert "interlingua.generated.models" not in names  # pydantic's: stays Python
    (wheel,) = installed.parent.parent.glob("dist/interlingua-*.whl")
    assert "-cp3" in wheel.name, wheel.name  # a platform wheel
    script = (
        "import importlib, json, sys\n"
        "print(json.dumps({n: importlib.import_module(n).__file__ for n in sys.argv[1:]}))"
    )
    files = json.loads(ok(run([str(installed / "python"), "-c", script, *names], tmp_path)))
    not_compiled = {name: file for name, file in files.items() if not file.endswith(".so")}
    assert not not_compiled
    shipped = zipfile.ZipFile(wheel).namelist()
    assert len([n for n in shipped if n.endswith(".so")]) > len(names)  # + mypyc's shared lib


def test_the_conformance_suite_passes_compiled(installed: Path, tmp_path: Path) -> None:
    out = ok(run([str(installed / "interlingua-conformance"), "run"], tmp_path))
    assert " cases against " in out


def test_every_conformance_answer_equals_the_pure_one(installed: Path) -> None:
    """Each case through the compiled install's harness (a child process speaking the
    conformance protocol) and through the pure source in this process: the same reply."""
    quiet_losses()
    compiled = External(f"{installed / 'python'} -I -m conformance.harness", timeout=60)
    try:
        for seq, case in enumerate([*load_cases(), *load_real_cases()], start=1):
            request = {"cmd": "run", "seq": seq, "case": case.as_json()}
            pure = json.loads(json.dumps(answer(request), default=str))
            got = compiled.run(case)
            want = pure.get("output"), pure.get("error"), bool(pure.get("skipped"))
            assert (got.output, got.error, bool(got.skipped)) == want, case.id
            assert got.broken is None, (case.id, got.broken)
    finally:
        compiled.close()


def test_every_conversion_of_the_bodies_equals_the_pure_one(installed: Path) -> None:
    """Full results (output, losses with reasons and order, id and name maps) of every
    conformance body converted to every format."""
    script = ROOT / "tests" / "packaging" / "outputs.py"
    got = json.loads(ok(run([str(installed / "python"), "-I", str(script)], installed)))
    want = json.loads(json.dumps(outputs(), sort_keys=True, default=str))
    assert got.keys() == want.keys()
    for case_id, targets in want.items():
        assert got[case_id] == targets, case_id


def test_the_c_string_check_is_built_and_answers_as_encoding_does(
    installed: Path, tmp_path: Path
) -> None:
    """conversion/_lone_surrogates.c, the fused passes' check of non-ASCII strings in the
    compiled wheel, against encoding to UTF-8 on strings of every width, with and without
    lone surrogates anywhere in them."""
    script = (
        "import random\n"
        "from interlingua.conversion._lone_surrogates import none_in\n"
        "from interlingua.conversion.adapters import fused_checks\n"
        "assert fused_checks._no_lone_surrogate is none_in\n"
        "spans = [(0, 0x7F), (0x80, 0xFF), (0x100, 0xD7FF), (0xD800, 0xDFFF),\n"
        "         (0xE000, 0xFFFF), (0x10000, 0x10FFFF)]\n"
        "pick = random.Random(7)\n"
        "def encodes(text):\n"
        "    try:\n"
        "        text.encode('utf-8')\n"
        "    except UnicodeEncodeError:\n"
        "        return False\n"
        "    return True\n"
        "found = 0\n"
        "for _ in range(20000):\n"
        "    text = ''.join(chr(pick.randint(*pick.choice(spans)))\n"
        "                   for _ in range(pick.randint(0, 40)))\n"
        "    assert none_in(text) is encodes(text), ascii(text)\n"
        "    found += not encodes(text)\n"
        "assert 1000 < found < 19000, found\n"
        "print('checked')\n"
    )
    assert ok(run([str(installed / "python"), "-c", script], tmp_path)).strip() == "checked"
