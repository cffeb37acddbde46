"""A conversation a provider holds (`@continuation`): the id goes back only to its format."""

from __future__ import annotations

from interlingua.conversion import Context
from interlingua.conversion.transforms import ABSENT, TRANSFORMS

CONTINUATION = TRANSFORMS["continuation"]


def test_the_id_reads_as_a_continuation_of_the_format_it_came_from() -> None:
    ctx = Context("openai-responses")
    held = CONTINUATION.decode(ctx, "resp_1", "/previous_response_id")
    assert held == {"format": "openai-responses", "id": "resp_1"}
    assert CONTINUATION.encode(ctx, "/continues", held) == "resp_1"
    assert ctx.losses == []


def test_another_formats_conversation_is_left_out_and_reported() -> None:
    ctx = Context("openai-responses")
    held = {"format": "some-other-api", "id": "conv_9"}
    assert CONTINUATION.encode(ctx, "/continues", held) is ABSENT
    ((loss),) = ctx.losses
    assert (loss.pointer, loss.code) == ("/continues", "parameter_dropped")
    assert "some-other-api" in loss.reason


def test_no_continuation_writes_nothing() -> None:
    ctx = Context("openai-responses")
    assert CONTINUATION.encode(ctx, "/continues", ABSENT) is ABSENT
    assert ctx.losses == []
