"""The shape transforms: one-item lists, media kinds, file references, effort
levels, automatic counts and paragraphs."""

from __future__ import annotations

import pytest

from interlingua.conversion import Context, ConversionError
from interlingua.conversion.transforms import ABSENT, TRANSFORMS, Mismatch
from interlingua.conversion.transforms.shapes import guess_media_type, kind_of


@pytest.fixture
def ctx() -> Context:
    return Context("test")


def test_only_item(ctx: Context) -> None:
    t = TRANSFORMS["only_item"]
    assert t.encode(ctx, "/n", "f") == ["f"]
    assert t.encode(ctx, "/n", ABSENT) is ABSENT
    assert t.decode(ctx, ["f"], "/n") == "f"
    for other in ([], ["f", "g"]):
        with pytest.raises(Mismatch):
            t.decode(ctx, other, "/n")  # a narrower or wider reading would not be the same
    with pytest.raises(ConversionError):
        t.decode(ctx, "f", "/n")


def test_kind_of() -> None:
    assert [kind_of(m) for m in ("image/png", "AUDIO/wav", "video/mp4")] == [
        "image",
        "audio",
        "video",
    ]
    assert kind_of("application/pdf") == kind_of("text/plain") == "document"


def test_media_kind(ctx: Context) -> None:
    t = TRANSFORMS["media_kind"]
    assert t.literals
    assert t.encode(ctx, "/p", "image", "image/png") == "image/png"
    assert t.decode(ctx, "image/png", "/p", "image") == (None, "image/png")
    assert t.decode(ctx, "application/pdf", "/p", "document") == (None, "application/pdf")
    with pytest.raises(Mismatch):
        t.decode(ctx, "audio/wav", "/p", "image")
    with pytest.raises(Mismatch):
        t.decode(ctx, "image/png", "/p", "document")
    with pytest.raises(ConversionError):
        t.decode(ctx, "", "/p", "image")


def test_guess_media_type() -> None:
    assert guess_media_type("https://x/cat.PNG?size=2#top") == "image/png"
    assert guess_media_type("gs://bucket/q3.pdf") == "application/pdf"
    assert guess_media_type("https://x/files/abc123") is None
    assert guess_media_type("https://x.example/") is None
    assert guess_media_type("https://x/archive.tar.zst") is None


def test_file_ref_writes_the_media_type_it_has_and_invents_none(ctx: Context) -> None:
    t = TRANSFORMS["file_ref"]
    keys = ("mimeType", "fileUri")
    assert t.encode(ctx, "/p", *keys, "image", "image/webp", "gs://b/a") == {
        "mimeType": "image/webp",
        "fileUri": "gs://b/a",
    }
    assert t.encode(ctx, "/p", *keys, "image", ABSENT, "https://x/cat.png") == {
        "fileUri": "https://x/cat.png"
    }
    assert t.encode(ctx, "/p", *keys, "document", ABSENT, "https://x/files/abc") == {
        "fileUri": "https://x/files/abc"
    }
    assert ctx.losses == []  # the extension tells the kind back: nothing lost


def test_file_ref_reports_a_kind_it_cannot_tell_back(ctx: Context) -> None:
    t = TRANSFORMS["file_ref"]
    assert t.encode(
        ctx, "/m/0/content/1", "mimeType", "fileUri", "image", ABSENT, "https://x/img?id=3"
    ) == {"fileUri": "https://x/img?id=3"}
    assert [(x.pointer, x.code, x.part_type) for x in ctx.losses] == [
        ("/m/0/content/1", "field_dropped", "image")
    ]


def test_file_ref_reads_only_its_kind(ctx: Context) -> None:
    t = TRANSFORMS["file_ref"]
    keys = ("mimeType", "fileUri")
    wire = {"mimeType": "video/mp4", "fileUri": "https://x/files/v"}
    assert t.decode(ctx, wire, "/p", *keys, "video") == (
        None,
        None,
        None,
        "video/mp4",
        wire["fileUri"],
    )
    with pytest.raises(Mismatch):
        t.decode(ctx, wire, "/p", *keys, "image")
    # without a type, the extension tells the kind; no known extension is a document
    assert t.decode(ctx, {"fileUri": "gs://b/a.mp3"}, "/p", *keys, "audio")[3] is ABSENT
    with pytest.raises(Mismatch):
        t.decode(ctx, {"fileUri": "gs://b/a.mp3"}, "/p", *keys, "document")
    assert t.decode(ctx, {"fileUri": "gs://b/blob"}, "/p", *keys, "document")[4] == "gs://b/blob"


def test_file_ref_refuses_a_reference_without_uri(ctx: Context) -> None:
    t = TRANSFORMS["file_ref"]
    for wire, code, at in (
        ({"mimeType": "image/png"}, "missing_field", "/p/fileUri"),
        ({"mimeType": 3, "fileUri": "u"}, "wrong_type", "/p/mimeType"),
        ("u", "wrong_type", "/p"),
    ):
        with pytest.raises(ConversionError) as err:
            t.decode(ctx, wire, "/p", "mimeType", "fileUri", "image")
        assert (err.value.code, err.value.pointer) == (code, at)


GEMINI_LEVELS = "minimal low medium high"
OLLAMA_LEVELS = "low medium high"


def test_effort_level(ctx: Context) -> None:
    t = TRANSFORMS["effort_level"]
    assert t.encode(ctx, "/e", "high", ABSENT, GEMINI_LEVELS) == "HIGH"
    assert t.encode(ctx, "/e", ABSENT, ABSENT, GEMINI_LEVELS) is ABSENT
    assert t.encode(ctx, "/e", ABSENT, 512, GEMINI_LEVELS) is ABSENT
    assert ctx.losses == []
    assert t.decode(ctx, "LOW", "/e", GEMINI_LEVELS) == ("low", ABSENT, None)
    assert t.decode(ctx, "THINKING_LEVEL_UNSPECIFIED", "/e", GEMINI_LEVELS) == (
        ABSENT,
        ABSENT,
        None,
    )
    with pytest.raises(ConversionError):
        t.decode(ctx, 2, "/e", GEMINI_LEVELS)


def test_effort_level_takes_the_levels_its_list_names() -> None:
    t = TRANSFORMS["effort_level"]
    ctx = Context("test", fidelity=False)
    assert t.encode(ctx, "/e", "xhigh", ABSENT, "low high xhigh") == "XHIGH"
    assert t.decode(ctx, "XHIGH", "/e", "low high xhigh") == ("xhigh", ABSENT, None)
    assert ctx.losses == []
    assert t.encode(ctx, "/e", "xhigh", ABSENT, GEMINI_LEVELS) is ABSENT
    assert t.decode(ctx, "XHIGH", "/e", GEMINI_LEVELS) == (ABSENT, ABSENT, None)
    assert [(x.pointer, x.code) for x in ctx.losses] == [
        ("/e", "parameter_dropped"),
        ("/e", "parameter_dropped"),
    ]


def test_effort_level_gives_way_to_a_budget(ctx: Context) -> None:
    t = TRANSFORMS["effort_level"]
    assert t.encode(ctx, "/parameters/reasoning_effort", "low", 1024, GEMINI_LEVELS) is ABSENT
    assert [(x.pointer, x.code) for x in ctx.losses] == [
        ("/parameters/reasoning_effort", "parameter_dropped")
    ]


def test_auto_count(ctx: Context) -> None:
    t = TRANSFORMS["auto_count"]
    assert t.encode(ctx, "/b", 1024) == 1024
    assert t.decode(ctx, 0, "/b") == 0
    assert t.decode(ctx, 2048, "/b") == 2048
    assert t.decode(ctx, -1, "/b") is ABSENT  # the provider decides: no canonical budget
    assert ctx.losses == []  # the same format's round-trip data keeps it
    for bad in ("1024", 1.5, True):
        with pytest.raises(ConversionError):
            t.decode(ctx, bad, "/b")
    elsewhere = Context("test", fidelity=False)
    assert t.decode(elsewhere, -1, "/b") is ABSENT
    assert [(x.pointer, x.code) for x in elsewhere.losses] == [("/b", "parameter_dropped")]


def test_effort_or_switch(ctx: Context) -> None:
    t = TRANSFORMS["effort_or_switch"]
    assert t.encode(ctx, "/e", "high", OLLAMA_LEVELS) == "high"
    assert t.encode(ctx, "/e", ABSENT, OLLAMA_LEVELS) is ABSENT
    assert ctx.losses == []
    assert t.encode(ctx, "/e", "minimal", OLLAMA_LEVELS) is ABSENT  # no such level word: reported
    assert [(x.pointer, x.code) for x in ctx.losses] == [("/e", "parameter_dropped")]
    for level in ("low", "medium", "high"):
        assert t.decode(ctx, level, "/think", OLLAMA_LEVELS) == (level, None)
    assert t.decode(ctx, True, "/think", OLLAMA_LEVELS) == (ABSENT, None)
    assert t.decode(ctx, False, "/think", OLLAMA_LEVELS) == (ABSENT, None)
    assert len(ctx.losses) == 1  # round-trip data keeps a bare switch for the same format
    elsewhere = Context("test", fidelity=False)
    assert t.decode(elsewhere, True, "/think", OLLAMA_LEVELS) == (ABSENT, None)
    assert [(x.pointer, x.code) for x in elsewhere.losses] == [("/think", "parameter_dropped")]
    for bad in ("max", 1, None):
        with pytest.raises(ConversionError) as err:
            t.decode(ctx, bad, "/think", OLLAMA_LEVELS)
        assert (err.value.code, err.value.pointer) == ("not_in_enum", "/think")


def test_paragraphs(ctx: Context) -> None:
    t = TRANSFORMS["paragraphs"]
    assert t.encode(ctx, "/s", "p", "a") == [{"type": "p", "text": "a"}]
    assert t.encode(ctx, "/s", "p", "") == []
    assert t.encode(ctx, "/s", "p", ABSENT) is ABSENT
    assert t.decode(ctx, [], "/s", "p") == (None, "")
    two = [{"type": "p", "text": "a"}, {"type": "p", "text": "b"}]
    assert t.decode(ctx, two, "/s", "p") == (None, "a\n\nb")
    assert ctx.losses == []  # round-trip data keeps the split
    crossing = Context("test", fidelity=False)
    t.decode(crossing, two, "/s", "p")
    assert [(loss.pointer, loss.code) for loss in crossing.losses] == [("/s", "parts_merged")]
    for bad, where in (("x", "/s"), ([{"type": "q", "text": "a"}], "/s/0"), (["a"], "/s/0")):
        with pytest.raises(ConversionError) as error:
            t.decode(ctx, bad, "/s", "p")
        assert error.value.pointer == where


def test_a_paragraphs_other_fields_are_reported_when_crossing(ctx: Context) -> None:
    """A paragraph's fields besides its tag and text have no canonical home: round-trip data
    keeps them, and crossing to another format reports each that carries something (they
    were dropped unreported before)."""
    t = TRANSFORMS["paragraphs"]
    paragraphs = [
        {"type": "p", "text": "a", "note/x": "kept?", "empty": ""},
        {"type": "p", "text": "b"},
    ]
    assert t.decode(ctx, paragraphs, "/s", "p") == (None, "a\n\nb")
    assert ctx.losses == []  # round-trip data keeps the paragraph whole
    crossing = Context("test", fidelity=False)
    assert t.decode(crossing, paragraphs, "/s", "p") == (None, "a\n\nb")
    assert [(loss.pointer, loss.code, loss.reason) for loss in crossing.losses] == [
        ("/s/0/note~1x", "field_dropped", "test: `note/x` has no canonical home; not carried"),
        ("/s", "parts_merged", "test: the paragraphs are joined into one text"),
    ]
