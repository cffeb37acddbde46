"""The reasoning-effort table of the formats page: for each format that writes requests and
each rung of the canonical `reasoning_effort` ladder, the word its writer sends, worked out at
generation time from its mapping file (a plain value is written as it is; an `@only` list, or
another transform, is asked the rung), so the table says what the writer does.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

Json = Any

PARAMETER = "reasoning_effort"


def _mentions(node: Json, var: str) -> bool:
    if isinstance(node, dict):
        return any(_mentions(value, var) for value in node.values())
    if isinstance(node, list):
        return any(_mentions(value, var) for value in node)
    return bool(node == f"${var}")


def _uses(node: Json, var: str) -> Iterator[Json]:
    """The outermost wire nodes that mention ``$var``: the variable, or a transform's call."""
    if node == f"${var}":
        yield node
    elif isinstance(node, dict) and list(node) == ["@merge"]:  # objects merged: look inside
        for member in node["@merge"]:
            yield from _uses(member, var)
    elif isinstance(node, dict) and len(node) == 1 and next(iter(node)).startswith("@"):
        if _mentions(node, var):
            yield node
    elif isinstance(node, dict):
        for value in node.values():
            yield from _uses(value, var)


def written(mapping: Json, rung: str) -> str | None:
    """The word ``mapping``'s request writer sends for the rung (None: it leaves the setting
    out, reported)."""
    from interlingua.conversion import Context  # noqa: PLC0415 (runtime, at generation)
    from interlingua.conversion.transforms import TRANSFORMS  # noqa: PLC0415
    from interlingua.conversion.transforms.base import ABSENT  # noqa: PLC0415

    request = mapping.get("request", {})
    parameters = request.get("canonical", {}).get("parameters", {})
    var = str(parameters.get(PARAMETER, "")).lstrip("$")
    found = list(_uses(request.get("wire", {}), var)) if var else []
    if not found:
        return None  # no place
    (node,) = found
    if isinstance(node, str):
        return rung
    ((op, args),) = node.items()
    given = [
        rung if a == f"${var}" else ABSENT if isinstance(a, str) and a.startswith("$") else a
        for a in (args if isinstance(args, list) else [args])
    ]
    ctx = Context(adapter=mapping["format"])
    word = TRANSFORMS[op[1:]].encode(ctx, "", *given)
    return None if ctx.losses or word is ABSENT else str(word)


def effort_rows(mappings: dict[str, Json], ladder: list[str]) -> dict[str, list[str | None]]:
    """By format with a request writer, the word written for each rung of ``ladder`` (None:
    left out, reported)."""
    return {
        name: [written(mapping, rung) for rung in ladder]
        for name, mapping in sorted(mappings.items())
        if "request" in mapping
    }
