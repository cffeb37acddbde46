"""Each semantic invariant declared in the schemas (x-invariants), from both sides."""

from typing import Any

import pytest

import interlingua

ULID_A = "01HZ0010000000000000000000"
ULID_B = "01HZ0020000000000000000000"


def text(value: str = "hi") -> dict[str, Any]:
    return {"type": "text", "text": value}


def call(call_id: str, name: str = "read_file") -> dict[str, Any]:
    return {"type": "tool_call", "id": call_id, "name": name, "arguments": {"path": "README.md"}}


def result(call_id: str) -> dict[str, Any]:
    return {"type": "tool_result", "tool_call_id": call_id, "content": [text("ok")]}


def conversation(*messages: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"schema_version": 1, "messages": list(messages), **extra}


def codes(document: Any) -> list[tuple[str, str]]:
    return [(f.code, f.path) for f in interlingua.validate(document)]


def test_empty_content_is_allowed_only_for_system() -> None:
    assert codes({"role": "system", "content": []}) == []
    assert codes({"role": "user", "content": []}) == [("empty_content", "/content")]


@pytest.mark.parametrize(
    "stop",
    ["end", "stop_sequence", "max_tokens", "content_filter", "refusal", "error", "other"],
)
def test_a_response_may_have_an_empty_message(stop: str) -> None:
    """An answer of nothing (Anthropic's empty `end_turn` after tool results, a stop sequence
    met at once), refused, filtered, cut at its token limit or failed: no content."""
    empty = {"role": "assistant", "content": []}
    response = {"schema_version": 1, "model": "m", "message": empty, "stop_reason": stop}
    assert codes(response) == []
    # The waiver is the Response's: the message alone, or a Response that says its message
    # holds something (a call, a final answer, a paused tool loop), or one whose message is
    # malformed otherwise, are still held to the rule.
    assert codes(empty) == [("empty_content", "/content")]
    for finished in ("call", "return", "pause"):
        assert codes({**response, "stop_reason": finished}) == [
            ("empty_content", "/message/content")
        ]
    assert codes({**response, "message": {"role": "assistant", "content": [], "id": 3}}) == [
        ("wrong_type", "/message/id")
    ]


@pytest.mark.parametrize("stop", [[1], ["end"], {"a": 1}])
def test_a_stop_reason_that_cannot_be_hashed_is_a_coded_finding(stop: Any) -> None:
    """Regression (found by the fuzzer): the waiver's membership test hashed the stop reason,
    so a list or an object raised TypeError from validate, detect and load."""
    message = {"role": "assistant", "content": [{"type": "text", "text": "x"}]}
    response = {"schema_version": 1, "model": "m", "message": message, "stop_reason": stop}
    assert codes(response) == [("wrong_type", "/stop_reason")]
    assert interlingua.detect(response) is not None  # a verdict, not a TypeError
    with pytest.raises(interlingua.DocumentError):
        interlingua.load(response)


def test_tool_results_answer_earlier_calls_once() -> None:
    good = conversation(
        {"role": "assistant", "content": [call("a"), call("b")]},
        {"role": "tool", "content": [result("b"), result("a")]},
    )
    assert codes(good) == []
    orphan = conversation({"role": "tool", "content": [result("zz")]})
    assert codes(orphan) == [("orphan_result", "/messages/0/content/0/tool_call_id")]
    before_call = conversation(
        {"role": "tool", "content": [result("a")]}, {"role": "assistant", "content": [call("a")]}
    )
    assert codes(before_call) == [("orphan_result", "/messages/0/content/0/tool_call_id")]
    twice = conversation(
        {"role": "assistant", "content": [call("a")]},
        {"role": "tool", "content": [result("a")]},
        {"role": "tool", "content": [result("a")]},
    )
    assert codes(twice) == [("duplicate_result", "/messages/2/content/0/tool_call_id")]


def test_prompt_results_answer_prompt_requests() -> None:
    request = {
        "type": "prompt_request",
        "prompt_request_id": "p1",
        "name": "review",
        "arguments": {},
    }
    answer = {"type": "prompt_result", "prompt_request_id": "p1", "name": "review", "messages": []}
    assert (
        codes(
            conversation(
                {"role": "user", "content": [request]}, {"role": "tool", "content": [answer]}
            )
        )
        == []
    )
    assert codes(conversation({"role": "tool", "content": [answer]})) == [
        ("orphan_result", "/messages/0/content/0/prompt_request_id")
    ]


def test_ids_are_unique_within_a_conversation() -> None:
    doc = conversation(
        {"role": "user", "content": [text()], "id": ULID_A},
        {"role": "assistant", "content": [call("a"), call("a")], "id": ULID_A},
        {"role": "tool", "content": [result("a")]},
    )
    assert codes(doc) == [
        ("duplicate_id", "/messages/1/id"),
        ("duplicate_id", "/messages/1/content/1/id"),
    ]
    tools = [{"name": "t", "input_schema": {"type": "object"}}] * 2
    assert codes(conversation({"role": "user", "content": [text()]}, tools=tools)) == [
        ("duplicate_id", "/tools/1/name")
    ]


def assistant(status: str, **extensions: Any) -> dict[str, Any]:
    return {
        "role": "assistant",
        "content": [text()],
        "extensions": {"completion": {"status": status}, **extensions},
    }


def test_complete_assistant_messages_carry_model_provider_usage_and_routing() -> None:
    assert codes(assistant("partial")) == []  # partial messages may break invariants
    missing = interlingua.validate(assistant("complete"))
    assert [(f.code, f.severity) for f in missing] == [
        ("assistant_missing_metadata", "error"),
        ("assistant_missing_metadata", "error"),
        ("assistant_missing_metadata", "error"),
        ("assistant_missing_routing", "warning"),
    ]
    complete = {
        "role": "assistant",
        "content": [text()],
        "extensions": {
            "completion": {
                "status": "complete",
                "model": "anthropic:claude-sonnet-4-6",
                "usage": {"input_tokens": 8, "output_tokens": 42},
            },
            "llm": {"provider": "anthropic"},
            "routing": {
                "mode": "default",
                "chosen_model": "anthropic:claude-sonnet-4-6",
                "reason": "default",
            },
        },
    }
    assert codes(complete) == []


def tool(schema: dict[str, Any]) -> dict[str, Any]:
    return conversation(
        {"role": "user", "content": [text()]}, tools=[{"name": "t", "input_schema": schema}]
    )


@pytest.mark.parametrize(
    ("schema", "pointer"),
    [
        (
            {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}},
            "/tools/0/input_schema/properties/a/$ref",
        ),
        ({"oneOf": [{"type": "string"}]}, "/tools/0/input_schema/oneOf"),
        (
            {"type": "object", "additionalProperties": {"type": "string"}},
            "/tools/0/input_schema/additionalProperties",
        ),
        ({"type": "array", "items": {"anyOf": []}}, "/tools/0/input_schema/items/anyOf"),
        ({"type": "object", "patternProperties": {}}, "/tools/0/input_schema/patternProperties"),
        ({"if": {}, "then": {}}, "/tools/0/input_schema/if"),
    ],
)
def test_tool_input_schemas_stay_portable(schema: dict[str, Any], pointer: str) -> None:
    assert ("non_portable_tool_schema", pointer) in codes(tool(schema))


def test_portable_schema_allows_keyword_named_properties() -> None:
    schema = {
        "type": "object",
        "properties": {"not": {"type": "string"}, "if": {"type": "boolean"}},
        "required": ["not"],
        "additionalProperties": False,
    }
    assert codes(tool(schema)) == []


OPTIONAL_TITLE = {  # what pydantic writes for `title: str | None = None`, with a nested model
    "type": "object",
    "properties": {
        "title": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None},
        "author": {"$ref": "#/$defs/Author"},
    },
    "$defs": {"Author": {"type": "object", "properties": {"name": {"type": "string"}}}},
}


@pytest.mark.parametrize(
    "target", ["openai-chat", "openai-responses", "anthropic", "gemini", "bedrock", "ollama"]
)
def test_a_non_portable_schema_is_reported_by_validate_and_carried_by_conversion(
    target: str,
) -> None:
    """Portability is a rule of registering a tool (`validate`), not of carrying one: a
    canonical document read from a provider that took the schema converts onwards."""
    document = tool(OPTIONAL_TITLE)
    assert ("non_portable_tool_schema", "/tools/0/input_schema/$defs") in codes(document)
    result = interlingua.convert(document, "canonical", target, "request")
    assert OPTIONAL_TITLE in _schemas_in(result.output)
    assert not [loss for loss in result.losses if "/tools" in loss.pointer]


def _schemas_in(value: Any) -> list[Any]:
    """Every value anywhere in ``value`` (the written tool schemas among them)."""
    if isinstance(value, dict):
        return [value, *(v for item in value.values() for v in _schemas_in(item))]
    if isinstance(value, list):
        return [v for item in value for v in _schemas_in(item)]
    return [value]


def test_a_body_with_a_non_portable_schema_comes_back_through_canonical() -> None:
    body = {
        "model": "gpt-4o",
        "messages": [{"role": "user", "content": "hi"}],
        "tools": [{"type": "function", "function": {"name": "t", "parameters": OPTIONAL_TITLE}}],
    }
    canonical = interlingua.convert(body, "openai-chat", "canonical", "request").output
    assert interlingua.convert(canonical, "canonical", "openai-chat", "request").output == body


def test_response_is_consistent_with_its_message() -> None:
    message = {
        "role": "assistant",
        "content": [text()],
        "extensions": {"completion": {"stop_reason": "max_tokens"}, "llm": {"model_id": "gpt-4o"}},
    }
    response = {"schema_version": 1, "model": "gpt-4o", "message": message, "stop_reason": "end"}
    assert codes(response) == [
        ("inconsistent_metadata", "/message/extensions/completion/stop_reason")
    ]
    user = {
        "schema_version": 1,
        "model": "gpt-4o",
        "message": {"role": "user", "content": [text()]},
        "stop_reason": "end",
    }
    assert codes(user) == [("wrong_role", "/message/role")]


def test_identity_stated_twice_must_agree() -> None:
    msg = {
        "role": "user",
        "content": [text()],
        "id": ULID_A,
        "extensions": {"provenance": {"message_id": ULID_B}},
    }
    assert codes(msg) == [("inconsistent_metadata", "/extensions/provenance/message_id")]
    msg["extensions"] = {"provenance": {"message_id": ULID_A}}
    assert codes(msg) == []


def test_invariants_wait_for_a_structurally_valid_object() -> None:
    # A broken part inside must not make the conversation-level rules crash or misfire.
    doc = conversation(
        {"role": "tool", "content": [{"type": "tool_result", "tool_call_id": 7, "content": []}]}
    )
    assert codes(doc) == [("wrong_type", "/messages/0/content/0/tool_call_id")]


def test_partial_messages_may_be_empty_while_streaming() -> None:
    streaming = {
        "role": "assistant",
        "content": [],
        "extensions": {"completion": {"status": "partial"}},
    }
    assert codes(streaming) == []
    streaming["extensions"] = {"completion": {"status": "cancelled"}}
    assert codes(streaming) == [("empty_content", "/content")]


def test_dollar_anchors_only_at_the_very_end() -> None:
    # JSON Schema's `$` is the end of the string; Python's also matches before a final newline.
    assert codes({"role": "user", "content": [text()], "id": ULID_A + "\n"}) == [
        ("pattern_mismatch", "/id")
    ]
    assert codes({"role": "user", "content": [text()], "id": ULID_A}) == []


def test_a_conversation_held_elsewhere_may_answer_calls_it_does_not_hold() -> None:
    """A Responses request going on from a stored response (`continues`) sends the results of
    calls only the stored turns hold: not orphans. A result answered twice still is refused,
    and without `continues` the same document breaks the rule."""
    held = {"format": "openai-responses", "id": "resp_1"}
    going_on = conversation({"role": "tool", "content": [result("zz")]}, continues=held)
    assert codes(going_on) == []
    assert interlingua.detect_document(going_on) is not None
    interlingua.load(going_on)  # the fast path agrees
    twice = conversation(
        {"role": "tool", "content": [result("zz")]},
        {"role": "tool", "content": [result("zz")]},
        continues=held,
    )
    assert codes(twice) == [("duplicate_result", "/messages/1/content/0/tool_call_id")]
    assert codes(conversation({"role": "tool", "content": [result("zz")]})) == [
        ("orphan_result", "/messages/0/content/0/tool_call_id")
    ]
    assert codes(conversation(text_message(), continues={"format": "x"})) == [
        ("missing_field", "/continues/id")
    ]


def text_message() -> dict[str, Any]:
    return {"role": "user", "content": [text()]}
