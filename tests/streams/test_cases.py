"""The stream cases: enough per streaming format, every event a valid canonical event, and the
guarantee they pin: a stream reassembles into exactly what the same provider's non-streamed
body reads as."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from interlingua.conversion.adapters.fidelity import without_raw
from interlingua.conversion.converter import convert
from interlingua.documents.validation import is_error, validate
from interlingua.generated.streams import STREAMS
from interlingua.streams.engine import reassemble
from tests.streams.helpers import ROOT


def _cases() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for path in sorted((ROOT / "conformance" / "cases").glob("*/*.json")):
        document = json.loads(path.read_text(encoding="utf-8"))
        out += [(document["format"], c) for c in document["cases"] if c["kind"] == "stream"]
    return out


CASES = _cases()
WITH_RESPONSE = [(fmt, c) for fmt, c in CASES if "response" in c]


@pytest.mark.parametrize("fmt", sorted(STREAMS))
def test_each_streaming_format_has_fifteen_cases_five_with_their_response(fmt: str) -> None:
    counts = Counter(f for f, _ in CASES)
    assert counts[fmt] >= 15
    assert sum(1 for f, _ in WITH_RESPONSE if f == fmt) >= 5


def test_every_stream_case_is_about_a_streaming_format() -> None:
    assert {fmt for fmt, _ in CASES} <= set(STREAMS)


@pytest.mark.parametrize(("fmt", "case"), CASES, ids=[c["id"] for _, c in CASES])
def test_expected_events_are_canonical_and_reassemble_into_the_expected_response(
    fmt: str, case: dict[str, Any]
) -> None:
    for event in case["events"]:
        assert [f for f in validate(event, "StreamEvent") if is_error(f)] == [], event
    endpoint = case.get("options", {}).get("source_endpoint")
    assert reassemble(case["events"], fmt, endpoint) == case["canonical"]
    if case["canonical"]["message"]["content"]:
        # (A response with no content at all breaks the empty_content rule, streamed or not.)
        assert [f for f in validate(case["canonical"], "Response") if is_error(f)] == []


@pytest.mark.parametrize(("fmt", "case"), WITH_RESPONSE, ids=[c["id"] for _, c in WITH_RESPONSE])
def test_the_stream_reassembles_into_what_the_plain_response_reads_as(
    fmt: str, case: dict[str, Any]
) -> None:
    read = convert(case["response"], fmt, "canonical", "response", **case.get("options", {}))
    assert without_raw(read.output) == case["canonical"]
