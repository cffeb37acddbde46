"""Hosted tool parts in streams: carried whole to the format that ran them (bound by the
mapping's variants, not by the reasoning rule, so their origin stays on them to be encoded),
reported as dropped elsewhere."""

from __future__ import annotations

import pytest

from conformance.cases import Case
from interlingua.streams.engine import StreamTranslator
from tests.streams.helpers import STREAM_CASES, framed

# each stream case holding a hosted call, and how its block reads on the wire
HOSTED = {
    "anthropic.stream.server_tool_block": '"type":"server_tool_use"',
    "openai-responses.stream.hosted_tool_item": '"type":"web_search_call"',
    "gemini.stream.code_execution_part": '"executableCode"',
}
CASES = [c for c in STREAM_CASES if c.id in HOSTED]


def _translate(case: Case, target: str) -> tuple[str, list[tuple[str, str | None]]]:
    source = case.input["format"]
    translator = StreamTranslator(source, target)
    text = "".join(translator.feed(line) for line in framed(source, case.input["chunks"]))
    text += translator.close()
    return text, [(loss.code, loss.part_type) for loss in translator.losses]


def test_every_hosted_stream_case_is_here() -> None:
    assert sorted(c.id for c in CASES) == sorted(HOSTED)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_a_hosted_block_streams_back_to_its_own_format(case: Case) -> None:
    text, losses = _translate(case, case.input["format"])
    assert HOSTED[case.id] in text
    assert [code for code, part in losses if part == "hosted_tool_call"] == []


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_elsewhere_it_is_reported_as_dropped(case: Case) -> None:
    text, losses = _translate(case, "openai-chat")
    assert ("part_dropped", "hosted_tool_call") in losses
    assert HOSTED[case.id] not in text
