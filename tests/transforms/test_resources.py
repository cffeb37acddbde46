"""`resource_kind`: a resource's URI standing for its URI and its kind, each way."""

from __future__ import annotations

import pytest

from interlingua.conversion import Context, ConversionError
from interlingua.conversion.transforms import TRANSFORMS
from interlingua.conversion.transforms.resources import kind_of

T = TRANSFORMS["resource_kind"]


@pytest.fixture
def ctx() -> Context:
    return Context("test")


def test_takes_the_part_type_from_the_mapping() -> None:
    assert T.literals and T.arity == 3


@pytest.mark.parametrize(
    ("uri", "kind"),
    [
        ("file:///repo/README.md", "file"),
        ("FILE:///C:/x.txt", "file"),
        ("https://example.com/a", "uri"),
        ("db://orders/42", "uri"),
        ("no-scheme", "uri"),
    ],
)
def test_the_kind_is_what_the_uri_shows(uri: str, kind: str) -> None:
    assert kind_of(uri) == kind


def test_reading_gives_the_uri_and_its_kind(ctx: Context) -> None:
    assert T.decode(ctx, "file:///a.txt", "/b/uri", "resource") == ("file:///a.txt", "file", None)
    assert T.decode(ctx, "https://x/y", "/b/uri", "resource") == ("https://x/y", "uri", None)
    assert ctx.losses == []


def test_writing_the_kind_the_uri_shows_loses_nothing(ctx: Context) -> None:
    assert T.encode(ctx, "/m/0/content/0/uri", "file:///a", "file", "resource") == "file:///a"
    assert ctx.losses == []


def test_writing_another_kind_reports_it_dropped(ctx: Context) -> None:
    assert T.encode(ctx, "/m/0/content/0/uri", "db://t/1", "database", "resource_ref") == (
        "db://t/1"
    )
    [loss] = ctx.losses
    assert (loss.pointer, loss.code, loss.part_type) == (
        "/m/0/content/0/resource_type",
        "field_dropped",
        "resource_ref",
    )
    assert "'database'" in loss.reason and "'uri'" in loss.reason


@pytest.mark.parametrize("wire", [None, 3, "", ["file:///a"]])
def test_a_uri_that_is_not_a_string_is_refused(ctx: Context, wire: object) -> None:
    with pytest.raises(ConversionError) as caught:
        T.decode(ctx, wire, "/b/uri", "resource")
    assert (caught.value.code, caught.value.pointer) == ("wrong_type", "/b/uri")
