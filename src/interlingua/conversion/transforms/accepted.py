"""Values a format accepts only within limits: writing never sends what the target refuses.

A variant whose wire field the target constrains (an image media type Anthropic does not list,
an `s3://` URL where only the web is fetched, an empty description Converse refuses) leaves
the value to another variant (`Mismatch`), or leaves the field out (reported, unless it carries
nothing); reading takes the value as it is.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from typing import Any

from interlingua.conversion import Context, ConversionError
from interlingua.conversion.leftovers import escape
from interlingua.conversion.transforms.base import ABSENT, Mismatch, Transform, read_as_is


def _non_empty_encode(ctx: Context, at: str, value: Any) -> Any:
    if value == "":
        return ABSENT  # it carries nothing: left out, and nothing is lost
    return value


NON_EMPTY = Transform(
    "non_empty",
    1,
    _non_empty_encode,
    read_as_is,
    "A string the format refuses when empty (Converse's tool `description`): an empty one is "
    "left out; it carries nothing, so nothing is reported.",
)


def _web_url_encode(ctx: Context, at: str, url: Any) -> Any:
    if not isinstance(url, str) or not url.lower().startswith(("https://", "http://")):
        raise Mismatch  # an s3:// or gs:// location: the target fetches only from the web
    return url


WEB_URL = Transform(
    "web_url",
    1,
    _web_url_encode,
    read_as_is,
    "A URL the format fetches from the web: `http://` or `https://`; any other scheme "
    "(`s3://`, `gs://`) is another variant's.",
)


def _one_of_encode(ctx: Context, at: str, value: Any, allowed: Any) -> Any:
    if not isinstance(value, str) or not _listed(value.lower(), str(allowed).split()):
        raise Mismatch  # a value the format does not take here: another variant's
    return value


def _listed(value: str, allowed: list[str]) -> bool:
    """Whether ``value`` is in the list; `image/*` in it lists every image type."""
    return value in allowed or f"{value.partition('/')[0]}/*" in allowed


def _one_of_decode(ctx: Context, wire: Any, at: str) -> tuple[Any, None]:
    return wire, None  # the value; nothing for the list


ONE_OF = Transform(
    "one_of",
    2,
    _one_of_encode,
    _one_of_decode,
    'A value the format takes only from a list (`{"@one_of": [$media_type, "image/png '
    'image/jpeg"]}`, the list space-separated; `image/*` takes every image type); any other '
    "value is another variant's.",
)


def _not_taken(ctx: Context, at: str, value: Any, allowed: str) -> Any:
    """A canonical word the format does not take: left out, reported."""
    ctx.loss(at, "parameter_dropped", f"{ctx.adapter} takes one of {allowed}; not {value!r}")
    return ABSENT


def _no_word(ctx: Context, at: str, wire: Any) -> tuple[Any, None]:
    """A wire value the canonical form has no word for (a rung added after this release,
    say): none. Round-trip data keeps it for this format; read for another, it does not
    travel, reported."""
    if not ctx.fidelity:
        ctx.loss(at, "parameter_dropped", f"{ctx.adapter}: {wire!r} has no canonical form")
    return ABSENT, None


def _only_encode(ctx: Context, at: str, value: Any, allowed: Any) -> Any:
    if value is ABSENT or value in str(allowed).split():
        return value
    return _not_taken(ctx, at, value, str(allowed))


def _only_decode(ctx: Context, wire: Any, at: str, allowed: Any) -> tuple[Any, None]:
    if wire in str(allowed).split():
        return wire, None  # the value; nothing for the list
    return _no_word(ctx, at, wire)


ONLY = Transform(
    "only",
    2,
    _only_encode,
    _only_decode,
    'A setting the format takes only from a list (`{"@only": [$effort, "low medium high"]}`, '
    "the list space-separated): another value is left out and reported both ways (read, it "
    "has no canonical form and round-trip data keeps it).",
    literals=True,
)


def table(spelled: Any) -> dict[str, Any]:
    """A word table's literal, `"auto=true none=false"`: each canonical word and its wire value
    (`true`, `false` and `null` are JSON's; any other value is the word as written)."""
    out: dict[str, Any] = {}
    for pair in str(spelled).split():
        word, _, value = pair.partition("=")
        out[word] = {"true": True, "false": False, "null": None}.get(value, value)
    return out


def _word_table_encode(ctx: Context, at: str, value: Any, spelled: Any) -> Any:
    words = table(spelled)
    if value is ABSENT:
        return value
    if value in words:
        return words[value]
    return _not_taken(ctx, at, value, ", ".join(words))


def _word_table_decode(ctx: Context, wire: Any, at: str, spelled: Any) -> tuple[Any, None]:
    for word, value in table(spelled).items():
        if value == wire and type(value) is type(wire):
            return word, None  # the word; nothing for the table
    return _no_word(ctx, at, wire)


WORD_TABLE = Transform(
    "word_table",
    2,
    _word_table_encode,
    _word_table_decode,
    "A setting of canonical words the format spells with values of its own "
    '(`{"@word_table": [$reasoning_summary, "auto=true none=false"]}`: Gemini\'s '
    "`includeThoughts`; `true`, `false` and `null` are JSON's): another word is left out and "
    "reported both ways, as `@only` does.",
    literals=True,
)


def _plain_text_encode(ctx: Context, at: str, media_type: Any, data: Any) -> Any:
    essence = media_type.partition(";")[0].strip().lower() if isinstance(media_type, str) else ""
    if not essence.startswith("text/"):
        raise Mismatch  # not text: another variant's
    try:
        text = base64.b64decode(data, validate=True).decode("utf-8")
    except (binascii.Error, ValueError, TypeError):
        raise Mismatch from None  # bytes that are not UTF-8 text
    if essence != "text/plain":
        ctx.loss(
            f"{at.rsplit('/', 1)[0]}/media_type",
            "field_dropped",
            f"{ctx.adapter} takes a text document as plain text; sent as text/plain",
        )
    return text


def _plain_text_decode(ctx: Context, wire: Any, at: str) -> tuple[str, str]:
    if not isinstance(wire, str):
        raise ConversionError("wrong_type", at, "expected text")
    return "text/plain", base64.b64encode(wire.encode("utf-8")).decode("ascii")


PLAIN_TEXT = Transform(
    "plain_text",
    2,
    _plain_text_encode,
    _plain_text_decode,
    "A text document's base64 bytes (`[$media_type, $data]`, any `text/*` type holding UTF-8) "
    "written as the text itself, a plain-text source (Anthropic's); a type other than "
    "`text/plain` is reported. Read back: `text/plain`, the text base64-encoded.",
)


def _known_keys_encode(ctx: Context, at: str, value: Any, keys: Any) -> Any:
    if type(value) is not dict:
        return value
    known = str(keys).split()
    members: dict[str, Any] = value
    kept = {key: member for key, member in members.items() if key in known}
    for key in members:
        if key not in known:
            ctx.loss(
                f"{at}/{escape(key)}",
                "field_dropped",
                f"{ctx.adapter} takes only {', '.join(known)} here; not carried",
            )
    return kept if kept or not members else ABSENT


def _known_keys_decode(ctx: Context, wire: Any, at: str, keys: Any) -> tuple[Any, None]:
    return wire, None  # the object as it is; nothing for the list


KNOWN_KEYS = Transform(
    "known_keys",
    2,
    _known_keys_encode,
    _known_keys_decode,
    'An open canonical object the format closes (`{"@known_keys": [$annotations, "audience '
    "priority lastModified\"]}`: MCP's three hints, where other formats attach any): only the "
    "keys listed are written, each other one is reported; an object left with none is left out.",
    literals=True,
)


ACCEPTED_TRANSFORMS: Mapping[str, Transform] = {
    t.name: t for t in (NON_EMPTY, WEB_URL, ONE_OF, ONLY, WORD_TABLE, PLAIN_TEXT, KNOWN_KEYS)
}
