"""The conformance runner: judging, expected failures, reports, and misbehaving implementations."""

import json
import sys
from pathlib import Path

import pytest

from conformance.__main__ import main
from conformance.cases import Case, CaseFileError, load_cases
from conformance.protocol import External, InProcess, Outcome
from conformance.run import judge, load_expected_failures, matrix, report, run_cases, verdict

OK = Case("g.ok", "vectors", "gateway/g", "required", "d", "double", {"x": 2}, expected={"y": 4})
FAILS = Case(
    "g.err",
    "vectors",
    "gateway/g",
    "recommended",
    "d",
    "double",
    {"x": -1},
    expected_error={"code": "BAD", "details": {"x": -1}},
)


class Boom(Exception):
    def __init__(self, code: str, details: dict[str, object]) -> None:
        super().__init__(code)
        self.code, self.details = code, details


def double(arguments: dict[str, object]) -> object:
    x = arguments["x"]
    assert isinstance(x, int)
    if x < 0:
        raise Boom("BAD", {"x": x})
    return {"y": 2.0 * x}


IMPL = InProcess({"double": double}, Boom)


def test_judging_outputs_and_errors() -> None:
    assert judge(OK, IMPL.run(OK)) == (True, "")  # 4.0 equals 4
    assert judge(FAILS, IMPL.run(FAILS)) == (True, "")
    assert not judge(OK, Outcome(output={"y": 5}))[0]
    assert not judge(OK, Outcome(error={"code": "BAD"}))[0]
    assert judge(FAILS, Outcome(output=1))[1].startswith("expected error BAD")
    assert judge(FAILS, Outcome(error={"code": "OTHER"}))[1] == "expected error BAD, got OTHER"
    assert (
        "error detail 'x'" in judge(FAILS, Outcome(error={"code": "BAD", "details": {"x": 1}}))[1]
    )
    assert judge(OK, Outcome(skipped="not yet"))[1] == "skipped: not yet"
    assert judge(OK, Outcome(broken="crash"))[1] == "implementation error: crash"
    missing = Case("g.none", "vectors", "gateway/g", "required", "d", "triple", {})
    assert IMPL.run(missing).skipped == "no function 'triple'"


def test_expected_failures_and_the_verdict(tmp_path: Path) -> None:
    listing = tmp_path / "expected.txt"
    listing.write_text("# known\ng.ok  # stale entry\n\n")
    assert load_expected_failures(listing) == ["g.ok"]
    assert load_expected_failures(tmp_path / "absent.txt") == []
    results = run_cases(IMPL, [OK, FAILS], ["g.*"])
    assert [r.status for r in results] == ["xpass", "xpass"]
    assert not verdict(results, strict=False)
    broken = InProcess({}, Boom)
    failing = run_cases(broken, [OK, FAILS], ["g.ok"])
    assert [r.status for r in failing] == ["xfail", "fail"]
    assert verdict(failing, strict=False)  # only a recommended case fails unlisted
    assert not verdict(failing, strict=True)
    assert report("impl", failing)["summary"] == {"xfail": 1, "fail": 1}
    assert "| gateway/g | 0/1 | 0/1 |" in matrix("impl", failing)


def harness(tmp_path: Path, body: str) -> str:
    script = tmp_path / "harness.py"
    script.write_text("import json, sys, time\n" + body)
    return f"{sys.executable} {script}"


START = 'print(json.dumps({"version": 1, "implementation": {"name": "fake"}}), flush=True)\nsys.stdin.readline()\n'
# Misbehaviour starts once the case has arrived: an implementation that exits before the
# runner has written it makes the write fail first (a race, under load, not what is tested).
CASE = START + "sys.stdin.readline()\n"


@pytest.mark.parametrize(
    ("body", "broken"),
    [
        (CASE + "print('not json', flush=True)\n", "JSONDecodeError"),
        (
            CASE + "print(json.dumps({'seq': 99, 'output': 1}), flush=True)\n",
            "reply out of sequence",
        ),
        (CASE + "print(json.dumps({'seq': 1}), flush=True)\n", "neither output"),
        (CASE + "sys.exit(3)\n", "EOFError"),
        (START + "time.sleep(30)\n", "TimeoutError"),
    ],
    ids=["garbage", "wrong-seq", "empty-reply", "crash", "silent"],
)
def test_misbehaving_implementations_fail_cases_not_the_runner(
    tmp_path: Path, body: str, broken: str
) -> None:
    implementation = External(harness(tmp_path, body), timeout=2)
    try:
        outcome = implementation.run(OK)
    finally:
        implementation.close()
    assert outcome.broken is not None and broken in outcome.broken


def test_skips_and_errors_over_the_protocol(tmp_path: Path) -> None:
    body = START.replace("sys.stdin.readline()\n", "") + (
        "for line in sys.stdin:\n"
        "    request = json.loads(line)\n"
        "    if request['cmd'] == 'stop': break\n"
        "    if request['cmd'] != 'run': continue\n"
        "    if request['case']['id'] == 'g.ok': print(json.dumps({'seq': request['seq'], 'skipped': True}), flush=True)\n"
        "    else: print(json.dumps({'seq': request['seq'], 'error': 'BAD'}), flush=True)\n"
    )
    implementation = External(harness(tmp_path, body))
    try:
        assert implementation.name == "fake"
        assert implementation.run(OK).skipped == "skipped"
        assert implementation.run(FAILS).error == {"code": "BAD"}
    finally:
        implementation.close()


def test_an_implementation_that_does_not_start_is_refused(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError, match="protocol version"):
        External(harness(tmp_path, "print('hello', flush=True)\n"), timeout=2)


def test_case_files_are_checked(tmp_path: Path) -> None:
    schema = Path(__file__).resolve().parents[2] / "conformance" / "vectors" / "vector.schema.json"
    (tmp_path / "vector.schema.json").write_text(schema.read_text())
    (tmp_path / "g").mkdir()
    vector = {
        "id": "g.a",
        "level": "required",
        "description": "d",
        "function": "f",
        "input": {},
        "expected": 1,
    }
    (tmp_path / "g" / "g.json").write_text(
        json.dumps({"group": "g", "description": "d", "vectors": [vector, vector]})
    )
    with pytest.raises(CaseFileError, match="repeats"):
        load_cases(tmp_path)
    (tmp_path / "g" / "g.json").write_text(json.dumps({"group": "g", "vectors": []}))
    with pytest.raises(CaseFileError):
        load_cases(tmp_path)
    (tmp_path / "g" / "g.json").write_text("{")
    with pytest.raises(CaseFileError):
        load_cases(tmp_path)


def test_cli_runs_the_suite_in_process_and_through_the_harness(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report_path, matrix_path = tmp_path / "r.json", tmp_path / "m.md"
    common = ["--report", str(report_path), "--matrix", str(matrix_path)]
    assert main(["run", "--group", "gateway/paths", *common]) == 0
    assert json.loads(report_path.read_text())["summary"] == {"pass": 48}
    assert "| gateway/paths | 40/40 | 8/8 |" in matrix_path.read_text()
    assert (
        main(
            [
                "run",
                "--group",
                "gateway/errors",
                "--impl",
                f"{sys.executable} -m conformance.harness",
                *common,
            ]
        )
        == 0
    )
    assert "29 cases against interlingua (python): 29 pass" in capsys.readouterr().out
    assert main(["run", "--impl", f"{sys.executable} -c pass", *common]) == 2


def test_every_vector_passes_in_process() -> None:
    """The whole suite, canonical validation and gateway, against the Python implementation."""
    from interlingua.contract import FUNCTIONS, ContractError

    cases = load_cases()
    results = run_cases(InProcess(dict(FUNCTIONS), ContractError), cases, [])
    assert [r for r in results if r.status != "pass"] == []
    groups = {c.group for c in cases}
    assert {
        "canonical/valid",
        "canonical/structure",
        "canonical/semantics",
        "canonical/unknown",
    } <= groups
    assert sum(c.group.startswith("canonical/") for c in cases) >= 60
