"""Transforms of single values: JSON text, data URLs, one-or-many, booleans."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any, Final

import orjson
from orjson import JSONEncodeError

from interlingua.conversion import Context, ConversionError
from interlingua.conversion.reading import InputError, read_json
from interlingua.conversion.transforms.base import ABSENT, Mismatch, Transform


def _json_string_encode(ctx: Context, at: str, value: Any) -> Any:
    if value is ABSENT:
        return ABSENT
    return json_text(value)


def json_text(value: Any) -> str:
    """The JSON text `@json_string` writes of a value, JSON data (the fused pair converters
    call it directly, having no conversion context): what `_encode` writes.

    orjson writes it first, a tenth of the time (the standard library's encoder is Python
    around C). Its text is the standard library's for everything but floats, which it may
    spell otherwise (`0.00001` for `1e-05`), and integers past 64 bits, which it refuses: a
    float always shows as a digit before `.` or `e`, so a text holding one (in a string too,
    which only costs the second writing) is written again by `_encode`."""
    try:
        text: str = _dumps(value).decode()
    except JSONEncodeError:
        return _encode(value)
    if _FLOAT_MAY_BE_IN(text) is None:
        return text
    return _encode(value)


# What `json.dumps(value, ensure_ascii=False, separators=(",", ":"))` does, its encoder built
# once: `json.dumps` builds one a call when given options (measured: 5 us in place of 33 for a
# tool call's arguments, a long conversation's calls each pay it to Responses).
_encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
_dumps: Final = orjson.dumps
_FLOAT_MAY_BE_IN: Final = re.compile("[0-9][.eE]").search


def _json_string_decode(ctx: Context, wire: Any, at: str) -> Any:
    return json_object_text(wire, at)


def json_object_text(wire: Any, at: str) -> Any:
    """The object a JSON text holds, read by the reading rules (what `@json_string` decodes;
    the fused pair converters call it directly, having no conversion context)."""
    if not isinstance(wire, str):
        raise ConversionError("wrong_type", at, "expected a string holding a JSON object")
    if not wire or wire.isspace():  # (what `not wire.strip()` says, without a copy)
        return {}  # a tool with no parameters, streamed: "" means {}
    try:
        value = read_json(wire)  # the reading rules: depth, numbers, duplicates, surrogates
    except InputError as exc:
        raise ConversionError(exc.code, at, f"not JSON: {exc.message}") from None
    if not isinstance(value, dict):
        raise ConversionError("wrong_type", at, "the JSON text must hold an object")
    return value


JSON_STRING = Transform(
    "json_string",
    1,
    _json_string_encode,
    _json_string_decode,
    "An object written as JSON text (OpenAI `arguments`). Blank text reads as `{}`.",
)


def _data_url_encode(ctx: Context, at: str, media_type: Any, data: Any) -> Any:
    return f"data:{media_type};base64,{data}"


def _data_url_decode(ctx: Context, wire: Any, at: str) -> tuple[str, str]:
    if not isinstance(wire, str) or not wire.startswith("data:"):
        raise Mismatch
    head, comma, data = wire.partition(",")
    if not comma or not head.endswith(";base64"):
        raise Mismatch  # a data URL that is not base64: kept as a URL
    media_type = head[5:-7]
    if "/" not in media_type:
        raise Mismatch
    return media_type, data


DATA_URL = Transform(
    "data_url",
    2,
    _data_url_encode,
    _data_url_decode,
    "Media type and base64 data as one `data:<type>;base64,<data>` URL; any other URL is "
    "another variant's.",
)


def _one_or_many_encode(ctx: Context, at: str, values: Any) -> Any:
    return values


def _one_or_many_decode(ctx: Context, wire: Any, at: str) -> list[Any]:
    if isinstance(wire, str):
        return [wire]
    if isinstance(wire, list):
        return wire
    raise ConversionError("wrong_type", at, "expected a string or a list of strings")


ONE_OR_MANY = Transform(
    "one_or_many",
    1,
    _one_or_many_encode,
    _one_or_many_decode,
    "A list that the wire may also give as a single string (OpenAI `stop`).",
)


def _negate_encode(ctx: Context, at: str, value: Any) -> Any:
    return ABSENT if value is ABSENT else not value


def _negate_decode(ctx: Context, wire: Any, at: str) -> bool:
    if not isinstance(wire, bool):
        raise ConversionError("wrong_type", at, "expected a boolean")
    return not wire


NEGATE = Transform(
    "negate",
    1,
    _negate_encode,
    _negate_decode,
    "A boolean stated the other way round (`parallel_tool_calls` against "
    "`disable_parallel_tool_use`).",
)


# OpenAI names audio encodings by a short format word; everyone else uses a media type.
_AUDIO_WORDS = {"mp3": "audio/mpeg", "wav": "audio/wav"}
_AUDIO_TYPES = {v: k for k, v in _AUDIO_WORDS.items()} | {"audio/mp3": "mp3", "audio/x-wav": "wav"}


def _audio_format_encode(ctx: Context, at: str, media_type: Any) -> Any:
    word = _AUDIO_TYPES.get(media_type)
    if word is None:
        raise Mismatch  # no format word for this media type: the part cannot go as input audio
    return word


def _audio_format_decode(ctx: Context, wire: Any, at: str) -> str:
    media_type = _AUDIO_WORDS.get(wire) if isinstance(wire, str) else None
    if media_type is None:
        raise ConversionError("not_in_enum", at, f"unknown audio format {wire!r}")
    return media_type


AUDIO_FORMAT = Transform(
    "audio_format",
    1,
    _audio_format_encode,
    _audio_format_decode,
    "An audio media type as OpenAI's format word (`audio/wav` as `wav`, `audio/mpeg` as `mp3`).",
)


def _default_encode(ctx: Context, at: str, value: Any, default: Any) -> Any:
    if value is not ABSENT:
        return value
    ctx.loss(at, "placeholder_inserted", f"{ctx.adapter} requires this setting; sent {default!r}")
    return default


def _default_decode(ctx: Context, wire: Any, at: str) -> Any:
    return wire, None  # the value; nothing for the default


def _optional_tag_encode(ctx: Context, at: str, tag: Any) -> Any:
    return ABSENT  # the format's default: written without it


def _optional_tag_decode(ctx: Context, wire: Any, at: str, tag: Any) -> Any:
    if wire != tag:
        raise Mismatch  # another variant's tag (an Anthropic server tool's versioned type)
    return None  # nothing canonical: round-trip data keeps it


def _explicit_default_encode(
    ctx: Context, at: str, value: Any, wire_default: Any, canonical_default: Any
) -> Any:
    if value is ABSENT and canonical_default != wire_default:
        return canonical_default  # left out, the format would read its own default
    return value


def _explicit_default_decode(
    ctx: Context, wire: Any, at: str, wire_default: Any, canonical_default: Any
) -> tuple[Any, None, None]:
    if wire is ABSENT:
        return wire_default, None, None
    # The canonical default reads as none: the canonical absence says it already.
    return (ABSENT if wire == canonical_default else wire), None, None


def _placeholder_encode(ctx: Context, at: str, value: Any) -> Any:
    ctx.loss(at, "placeholder_inserted", f"{ctx.adapter} requires a value here; sent {value!r}")
    return value


def _placeholder_decode(ctx: Context, wire: Any, at: str) -> Any:
    return None  # nothing canonical: round-trip data keeps what was there


PLACEHOLDER = Transform(
    "placeholder",
    1,
    _placeholder_encode,
    _placeholder_decode,
    "A field the format requires and the canonical form has no value for (a response's "
    "creation time, say): the given value, reported as a placeholder.",
)


EXPLICIT_DEFAULT = Transform(
    "explicit_default",
    3,
    _explicit_default_encode,
    _explicit_default_decode,
    "A setting whose absence means one thing in the format and another in the canonical form "
    '(`{"@explicit_default": [$strict, true, false]}`: OpenAI Responses applies strict mode to '
    "a function tool that does not say, where the canonical tool without `strict` asks for "
    "none). A canonical value is written as it is, and none as the canonical default, spelled "
    "out; a wire value left out (or null) is read as the format's default, and the canonical "
    "default as none. Nothing is lost, so nothing is reported; round-trip data gives back a "
    "body that left it out.",
    literals=True,
    reads_absent=True,
)

OPTIONAL_TAG = Transform(
    "optional_tag",
    1,
    _optional_tag_encode,
    _optional_tag_decode,
    'A tag the format takes but does not require for this variant (`{"@optional_tag": '
    "custom}`, Anthropic's ordinary client tool): written without it (the same meaning), "
    "read as this variant's when it is there or null, another variant's when it holds "
    "another value. It says nothing the variant does not, so crossing reports nothing; "
    "round-trip data gives it back.",
    literals=True,
)

DEFAULT = Transform(
    "default",
    2,
    _default_encode,
    _default_decode,
    "A setting the format requires: the canonical value, or the given default (reported as "
    "a placeholder) when there is none.",
)


def _or_null_encode(ctx: Context, at: str, value: Any) -> Any:
    return None if value is ABSENT else value


def _or_null_decode(ctx: Context, wire: Any, at: str) -> Any:
    return wire  # null never gets here: it reads as absent


OR_NULL = Transform(
    "or_null",
    1,
    _or_null_encode,
    _or_null_decode,
    "A key the format requires even when it has no value (Anthropic citations' "
    "`document_title`): null when the canonical form has none, which reads back as none. "
    "Nothing is invented, so nothing is reported.",
)


VALUE_TRANSFORMS: Mapping[str, Transform] = {
    t.name: t
    for t in (
        JSON_STRING,
        DATA_URL,
        ONE_OR_MANY,
        NEGATE,
        AUDIO_FORMAT,
        DEFAULT,
        EXPLICIT_DEFAULT,
        OPTIONAL_TAG,
        PLACEHOLDER,
        OR_NULL,
    )
}
