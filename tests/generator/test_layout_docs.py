"""The layout keys page: every key of the mapping meta-schema, with its meaning and default."""

from __future__ import annotations

import json

from generator.layout_docs import PAGE, layout_page
from generator.paths import SCHEMAS
from generator.render import layout_defaults

META = json.loads((SCHEMAS / "meta" / "mapping.json").read_text(encoding="utf-8"))
KEYS = META["properties"]["layout"]["properties"]


def test_every_layout_key_has_a_meaning_and_a_row() -> None:
    (text,) = layout_page(META, "<!-- header -->").values()
    layout = text.split("## Spellings")[0]
    rows = [line for line in layout.splitlines() if line.startswith("| `")]
    assert [row.split("`")[1] for row in rows] == list(KEYS)
    assert all(KEYS[key].get("description") for key in KEYS)


def test_the_spellings_section_is_rendered_from_the_meta_schema() -> None:
    (text,) = layout_page(META, "<!-- header -->").values()
    section = text.split("## Spellings")[1]
    spellings = META["properties"]["spellings"]
    assert " ".join(spellings["description"].split()[:6]) in section
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    assert [row.split("`")[1] for row in rows] == list(spellings["properties"])
    assert '`"snake_case"`' in rows[0]


def test_the_row_shows_values_default_and_meaning() -> None:
    (text,) = layout_page(META, "<!-- header -->").values()
    row = next(line for line in text.splitlines() if line.startswith("| `tool_results` |"))
    assert '`"own_message"` / `"user_blocks"`' in row and "| required |" in row
    row = next(line for line in text.splitlines() if line.startswith("| `hoist_roles` |"))
    assert '`["system", "developer"]`' in row and "list of" in row
    row = next(line for line in text.splitlines() if line.startswith("| `items` |"))
    assert "object (`owners`, `message`)" in row and "| none |" in row
    assert text.startswith("<!-- header -->\n# Layout keys")


def test_the_generator_takes_its_defaults_from_the_meta_schema() -> None:
    defaults = layout_defaults()
    assert defaults["system"] == "inline" and defaults["blank_text"] == "keep"
    assert defaults["hoist_roles"] == ["system", "developer"]
    assert defaults["signature_field"] is None  # no default: the key is simply absent
    assert set(defaults) == set(KEYS)


def test_the_page_is_a_reference_page() -> None:
    assert PAGE.as_posix() == "docs/reference/layout.md"
