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
from tests.packaging.outputs import detections, outputs
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


def test_every_detection_of_the_bodies_equals_the_pure_one(installed: Path) -> None:
    """The detector is compiled: what it answers of every conformance body, with its reason
    and without, is what the pure source answers."""
    script = ROOT / "tests" / "packaging" / "outputs.py"
    command = [str(installed / "python"), "-I", str(script), "detections"]
    got = json.loads(ok(run(command, installed)))
    want = json.loads(json.dumps(detections(), sort_keys=True, default=str))
    assert got.keys() == want.keys()
    for case_id, answers in want.items():
        assert got[case_id] == answers, case_id


def test_a_detection_from_the_compiled_wheel_pickles(installed: Path, tmp_path: Path) -> None:
    """A worker process or a dataset pool hands answers back pickled; the answer types stay
    plain dataclasses beside the compiled detector (a compiled frozen dataclass does not
    unpickle)."""
    script = (
        "import pickle\n"
        "from interlingua import detect\n"
        "from interlingua.conversion import detection, detector\n"
        "assert detector.__file__.endswith('.so') and detection.__file__.endswith('.py')\n"
        "body = {'model': 'm', 'max_tokens': 5, 'messages': [{'role': 'user', 'content': 'hi'}]}\n"
        "for found in (detect(body), detect({'messages': 5})):\n"
        "    assert pickle.loads(pickle.dumps(found)) == found, found\n"
        "print('pickled')\n"
    )
    assert ok(run([str(installed / "python"), "-c", script], tmp_path)).strip() == "pickled"


def test_the_c_checks_are_built_and_answer_as_their_twins(installed: Path, tmp_path: Path) -> None:
    """conversion/_checks.c in the compiled wheel: the fused passes and read_json use it, and
    each check answers as its Python twin (the pure wheel's): the string check as encoding
    to UTF-8 on strings of every width, the word rule, the walk of a carried value and the
    repeated-key test on random values, and the loss record makes the loss its twin makes
    (tests/adapters/test_c_checks.py holds more cases)."""
    script = (
        "import json, random\n"
        "from interlingua.conversion import _checks, reading\n"
        "from interlingua.conversion.adapters import fused_checks\n"
        "assert fused_checks.clean is _checks.clean\n"
        "assert fused_checks.word is _checks.word and fused_checks._plain is _checks.plain\n"
        "assert reading._undoubted_check is _checks.undoubted\n"
        "assert fused_checks.add_loss is _checks.add_loss\n"
        "from interlingua.conversion import Loss\n"
        "made, twin = [], []\n"
        "_checks.add_loss(made, Loss, '/a', 'c', 'r', None)\n"
        "fused_checks._python_add_loss(twin, Loss, '/a', 'c', 'r', None)\n"
        "assert made == twin and type(made[0]) is Loss, made\n"
        "spans = [(0, 0x7F), (0x80, 0xFF), (0x100, 0xD7FF), (0xD800, 0xDFFF),\n"
        "         (0xE000, 0xFFFF), (0x10000, 0x10FFFF), (0x22, 0x22), (0x5C, 0x5C)]\n"
        "pick = random.Random(7)\n"
        "def text():\n"
        "    return ''.join(chr(pick.randint(*pick.choice(spans)))\n"
        "                   for _ in range(pick.randint(0, 12)))\n"
        "def value(depth):\n"
        "    kind = pick.randrange(8 if depth < 4 else 5)\n"
        "    if kind == 5:\n"
        "        return [value(depth + 1) for _ in range(pick.randrange(3))]\n"
        "    if kind == 6:\n"
        "        return {text(): value(depth + 1) for _ in range(pick.randrange(3))}\n"
        "    if kind == 7:\n"
        "        return {pick.choice('ab'): value(depth + 1) for _ in range(2)}\n"
        "    return [None, True, pick.choice([1, 2**63, -2**63, 2**64, -2**63 - 1]),\n"
        "            pick.choice([1.5, float('inf'), 2.0**63]), text()][kind]\n"
        "found = 0\n"
        "for _ in range(20000):\n"
        "    t = text()\n"
        "    assert _checks.clean(t) is fused_checks._encodes(t), ascii(t)\n"
        "    found += not fused_checks._encodes(t)\n"
        "    assert _checks.word(t, '_-', 5) is fused_checks._python_word(t, '_-', 5), ascii(t)\n"
        "    v = value(0)\n"
        "    assert _checks.plain(v, 0, 3) is fused_checks._python_plain(v, 0, 3), ascii(v)\n"
        "    try:\n"
        "        doc = json.dumps(v, ensure_ascii=pick.random() < 0.5)\n"
        "        doc = doc.replace('\"b\"', '\"a\"') if pick.random() < 0.3 else doc\n"
        "        read = reading._loads(doc)\n"
        "    except (ValueError, *reading._REFUSED):\n"
        "        continue\n"
        "    for data in (doc, doc.encode('utf-8')):\n"
        "        want = reading._undoubted(read, data, 4)\n"
        "        assert _checks.undoubted(read, data, 4) is want, ascii(doc)\n"
        "assert 1000 < found < 19000, found\n"
        "print('checked')\n"
    )
    assert ok(run([str(installed / "python"), "-c", script], tmp_path)).strip() == "checked"
