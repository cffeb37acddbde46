"""Results paired with calls by the tool's name (`layout.result_pairing: name`): ids
synthesized and matched on reading, left out on writing only when reading made them up."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from interlingua.conversion import Context, ConversionError
from interlingua.conversion.adapters.pairing import Reading, Writing, response_seed, synthesized
from interlingua.conversion.converter import convert


def call(name: str, **extra: Any) -> dict[str, Any]:
    return {"type": "tool_call", "name": name, "arguments": {}, **extra}


def result(name: str, **extra: Any) -> dict[str, Any]:
    return {"type": "tool_result", "name": name, "content": [], **extra}


@pytest.fixture
def ctx() -> Context:
    return Context("fmt")


def test_response_seed() -> None:
    assert (
        response_seed("aX1kaPa8Lb2Wz7IPqK6H2Ak")
        == (hashlib.sha256(b"aX1kaPa8Lb2Wz7IPqK6H2Ak").hexdigest()[:8])
    )
    assert response_seed(None) == response_seed("") == "r"


def test_synthesized_ids_are_told_apart() -> None:
    for made in ("fmt_call_3_0", "fmt_call_457ca6a2_1", "fmt_call_r_12"):
        assert synthesized("fmt", made)
    for given in ("fc_91ad", "call_0", "fmt_call_x_1", "other_call_3_0", "fmt_call_3_0_", 7):
        assert not synthesized("fmt", given)


def test_calls_without_ids_get_ids_from_their_place(ctx: Context) -> None:
    reading = Reading("fmt")
    parts = [{"type": "text", "text": "x"}, call("a"), call("b", id="given"), call("a")]
    reading.complete(ctx, parts, "3", [])
    assert [p.get("id") for p in parts] == [None, "fmt_call_3_0", "given", "fmt_call_3_2"]
    assert reading.open == [("fmt_call_3_0", "a"), ("given", "b"), ("fmt_call_3_2", "a")]
    assert ctx.call_names == {"fmt_call_3_0": "a", "given": "b", "fmt_call_3_2": "a"}


def test_a_call_without_arguments_has_none(ctx: Context) -> None:
    parts: list[dict[str, Any]] = [{"type": "tool_call", "name": "now"}]
    Reading("fmt").complete(ctx, parts, "0", [])
    assert parts[0]["arguments"] == {}


def test_results_answer_the_earliest_open_call_of_their_name(ctx: Context) -> None:
    reading = Reading("fmt")
    reading.complete(ctx, [call("a"), call("b"), call("a")], "1", [])
    results = [result("a"), result("a"), result("b")]
    reading.complete(ctx, results, "2", [])
    assert [r["tool_call_id"] for r in results] == ["fmt_call_1_0", "fmt_call_1_2", "fmt_call_1_1"]
    assert all("name" not in r for r in results)  # the calls say it
    assert reading.open == []


def test_a_result_with_a_known_id_answers_that_call(ctx: Context) -> None:
    reading = Reading("fmt")
    reading.complete(ctx, [call("a", id="c1"), call("a", id="c2")], "1", [])
    results = [result("a", tool_call_id="c2"), result("a")]
    reading.complete(ctx, results, "2", [])
    assert [r["tool_call_id"] for r in results] == ["c2", "c1"]


def test_a_name_other_than_the_calls_is_kept(ctx: Context) -> None:
    reading = Reading("fmt")
    reading.complete(ctx, [call("a", id="c1")], "1", [])
    answer = [result("b", tool_call_id="c1")]
    reading.complete(ctx, answer, "2", [])
    assert answer == [result("b", tool_call_id="c1")]


def test_an_unknown_id_falls_back_to_the_name(ctx: Context) -> None:
    reading = Reading("fmt")
    reading.complete(ctx, [call("a")], "1", [])
    results = [result("a", tool_call_id="client-side-7")]
    reading.complete(ctx, results, "2", [])  # the wire's id is round-trip data
    assert results[0]["tool_call_id"] == "fmt_call_1_0"


def test_a_nameless_result_answers_the_earliest_open_call(ctx: Context) -> None:
    reading = Reading("fmt")
    reading.complete(ctx, [call("a"), call("b")], "1", [])
    nameless: list[dict[str, Any]] = [
        {"type": "tool_result", "content": []},
        {"type": "tool_result", "content": []},
    ]
    reading.complete(ctx, nameless, "2", [])
    assert [r["tool_call_id"] for r in nameless] == ["fmt_call_1_0", "fmt_call_1_1"]
    with pytest.raises(ConversionError) as err:
        reading.complete(ctx, [{"type": "tool_result", "content": []}], "3", ["/m/3"])
    assert (err.value.code, err.value.pointer) == ("orphan_result", "/m/3")


def test_a_result_without_its_call_is_an_orphan(ctx: Context) -> None:
    reading = Reading("fmt")
    reading.complete(ctx, [call("a")], "1", [])
    with pytest.raises(ConversionError) as err:
        reading.complete(ctx, [result("a"), result("a")], "2", ["/c/2/p/0", "/c/2/p/1"])
    assert (err.value.code, err.value.pointer) == ("orphan_result", "/c/2/p/1")


def test_writing_leaves_out_only_synthesized_ids_and_names_results(ctx: Context) -> None:
    writing = Writing("fmt")
    calls = writing.parts(ctx, [call("a", id="fmt_call_1_0"), call("b", id="call_x")], "/m/1")
    assert calls == [call("a"), call("b", id="call_x")]
    answers = [
        {"type": "tool_result", "tool_call_id": "fmt_call_1_0", "content": []},
        {"type": "tool_result", "tool_call_id": "call_x", "content": []},
    ]
    assert writing.parts(ctx, answers, "/m/2/content") == [
        {"type": "tool_result", "content": [], "name": "a"},
        {"type": "tool_result", "tool_call_id": "call_x", "content": [], "name": "b"},
    ]
    assert ctx.losses == []


def test_writing_finds_names_of_calls_read_before(ctx: Context) -> None:
    ctx.call_names["g1"] = "lookup"  # a call of an earlier turn, read from the wire
    answer = {"type": "tool_result", "tool_call_id": "g1", "content": []}
    assert Writing("fmt").parts(ctx, [answer], "/m") == [{**answer, "name": "lookup"}]


def test_writing_a_result_whose_call_is_unknown_and_unnamed_fails(ctx: Context) -> None:
    orphan = {"type": "tool_result", "tool_call_id": "nope", "content": []}
    with pytest.raises(ConversionError) as err:
        Writing("fmt").parts(ctx, [orphan], "/messages/4/content")
    assert (err.value.code, err.value.pointer) == (
        "orphan_result",
        "/messages/4/content/0/tool_call_id",
    )


def test_cmfs_flat_call_of_its_specification_reads_with_a_made_up_id() -> None:
    """The CMF specification's examples write a call flat and without its id (the models wrap
    it under `content`): read as a call with the id reading gives a call without one, its
    result paired by name as in any format whose ids may be missing; written wrapped."""
    messages = [
        {"role": "user", "content": [{"content_type": "text", "text": "Admins?"}]},
        {
            "role": "assistant",
            "content": [{"content_type": "tool_call", "name": "sql", "arguments": {"q": "x"}}],
        },
    ]
    document = convert(messages, "cmf", "canonical", kind="messages").output
    call = document[1]["content"][0]
    assert (call["id"], call["name"], call["arguments"]) == ("cmf_call_1_0", "sql", {"q": "x"})
    assert convert(messages, "cmf", "cmf", kind="messages").output == messages
    written = convert(messages, "cmf", "openai-chat", kind="messages").output
    assert written[1]["tool_calls"][0]["id"] == "cmf_call_1_0"
