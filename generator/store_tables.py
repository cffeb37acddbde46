"""Tables the store and cost accounting read: each format's provider key (from the mapping
files' `provider`) and the price table (`schemas/pricing/prices.json`, checked against
`$defs/PriceTable` before anything is written)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from generator.adapters import load_mappings
from generator.load import SchemaLoadError
from generator.paths import SCHEMAS

PRICES = SCHEMAS / "pricing" / "prices.json"


def price_table(bundle: dict[str, Any], path: Path = PRICES) -> dict[str, Any]:
    """The price table, valid against the bundle's `PriceTable`, with no alias naming two
    models (or a model under another's name)."""
    try:
        table: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SchemaLoadError(f"{path}: {exc}") from exc
    schema = {**bundle, "$ref": "#/$defs/PriceTable"}
    schema.pop("oneOf", None)
    for error in Draft202012Validator(schema).iter_errors(table):
        pointer = "/" + "/".join(str(p) for p in error.absolute_path)
        raise SchemaLoadError(f"{path}#{pointer}: {error.message[:200]}")
    seen: dict[str, str] = {name: name for name in table["models"]}
    for name, price in table["models"].items():
        for alias in price.get("aliases", []):
            if alias in seen:
                raise SchemaLoadError(f"{path}: alias {alias!r} of {name} also names {seen[alias]}")
            seen[alias] = name
    return table


def providers() -> dict[str, str]:
    """Each format's provider key, from its mapping file's `provider`."""
    found = {m.format: m.data["provider"] for m in load_mappings() if "provider" in m.data}
    return dict(sorted(found.items()))
