"""A tool result as one JSON object, for formats whose results are an object and nothing else.

The canonical result holds parts (usually text), a structured value, and an error flag; such a
format holds one object. The mapping names the keys (`{"@result_object": [$content,
$structured, $is_error, output, error, result]}`: the key that wraps an answer, the key that
wraps a failure, and one more key read as an answer).

Writing: a structured value is the object itself (wrapped under the failure key when the
result failed); text joins into one string (parts separated by a newline, each join reported
as `parts_merged`), wrapped under the
answer key, or under the failure key when the result failed; no text is `{}`. Text beside a
structured value, unless it is the value written as JSON, and parts that are not text are set
aside for the user turn right after the results (``ctx.displaced``: carried, reported moved).

Reading reverses it: an object whose only member is the answer key (or the other answer key)
holding a string is text; one whose only member is the failure key is a failed result (text
when it holds a string, the structured value when it holds an object); `{}` is an empty
result; any other object is the structured value.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from interlingua.conversion import Context, ConversionError
from interlingua.conversion.reading import InputError, read_json
from interlingua.conversion.transforms.base import ABSENT, Transform


def _mirrors(text: str, value: Any) -> bool:
    """Whether ``text`` is ``value`` written as JSON (the way MCP results repeat it)."""
    try:
        return bool(read_json(text) == value)
    except InputError:
        return False


def _set_aside(ctx: Context, at: str, texts: list[tuple[int, str]], structured: Any) -> None:
    """Text beside a structured value, which the one value cannot hold: set aside for the user
    turn right after the results (reported there as moved), unless it is that value as JSON."""
    for j, text in texts:
        if not _mirrors(text, structured):
            ctx.displaced.append(({"type": "text", "text": text}, f"{at}/{j}"))


def _texts_of(ctx: Context, at: str, content: Any) -> list[tuple[int, str]]:
    """The text parts of ``content`` by place, each part's other fields (a cache hint) reported
    as dropped: the result holds their text only. Other parts are set aside for the user turn
    after the results (``ctx.displaced``)."""
    texts: list[tuple[int, str]] = []
    for j, part in enumerate(content if isinstance(content, list) else []):
        if isinstance(part, dict) and part.get("type") == "text":
            texts.append((j, part.get("text", "")))
            for key in part.keys() - {"type", "text"}:
                ctx.loss(
                    f"{at}/{j}/{key}",
                    "field_dropped",
                    f"{ctx.adapter}: a result holds the text of its parts, not their {key!r}",
                    "text",
                )
        else:
            ctx.displaced.append((part, f"{at}/{j}"))
    return texts


def _encode(  # noqa: PLR0917 (a transform takes its arguments in order)
    ctx: Context,
    at: str,
    content: Any,
    structured: Any,
    is_error: Any,
    answer: Any,
    failure: Any,
    also: Any,
) -> Any:
    texts = _texts_of(ctx, at, content)
    failed = is_error is True
    if structured is not ABSENT:
        _set_aside(ctx, at, texts, structured)
        return {failure: structured} if failed else structured
    if not texts:
        return {failure: ""} if failed else {}
    for j, _ in texts[1:]:
        # Read back, the joined string is one text part: the boundary is gone.
        ctx.loss(
            f"{at}/{j}",
            "parts_merged",
            f"{ctx.adapter}: a result holds one string; joined to the text before it",
            "text",
        )
    text = "\n".join(t for _, t in texts)
    return {failure if failed else answer: text}


def _texts(value: str) -> list[dict[str, str]]:
    return [{"type": "text", "text": value}] if value else []


def _decode(  # noqa: PLR0917 (a transform takes its arguments in order)
    ctx: Context, wire: Any, at: str, answer: Any, failure: Any, also: Any
) -> tuple[Any, ...]:
    rest = (None, None, None)  # nothing for the keys
    if type(wire) is not dict:
        raise ConversionError("wrong_type", at, "a tool result is an object")
    if not wire:
        return ([], ABSENT, ABSENT, *rest)
    if len(wire) == 1:
        ((key, value),) = wire.items()
        if key == failure and isinstance(value, str):
            return (_texts(value), ABSENT, True, *rest)
        if key == failure and isinstance(value, dict):
            return ([], value, True, *rest)
        if key in (answer, also) and isinstance(value, str):
            return (_texts(value), ABSENT, ABSENT, *rest)
    return ([], wire, ABSENT, *rest)


RESULT_OBJECT = Transform(
    "result_object",
    6,
    _encode,
    _decode,
    "A tool result (parts, structured value, error flag) as one JSON object: text wrapped "
    "under the answer key, or the failure key when it failed; a structured value as the object "
    "itself. `[$content, $structured, $is_error, <answer key>, <failure key>, <other answer "
    "key>]`.",
    literals=True,
)


# --- a tool result as one JSON value (OpenTelemetry's `response`) ----------------------------


def _value_encode(ctx: Context, at: str, content: Any, structured: Any, is_error: Any) -> Any:
    if is_error is True:
        ctx.loss(
            f"{at.rsplit('/', 1)[0]}/is_error",
            "field_dropped",
            f"{ctx.adapter}: a result is one value, with no error flag",
            "tool_result",
        )
    return _json_encode(ctx, at, content, structured)


def _json_encode(ctx: Context, at: str, content: Any, structured: Any) -> Any:
    texts = _texts_of(ctx, at, content)
    if structured is not ABSENT:
        _set_aside(ctx, at, texts, structured)
        return structured
    for j, _ in texts[1:]:
        ctx.loss(
            f"{at}/{j}",
            "parts_merged",
            f"{ctx.adapter}: a result is one value; its texts are joined by a newline",
            "text",
        )
    return "\n".join(t for _, t in texts)


def _value_decode(ctx: Context, wire: Any, at: str) -> tuple[Any, ...]:
    if isinstance(wire, str):
        return (_texts(wire), ABSENT, ABSENT)
    if type(wire) is dict:
        return ([], wire, ABSENT)
    # Any other JSON (a number, a list, null) reads as its JSON text; round-trip data keeps it.
    return (_texts(json.dumps(wire, ensure_ascii=False)), ABSENT, ABSENT)


RESULT_VALUE = Transform(
    "result_value",
    3,
    _value_encode,
    _value_decode,
    "A tool result (parts, structured value, error flag) as one JSON value: the structured "
    "value itself, else the texts joined by a newline (each joined text reported); the error "
    "flag is reported. Read back: a string is text, an object the structured value, any other "
    "value its JSON text. `[$content, $structured, $is_error]`.",
)


def _json_decode(ctx: Context, wire: Any, at: str) -> tuple[Any, ...]:
    return _value_decode(ctx, wire, at)[:2]


# A format whose result is one JSON value beside an error flag of its own (CMF's ToolResult).
RESULT_JSON = Transform(
    "result_json",
    2,
    _json_encode,
    _json_decode,
    "A tool result's parts and structured value as one JSON value, as `result_value` writes "
    "it, for formats that carry the error flag in a field of its own. "
    "`[$content, $structured]`.",
)

RESULT_TRANSFORMS: Mapping[str, Transform] = {
    RESULT_OBJECT.name: RESULT_OBJECT,
    RESULT_VALUE.name: RESULT_VALUE,
    RESULT_JSON.name: RESULT_JSON,
}
