"""The free-form transforms: a choice or a result is of the free-form variant only when the tool
or call it names was written as free-form before it; otherwise a mismatch, and the function's
variant is written. Reading, each is the name or id it wraps."""

from __future__ import annotations

import pytest

from interlingua.conversion import Context
from interlingua.conversion.transforms import TRANSFORMS, Mismatch


def test_a_choice_is_free_form_only_for_a_free_form_tool_written_before() -> None:
    ctx = Context("openai-chat")
    with pytest.raises(Mismatch):
        TRANSFORMS["free_form_choice"].encode(ctx, "/tool_choice/name", "shell")
    assert TRANSFORMS["free_form_tool"].encode(ctx, "/tools/0/name", "shell") == "shell"
    assert TRANSFORMS["free_form_choice"].encode(ctx, "/tool_choice/name", "shell") == "shell"
    with pytest.raises(Mismatch):
        TRANSFORMS["free_form_choice"].encode(ctx, "/tool_choice/name", "now")


def test_a_result_is_free_form_only_for_a_free_form_call_written_before() -> None:
    ctx = Context("openai-responses")
    with pytest.raises(Mismatch):
        TRANSFORMS["free_form_answer"].encode(ctx, "/messages/2/content/0", "call_1")
    TRANSFORMS["free_form_call"].encode(ctx, "/messages/1/content/0/id", "call_1")
    assert TRANSFORMS["free_form_answer"].encode(ctx, "/messages/2/content/0", "call_1") == "call_1"
    # re-encoding during a read (a scratch context) knows the calls written before
    assert ctx.scratch().free_form_calls == {"call_1"}


def test_names_and_ids_are_rewritten_as_the_format_asks() -> None:
    ctx = Context("openai-responses", id_rule=("A-Za-z0-9_", "A-Za-z", 8))
    sent = TRANSFORMS["free_form_call"].encode(ctx, "/id", "call.with.dots.1")
    assert sent != "call.with.dots.1" and ctx.id_map[sent] == "call.with.dots.1"
    assert TRANSFORMS["free_form_answer"].encode(ctx, "/tool_call_id", "call.with.dots.1") == sent
    ctx.losses.clear()
    assert TRANSFORMS["free_form_answer"].decode(ctx, "call_1", "/call_id") == "call_1"
    assert TRANSFORMS["free_form_choice"].decode(ctx, "shell", "/name") == "shell"
