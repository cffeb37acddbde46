"""Other spellings of a wire format's field names, read as the wire schema's (`spellings`).

Some APIs take a field under more than one name: Gemini's is a protobuf API, and its JSON
parser takes each field by its proto name (`inline_data`) as well as by the camelCase JSON
name the REST reference uses (`inlineData`); client libraries send either. The mapping says
so once (`spellings: {read: snake_case}`); this module derives, from the format's request
wire schema, one function per object the schema models that gives a body in the schema's
spelling: each field given under its other spelling renamed in place (the object copied,
never changed), and the objects it holds respelled in turn. Free-form objects (arguments,
results, caller-written schemas: `x-open` without properties) are the caller's data and are
left as they are.

The generated code is straight-line: a key set and a rename table per object, a function per
object (the run-time helpers in src/interlingua/conversion/adapters/spellings.py do the
renaming and the list walk, and refuse a field given under both spellings).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from generator.paths import SCHEMAS

_UPPER = re.compile(r"(?<!^)(?=[A-Z])")


def snake_case(name: str) -> str:
    """The proto field name of a camelCase JSON name (`inlineData` → `inline_data`)."""
    return _UPPER.sub("_", name).lower()


RULES = {"snake_case": snake_case}


@dataclass
class _Object:
    """One object the schema models: its fields with another spelling, and what each of
    its fields holds (another modelled object, or a list of them)."""

    name: str
    title: str
    renames: dict[str, str] = field(default_factory=dict)  # other spelling -> schema's
    children: dict[str, tuple[str, bool]] = field(default_factory=dict)  # key -> (def, list)


@dataclass
class SpellingPlan:
    """What the adapter module holds for a format's spellings (None: it has none)."""

    rule: str
    root: str  # the function respelling a request body
    objects: list[_Object]

    @property
    def source(self) -> str:
        """The module-level code: tables and functions."""
        out: list[str] = []
        for obj in self.objects:
            if obj.renames:
                table = {k: obj.renames[k] for k in sorted(obj.renames)}
                out.append(f"SPELT_{obj.name}: Final[dict[str, str]] = {table!r}")
                out.append(
                    f"SPELT_{obj.name}_KEYS: Final[frozenset[str]] = frozenset({sorted(table)!r})"
                )
        for obj in self.objects:
            out += ["", "", *_function(obj, self.rule)]
        return "\n".join(out) + "\n"


def _function(obj: _Object, rule: str) -> list[str]:
    doc = f'    """{obj.title}, in the wire schema\'s spelling ({rule} read as it)."""'
    lines = [f"def spell_{obj.name}(node: Any, at: str, given: dict[int, Any]) -> Any:", doc]
    lines.append("    if type(node) is not dict:")
    lines.append("        return node")
    if obj.renames:
        lines.append(
            f"    out = respelt(node, SPELT_{obj.name}, at) "
            f"if not SPELT_{obj.name}_KEYS.isdisjoint(node) else node"
        )
    else:
        lines.append("    out = node")
    others = {camel: other for other, camel in obj.renames.items()}
    for key, (child, many) in obj.children.items():
        other = others.get(key)
        token = json.dumps("/" + key)
        if other is not None:
            # The pointer names the field as the body spelt it.
            token = f'("/{other}" if {other!r} in node else "/{key}")'
        walk = f"spell_each(spell_{child}, " if many else f"spell_{child}("
        lines.append(f"    x = out.get({key!r})")
        lines.append("    if x is not None:")
        lines.append(f"        y = {walk}x, at + {token}, given)")
        lines.append("        if y is not x:")
        lines.append("            if out is node:")
        lines.append("                out = dict(node)")
        lines.append(f"            out[{key!r}] = y")
    lines.append("    if out is not node:")
    lines.append("        given[id(out)] = node")
    lines.append("    return out")
    return lines


def plan_spellings(data: dict[str, Any]) -> SpellingPlan | None:
    """The spelling plan of a mapping file (its `spellings`) over its request wire schema."""
    spellings = data.get("spellings")
    if not spellings:
        return None
    schema = json.loads((SCHEMAS / data["documents"]["request"]).read_text(encoding="utf-8"))
    return spelling_plan(spellings["read"], schema)


def spelling_plan(rule: str, schema: dict[str, Any]) -> SpellingPlan:
    """The spelling plan of a wire schema whose root is a `$ref` to one of its `$defs`."""
    defs: dict[str, Any] = schema.get("$defs", {})
    objects: dict[str, _Object] = {}
    root = _ref_name(schema)
    if root is None:
        raise ValueError("the request schema must be a $ref to a $defs entry")
    pending = [root]
    while pending:
        name = pending.pop()
        if name in objects:
            continue
        obj = objects[name] = _Object(name, defs[name].get("title", name))
        for key, sub in _properties(defs, defs[name]).items():
            other = RULES[rule](key)
            if other != key:
                obj.renames[other] = key
            child = _child(defs, sub)
            if child is not None:
                obj.children[key] = child
                pending.append(child[0])
    # Only what holds a field to respell is walked (a call, code and its result have none).
    needed = {name for name in objects if _holds_renames(objects, name, set())}
    for obj in objects.values():
        obj.children = {k: c for k, c in obj.children.items() if c[0] in needed}
    return SpellingPlan(rule, root, [objects[k] for k in sorted(needed)])


def _holds_renames(objects: dict[str, _Object], name: str, seen: set[str]) -> bool:
    """Whether the object, or one it holds at any depth, has a field to respell."""
    if name in seen:
        return False
    seen.add(name)
    obj = objects[name]
    return bool(obj.renames) or any(
        _holds_renames(objects, child, seen) for child, _ in obj.children.values()
    )


def _ref_name(node: Any) -> str | None:
    ref = node.get("$ref") if isinstance(node, dict) else None
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        return ref.removeprefix("#/$defs/")
    return None


def _modelled(defs: dict[str, Any], name: str) -> bool:
    """Whether the object is the schema's (it has fields), not the caller's free-form data."""
    node = defs[name]
    return bool(_properties(defs, node))


def _properties(defs: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    """An object's fields; a union's, every member's (the members of a keyed union)."""
    out: dict[str, Any] = dict(node.get("properties", {}))
    for member in [*node.get("oneOf", ()), *node.get("anyOf", ())]:
        name = _ref_name(member)
        fields = _properties(defs, defs[name]) if name else member.get("properties", {})
        for key, sub in fields.items():
            if key in out and _child(defs, out[key]) != _child(defs, sub):
                raise ValueError(f"{key!r} holds two kinds of object in one union")
            out.setdefault(key, sub)
    return out


def _child(defs: dict[str, Any], sub: Any) -> tuple[str, bool] | None:
    """The modelled object a field holds, and whether as a list of them."""
    if not isinstance(sub, dict):
        return None
    name = _ref_name(sub)
    if name is not None:
        return (name, False) if _modelled(defs, name) else None
    if sub.get("type") == "array":
        item = _ref_name(sub.get("items"))
        if item is not None and _modelled(defs, item):
            return (item, True)
    return None
