"""Transforms of media fields: media types as short format words, URLs of one scheme, text
given inline where the canonical form holds bytes.

Some formats name a media encoding by a short word (`png`, `pdf`, `mp4`) instead of an IANA
media type, from a closed list per kind of media. Each word table below reads every word
of its list; writing picks the first word listed for a media type, so words that share one
(`mpeg` and `mpg`) read back as the first. A media type with no word has no form in the
variant (`Mismatch`): the part is reported as dropped rather than sent under a wrong word.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from typing import Any

from interlingua.conversion import Context, ConversionError
from interlingua.conversion.transforms.base import Mismatch, Transform


def _word_table(
    name: str, what: str, words: Mapping[str, str], aliases: Mapping[str, str], doc: str
) -> Transform:
    """A transform between a media type and the word a closed list gives it."""
    by_type: dict[str, str] = dict(aliases)
    for word, media_type in words.items():
        by_type.setdefault(media_type, word)

    def encode(ctx: Context, at: str, media_type: Any) -> Any:
        if not isinstance(media_type, str):
            raise Mismatch
        essence, _, parameters = media_type.partition(";")
        word = by_type.get(essence.strip().lower())
        if word is None:
            raise Mismatch  # no word for it: another variant (or none) must carry the part
        if parameters.strip():
            ctx.loss(
                at,
                "field_dropped",
                f"{ctx.adapter}: the {what} format word cannot carry the media type parameters "
                f"{parameters.strip()!r}",
            )
        return word

    def decode(ctx: Context, wire: Any, at: str) -> str:
        media_type = words.get(wire) if isinstance(wire, str) else None
        if media_type is None:
            raise ConversionError("not_in_enum", at, f"unknown {what} format {wire!r}")
        return media_type

    return Transform(name, 1, encode, decode, doc)


IMAGE_FORMAT_WORD = _word_table(
    "image_format_word",
    "image",
    {"png": "image/png", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp"},
    {"image/jpg": "jpeg"},
    "An image media type as a format word: png, jpeg, gif, webp.",
)

DOCUMENT_FORMAT_WORD = _word_table(
    "document_format_word",
    "document",
    {
        "pdf": "application/pdf",
        "csv": "text/csv",
        "doc": "application/msword",
        "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xls": "application/vnd.ms-excel",
        "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "html": "text/html",
        "txt": "text/plain",
        "md": "text/markdown",
    },
    {"text/x-markdown": "md"},
    "A document media type as a format word: pdf, csv, doc, docx, xls, xlsx, html, txt, md.",
)

VIDEO_FORMAT_WORD = _word_table(
    "video_format_word",
    "video",
    {
        "mkv": "video/x-matroska",
        "mov": "video/quicktime",
        "mp4": "video/mp4",
        "webm": "video/webm",
        "flv": "video/x-flv",
        "mpeg": "video/mpeg",
        "mpg": "video/mpeg",
        "wmv": "video/x-ms-wmv",
        "three_gp": "video/3gpp",
    },
    {},
    "A video media type as a container word: mkv, mov, mp4, webm, flv, mpeg (mpg reads as "
    "video/mpeg too), wmv, three_gp.",
)

AUDIO_FORMAT_WORD = _word_table(
    "audio_format_word",
    "audio",
    {
        "mp3": "audio/mpeg",
        "opus": "audio/opus",
        "wav": "audio/wav",
        "aac": "audio/aac",
        "flac": "audio/flac",
        "mp4": "audio/mp4",
        "ogg": "audio/ogg",
        "mkv": "audio/x-matroska",
        "mka": "audio/x-matroska",
        "x-aac": "audio/x-aac",
        "m4a": "audio/x-m4a",
        "mpeg": "audio/mpeg",
        "mpga": "audio/mpeg",
        "pcm": "audio/pcm",
        "webm": "audio/webm",
    },
    {
        "audio/mp3": "mp3",
        "audio/x-wav": "wav",
        "audio/wave": "wav",
        "audio/x-flac": "flac",
        "audio/m4a": "m4a",
    },
    "An audio media type as a format word from the longer list of container words (mp3, opus, "
    "wav, aac, flac, mp4, ogg, mkv, mka, x-aac, m4a, mpeg, mpga, pcm, webm); `audio_format` is "
    "the two-word list.",
)


def _url_scheme_encode(ctx: Context, at: str, scheme: Any, url: Any) -> Any:
    if not isinstance(url, str) or not url.lower().startswith(f"{scheme}://"):
        raise Mismatch  # a URL of another scheme: this variant cannot carry it
    return url


def _url_scheme_decode(ctx: Context, wire: Any, at: str) -> tuple[None, str]:
    if not isinstance(wire, str) or not wire:
        raise ConversionError("wrong_type", at, "expected a URL")
    return None, wire  # nothing for the scheme; the URL


URL_SCHEME = Transform(
    "url_scheme",
    2,
    _url_scheme_encode,
    _url_scheme_decode,
    'A URL that must have the given scheme (`{"@url_scheme": [s3, $url]}`); any other URL '
    "is another variant's.",
)


def _base64_text_encode(ctx: Context, at: str, data: Any) -> Any:
    try:
        return base64.b64decode(data, validate=True).decode("utf-8")
    except (binascii.Error, ValueError, TypeError):
        raise Mismatch from None  # bytes that are not UTF-8 text: not this variant


def _base64_text_decode(ctx: Context, wire: Any, at: str) -> str:
    if not isinstance(wire, str):
        raise ConversionError("wrong_type", at, "expected text")
    return base64.b64encode(wire.encode("utf-8")).decode("ascii")


BASE64_TEXT = Transform(
    "base64_text",
    1,
    _base64_text_encode,
    _base64_text_decode,
    "Base64 data holding UTF-8 text, written as the text itself (a document given inline as "
    "text); bytes that are not UTF-8 are another variant's.",
)


# --- base64 in either alphabet ------------------------------------------------------------

# The URL-safe alphabet's two letters, as the standard alphabet writes them.
_STANDARD = str.maketrans("-_", "+/")


def _base64_encode(ctx: Context, at: str, data: Any) -> Any:
    return data


def _base64_decode(ctx: Context, wire: Any, at: str) -> str:
    if not isinstance(wire, str):
        raise ConversionError("wrong_type", at, "expected base64 text")
    return wire.translate(_STANDARD)


BASE64 = Transform(
    "base64",
    1,
    _base64_encode,
    _base64_decode,
    "Bytes as base64 in either alphabet (standard, or URL-safe as proto3 JSON may write "
    "`bytes`): read in the standard alphabet the canonical form holds, written as they are.",
)


# --- images as bare base64, their media type told by their bytes ---------------------------

UNKNOWN_MEDIA_TYPE = "application/octet-stream"

# Leading bytes of each image format a multimodal model is commonly given.
_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"),
    (b"BM", "image/bmp"),
    (b"II*\x00", "image/tiff"),
    (b"MM\x00*", "image/tiff"),
)
_BRANDS = {b"avif": "image/avif", b"heic": "image/heic", b"heix": "image/heic"}


def sniff_image(data: str) -> str | None:
    """The image media type the leading bytes of base64 ``data`` announce, or None."""
    head = data[:32]
    try:
        raw = base64.b64decode(head[: len(head) - len(head) % 4], validate=True)
    except (binascii.Error, ValueError):
        return None
    for magic, media_type in _MAGIC:
        if raw.startswith(magic):
            return media_type
    if raw[:4] == b"RIFF" and raw[8:12] == b"WEBP":
        return "image/webp"
    if raw[4:8] == b"ftyp":
        return _BRANDS.get(raw[8:12])
    return None


def _sniffed_image_encode(ctx: Context, at: str, media_type: Any, data: Any) -> Any:
    if not isinstance(media_type, str) or not isinstance(data, str):
        raise Mismatch
    essence = media_type.partition(";")[0].strip().lower()
    if not essence.startswith("image/"):
        raise Mismatch  # not an image: this variant cannot carry it
    found = sniff_image(data)
    if found != essence:
        ctx.loss(
            at,
            "field_dropped",
            f"{ctx.adapter} sends images without a media type; these bytes read back as "
            f"{found or UNKNOWN_MEDIA_TYPE}",
        )
    return data


def _sniffed_image_decode(ctx: Context, wire: Any, at: str) -> tuple[str, str]:
    if not isinstance(wire, str):
        raise ConversionError("wrong_type", at, "an image is a base64 string")
    return sniff_image(wire) or UNKNOWN_MEDIA_TYPE, wire


SNIFFED_IMAGE = Transform(
    "sniffed_image",
    2,
    _sniffed_image_encode,
    _sniffed_image_decode,
    "An image as its bare base64 bytes (`[$media_type, $data]`), the media type left out: "
    "reading tells it from the leading bytes (PNG, JPEG, GIF, WebP, BMP, TIFF, AVIF, HEIC; "
    "`application/octet-stream` when they tell nothing); writing reports a media type the "
    "bytes would not read back as, and leaves a non-image to another variant.",
)


MEDIA_TRANSFORMS: Mapping[str, Transform] = {
    t.name: t
    for t in (
        IMAGE_FORMAT_WORD,
        DOCUMENT_FORMAT_WORD,
        VIDEO_FORMAT_WORD,
        AUDIO_FORMAT_WORD,
        URL_SCHEME,
        BASE64_TEXT,
        BASE64,
        SNIFFED_IMAGE,
    )
}
