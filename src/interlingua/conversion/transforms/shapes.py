"""Transforms of a value's shape around the same content: one-item lists,
media told apart by their type, levels in capitals, counts with an automatic sentinel.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from interlingua.conversion import Context, ConversionError
from interlingua.conversion.leftovers import unread
from interlingua.conversion.transforms.base import ABSENT, Mismatch, Transform

# --- a list of exactly one item --------------------------------------------------------------


def _only_item_encode(ctx: Context, at: str, value: Any) -> Any:
    return ABSENT if value is ABSENT else [value]


def _only_item_decode(ctx: Context, wire: Any, at: str) -> Any:
    if type(wire) is not list:
        raise ConversionError("wrong_type", at, "expected a list")
    if len(wire) != 1:
        raise Mismatch  # none or several: another variant's (a narrower reading would lie)
    return wire[0]


ONLY_ITEM = Transform(
    "only_item",
    1,
    _only_item_encode,
    _only_item_decode,
    "A value written as a list of one item; a list of any other length is another variant's.",
)


# --- media told apart by their media type ---------------------------------------------------

_KINDS = ("image", "audio", "video")


def kind_of(media_type: str) -> str:
    """image, audio or video by the media type's top-level type; anything else a document."""
    top = media_type.split("/", 1)[0].strip().lower()
    return top if top in _KINDS else "document"


def _media_kind_encode(ctx: Context, at: str, kind: Any, media_type: Any) -> Any:
    if isinstance(media_type, str) and kind_of(media_type) != kind:
        # The media type is all that tells the kind here (an image sent as
        # `application/octet-stream`): read back, the part is of another type.
        ctx.loss(
            at,
            "field_dropped",
            f"{ctx.adapter}: the media type is what tells a {kind} here, and {media_type!r} "
            f"does not; it reads back as a {kind_of(media_type)}",
            str(kind),
        )
    return media_type


def _media_kind_decode(ctx: Context, wire: Any, at: str, kind: Any) -> tuple[None, str]:
    if not isinstance(wire, str) or not wire:
        raise ConversionError("wrong_type", at, "expected a media type")
    if kind_of(wire) != kind:
        raise Mismatch  # media of another kind: another part type's variant
    return None, wire


MEDIA_KIND = Transform(
    "media_kind",
    2,
    _media_kind_encode,
    _media_kind_decode,
    'A media type that tells which part a block is (`{"@media_kind": [image, $media_type]}`):'
    " read only when its top-level type is the kind (image, audio, video; `document` for any "
    "other), so one wire shape serves several part types.",
    literals=True,
)


# --- a file referenced by URI, with its media type -----------------------------------------

# Media types by file extension, for a URI that comes without one. A fixed table, so every
# implementation guesses alike.
EXTENSIONS: Mapping[str, str] = {
    "png": "image/png",
    "jpg": "image/jpeg",
    "jpeg": "image/jpeg",
    "gif": "image/gif",
    "webp": "image/webp",
    "heic": "image/heic",
    "heif": "image/heif",
    "wav": "audio/wav",
    "mp3": "audio/mpeg",
    "ogg": "audio/ogg",
    "flac": "audio/flac",
    "aac": "audio/aac",
    "aiff": "audio/aiff",
    "m4a": "audio/mp4",
    "mp4": "video/mp4",
    "mpeg": "video/mpeg",
    "mpg": "video/mpeg",
    "mov": "video/quicktime",
    "avi": "video/x-msvideo",
    "webm": "video/webm",
    "wmv": "video/x-ms-wmv",
    "flv": "video/x-flv",
    "3gp": "video/3gpp",
    "pdf": "application/pdf",
    "txt": "text/plain",
    "md": "text/markdown",
    "csv": "text/csv",
    "html": "text/html",
    "htm": "text/html",
    "json": "application/json",
    "xml": "text/xml",
}


def guess_media_type(uri: str) -> str | None:
    """The media type the URI's file extension stands for (query and fragment ignored)."""
    path = uri.split("#", 1)[0].split("?", 1)[0]
    name = path.rsplit("/", 1)[-1]
    if "." not in name:
        return None
    return EXTENSIONS.get(name.rsplit(".", 1)[-1].lower())


def _file_ref_encode(  # noqa: PLR0917 (a transform takes its arguments in order)
    ctx: Context, at: str, type_key: Any, uri_key: Any, kind: Any, media_type: Any, uri: Any
) -> Any:
    if media_type is ABSENT:
        guess = guess_media_type(uri) if isinstance(uri, str) else None
        if (kind_of(guess) if guess is not None else "document") != kind:
            ctx.loss(
                at,
                "field_dropped",
                f"{ctx.adapter}: a {kind} by URL needs a media type the URL's extension does "
                "not tell; without one it reads back as a document",
                str(kind),
            )
        return {uri_key: uri}
    return {type_key: media_type, uri_key: uri}


def _file_ref_decode(  # noqa: PLR0917 (a transform takes its arguments in order)
    ctx: Context, wire: Any, at: str, type_key: Any, uri_key: Any, kind: Any
) -> tuple[Any, ...]:
    if type(wire) is not dict:
        raise ConversionError("wrong_type", at, "expected an object")
    uri = wire.get(uri_key)
    if not isinstance(uri, str) or not uri:
        raise ConversionError("missing_field", f"{at}/{uri_key}", "a file reference needs a URI")
    media_type = wire.get(type_key, ABSENT)
    if media_type is not ABSENT:
        if not isinstance(media_type, str) or not media_type:
            raise ConversionError("wrong_type", f"{at}/{type_key}", "expected a media type")
        seen = kind_of(media_type)
    else:
        guess = guess_media_type(uri)
        seen = kind_of(guess) if guess is not None else "document"
    if seen != kind:
        raise Mismatch  # media of another kind: another part type's variant
    return None, None, None, media_type, uri


FILE_REF = Transform(
    "file_ref",
    5,
    _file_ref_encode,
    _file_ref_decode,
    "A file given by URI, as an object of its media type and URI under the given keys "
    '(`{"@file_ref": [mimeType, fileUri, image, $media_type, $url]}`), read only when it is of '
    "the given kind (see `media_kind`). Without a media type, the URI's file extension tells "
    "the kind (a fixed table; none known: a document); no type is invented when writing, and "
    "a part whose kind the extension would not tell back is reported.",
    literals=True,
)


# --- a reasoning effort as a level in capitals ----------------------------------------------


def _effort_encode(ctx: Context, at: str, effort: Any, budget: Any, levels: Any) -> Any:
    if effort is ABSENT:
        return ABSENT
    if budget is not ABSENT:
        ctx.loss(
            at,
            "parameter_dropped",
            f"{ctx.adapter} takes a thinking budget or a level, not both; the budget went",
        )
        return ABSENT
    if effort not in str(levels).split():
        ctx.loss(at, "parameter_dropped", f"{ctx.adapter} has no thinking level {effort!r}")
        return ABSENT
    return str(effort).upper()


def _effort_decode(ctx: Context, wire: Any, at: str, levels: Any) -> tuple[Any, Any, None]:
    if not isinstance(wire, str):
        raise ConversionError("wrong_type", at, "expected a level word")
    effort = wire.lower()
    if effort in str(levels).split():
        # nothing for the budget (the mapping reads its own field after) nor the list
        return effort, ABSENT, None
    # A level with no canonical effort: none. Round-trip data keeps it for this format; read
    # for another, it does not travel, reported.
    if not ctx.fidelity:
        ctx.loss(
            at, "parameter_dropped", f"{ctx.adapter}: thinking level {wire!r} has no canonical form"
        )
    return ABSENT, ABSENT, None


EFFORT_LEVEL = Transform(
    "effort_level",
    3,
    _effort_encode,
    _effort_decode,
    "A reasoning effort as a level word in capitals (`high` as `HIGH`), for a format that "
    'takes a level or a budget but not both (`{"@effort_level": [$effort, $budget, "low '
    'medium high"]}`, the levels space-separated, each a rung of the canonical ladder): with '
    "a budget the effort is left out and reported, as is a rung the format lacks. A level "
    "with no canonical effort reads as none, reported, and round-trip data keeps it; the "
    "budget is read elsewhere (the mapping reads its field after this one).",
    literals=True,
)


# --- a count where a negative value means "automatic" ---------------------------------------


def _auto_count_encode(ctx: Context, at: str, value: Any) -> Any:
    return value


def _auto_count_decode(ctx: Context, wire: Any, at: str) -> Any:
    if type(wire) is not int:
        raise ConversionError("wrong_type", at, "expected an integer")
    if wire >= 0:
        return wire
    # "Let the model decide": no canonical value. Round-trip data keeps it for this format;
    # read for another, it is a setting that does not travel.
    if not ctx.fidelity:
        ctx.loss(at, "parameter_dropped", f"{ctx.adapter}: {wire} has no canonical form")
    return ABSENT


AUTO_COUNT = Transform(
    "auto_count",
    1,
    _auto_count_encode,
    _auto_count_decode,
    "A token budget where a negative value (-1) lets the provider decide: read as no budget "
    "(the provider's default), which round-trip data keeps.",
)


# --- a reasoning switch that may be a level ------------------------------------------------


def _effort_or_switch_encode(ctx: Context, at: str, effort: Any, levels: Any) -> Any:
    if effort is ABSENT:
        return ABSENT
    if effort not in str(levels).split():
        ctx.loss(at, "parameter_dropped", f"{ctx.adapter} has no reasoning level {effort!r}")
        return ABSENT
    return effort


def _effort_or_switch_decode(ctx: Context, wire: Any, at: str, levels: Any) -> tuple[Any, None]:
    if isinstance(wire, bool):
        # On or off, no level: no canonical effort. Round-trip data keeps it for this format;
        # read for another, it is a setting that does not travel.
        if not ctx.fidelity:
            ctx.loss(at, "parameter_dropped", f"{ctx.adapter}: the switch has no canonical form")
        return ABSENT, None
    words = str(levels).split()
    if wire not in words:
        raise ConversionError("not_in_enum", at, f"expected true, false or one of {words}")
    return wire, None  # the level; nothing for the list


EFFORT_OR_SWITCH = Transform(
    "effort_or_switch",
    2,
    _effort_or_switch_encode,
    _effort_or_switch_decode,
    "A reasoning setting that is either a switch (`true`/`false`) or a level word "
    '(`{"@effort_or_switch": [$effort, "low medium high"]}`, the levels space-separated, each '
    "a rung of the canonical ladder): a level is the canonical effort; a bare switch has no "
    "canonical form (round-trip data keeps it); an effort with no level word (`minimal`) is "
    "reported.",
    literals=True,
)


# --- one text as a list of tagged text paragraphs -----------------------------------------


def _paragraphs_encode(ctx: Context, at: str, tag: Any, text: Any) -> Any:
    if text is ABSENT:
        return ABSENT
    return [] if text == "" else [{"type": tag, "text": text}]


_PARAGRAPH_KEYS: Final = frozenset(["type", "text"])


def _paragraphs_decode(ctx: Context, wire: Any, at: str, tag: Any) -> tuple[None, str]:
    if type(wire) is not list:
        raise ConversionError("wrong_type", at, "expected a list")
    texts = []
    for i, item in enumerate(wire):
        if (
            type(item) is not dict
            or item.get("type") != tag
            or not isinstance(item.get("text"), str)
        ):
            raise ConversionError("unknown_variant", f"{at}/{i}", f"expected a {tag} paragraph")
        texts.append(item["text"])
        # A paragraph's other fields have no canonical home: round-trip data keeps them, and
        # crossing to another format reports them.
        if len(item) > len(_PARAGRAPH_KEYS) and not ctx.fidelity:
            unread(ctx, item, _PARAGRAPH_KEYS, f"{at}/{i}", part_type=None)
    if len(texts) > 1 and not ctx.fidelity:
        ctx.loss(at, "parts_merged", f"{ctx.adapter}: the paragraphs are joined into one text")
    return None, "\n\n".join(texts)


PARAGRAPHS = Transform(
    "paragraphs",
    2,
    _paragraphs_encode,
    _paragraphs_decode,
    'A text as a list of paragraphs tagged alike (`{"@paragraphs": [summary_text, $text]}`: '
    '`[{"type": "summary_text", "text": ...}]`): an empty text is an empty list; several '
    "paragraphs read as one text joined by a blank line (round-trip data keeps the split; "
    "reported as parts_merged when converting elsewhere).",
    literals=True,
)


SHAPE_TRANSFORMS: Mapping[str, Transform] = {
    t.name: t
    for t in (
        ONLY_ITEM,
        MEDIA_KIND,
        FILE_REF,
        EFFORT_LEVEL,
        AUTO_COUNT,
        EFFORT_OR_SWITCH,
        PARAGRAPHS,
    )
}
