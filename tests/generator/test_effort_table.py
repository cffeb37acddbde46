"""The reasoning-effort table of the formats page says what each writer does: for every format
with a request writer and every rung of the canonical ladder, the word the table gives is the
word the converter writes, and `—` is a rung left out with a `parameter_dropped` loss."""

from __future__ import annotations

import pytest

from generator.effort_table import effort_rows
from interlingua.conversion.converter import convert
from tests.generator.mappings import data_by_format
from tests.generator.test_only_lists import CANONICAL

LADDER: list[str] = CANONICAL["properties"]["reasoning_effort"]["enum"]
MAPPINGS = data_by_format()
ROWS = effort_rows(MAPPINGS, LADDER)


def _words(output: object) -> list[str]:
    """Every string of a body (the effort's word among them)."""
    if isinstance(output, dict):
        return [w for value in output.values() for w in _words(value)]
    if isinstance(output, list):
        return [w for value in output for w in _words(value)]
    return [output] if isinstance(output, str) else []


@pytest.mark.parametrize("fmt", sorted(ROWS))
def test_each_row_is_what_the_writer_sends(fmt: str) -> None:
    for rung, word in zip(LADDER, ROWS[fmt], strict=True):
        document = {
            "schema_version": 1,
            "model": "m",
            "messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}]}],
            "parameters": {"reasoning_effort": rung},
        }
        result = convert(document, "canonical", fmt, "request")
        dropped = [
            loss
            for loss in result.losses
            if loss.code == "parameter_dropped"
            and loss.pointer in ("/parameters/reasoning_effort", "/parameters")
        ]
        if word is None:
            assert len(dropped) == 1, (fmt, rung)
        else:
            assert dropped == [], (fmt, rung)
            assert word in _words(result.output), (fmt, rung)


def test_the_table_has_a_row_for_every_request_writer_and_the_ladders_top_where_taken() -> None:
    assert {"anthropic", "openai-chat", "openai-responses", "gemini", "ollama"} <= ROWS.keys()
    assert ROWS["openai-chat"] == LADDER
    assert ROWS["anthropic"][-1] == "max"
    assert ROWS["gemini"][:2] == [None, "MINIMAL"]
