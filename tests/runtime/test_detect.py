"""`interlingua.conversion.detector`: every example is recognised as its own format, garbage as nothing,
and ties are broken (or reported) by the evidence rules, tested on synthetic formats."""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

# `interlingua.conversion.detector` is the function (the package exports it), so a dotted path such as
# "interlingua.conversion.detector._valid" would resolve through it: patch the module object instead.
from interlingua import ConversionError, convert, detect
from interlingua.conversion.converter import (
    KINDS,
    check_canonical,
    check_wire,
    formats,
    kinds,
    text_format,
    to_text,
)
from interlingua.conversion.detection import Candidate, Detection
from interlingua.conversion.detector import _build, _schema, _valid, readings
from interlingua.generated.adapters import ADAPTERS
from interlingua.generated.codes import DESCRIPTION

MODULE = importlib.import_module("interlingua.conversion.detector")
ROOT = Path(__file__).resolve().parents[2] / "schemas"


def _examples(pattern: str) -> list[Path]:
    return sorted(ROOT.glob(pattern))


WIRE_EXAMPLES = _examples("formats/*/examples/*/*.json")
INVALID_EXAMPLES = _examples("formats/*/invalid/*.json")
CANONICAL_EXAMPLES = [
    *((path, "request") for path in _examples("examples/Conversation/*.json")),
    *((path, "response") for path in _examples("examples/Response/*.json")),
]


def _id(path: Path) -> str:
    return "/".join(path.parts[-4:])


def load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def test_there_are_examples_to_test() -> None:
    formats_with_examples = {path.parts[-4] for path in WIRE_EXAMPLES}
    assert set(ADAPTERS) <= formats_with_examples  # every registered format brings examples
    assert len(CANONICAL_EXAMPLES) >= 10


# --- the examples ------------------------------------------------------------------------------


@pytest.mark.parametrize("path", WIRE_EXAMPLES, ids=_id)
def test_every_wire_example_is_detected_as_its_own_format_and_kind(path: Path) -> None:
    fmt, kind = path.parts[-4], path.parts[-2]
    # A text format's example is its JSON shape: detection is given the text.
    found = detect(to_text(load(path), fmt, kind) if fmt in ADAPTERS else load(path))
    if fmt not in ADAPTERS:
        # A format whose adapter has not landed yet: it must not pass for another format.
        assert found.status == "unknown", found.reason
        return
    if text_format(fmt) and kind == "response":
        # One assistant turn of text is a response, and also a request (or stored turns)
        # holding only that turn: the two readings are named, and nothing else.
        assert found.status == "ambiguous", found.reason
        assert {(c.format, c.kind) for c in found.candidates} == {(fmt, "request"), (fmt, kind)}
        return
    if found.status == "ambiguous":
        # Turns alone, with nothing particular to one format (a UMF conversation is a list of
        # chat messages any format's stored messages take): ambiguous, and it is a candidate.
        assert (fmt, kind) in {(c.format, c.kind) for c in found.candidates}, found.reason
        assert {c.kind for c in found.candidates} <= {kind, "messages"}, found.reason
        return
    assert (found.status, found.format, found.kind) == ("detected", fmt, kind), found.reason
    assert found.reason.startswith(f"valid {fmt} {kind}: ")
    assert found.candidates[0].evidence, "a detection names its evidence"
    assert found.line() == f"{fmt} {kind}: {found.summary}"


@pytest.mark.parametrize(("path", "kind"), CANONICAL_EXAMPLES, ids=lambda v: str(v)[-40:])
def test_canonical_documents_are_detected(path: Path, kind: str) -> None:
    found = detect(load(path))
    assert (found.status, found.format, found.kind) == ("detected", "canonical", kind), found.reason


@pytest.mark.parametrize("path", INVALID_EXAMPLES, ids=_id)
def test_an_invalid_example_is_never_its_own_format(path: Path) -> None:
    fmt, kind = path.parts[-3], path.stem.split("-")[0]
    found = detect(load(path))
    claimed = {(c.format, c.kind) for c in found.candidates}
    assert (fmt, kind) not in claimed
    assert (found.format, found.kind) != (fmt, kind)


def test_canonical_wins_over_an_open_wire_schema_by_schema_version() -> None:
    body = {
        "schema_version": 1,
        "model": "m",
        "messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}]}],
    }
    check_wire(body, "openai-chat", "request")  # valid openai-chat too: a real tie to break
    found = detect(body)
    assert (found.format, found.kind) == ("canonical", "request")
    assert found.reason == (
        "valid canonical request: schema_version 1 (openai-chat request validates too, without it)"
    )


def test_a_top_level_system_prompt_tells_anthropic_from_openai() -> None:
    body = {
        "model": "m",
        "max_tokens": 9,
        "system": "Be brief.",
        "messages": [{"role": "user", "content": "hi"}],
    }
    found = detect(body)
    assert (found.format, found.kind) == ("anthropic", "request")
    assert found.candidates == (Candidate("anthropic", "request", ("top-level `system`",)),)
    assert "openai-chat request validates too" in found.reason


def test_the_reason_names_the_distinguishing_features() -> None:
    body = {
        "model": "claude",
        "max_tokens": 100,
        "system": "Be brief.",
        "messages": [
            {"role": "user", "content": "hi"},
            {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": "t1", "name": "f", "input": {}}],
            },
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1"}]},
        ],
    }
    found = detect(body)
    # `tool_use` blocks are UMF's and MCP's too, so they do not tell Anthropic apart.
    assert found.reason == (
        'valid anthropic request: messages[].content[].type "tool_result", top-level `system`'
    )


def test_a_body_both_providers_accept_alike_is_ambiguous() -> None:
    body = {"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}]}
    found = detect(body)
    assert found.status == "ambiguous"
    assert (found.format, found.kind) == (None, None)
    assert {(c.format, c.kind) for c in found.candidates} == {
        ("anthropic", "request"),
        ("openai-chat", "request"),
    }
    assert "nothing in it is particular to one of them" in found.reason
    assert found.line().startswith("ambiguous: anthropic request, openai-chat request: ")


def test_a_body_with_something_of_each_is_ambiguous_and_says_what() -> None:
    body = {
        "model": "m",
        "max_tokens": 5,
        "system": "s",
        "n": 2,
        "messages": [{"role": "user", "content": "hi"}],
    }
    found = detect(body)
    assert found.status == "ambiguous"
    assert "anthropic request: top-level `system`" in found.reason
    assert "openai-chat request: top-level `n`" in found.reason


def test_kind_and_among_narrow_the_search() -> None:
    response = load(ROOT / "formats/anthropic/examples/response/parallel_tool_use.json")
    assert detect(response).kind == "response"
    assert detect(response, kind="request").status == "unknown"
    assert detect(response, among=["openai-chat"]).status == "unknown"
    found = detect(response, kind="response", among=["anthropic"])
    assert (found.format, found.kind) == ("anthropic", "response")
    assert {(r.format, r.kind) for r in detect(response, kind="request").rejections} == {
        (fmt, "request") for fmt in formats()
    }


def test_unknown_format_or_kind_is_a_coded_error() -> None:
    with pytest.raises(ConversionError) as caught:
        detect({}, among=["nope"])
    assert caught.value.code == "unknown_format"
    with pytest.raises(ConversionError) as caught:
        detect({}, kind="reply")
    assert caught.value.code == "unknown_document"


# --- garbage -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "payload",
    [
        None,
        3,
        "hello",
        [],
        {},
        {"hello": "world"},
        {"model": "m"},
    ],
    ids=repr,
)
def test_garbage_is_unknown_with_each_schemas_first_error(payload: Any) -> None:
    found = detect(payload)
    assert found.status == "unknown"
    assert (found.format, found.kind, found.candidates) == (None, None, ())
    rejections = {(r.format, r.kind): r for r in found.rejections}
    assert set(rejections) == {(f, k) for f in formats() for k in kinds(f)}
    for (fmt, kind), rejection in rejections.items():
        assert rejection.code in DESCRIPTION
        if rejection.code == "unknown_format":
            _check(payload, fmt, kind)  # valid, but only because it requires nothing absent
            assert "vacuously" in rejection.message
        elif fmt != "canonical" or rejection.code != "unknown_document":
            with pytest.raises(ConversionError) as caught:
                _check(payload, fmt, kind)
            assert (caught.value.code, caught.value.pointer) == (rejection.code, rejection.pointer)
    assert found.line() == "unknown: no format's schema accepts it"
    assert all(str(r) in found.reason for r in found.rejections)


def _check(payload: Any, fmt: str, kind: str) -> None:
    if fmt == "canonical":
        check_canonical(payload, kind)
    else:
        check_wire(payload, fmt, kind)


def test_stored_messages_are_a_kind_of_their_own() -> None:
    # A canonical Message, and a bare turn list every chat format would take: stored messages.
    message = {"role": "user", "content": [{"type": "text", "text": "hi"}]}
    found = detect(message)
    assert found.status == "ambiguous"
    assert ("canonical", "messages") in {(c.format, c.kind) for c in found.candidates}
    assert {c.kind for c in found.candidates} == {"messages"}
    turns = detect([{"role": "user", "content": "hi"}])
    assert turns.status == "ambiguous" and {c.kind for c in turns.candidates} == {"messages"}
    # An Anthropic memory is also a valid UMF conversation (UMF has Anthropic's blocks): the
    # body wins the detection, and the stored-messages reading stays among the readings.
    block = {"type": "tool_use", "id": "t", "name": "f", "input": {}}
    memory = {"messages": [{"role": "assistant", "content": [block]}]}
    found = detect(memory)
    assert (found.status, found.format, found.kind) == ("detected", "umf", "request")
    assert readings(memory)[0] == ("umf", "request")
    assert ("anthropic", "messages") in readings(memory)[1:]


# --- MCP against the formats that share its block types ---------------------------------------


def test_mcp_sampling_params_are_told_apart_by_their_own_fields() -> None:
    body = {
        "messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}],
        "maxTokens": 100,
        "systemPrompt": "Be brief.",
    }
    found = detect(body)
    assert (found.status, found.format, found.kind) == ("detected", "mcp", "request")
    assert found.candidates == (
        Candidate(
            "mcp",
            "request",
            ('messages[].content.type "text"', "top-level `maxTokens`", "top-level `systemPrompt`"),
        ),
    )


def test_mcp_turns_anthropic_would_take_are_an_mcp_request_by_max_tokens() -> None:
    # Block lists of text are Anthropic's and OpenAI's too; `maxTokens` is MCP's alone.
    body = {
        "messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}]}],
        "maxTokens": 9,
    }
    found = detect(body)
    assert (found.format, found.kind) == ("mcp", "request")
    # (Stored messages are the last resort: with a body to read, they are not candidates.)
    assert found.reason == "valid mcp request: top-level `maxTokens`"


def test_an_mcp_prompt_result_is_stored_mcp_messages() -> None:
    prompt = {
        "description": "Review code",
        "messages": [
            {
                "role": "user",
                "content": {"type": "resource", "resource": {"uri": "file:///a.py", "text": "x"}},
            }
        ],
    }
    found = detect(prompt)
    assert (found.status, found.format, found.kind) == ("detected", "mcp", "messages")
    assert 'messages[].content.type "resource"' in found.reason


def test_an_mcp_result_is_an_mcp_response() -> None:
    result = {"role": "assistant", "content": {"type": "text", "text": "hi"}, "model": "m"}
    found = detect({**result, "stopReason": "endTurn"})
    assert (found.status, found.format, found.kind) == ("detected", "mcp", "response")
    assert "top-level `stopReason`" in found.reason
    assert detect(result).format == "mcp"


def test_cmf_messages_are_told_by_their_content_type_tag() -> None:
    message = {"role": "user", "content": [{"content_type": "text", "text": "hi"}]}
    for payload in (message, [message]):
        found = detect(payload)
        assert (found.status, found.format, found.kind) == ("detected", "cmf", "messages")
        assert 'content[].content_type "text"' in found.reason
    # the same turn tagged by `type` is never taken for CMF
    other = detect([{"role": "user", "content": [{"type": "text", "text": "hi"}]}])
    assert "cmf" not in {c.format for c in other.candidates} | {other.format}


def test_a_body_is_not_also_taken_for_its_own_stored_messages() -> None:
    body = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}
    found = detect(body)
    assert (found.format, found.kind) == ("gemini", "request")


def test_a_bare_chat_body_is_both_openai_chat_and_ollama() -> None:
    # {model, messages} with string content is valid for both APIs: nothing tells them apart.
    found = detect({"model": "m", "messages": [{"role": "user", "content": "hi"}]})
    assert found.status == "ambiguous"
    assert {(c.format, c.kind) for c in found.candidates} == {
        ("openai-chat", "request"),
        ("ollama", "request"),
    }
    # A field only one of them declares settles it, either way.
    openai = detect(
        {"model": "m", "max_completion_tokens": 9, "messages": [{"role": "user", "content": "hi"}]}
    )
    assert (openai.status, openai.format) == ("detected", "openai-chat")
    ollama = detect(
        {
            "model": "m",
            "options": {"num_ctx": 4096},
            "messages": [{"role": "user", "content": "hi"}],
        }
    )
    assert (ollama.status, ollama.format) == ("detected", "ollama")
    assert "top-level `options`" in ollama.reason
    images = detect(
        {"model": "m", "messages": [{"role": "user", "content": "hi", "images": ["iVBORw0KGgo="]}]}
    )
    assert (images.status, images.format) == ("detected", "ollama")


def test_detection_serialises() -> None:
    found = detect(
        {"model": "m", "max_completion_tokens": 9, "messages": [{"role": "user", "content": "hi"}]}
    )
    assert found.as_json() == {
        "status": "detected",
        "reason": found.reason,
        "format": "openai-chat",
        "kind": "request",
        "candidates": [
            {
                "format": "openai-chat",
                "kind": "request",
                "evidence": list(found.candidates[0].evidence),
            }
        ],
    }
    assert found.candidates[0].evidence
    unknown = detect(3).as_json()
    assert unknown["status"] == "unknown" and "format" not in unknown
    assert {r["code"] for r in unknown["rejections"]} == {"wrong_type"}


def test_cheap_root_checks_spare_the_full_validation(monkeypatch: pytest.MonkeyPatch) -> None:
    validated: list[tuple[str, str]] = []

    def counting(fmt: str, kind: str, payload: Any) -> bool:
        validated.append((fmt, kind))
        return _valid(fmt, kind, payload)

    monkeypatch.setattr(MODULE, "_valid", counting)
    body = {
        "model": "m",
        "max_completion_tokens": 9,
        "messages": [{"role": "user", "content": "hi"}],
    }
    assert detect(body).format == "openai-chat"
    # Missing required keys, closed key sets and pinned values rule the rest out unvalidated;
    # a format whose schema admitted this body at its root would rightly be validated too.
    # (Stored messages hold turns under any key: each format's reading of them is validated.)
    assert [pair for pair in validated if pair[1] != "messages"] == [("openai-chat", "request")]


# --- the rules, on synthetic formats -----------------------------------------------------------

NEVER = {"type": "object", "required": ["never"], "additionalProperties": False}
SYNTHETIC: dict[str, dict[str, Any]] = {
    "alpha": {
        "type": "object",
        "required": ["messages"],
        "properties": {
            "messages": {"type": "array", "items": {"$ref": "#/$defs/Turn"}},
            "tag": {"const": "alpha"},
            "alpha_only": {"type": "string"},
            "shared": {"type": "integer"},
        },
        "$defs": {
            "Turn": {
                "oneOf": [
                    {
                        "type": "object",
                        "required": ["kind"],
                        "properties": {"kind": {"const": "note"}, "body": {"type": "string"}},
                    },
                    {
                        "type": "object",
                        "required": ["kind"],
                        "properties": {"kind": {"const": "call"}, "fn": {"type": "string"}},
                    },
                ]
            }
        },
    },
    "beta": {
        "type": "object",
        "required": ["messages"],
        "properties": {
            "messages": {"type": "array"},
            "beta_only": {"type": "integer"},
            "shared": {"type": "string"},
        },
    },
    "gamma": {"type": "object", "properties": {"gamma_only": {"type": "string"}}},
}


@pytest.fixture
def synthetic(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Detection over three made-up formats (responses: a schema nothing matches)."""
    validators = {name: Draft202012Validator(schema) for name, schema in SYNTHETIC.items()}
    never = Draft202012Validator(NEVER)

    def schema(fmt: str, kind: str) -> Any:
        if fmt == "canonical":
            return _schema(fmt, kind)
        validator = validators[fmt] if kind == "request" else never
        return _build(fmt, kind, validator.schema, validator)

    def check(payload: Any, fmt: str, kind: str) -> None:
        validator = validators[fmt] if kind == "request" else never
        error = next(iter(validator.iter_errors(payload)), None)
        if error is not None:
            raise ConversionError("wrong_type", "", error.message)

    monkeypatch.setattr(MODULE, "_schema", schema)
    monkeypatch.setattr(MODULE, "_reading", schema)  # the made-up formats read as written
    monkeypatch.setattr(MODULE, "check_wire", check)
    monkeypatch.setattr(MODULE, "formats", lambda: ["canonical", *SYNTHETIC])
    monkeypatch.setattr(MODULE, "adapter", lambda name: None)
    monkeypatch.setattr(MODULE, "kinds", lambda name: KINDS)
    yield


def pairs(found: Detection) -> set[tuple[str, str]]:
    return {(c.format, c.kind) for c in found.candidates}


@pytest.mark.usefixtures("synthetic")
def test_rule_nothing_distinguishing_is_ambiguous() -> None:
    found = detect({"messages": []})
    assert found.status == "ambiguous"
    assert pairs(found) == {("alpha", "request"), ("beta", "request")}


@pytest.mark.usefixtures("synthetic")
def test_rule_a_declared_key_only_one_schema_has_decides() -> None:
    found = detect({"messages": [], "alpha_only": "x"})
    assert (found.format, found.kind) == ("alpha", "request")
    assert found.reason == (
        "valid alpha request: top-level `alpha_only` (beta request validates too, without it)"
    )


@pytest.mark.usefixtures("synthetic")
def test_rule_equal_evidence_on_both_sides_is_ambiguous() -> None:
    found = detect({"messages": [], "alpha_only": "x", "beta_only": 1})
    assert found.status == "ambiguous"
    assert found.summary == (
        "each has something particular to it: alpha request: top-level `alpha_only`; "
        "beta request: top-level `beta_only`"
    )


@pytest.mark.usefixtures("synthetic")
def test_rule_a_pinned_value_beats_a_declared_key() -> None:
    found = detect({"messages": [], "tag": "alpha", "beta_only": 1})
    assert (found.format, found.kind) == ("alpha", "request")
    assert found.summary == 'tag "alpha" (beta request validates too, without it)'


@pytest.mark.usefixtures("synthetic")
def test_rule_pinned_values_are_read_through_refs_and_unions() -> None:
    found = detect({"messages": [{"kind": "call", "fn": "f"}], "beta_only": 1})
    assert (found.format, found.kind) == ("alpha", "request")
    assert found.summary == 'messages[].kind "call" (beta request validates too, without it)'


@pytest.mark.usefixtures("synthetic")
def test_rule_a_key_of_another_shape_is_no_evidence() -> None:
    # `shared` is an integer in alpha and a string in beta. Only beta validates; alpha's walk
    # must not claim a string `shared`, so it still sets beta apart (were it claimed, nothing
    # would, and the reason would fall back to "the only schema it validates").
    found = detect({"messages": [], "shared": "s"})
    assert (found.format, found.kind) == ("beta", "request")
    assert found.summary == "top-level `shared`"
    # The other way round: beta's walk claims `messages` but not the string `beta_only`.
    found = detect({"messages": [{"kind": "note"}], "beta_only": "not an integer"})
    assert (found.format, found.summary) == ("alpha", 'messages[].kind "note"')


@pytest.mark.usefixtures("synthetic")
def test_rule_a_schema_that_requires_nothing_claims_nothing_vacuously() -> None:
    found = detect({"unrelated": 1})
    assert found.status == "unknown"
    gamma = next(r for r in found.rejections if (r.format, r.kind) == ("gamma", "request"))
    assert (gamma.code, gamma.message) == (
        "unknown_format",
        "valid only vacuously: it has none of gamma_only",
    )
    assert (detect({"gamma_only": "g"}).format, detect({"gamma_only": "g"}).kind) == (
        "gamma",
        "request",
    )


# --- text formats ------------------------------------------------------------------------------

CHATML = "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n"


def test_chatml_text_is_detected_from_its_text_only() -> None:
    found = detect(CHATML)
    assert (found.status, found.format, found.kind) == ("detected", "chatml", "request")
    # Its JSON shape is not a ChatML text: a text format is told by its text.
    shape = {"messages": [{"role": "user", "content": "Hi"}]}
    assert detect(shape).format != "chatml"


def test_a_text_that_breaks_the_framing_is_rejected_with_its_code() -> None:
    found = detect("<|im_start|>user\nHi")
    assert found.status == "unknown"
    rejection = next(r for r in found.rejections if (r.format, r.kind) == ("chatml", "request"))
    assert (rejection.code, rejection.pointer) == ("invalid_text", "/messages/0")


def test_responses_items_are_not_taken_for_openai_chat() -> None:
    request = {"model": "gpt-4.1", "input": [{"role": "user", "content": "hi"}]}
    found = detect(request)
    assert (found.status, found.format, found.kind) == ("detected", "openai-responses", "request")
    # (`input` is no longer required alone: a stored prompt's reference may stand for it)
    assert "input[]" in found.reason
    chat = detect({"model": "gpt-4.1", "messages": [{"role": "user", "content": "hi"}]})
    assert "openai-responses" not in {c.format for c in chat.candidates}
    response = {"id": "resp_1", "object": "response", "status": "completed", "output": []}
    found = detect(response)
    assert (found.format, found.kind) == ("openai-responses", "response")
    assert 'object "response"' in found.reason
    items = [{"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"}]
    assert (detect(items).format, detect(items).kind) == ("openai-responses", "messages")


# --- tolerant detection: bodies no schema takes as written -----------------------------------

TOLERATED_EXAMPLES = _examples("formats/*/tolerated/*.json")


@pytest.mark.parametrize("path", TOLERATED_EXAMPLES, ids=_id)
def test_a_tolerated_body_is_its_own_format_unless_another_takes_it_as_written(path: Path) -> None:
    fmt, kind = path.parts[-3], path.stem.split("-")[0]
    if text_format(fmt):
        pytest.skip("a text format's tolerated JSON shape has no text")
    payload = load(path)
    found = detect(payload)
    if found.detected and (found.format, found.kind) == (fmt, kind):
        assert "read tolerantly" in found.reason
        return
    # Another format takes it exactly as written (a stricter reading wins first).
    assert found.status in ("detected", "ambiguous"), found.reason
    for candidate in found.candidates:
        check_wire(payload, candidate.format, candidate.kind, strict=True)


def test_a_body_with_fields_no_schema_lists_is_read_tolerantly_and_says_which() -> None:
    body = {
        "candidates": [
            {
                "content": {"role": "model", "parts": [{"text": "Hi", "brand_new_field": 1}]},
                "finishReason": "STOP",
            }
        ],
        "modelVersion": "gemini-2.5-flash",
    }
    with pytest.raises(ConversionError):
        check_wire(body, "gemini", "response", strict=True)
    found = detect(body)
    assert (found.status, found.format, found.kind) == ("detected", "gemini", "response")
    assert found.reason.startswith("readable gemini response: ")
    assert (
        "read tolerantly: 1 key(s) its schema does not list "
        "(`candidates[].content.parts[].brand_new_field`)" in found.reason
    )
    # ... and reading keeps it for the way back, and reports it on the way elsewhere.
    canonical = convert(body, "gemini", "canonical", "response").output
    assert convert(canonical, "canonical", "gemini", "response").output == body
    losses = convert(body, "gemini", "openai-chat", "response").losses
    lost = {(x.pointer, x.code) for x in losses}
    assert ("/candidates/0/content/parts/0/brand_new_field", "field_dropped") in lost


def test_tolerance_does_not_take_any_object_with_a_role_for_a_turn() -> None:
    response = load(ROOT / "formats/anthropic/examples/response/parallel_tool_use.json")
    for fmt in ("openai-chat", "ollama", "umf"):
        assert detect(response, among=[fmt]).status == "unknown", fmt
