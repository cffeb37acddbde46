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
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    assert [row.split("`")[1] for row in rows] == list(KEYS)
    assert all(KEYS[key].get("description") for key in KEYS)


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
