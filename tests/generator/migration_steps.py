"""A hand-written migration step, as a declaration file names one (`kind: step`): tool names
written `namespace__name` (a gateway's flattening) become a name and a namespace going up, and
are flattened again going down."""

from __future__ import annotations

from typing import Any

from interlingua.conversion import Loss

SEPARATOR = "__"


def split_namespace_up(part: dict[str, Any], at: str, losses: list[Loss]) -> dict[str, Any]:
    name = part.get("name")
    if "namespace" in part or not isinstance(name, str) or SEPARATOR not in name:
        return part
    namespace, _, short = name.partition(SEPARATOR)
    return {**part, "namespace": namespace, "name": short}


def split_namespace_down(part: dict[str, Any], at: str, losses: list[Loss]) -> dict[str, Any]:
    namespace = part.get("namespace")
    if not isinstance(namespace, str):
        return part
    flat = {key: value for key, value in part.items() if key != "namespace"}
    flat["name"] = f"{namespace}{SEPARATOR}{part.get('name', '')}"
    return flat
