"""Round-trip patches: what they record, how they apply, and what they cost."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from interlingua.conversion import Context
from interlingua.conversion.adapters import fidelity
from interlingua.conversion.converter import convert

EXAMPLES = Path(__file__).resolve().parents[2] / "schemas" / "formats"


@pytest.mark.parametrize(
    ("produced", "original"),
    [
        ([1, 2], [1, 2, 3, 4]),  # the original is longer: its tail is added
        ([1, 2, 3, 4], [1, 9]),  # shorter: a change in the common part, the tail removed
        ([{"a": 1}], [{"a": 1, "b": 2}, {"c": 3}]),
        ({"l": [1, {"x": 1}]}, {"l": [1, {"x": 2}, 5], "k": None}),
        ([], [1]),
        ([1], []),
        ("a", ["a"]),
    ],
)
def test_a_patch_turns_what_was_produced_into_the_original(produced: Any, original: Any) -> None:
    before = copy.deepcopy(produced)
    ops = fidelity._patch(produced, original)
    assert fidelity._apply(produced, ops) == original
    assert produced == before  # applying never changes the document it is given


def test_a_longer_list_keeps_its_common_items_instead_of_being_replaced() -> None:
    ops = fidelity._patch([{"index": 0}], [{"index": 0, "x": 1}, {"index": 1}])
    assert ops == [
        {"op": "add", "path": "/0/x", "value": 1},
        {"op": "add", "path": "/1", "value": {"index": 1}},
    ]


def test_applying_many_operations_copies_each_list_once() -> None:
    items = [{"n": i} for i in range(50)]
    document = {"items": items}
    ops = [{"op": "add", "path": f"/items/{i}/m", "value": i} for i in range(50)]
    patched = fidelity._apply(document, ops)
    assert patched["items"] == [{"n": i, "m": i} for i in range(50)]
    assert document == {"items": [{"n": i} for i in range(50)]}  # the input is untouched
    assert patched["items"] is not items


def test_an_appended_item_and_a_removed_one() -> None:
    assert fidelity._apply([1, 2], [{"op": "add", "path": "/-", "value": 3}]) == [1, 2, 3]
    assert fidelity._apply({"a": [1, 2]}, [{"op": "remove", "path": "/a/0"}]) == {"a": [2]}


def _read_and_write(body: dict[str, Any], fmt: str) -> dict[str, Any]:
    canonical = convert(body, fmt, "canonical", kind="response")
    again = convert(canonical.output, "canonical", fmt, kind="response")
    assert again.losses == ()
    output: dict[str, Any] = again.output
    return output


def test_an_openai_response_with_two_choices_comes_back_whole() -> None:
    body = json.loads((EXAMPLES / "openai-chat/examples/response/text_stop.json").read_text())
    second = copy.deepcopy(body["choices"][0])
    second["index"] = 1
    second["message"]["content"] = "another answer"
    body["choices"].append(second)
    assert _read_and_write(body, "openai-chat") == body


def test_a_gemini_response_with_two_candidates_comes_back_whole() -> None:
    path = EXAMPLES / "gemini/examples/response/parallel_function_calls.json"
    body = json.loads(path.read_text())
    second = copy.deepcopy(body["candidates"][0])
    second["index"] = 1
    second["content"]["parts"] = [{"text": "another answer"}]
    body["candidates"].append(second)
    assert _read_and_write(body, "gemini") == body


def test_a_second_choice_is_reported_where_another_format_writes_the_response() -> None:
    body = json.loads((EXAMPLES / "openai-chat/examples/response/text_stop.json").read_text())
    body["choices"].append({**body["choices"][0], "index": 1})
    canonical = convert(body, "openai-chat", "canonical", kind="response").output
    out = convert(canonical, "canonical", "anthropic", kind="response")
    (dropped,) = [loss for loss in out.losses if loss.pointer == "/provider_raw/openai-chat"]
    assert dropped.code == "provider_raw_dropped" and "/choices/1," in dropped.reason


def test_merging_turns_copies_shared_lists_once_then_grows_them() -> None:
    from interlingua.conversion.adapters.turns import merge_turn

    shared = [1]
    into: dict[str, Any] = {"role": "user", "content": "a", "extra": shared}
    owned: set[int] = set()
    merge_turn(
        into, {"role": "user", "content": [{"type": "text", "text": "b"}]}, owned, "role", "content"
    )
    merge_turn(
        into, {"role": "user", "content": "c", "extra": [2], "more": [3]}, owned, "role", "content"
    )
    merge_turn(
        into, {"role": "user", "content": "", "extra": [4], "flag": True}, owned, "role", "content"
    )
    assert into == {
        "role": "user",
        "content": [
            {"type": "text", "text": "a"},
            {"type": "text", "text": "b"},
            {"type": "text", "text": "c"},
        ],
        "extra": [1, 2, 4],
        "more": [3],
        "flag": True,
    }
    assert shared == [1]  # the list the first turn shared is not the one that grew


def test_a_value_written_under_another_key_is_moved_not_copied() -> None:
    produced = {"role": "assistant", "reasoning_content": "long reasoning", "n": 1}
    original = {"role": "assistant", "reasoning": "long reasoning", "m": True}
    ops = fidelity._patch(produced, original)
    assert {"op": "move", "from": "/reasoning_content", "path": "/reasoning"} in ops
    assert "long reasoning" not in json.dumps(ops)  # the text is not kept twice
    # 1 and True are equal in Python but not in JSON: no move between them.
    assert {"op": "add", "path": "/m", "value": True} in ops
    assert fidelity._apply(produced, ops) == original
    assert produced["reasoning_content"] == "long reasoning"  # the input is left alone


def test_what_turns_given_back_as_read_reported_is_left_out_and_nothing_else() -> None:
    """`drop_restored` keeps a loss of another message (`/messages/10` is not under
    `/messages/1`), of the envelope, and about another format's round-trip data."""
    ctx = Context("openai-chat")
    for pointer, code in [
        ("/messages/1", "role_changed"),
        ("/messages/1/content/0/cache_hint", "field_dropped"),
        ("/messages/10/content/0/cache_hint", "field_dropped"),
        ("/messages/3", "field_dropped"),
        ("/tools/0/cache_hint", "field_dropped"),
        ("/messages/3/provider_raw/anthropic", "provider_raw_dropped"),
    ]:
        ctx.loss(pointer, code, "reason")
    fidelity.drop_restored(ctx, {"/messages/1", "/messages/3"})
    assert [(loss.pointer, loss.code) for loss in ctx.losses] == [
        ("/messages/10/content/0/cache_hint", "field_dropped"),
        ("/tools/0/cache_hint", "field_dropped"),
        ("/messages/3/provider_raw/anthropic", "provider_raw_dropped"),
    ]
