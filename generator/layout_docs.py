"""The reference page of a mapping's layout keys, rendered from the mapping meta-schema.

Each layout key's meaning and default are written once, in `schemas/meta/mapping.json`; the
generator resolves them into each format's turn reader and writer
(`generator/templates/python/turns.py.j2`), and this page shows them: nothing restates them.
"""

from __future__ import annotations

import json
from pathlib import PurePosixPath
from typing import Any

from generator.docs import REFERENCE, code, json_code, md_text

Json = Any
PAGE = REFERENCE / "layout.md"


def _values(schema: Json) -> str:
    """What a key takes, in a few words."""
    if "enum" in schema:
        return " / ".join(json_code(value) for value in schema["enum"])
    kind = schema.get("type")
    if kind == "array":
        items = schema.get("items", {})
        if "enum" in items:
            return "list of " + " / ".join(json_code(value) for value in items["enum"])
        return f"list of {items.get('type', 'values')}s"
    if kind == "object":
        members = ", ".join(code(name) for name in schema.get("properties", {}))
        return f"object ({members})" if members else "object"
    if isinstance(kind, list):
        return " or ".join(kind)
    return str(kind) if kind else "JSON value"


def layout_page(meta: Json, header: str) -> dict[PurePosixPath, str]:
    """The page: one row per layout key, in the meta-schema's order."""
    layout = meta["properties"]["layout"]
    required = set(layout.get("required", ()))
    lines = [
        header,
        "# Layout keys",
        "",
        "The `layout` section of a mapping file (`schemas/mappings/<format>.yaml`) says how the "
        "format lays turns out. The generator fixes every decision it names in the format's "
        "generated turn reader and writer (`generator/templates/python/turns.py.j2`), so no "
        "layout flag is read while converting. This table is rendered from the descriptions "
        "and defaults in the mapping meta-schema (`schemas/meta/mapping.json`), the one place "
        "they are written.",
        "",
        "| key | values | default | meaning |",
        "|---|---|---|---|",
    ]
    for key, schema in layout["properties"].items():
        if key in required:
            default = "required"
        elif "default" in schema:
            default = code(json.dumps(schema["default"], ensure_ascii=False))
        else:
            default = "none"
        meaning = md_text(schema.get("description", ""), cell=True)
        lines.append(f"| {code(key)} | {_values(schema)} | {default} | {meaning} |")
    spellings = meta["properties"]["spellings"]
    lines += [
        "",
        "## Spellings",
        "",
        "The mapping's `spellings` section (beside `layout`, rendered from the same "
        "meta-schema). " + md_text(spellings["description"]),
        "",
        "| key | values | meaning |",
        "|---|---|---|",
    ]
    for key, schema in spellings["properties"].items():
        meaning = md_text(schema.get("description", ""), cell=True)
        lines.append(f"| {code(key)} | {_values(schema)} | {meaning} |")
    return {PAGE: "\n".join(lines) + "\n"}
