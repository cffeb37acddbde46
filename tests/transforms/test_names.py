"""Document names restricted to safe characters: kept, rewritten, or a placeholder."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from interlingua.conversion import Context, ConversionError
from interlingua.conversion.transforms import ABSENT, TRANSFORMS
from interlingua.conversion.transforms.names import safe_name

# The rule as the wire states it: letters, digits, single whitespace, hyphens, parentheses and
# square brackets, 1 to 200 characters.
RULE = re.compile(r"^(?!.*\s\s)[A-Za-z0-9\s()\[\]-]{1,200}$")


@pytest.fixture
def ctx() -> Context:
    return Context("test")


def test_a_valid_name_is_kept(ctx: Context) -> None:
    t = TRANSFORMS["document_name"]
    assert t.encode(ctx, "/p/title", "Q3 report (draft) [v2]") == "Q3 report (draft) [v2]"
    assert ctx.losses == []


@pytest.mark.parametrize(
    ("title", "name"),
    [
        ("report.pdf", "report"),
        ("/home/me/notes/meeting notes.txt", "meeting notes"),
        ("C:\\docs\\Q3_report.docx", "Q3 report"),
        ("a  b\tc", "a b c"),
        ("é.pdf", "document"),  # nothing safe left
        (".bashrc", "bashrc"),
    ],
)
def test_other_characters_are_rewritten_and_reported(ctx: Context, title: str, name: str) -> None:
    assert TRANSFORMS["document_name"].encode(ctx, "/p/title", title) == name
    assert [(x.pointer, x.code, x.part_type) for x in ctx.losses] == [
        ("/p/title", "name_rewritten", "document")
    ]


def test_no_title_gets_a_placeholder(ctx: Context) -> None:
    assert TRANSFORMS["document_name"].encode(ctx, "/p/title", ABSENT) == "document"
    assert [(x.pointer, x.code) for x in ctx.losses] == [("/p/title", "placeholder_inserted")]


def test_reading_takes_the_name_as_the_title(ctx: Context) -> None:
    assert TRANSFORMS["document_name"].decode(ctx, "Q3 report", "/w") == "Q3 report"
    with pytest.raises(ConversionError):
        TRANSFORMS["document_name"].decode(ctx, "", "/w")


@given(st.text(max_size=300))
def test_every_name_written_keeps_the_rule(title: str) -> None:
    ctx = Context("test")
    name = TRANSFORMS["document_name"].encode(ctx, "/t", title)
    assert RULE.match(name), name
    assert (name == title) == (ctx.losses == [])
    assert safe_name(name) == name  # a name written reads back and writes again unchanged
