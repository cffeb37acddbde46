"""The TypeScript target: an npm package in generated/typescript/ (types, codes, validators).

Types come from the bundle (one declaration per `$defs` entry); the validators come from the
same plan (`generator.plan.build_plan`) the Python validators are rendered from, so both
languages check the same things and report the same codes at the same pointers.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2

from generator.bundle import def_name_of, retryable_table
from generator.paths import ROOT
from generator.plan import build_plan

Json = Any
PACKAGE = Path("generated/typescript")
# The Node toolchain the tests build with pins the TypeScript the package is written for.
TOOLS = ROOT / "tools" / "node" / "package.json"
# interlingua.conversion.reading.DEFAULT_MAX_DEPTH (tests/typescript checks they agree): the
# generator
# does not import the runtime.
MAX_DEPTH = 256

# What each template emits, by the path it is named after (relative to the package).
FILES = (
    "package.json",
    "tsconfig.json",
    "README.md",
    "src/types.ts",
    "src/codes.ts",
    "src/validators.ts",
    "src/index.ts",
)


@dataclass(frozen=True)
class Field:
    name: str  # as JSON spells it; quoted in TypeScript when it is not an identifier
    type: str
    optional: bool
    description: str


@dataclass(frozen=True)
class Declaration:
    """One `$defs` entry as TypeScript: an interface (fields) or a type alias (``alias``)."""

    name: str
    description: str
    fields: tuple[Field, ...] = ()
    index: str | None = None  # the index signature's value type of an open object
    alias: str | None = None


def ts_string(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)


def ts_key(name: str) -> str:
    return name if name.isidentifier() and name.isascii() else ts_string(name)


def _is_open(schema: Json) -> bool:
    """Open to fields it does not name: `additionalProperties` absent or true.

    An object open only for forward compatibility (`x-forward`) is typed closed: a later
    version's field is a warning when read, and nothing a writer should write.
    """
    return schema.get("additionalProperties", True) is True and "x-forward" not in schema


def ts_type(schema: Json) -> str:
    """The TypeScript type of a (sub)schema of the bundle."""
    if schema is True or not isinstance(schema, dict):
        return "unknown"
    if "$ref" in schema:
        return def_name_of(schema["$ref"])
    if "const" in schema:
        return json.dumps(schema["const"], ensure_ascii=False)
    if "enum" in schema:
        return " | ".join(json.dumps(v, ensure_ascii=False) for v in schema["enum"])
    if "oneOf" in schema:
        return " | ".join(ts_type(member) for member in schema["oneOf"])
    kind = schema.get("type")
    if kind == "array":
        return f"Array<{ts_type(schema.get('items', True))}>"
    if kind in ("string", "boolean"):
        return str(kind)
    if kind in ("integer", "number"):
        return "number"
    if kind == "object" or "properties" in schema:
        fields = [
            f"{ts_key(n)}{'' if n in schema.get('required', []) else '?'}: {ts_type(s)}"
            for n, s in schema.get("properties", {}).items()
        ]
        extra = schema.get("additionalProperties", True)
        if isinstance(extra, dict):
            fields.append(f"[key: string]: {ts_type(extra)}")
        elif _is_open(schema):
            fields.append("[key: string]: unknown")
        return "{ " + "; ".join(fields) + " }" if fields else "Record<string, never>"
    return "unknown"


def declarations(bundle: dict[str, Json]) -> list[Declaration]:
    """One declaration per `$defs` entry, in the bundle's order.

    An open union `X` (`x-open-union`) becomes `KnownX` (its tagged members) and
    `X = KnownX | Fallback` (types.ts.j2 writes both); its fallback's tag gets a branded type,
    so a known tag (or a misspelt one) never types as the fallback.
    """
    defs = bundle["$defs"]
    fallbacks = {
        schema["x-open-union"]["fallback"]: schema["discriminator"]["propertyName"]
        for schema in defs.values()
        if "x-open-union" in schema
    }
    out = []
    for name, schema in defs.items():
        description = " ".join(schema.get("description", "").split())
        if schema.get("type") == "object" and not isinstance(
            schema.get("additionalProperties"), dict
        ):
            fields = tuple(
                Field(
                    field,
                    f"{name}Tag" if fallbacks.get(name) == field else ts_type(sub),
                    field not in schema.get("required", []),
                    " ".join(sub.get("description", "").split()) if isinstance(sub, dict) else "",
                )
                for field, sub in schema.get("properties", {}).items()
            )
            out.append(
                Declaration(name, description, fields, "unknown" if _is_open(schema) else None)
            )
        elif "x-open-union" in schema:
            fallback = schema["x-open-union"]["fallback"]
            known = [m for m in schema["oneOf"] if def_name_of(m["$ref"]) != fallback]
            out.append(Declaration(name, description, alias=ts_type({"oneOf": known})))
        else:
            out.append(Declaration(name, description, alias=ts_type(schema)))
    return out


def _open_union_facts(bundle: dict[str, Json]) -> list[dict[str, Json]]:
    defs = bundle["$defs"]
    facts = []
    for name, schema in defs.items():
        union = schema.get("x-open-union")
        if union:
            tags = sorted(schema["discriminator"]["mapping"])
            facts.append(
                {
                    "name": name,
                    "fallback": union["fallback"],
                    "tags": tags,
                    "prop": schema["discriminator"]["propertyName"],
                }
            )
    return facts


def render_typescript(
    bundle: dict[str, Json], env: jinja2.Environment, context: dict[str, Any]
) -> dict[Path, str]:
    """Every file of the npm package, keyed by its path relative to the repository."""
    plan = build_plan(bundle)
    defs = bundle["$defs"]
    codes = defs["ErrorCode"]["x-codes"]
    invariant_codes = sorted(
        {
            code
            for schema in defs.values()
            for inv in schema.get("x-invariants", [])
            for code in (inv["code"], inv.get("repeat_code"))
            if code
        }
    )
    env.filters["ts_key"] = ts_key
    init = (ROOT / "src" / "interlingua" / "__init__.py").read_text(encoding="utf-8")
    version = re.search(r'^__version__ = "([^"]+)"', init, re.MULTILINE)
    assert version is not None, "src/interlingua/__init__.py states no __version__"
    used_sets = _used_sets(plan.defs)  # once: it walks every plan node
    values = {
        **context,
        "package_version": version.group(1),
        "typescript_version": json.loads(TOOLS.read_text())["devDependencies"]["typescript"],
        "severities": defs["Severity"]["enum"],
        "max_depth": MAX_DEPTH,
        "header": " ".join(context["header"].replace("#", "").split()),
        "declarations": declarations(bundle),
        "open_unions": _open_union_facts(bundle),
        "codes": codes,
        "retryable": retryable_table(bundle),
        "invariant_codes": invariant_codes,
        "plan": plan,
        "sets": {
            name: sorted(values)
            for values, name in plan.constants.sets.items()
            if name in used_sets
        },
        "patterns": _patterns(plan.defs),
        "documents": plan.documents,
    }
    return {
        PACKAGE / rel: env.get_template(f"typescript/{rel.rsplit('/', 1)[-1]}.j2").render(values)
        for rel in FILES
    }


def _objects(node: Json) -> Iterator[dict[str, Json]]:
    """Every object in a plan node, at any depth (lists and tuples looked into)."""
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _objects(value)
    elif isinstance(node, list | tuple):
        for value in node:
            yield from _objects(value)


def _patterns(defs: list[Any]) -> dict[str, str]:
    """Every regular expression the plan checks (ECMA-262 already), named once each."""
    found: dict[str, str] = {}
    for node in (n for plan in defs for n in _objects(plan.node)):
        for key in ("regex", "names_regex"):
            if isinstance(node.get(key), str):
                found.setdefault(node[key], f"P{len(found)}")
    return found


def _used_sets(defs: list[Any]) -> set[str]:
    """The constant sets the TypeScript checks read (Python's fast path reads more)."""
    used: set[str] = set()
    for plan in defs:
        for node in (*_objects(plan.node), *_objects(plan.invariants)):
            if (
                node.get("k") == "object"
                and node["keys_set"]
                and (node["closed"] or (node["extra"] and node["extra"]["k"] != "any"))
            ):
                used.add(node["keys_set"])
            for key in ("set", "not_set", "allowed", "forbidden_set", "schema_valued_set"):
                if isinstance(node.get(key), str):
                    used.add(node[key])
    return used
