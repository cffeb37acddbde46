"""The real-traffic corpus: its manifest, its cases, how they are judged, and the list of the
checks that fail today."""

import json
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest

from conformance import real, real_failures
from conformance.cases import Case, CaseFileError
from conformance.protocol import InProcess, Outcome
from conformance.real import REAL, judge, load_manifest, load_real_cases, payload
from conformance.run import Result, load_expected_failures, matrix, run_cases, verdict
from interlingua.contract import FUNCTIONS, ContractError

LISTED = Path(__file__).resolve().parents[2] / "conformance" / "expected-failures" / "python.txt"
CREDENTIAL = re.compile(
    r"(?<![A-Za-z0-9_/+-])sk-(?:proj-|ant-)?[A-Za-z0-9]{20,}(?![A-Za-z0-9_-])"
    r"|(?<![A-Za-z0-9/+])AKIA[0-9A-Z]{16}(?![A-Za-z0-9])"
    r"|(?<![A-Za-z0-9_/+-])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])"
    r"|[Bb]earer [A-Za-z0-9._-]{16,}"
)
FORMATS = {
    "anthropic",
    "bedrock",
    "chatml",
    "cmf",
    "gemini",
    "mcp",
    "ollama",
    "openai-chat",
    "openai-responses",
    "otel",
    "umf",
}


@pytest.fixture(scope="module")
def cases() -> list[Case]:
    return load_real_cases()


def corpus_copy(tmp_path: Path, files: list[str]) -> Path:
    """A corpus of a few of the real bodies, with their manifest entries."""
    manifest = json.loads((REAL / "manifest.json").read_text(encoding="utf-8"))
    manifest["bodies"] = [b for b in manifest["bodies"] if b["file"] in files]
    for name in files:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(REAL / name, tmp_path / name)
    (tmp_path / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return tmp_path


def test_the_corpus_has_every_format_and_kind_with_provenance() -> None:
    bodies = load_manifest()
    assert len(bodies) >= 300
    assert {b.format for b in bodies} == FORMATS
    assert {b.kind for b in bodies} == {"request", "response", "stream", "messages"}
    assert all(b.source.get("repository") or b.source.get("url") for b in bodies)
    # Bodies only: no credential-shaped strings (an MCP connector's `authorization` field is a
    # placeholder the recorder put there).
    for body in bodies:
        text = (REAL / body.file).read_text(encoding="utf-8")
        assert not CREDENTIAL.search(text), body.file
        for value in re.findall(r'"authorization": "([^"]*)"', text, re.IGNORECASE):
            assert value in ("fake", "<redacted>"), body.file


def test_every_file_has_a_manifest_entry_and_every_entry_a_file(tmp_path: Path) -> None:
    files = ["ollama/request/ollama-docs--api--chat-request-streaming.json"]
    root = corpus_copy(tmp_path, files)
    assert [b.file for b in load_manifest(root)] == files
    stray = root / "ollama" / "request" / "stray.json"
    stray.write_text("{}", encoding="utf-8")
    with pytest.raises(CaseFileError, match="without a manifest entry"):
        load_manifest(root)
    stray.unlink()
    (root / files[0]).unlink()
    with pytest.raises(CaseFileError, match="entries without a file"):
        load_manifest(root)


def test_a_manifest_entry_is_checked_against_its_schema_and_directories(tmp_path: Path) -> None:
    files = ["ollama/request/ollama-docs--api--chat-request-streaming.json"]
    root = corpus_copy(tmp_path, files)
    manifest = json.loads((root / "manifest.json").read_text(encoding="utf-8"))
    manifest["bodies"][0]["licence"] = ""
    (root / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(CaseFileError, match="licence"):
        load_manifest(root)
    manifest["bodies"][0]["licence"] = "MIT"
    manifest["bodies"][0]["kind"] = "response"
    (root / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(CaseFileError, match="its directories"):
        load_manifest(root)
    manifest["bodies"].append(manifest["bodies"][0])
    (root / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(CaseFileError, match="listed twice"):
        load_manifest(root)
    (root / "manifest.json").write_text("{", encoding="utf-8")
    with pytest.raises(CaseFileError):
        load_manifest(root)


def test_each_body_has_a_case_per_check(cases: list[Case]) -> None:
    checks = Counter(c.check for c in cases)
    bodies = load_manifest()
    streams = sum(b.kind == "stream" for b in bodies)
    assert checks == {
        "read": len(bodies),
        "roundtrip": len(bodies) - streams,
        "cross": len(bodies) - streams,
        "stream": streams,
    }
    assert len({c.id for c in cases}) == len(cases)
    cross = next(c for c in cases if c.id.startswith("real.cmf.messages.") and c.check == "cross")
    assert "canonical" not in cross.input["targets"] and "cmf" not in cross.input["targets"]
    response = next(c for c in cases if ".response." in c.id and c.check == "cross")
    assert "umf" not in response.input["targets"]  # UMF has no response body


def test_the_listed_failures_name_real_cases_one_by_one(cases: list[Case]) -> None:
    """Each failing check is listed by its own id (no pattern), so a body listed for one check
    is still held to the others, and every listed corpus id names a case that exists."""
    listed = [i for i in load_expected_failures(LISTED) if i.startswith("real.")]
    assert listed
    assert not [i for i in listed if "*" in i or "?" in i or "[" in i]
    assert set(listed) <= {c.id for c in cases}
    text = LISTED.read_text(encoding="utf-8")
    assert all(
        "  # " in line for line in text.splitlines() if line.startswith("real.")
    )  # each with its reason


def test_a_body_that_read_before_and_stops_reading_fails_the_run(cases: list[Case]) -> None:
    listed = load_expected_failures(LISTED)
    reads = [c for c in cases if c.check == "read" and c.id not in listed][:3]
    assert reads
    working = InProcess(dict(FUNCTIONS), ContractError)
    assert verdict(run_cases(working, reads, listed), strict=False)

    def refuses(arguments: dict[str, object]) -> object:
        return {"canonical": {"error": {"code": "unknown_field", "details": {"path": ""}}}}

    regressed = run_cases(
        InProcess({**FUNCTIONS, "convert_many": refuses}, ContractError), reads, listed
    )
    assert [r.status for r in regressed] == ["fail"] * len(reads)
    assert not verdict(regressed, strict=False)


def test_judging_the_checks(cases: list[Case]) -> None:
    roundtrip = next(c for c in cases if c.check == "roundtrip")
    assert judge(roundtrip, Outcome(output={"wire": roundtrip.expected})) == (True, "")
    assert judge(roundtrip, Outcome(output={"wire": {}}))[1].startswith("not_exact")
    error = {"code": "unknown_field", "details": {"path": "/a", "message": "b"}}
    assert judge(roundtrip, Outcome(error=error)) == (False, "unknown_field at /a (b)")
    assert judge(roundtrip, Outcome(broken="crash"))[1] == "implementation error: crash"
    read = next(c for c in cases if c.check == "read" and c.function == "convert_many")
    assert judge(read, Outcome(output={"canonical": {"error": error}})) == (
        False,
        "unknown_field at /a (b)",
    )
    cross = next(c for c in cases if c.check == "cross" and c.input["kind"] == "request")
    same = {t: {"error": error} for t in cross.input["targets"]}
    assert judge(cross, Outcome(output=same))[1] == "every target: unknown_field at /a (b)"
    # An output the target's wire schema refuses is a failure even without an error.
    bad = {"gemini": {"output": {"contents": "no"}}, "ollama": {"error": error}}
    verdict_, detail = judge(cross, Outcome(output=bad))
    assert not verdict_
    assert detail.startswith("gemini: invalid_output: wrong_type at /contents")
    assert "ollama: unknown_field at /a (b)" in detail


def test_judging_streams(cases: list[Case]) -> None:
    read = next(c for c in cases if c.check == "read" and c.function == "translate_stream")
    event = {"type": "error", "error": {"code": "stream_truncated", "path": "/3", "message": "m"}}
    failed = {"canonical": {"text": json.dumps(event) + "\n", "failed": True}}
    assert judge(read, Outcome(output=failed)) == (False, "stream_truncated at /3 (m)")
    stream = next(c for c in cases if c.check == "stream")
    chunk = 'data: {"choices": "no"}\n\ndata: [DONE]\n\n'
    answer = {"openai-chat": {"text": chunk, "failed": False}}
    verdict_, detail = judge(stream, Outcome(output=answer))
    assert not verdict_ and detail.startswith("every target: invalid_output: chunk 0: ")
    gone = {"ollama": {"text": '{"error": "x"}\n', "failed": True}}
    assert judge(stream, Outcome(output=gone))[1].startswith("every target: failed, ending")


def test_a_provider_error_relayed_is_a_translation_that_did_its_job(cases: list[Case]) -> None:
    """A recorded stream that ends with the provider's own error (Groq's `tool_use_failed`)
    is read and translated when the error comes out as an error, in a chunk the target
    takes; a chunk the target refuses is still a problem."""
    read = next(c for c in cases if c.check == "read" and c.function == "translate_stream")
    event = {"type": "error", "error": {"code": "provider_error", "path": "/9", "message": "m"}}
    relayed = {"canonical": {"text": json.dumps(event) + "\n", "failed": True}}
    assert judge(read, Outcome(output=relayed)) == (True, "")
    stream = next(c for c in cases if c.check == "stream")
    error = {"code": "provider_error", "details": {"path": "/9", "message": "m"}}
    chunk = 'event: error\ndata: {"type": "error", "error": {"type": "overloaded_error", "message": "m"}}\n\n'
    answer = {"anthropic": {"text": chunk, "failed": True, "error": error}}
    assert judge(stream, Outcome(output=answer)) == (True, "")
    bad = 'event: error\ndata: {"type": "error", "error": 5}\n\n'
    answer = {"anthropic": {"text": bad, "failed": True, "error": error}}
    assert judge(stream, Outcome(output=answer))[1].startswith("every target: invalid_output")


def test_a_chunk_is_checked_by_jsonschema_rs_and_located_by_python_jsonschema() -> None:
    """Each target's chunk schema, a stream's own (Anthropic) or its response's (Gemini). The
    cached readers are cleared first: a test that ran before on this worker with coverage
    paused (the quick start's conformance run) leaves them built and unmeasured."""
    for cached in (real._chunk_checker, real._chunk_validator, real._chunk_schemas):
        cached.cache_clear()
    ping = 'event: ping\ndata: {"type": "ping"}\n\n'
    bad = 'event: message_delta\ndata: {"type": "message_delta", "delta": 5}\n\n'
    assert real._stream_problem({"failed": False, "text": ping}, "anthropic") == ""
    found = real._stream_problem({"failed": False, "text": ping + bad}, "anthropic")
    assert found == "invalid_output: chunk 1: oneOf at /delta"
    empty = 'data: {"candidates": []}\n\n'
    assert real._stream_problem({"failed": False, "text": empty}, "gemini") == ""
    found = real._stream_problem({"failed": False, "text": 'data: {"candidates": 3}\n\n'}, "gemini")
    assert found == "invalid_output: chunk 0: type at /candidates"


def test_a_vercel_chunk_file_of_an_sse_format_reads(cases: list[Case]) -> None:
    """A transcript kept one chunk per line is framed as the source streams before reading."""
    case = next(
        c
        for c in cases
        if c.check == "read" and c.input.get("framing") == "ndjson" and c.format == "anthropic"
    )
    output = FUNCTIONS["translate_stream"](case.input)
    assert output["canonical"]["failed"] is False
    assert '"message_complete"' in output["canonical"]["text"]


def test_bodies_load_as_the_functions_take_them() -> None:
    bodies = {b.ext: b for b in load_manifest()}
    assert isinstance(payload(bodies["json"]), dict | list)
    assert payload(bodies["txt"]).startswith(("<|im_start|>", "<tool_call>", "The "))
    assert isinstance(payload(bodies["sse"]), str)


def test_the_matrix_counts_listed_failures_and_corpus_bodies(cases: list[Case]) -> None:
    some = cases[:3]
    results = [Result(some[0], "xfail", "x"), Result(some[1], "pass"), Result(some[2], "pass")]
    table = matrix("impl", results)
    assert "| group | required | recommended | expected failures |" in table
    assert f"| {some[0].group} | 2/3 | 0/0 | 1 |" in table
    assert "Real-traffic corpus (`conformance/real/`): 1 bodies, 1 with at least one" in table
    assert "1 of them listed as not reading" in table


def test_the_failure_listing_tool(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    known = real_failures.meanings()
    assert real_failures.first_code("every target: unknown_field at /x", known) == "unknown_field"
    assert real_failures.first_code("nothing coded", known) == "unknown"
    case = Case(
        "real.a.request.b.read", "real", "real/a/request", "required", "d", "f", {}, check="read"
    )
    results = [Result(case, "fail", "missing_field at /done_reason"), Result(case, "pass")]
    lines = real_failures.section(results, known)
    assert lines[0] == real_failures.BEGIN and lines[-1] == real_failures.END
    assert lines[1].startswith("real.a.request.b.read  # missing_field (A required field")
    listing = tmp_path / "python.txt"
    listing.write_text("# head\nother.case  # why\n", encoding="utf-8")
    real_failures.rewrite(listing, lines)
    real_failures.rewrite(listing, lines)  # the section is replaced, not added twice
    text = listing.read_text(encoding="utf-8")
    assert text.count(real_failures.BEGIN) == 1 and "other.case  # why" in text
    assert load_expected_failures(listing) == ["other.case", "real.a.request.b.read"]
    summary = "\n".join(real_failures.summary(results, known))
    assert "2 bodies" in summary and "read: 1 pass, 1 fail" in summary
    assert "missing_field: 1" in summary


def test_every_real_check_passes_or_is_listed_and_the_listing_prints_per_body(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The corpus against the Python implementation, run once (about a minute): what fails is
    listed, what is listed fails; and the listing tool prints those results body by body."""
    results = real_failures.current()
    failing = {r.case.id: r.detail for r in results if r.status == "fail"}
    real_ids = {r.case.id for r in results}
    listed = {i for i in load_expected_failures(LISTED) if i in real_ids}
    assert {i: d for i, d in failing.items() if i not in listed} == {}
    assert sorted(listed - failing.keys()) == []  # listed, but it passes now
    monkeypatch.setattr(real_failures, "current", lambda: results)
    assert real_failures.main([]) == 0
    out, err = capsys.readouterr()
    # Each failing body once, its failing checks indented under it.
    assert re.search(r"^real\.[a-z-]+\.[a-z]+\.\S+\n  (read|roundtrip|cross|stream): ", out, re.M)
    assert "bodies" in err and "failures by code:" in err
