"""Layout features a mapping turns on (shown through the Gemini adapter, which uses them all):
signatures riding on blocks, optional roles, results paired by name, zero counts left out,
and parts a tool result cannot hold moved after the results."""

from __future__ import annotations

from typing import Any

import pytest

from interlingua.conversion import ConversionError
from interlingua.conversion.adapters.fidelity import without_raw as _without_raw
from interlingua.conversion.converter import convert

SIG = "CiQBVKhc7oL2"


def read(body: dict[str, Any], kind: str = "request") -> dict[str, Any]:
    out: dict[str, Any] = convert(body, "gemini", "canonical", kind).output
    return out


def write(document: dict[str, Any], kind: str = "request") -> dict[str, Any]:
    out: dict[str, Any] = convert(document, "canonical", "gemini", kind).output
    return out


def response(*parts: dict[str, Any], finish: str = "STOP") -> dict[str, Any]:
    return {
        "candidates": [
            {"content": {"role": "model", "parts": list(parts)}, "finishReason": finish, "index": 0}
        ],
        "modelVersion": "gemini-2.5-flash",
    }


def test_a_signature_beside_a_text_is_a_thinking_part_before_it() -> None:
    body = response({"text": "Answer", "thoughtSignature": SIG})
    message = read(body, "response")["message"]
    assert _without_raw(message)["content"] == [
        {
            "type": "thinking",
            "text": "",
            "signature": SIG,
            "origin": {"format": "gemini", "model": "gemini-2.5-flash"},
        },
        {"type": "text", "text": "Answer"},
    ]
    assert write(read(body, "response"), "response") == body


def test_a_trailing_signature_rides_on_an_empty_text() -> None:
    body = response({"text": "Answer"}, {"text": "", "thoughtSignature": SIG})
    canonical = read(body, "response")
    assert [p["type"] for p in canonical["message"]["content"]] == ["text", "thinking"]
    assert write(canonical, "response") == body
    # without round-trip data the same wire comes out: the rule, not a patch, places it
    assert write(_without_raw(canonical), "response") == body


def test_a_thought_part_keeps_its_own_signature() -> None:
    body = response({"text": "plan", "thought": True, "thoughtSignature": SIG}, {"text": "A"})
    content = read(body, "response")["message"]["content"]
    assert [(p["type"], p.get("signature")) for p in content] == [("thinking", SIG), ("text", None)]


def test_a_block_kept_verbatim_keeps_its_signature() -> None:
    call = {
        "toolCall": {"id": "t1", "toolType": "URL_CONTEXT", "args": {}},
        "thoughtSignature": SIG,
    }
    content = read(response(call, {"text": "1"}), "response")["message"]["content"]
    assert content[0] == {"type": "toolCall", **call}


def test_a_signature_beside_hosted_code_is_a_thinking_part_before_it() -> None:
    # Typed (a hosted tool call), the code part's signature reads as reasoning before it,
    # as beside a function call, and goes back on the same part.
    code = {"executableCode": {"language": "PYTHON", "code": "1"}, "thoughtSignature": SIG}
    body = response(code, {"text": "1"})
    canonical = read(body, "response")
    assert [p["type"] for p in canonical["message"]["content"][:2]] == [
        "thinking",
        "hosted_tool_call",
    ]
    assert write(_without_raw(canonical), "response") == body


def test_two_signatures_in_a_row_keep_their_places() -> None:
    document = {
        "schema_version": 1,
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "q"}]},
            {
                "role": "assistant",
                "content": [
                    {"type": "thinking", "text": "", "signature": "AAAA"},
                    {"type": "thinking", "text": "", "signature": "BBBB"},
                    {"type": "text", "text": "a"},
                ],
            },
        ],
    }
    wire = write(document)
    assert wire["contents"][1]["parts"] == [
        {"text": "", "thought": True, "thoughtSignature": "AAAA"},
        {"text": "a", "thoughtSignature": "BBBB"},
    ]
    content = read(wire)["messages"][1]["content"]
    assert [p.get("signature") for p in content] == ["AAAA", "BBBB", None]


def test_a_turn_without_a_role_is_the_users_or_the_models() -> None:
    request = {"contents": [{"parts": [{"text": "hi"}]}]}
    canonical = read(request)
    assert _without_raw(canonical)["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": "hi"}]}
    ]
    assert write(canonical) == request
    body = {"candidates": [{"content": {"parts": [{"text": "yo"}]}, "finishReason": "STOP"}]}
    answer = read(body, "response")
    assert answer["message"]["role"] == "assistant"
    assert write(answer, "response") == body


def test_two_role_less_user_turns_stay_apart() -> None:
    request = {"contents": [{"parts": [{"text": "a"}]}, {"parts": [{"text": "b"}]}]}
    assert write(read(request)) == request


def test_results_pair_by_name_across_turns_and_orphans_fail() -> None:
    request = {
        "contents": [
            {"role": "user", "parts": [{"text": "go"}]},
            {"role": "model", "parts": [{"functionCall": {"name": "f", "args": {}}}]},
            {"role": "user", "parts": [{"functionResponse": {"name": "g", "response": {}}}]},
        ]
    }
    with pytest.raises(ConversionError) as err:
        read(request)
    assert (err.value.code, err.value.pointer) == ("orphan_result", "/contents/2/parts/0")


def test_zero_counts_are_left_out_and_read_as_zero() -> None:
    body = {
        "candidates": [
            {"content": {"role": "model", "parts": [{"text": "x"}]}, "finishReason": "MAX_TOKENS"}
        ],
        "usageMetadata": {
            "promptTokenCount": 8,
            "thoughtsTokenCount": 1024,
            "totalTokenCount": 1032,
        },
        "modelVersion": "m",
    }
    usage = read(body, "response")["usage"]
    assert usage == {
        "input_tokens": 8,
        "output_tokens": 1024,
        "total_tokens": 1032,
        "reasoning_tokens": 1024,
    }
    assert (
        write(_without_raw(read(body, "response")), "response")["usageMetadata"]
        == body["usageMetadata"]
    )


def test_media_a_result_cannot_hold_follow_the_results() -> None:
    document = {
        "schema_version": 1,
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "shot"}]},
            {
                "role": "assistant",
                "content": [{"type": "tool_call", "id": "c1", "name": "shot", "arguments": {}}],
            },
            {
                "role": "tool",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_call_id": "c1",
                        "content": [
                            {"type": "text", "text": "done"},
                            {
                                "type": "image",
                                "source": {
                                    "type": "base64",
                                    "media_type": "image/png",
                                    "data": "AAAA",
                                },
                            },
                        ],
                    }
                ],
            },
        ],
    }
    result = convert(document, "canonical", "gemini")
    assert result.output["contents"][2] == {
        "role": "user",
        "parts": [
            {"functionResponse": {"id": "c1", "name": "shot", "response": {"output": "done"}}},
            {"inlineData": {"mimeType": "image/png", "data": "AAAA"}},
        ],
    }
    assert [(x.pointer, x.code) for x in result.losses] == [
        ("/messages/2/content/0/content/1", "moved")
    ]


def test_parts_set_aside_by_block_results_are_never_lost_silently() -> None:
    """Any format whose results are blocks of a user turn (Anthropic here): what a result
    cannot hold goes after the results and is reported, or is reported as dropped there."""
    audio = {
        "type": "audio",
        "source": {"type": "base64", "media_type": "audio/wav", "data": "UklG"},
    }
    document = {
        "schema_version": 1,
        "model": "m",
        "parameters": {"max_output_tokens": 64},
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "record"}]},
            {
                "role": "assistant",
                "content": [{"type": "tool_call", "id": "c1", "name": "rec", "arguments": {}}],
            },
            {
                "role": "tool",
                "content": [{"type": "tool_result", "tool_call_id": "c1", "content": [audio]}],
            },
        ],
    }
    result = convert(document, "canonical", "anthropic")
    assert [(x.pointer, x.code) for x in result.losses] == [
        ("/messages/2/content/0/content/0", "moved"),
        ("/messages/2/content/0/content/0", "part_dropped"),
    ]


# --- a message of empty text ---------------------------------------------------------------


def _empty_system() -> dict[str, Any]:
    return {
        "schema_version": 1,
        "model": "m",
        "messages": [
            {"role": "system", "content": [{"type": "text", "text": ""}]},
            {"role": "user", "content": [{"type": "text", "text": "x"}]},
        ],
    }


@pytest.mark.parametrize(
    ("fmt", "first"),
    [
        ("openai-chat", {"role": "system", "content": ""}),
        ("chatml", "<|im_start|>system\n<|im_end|>\n"),
    ],
)
def test_a_message_of_empty_text_is_carried_not_reported_dropped(fmt: str, first: Any) -> None:
    result = convert(_empty_system(), "canonical", fmt)
    dropped = [x for x in result.losses if x.code == "message_dropped"]
    assert dropped == []
    if isinstance(result.output, str):
        assert result.output.startswith(first)
    else:
        assert result.output["messages"][0] == first


def test_where_blank_text_is_refused_the_message_is_dropped_and_reported() -> None:
    document = _empty_system()
    document["messages"][0]["role"] = "user"
    result = convert(document, "canonical", "gemini")
    codes = {(x.pointer, x.code) for x in result.losses}
    assert ("/messages/0", "message_dropped") in codes
    assert [c["parts"] for c in result.output["contents"]] == [[{"text": "x"}]]
