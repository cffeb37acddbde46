"""Media format words, URLs of one scheme, and text given inline for base64 bytes."""

from __future__ import annotations

import pytest

from interlingua.conversion import Context, ConversionError
from interlingua.conversion.transforms import TRANSFORMS, Mismatch


@pytest.fixture
def ctx() -> Context:
    return Context("test")


@pytest.mark.parametrize(
    ("name", "media_type", "word"),
    [
        ("image_format_word", "image/png", "png"),
        ("image_format_word", "image/jpeg", "jpeg"),
        ("image_format_word", "image/jpg", "jpeg"),  # a common misspelling, read as jpeg
        ("image_format_word", "IMAGE/WEBP", "webp"),
        ("document_format_word", "application/pdf", "pdf"),
        ("document_format_word", "text/plain", "txt"),
        ("document_format_word", "text/markdown", "md"),
        (
            "document_format_word",
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
            "docx",
        ),
        ("video_format_word", "video/mpeg", "mpeg"),  # the first word listed for the type
        ("video_format_word", "video/3gpp", "three_gp"),
        ("audio_format_word", "audio/mpeg", "mp3"),
        ("audio_format_word", "audio/x-wav", "wav"),
        ("audio_format_word", "audio/x-m4a", "m4a"),
    ],
)
def test_format_words_are_written(ctx: Context, name: str, media_type: str, word: str) -> None:
    assert TRANSFORMS[name].encode(ctx, "/t", media_type) == word
    assert ctx.losses == []


@pytest.mark.parametrize(
    ("name", "word", "media_type"),
    [
        ("image_format_word", "gif", "image/gif"),
        (
            "document_format_word",
            "xlsx",
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        ),
        ("video_format_word", "mpg", "video/mpeg"),  # shares its type with mpeg
        ("video_format_word", "mkv", "video/x-matroska"),
        ("audio_format_word", "mpga", "audio/mpeg"),
        ("audio_format_word", "mka", "audio/x-matroska"),
        ("audio_format_word", "pcm", "audio/pcm"),
    ],
)
def test_format_words_are_read(ctx: Context, name: str, word: str, media_type: str) -> None:
    assert TRANSFORMS[name].decode(ctx, word, "/w") == media_type


def test_media_types_without_a_word_are_another_variants(ctx: Context) -> None:
    for name, media_type in (
        ("image_format_word", "image/svg+xml"),
        ("document_format_word", "application/zip"),
        ("audio_format_word", "video/mp4"),
        ("image_format_word", 5),
    ):
        with pytest.raises(Mismatch):
            TRANSFORMS[name].encode(ctx, "/t", media_type)
    assert ctx.losses == []


def test_media_type_parameters_are_reported(ctx: Context) -> None:
    word = TRANSFORMS["audio_format_word"].encode(ctx, "/s/media_type", "audio/pcm; rate=16000")
    assert word == "pcm"
    assert [(x.pointer, x.code) for x in ctx.losses] == [("/s/media_type", "field_dropped")]


def test_unknown_words_are_refused(ctx: Context) -> None:
    for bad in ("bmp", 1, None):
        with pytest.raises(ConversionError) as err:
            TRANSFORMS["image_format_word"].decode(ctx, bad, "/w/format")
        assert (err.value.code, err.value.pointer) == ("not_in_enum", "/w/format")


def test_url_scheme(ctx: Context) -> None:
    t = TRANSFORMS["url_scheme"]
    assert t.encode(ctx, "/u", "s3", "s3://bucket/a.png") == "s3://bucket/a.png"
    assert t.encode(ctx, "/u", "s3", "S3://bucket/a.png") == "S3://bucket/a.png"
    for other in ("https://x/a.png", "gs://b/a.png", "s3:/bucket", 7):
        with pytest.raises(Mismatch):
            t.encode(ctx, "/u", "s3", other)
    assert t.decode(ctx, "s3://bucket/a.png", "/w") == (None, "s3://bucket/a.png")
    with pytest.raises(ConversionError):
        t.decode(ctx, "", "/w")


def test_base64_text(ctx: Context) -> None:
    t = TRANSFORMS["base64_text"]
    assert t.decode(ctx, "Ship on Friday.", "/w") == "U2hpcCBvbiBGcmlkYXku"
    assert t.encode(ctx, "/d", "U2hpcCBvbiBGcmlkYXku") == "Ship on Friday."
    assert t.encode(ctx, "/d", t.decode(ctx, "naïve — ok", "/w")) == "naïve — ok"
    with pytest.raises(Mismatch):
        t.encode(ctx, "/d", "/9j/4A==")  # JPEG bytes are not UTF-8 text
    with pytest.raises(Mismatch):
        t.encode(ctx, "/d", "not base64!")
    with pytest.raises(ConversionError):
        t.decode(ctx, ["text"], "/w")


def test_base64_reads_either_alphabet_as_the_standard_one(ctx: Context) -> None:
    t = TRANSFORMS["base64"]
    assert t.decode(ctx, "JVBERi0xLjQK-__-", "/w") == "JVBERi0xLjQK+//+"
    assert t.decode(ctx, "JVBERi0xLjQK+//+", "/w") == "JVBERi0xLjQK+//+"
    assert t.encode(ctx, "/d", "JVBERi0xLjQK+//+") == "JVBERi0xLjQK+//+"
    with pytest.raises(ConversionError):
        t.decode(ctx, 3, "/w")


# Leading bytes of real files, base64-encoded (1×1 images, and a WAV header).
PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
JPEG = "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8U"
GIF = "R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw=="
WEBP = "UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA=="
WAV = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA="


@pytest.mark.parametrize(
    ("data", "media_type"),
    [
        (PNG, "image/png"),
        (JPEG, "image/jpeg"),
        (GIF, "image/gif"),
        (WEBP, "image/webp"),
        ("Qk0eAAAAAAAAABoAAAAMAAAAAQABAAEAGAAAAP8A", "image/bmp"),
        ("SUkqAAgAAAA=", "image/tiff"),
        ("TU0AKgAAAAg=", "image/tiff"),
        ("AAAAHGZ0eXBhdmlmAAAAAGF2aWY=", "image/avif"),
        ("AAAAGGZ0eXBoZWljAAAAAG1pZjE=", "image/heic"),
    ],
)
def test_images_are_told_by_their_bytes(ctx: Context, data: str, media_type: str) -> None:
    t = TRANSFORMS["sniffed_image"]
    assert t.decode(ctx, data, "/images/0") == (media_type, data)
    assert t.encode(ctx, "/s/media_type", media_type, data) == data
    assert ctx.losses == []


def test_bytes_that_tell_nothing_read_as_octet_stream(ctx: Context) -> None:
    t = TRANSFORMS["sniffed_image"]
    for data in (WAV, "AAECAwQFBgc=", "", "!!!not base64!!!", "iVBO"):
        assert t.decode(ctx, data, "/images/0") == ("application/octet-stream", data)
    with pytest.raises(ConversionError) as err:
        t.decode(ctx, 7, "/images/0")
    assert (err.value.code, err.value.pointer) == ("wrong_type", "/images/0")


def test_a_media_type_the_bytes_do_not_announce_is_reported(ctx: Context) -> None:
    t = TRANSFORMS["sniffed_image"]
    assert t.encode(ctx, "/s/media_type", "image/jpeg", PNG) == PNG
    assert t.encode(ctx, "/t/media_type", "image/png", "AAECAwQFBgc=") == "AAECAwQFBgc="
    assert t.encode(ctx, "/u/media_type", "IMAGE/PNG; q=1", PNG) == PNG  # same essence: fine
    assert [(x.pointer, x.code) for x in ctx.losses] == [
        ("/s/media_type", "field_dropped"),
        ("/t/media_type", "field_dropped"),
    ]
    assert "image/png" in ctx.losses[0].reason
    assert "application/octet-stream" in ctx.losses[1].reason


def test_only_images_are_sniffed_images(ctx: Context) -> None:
    t = TRANSFORMS["sniffed_image"]
    for media_type, data in (("audio/wav", WAV), ("application/pdf", "JVBERi0="), (1, PNG)):
        with pytest.raises(Mismatch):
            t.encode(ctx, "/s", media_type, data)
    assert ctx.losses == []
