"""Policy checks on the schemas, beyond what JSON Schema itself can say.

Each finding has a stable id, a level and a location (`file#/json/pointer`). Violations stop
generation; improvements are printed. The rules keep the schemas generatable and honest:
named objects, tagged unions, documented openness, one home per seed field.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from generator.bundle import def_name_of
from generator.load import SchemaFile, Sources

Json = Any

# Keywords the validator compiler understands. Anything else would be silently ignored by the
# generated validators, so it is refused here instead.
SUPPORTED_KEYWORDS = frozenset(
    {
        "$schema",
        "$id",
        "$comment",
        "title",
        "description",
        "$defs",
        "$ref",
        "type",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "minItems",
        "maxItems",
        "uniqueItems",
        "minLength",
        "maxLength",
        "pattern",
        "format",
        "enum",
        "const",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "oneOf",
        "discriminator",
        "not",
        "propertyNames",
        "examples",
    }
)


@dataclass(frozen=True, order=True)
class Finding:
    """One lint result."""

    location: str
    id: str
    level: str  # "violation" stops generation; "improvement" is advice
    message: str

    def __str__(self) -> str:
        return f"{self.level}: {self.id}: {self.location}: {self.message}"


def _esc(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def _walk(node: Json, pointer: str) -> Iterator[tuple[str, dict[str, Json]]]:
    """Every subschema with its pointer."""
    if not isinstance(node, dict):
        return
    yield pointer, node
    for key in ("properties", "$defs"):
        for name, sub in node.get(key, {}).items():
            yield from _walk(sub, f"{pointer}/{key}/{_esc(name)}")
    for key in ("items", "additionalProperties", "not", "propertyNames"):
        if isinstance(node.get(key), dict):
            yield from _walk(node[key], f"{pointer}/{key}")
    for i, sub in enumerate(node.get("oneOf", [])):
        yield from _walk(sub, f"{pointer}/oneOf/{i}")


def lint(sources: Sources, bundle: dict[str, Json]) -> list[Finding]:
    findings: list[Finding] = []
    for file in sources.files:
        findings.extend(_lint_file(file))
    findings.extend(_lint_bundle(bundle))
    findings.extend(_lint_seeds(sources, bundle))
    findings.extend(_lint_views(bundle))
    return sorted(findings)


def _view_paths(view: dict[str, Json]) -> Iterator[str]:
    for key in ("name", "entity", "args", "mime_type"):
        if view.get(key):
            yield view[key]
    for template in view.get("uri", []):
        yield from re.findall(r"\{([^{}]+)\}", template)
    for rule in view.get("content", []) + view.get("size", []):
        yield from (path for path in rule.values() if path)
    for spec in view.get("properties", {}).values():
        yield from (v for k, v in spec.items() if k in ("field", "count", "present"))


def _lint_views(bundle: dict[str, Json]) -> Iterator[Finding]:
    """Every part type says how it becomes a view, naming only fields it has and known kinds."""
    defs = bundle["$defs"]
    kinds = defs.get("ViewKind", {})
    known = set(kinds.get("enum", []))
    if not known:
        return  # a schema set without views has nothing to check here
    if set(kinds.get("x-kinds", {})) != known:
        yield Finding(
            "bundle#/$defs/ViewKind",
            "IL017",
            "violation",
            "x-kinds must describe exactly the ViewKind enum",
        )
    for union in (s for s in defs.values() if "x-open-union" in s):
        for member in union["oneOf"]:
            name = def_name_of(member["$ref"])
            at = f"bundle#/$defs/{name}"
            view = defs[name].get("x-view")
            if view is None:
                yield Finding(
                    at, "IL016", "violation", "every part type needs an x-view annotation"
                )
                continue
            if view["kind"] not in known:
                yield Finding(
                    at, "IL017", "violation", f"x-view kind {view['kind']!r} is not a ViewKind"
                )
            for path in _view_paths(view):
                if not _path_exists(defs, defs[name], path.split("/")):
                    yield Finding(
                        at,
                        "IL016",
                        "violation",
                        f"x-view names {path!r}, which {name} does not define",
                    )


def _is_object_schema(node: dict[str, Json]) -> bool:
    return node.get("type") == "object" or "properties" in node


def _lint_file(file: SchemaFile) -> Iterator[Finding]:  # noqa: C901 - one check per lint rule
    where = file.path.as_posix() + "#"
    defs = file.contents.get("$defs", {})
    for name, schema in defs.items():
        at = f"{where}/$defs/{_esc(name)}"
        if schema.get("title") != name:
            yield Finding(at, "IL002", "violation", f"title must equal the $defs name {name!r}")
        if not schema.get("description"):
            yield Finding(at, "IL003", "violation", "every named type needs a description")
        for prop, sub in schema.get("properties", {}).items():
            if not sub.get("description"):
                yield Finding(
                    f"{at}/properties/{_esc(prop)}",
                    "IL003",
                    "violation",
                    "property needs a description",
                )
    for pointer, node in _walk(file.contents, ""):
        at = where + pointer
        top_level_def = pointer.count("/") == 2 and pointer.startswith("/$defs/")
        for keyword in node:
            if keyword not in SUPPORTED_KEYWORDS and not keyword.startswith("x-"):
                yield Finding(
                    at,
                    "IL007",
                    "violation",
                    f"keyword {keyword!r} is not supported by the validator compiler",
                )
        if "properties" in node and not top_level_def:
            yield Finding(
                at,
                "IL001",
                "violation",
                "objects with properties must be named $defs entries, not inline",
            )
        if _is_object_schema(node):
            extra = node.get("additionalProperties", True)
            is_typed_map = isinstance(extra, dict) and "properties" not in node
            if extra is not False and not is_typed_map and "x-open" not in node:
                yield Finding(
                    at,
                    "IL006",
                    "violation",
                    "open object: set additionalProperties false or say why in x-open",
                )
        if "oneOf" in node:
            yield from _lint_union(at, node, file.contents.get("$defs", {}))
        items = node.get("items", {})
        if "$ref" in items and def_name_of(items["$ref"]) in file.contents.get("$defs", {}):
            items = file.contents["$defs"][def_name_of(items["$ref"])]
        if node.get("uniqueItems") and items.get("type") != "string":
            yield Finding(
                at, "IL014", "violation", "uniqueItems is supported on arrays of strings only"
            )
        if "not" in node and set(node["not"]) != {"enum"}:
            yield Finding(
                at, "IL007", "violation", "`not` is supported only as `not: {enum: [...]}`"
            )
        if "propertyNames" in node and set(node["propertyNames"]) != {"pattern"}:
            yield Finding(
                at, "IL007", "violation", "`propertyNames` is supported only as `{pattern: ...}`"
            )


def _lint_union(at: str, node: dict[str, Json], local_defs: dict[str, Json]) -> Iterator[Finding]:
    disc = node.get("discriminator")
    if not disc:
        yield Finding(
            at,
            "IL005",
            "violation",
            "a oneOf must declare a discriminator with an explicit mapping",
        )
        return
    prop, mapping = disc["propertyName"], disc["mapping"]
    open_union = node.get("x-open-union")
    fallback = open_union["fallback"] if open_union else None
    members = [def_name_of(m["$ref"]) for m in node["oneOf"] if "$ref" in m]
    if len(members) != len(node["oneOf"]):
        yield Finding(at, "IL004", "violation", "every union member must be a $ref to a named type")
    mapped = {def_name_of(ref): tag for tag, ref in mapping.items()}
    for member in members:
        if member == fallback:
            continue
        if member not in mapped:
            yield Finding(
                at,
                "IL004",
                "violation",
                f"member {member} is missing from the discriminator mapping",
            )
            continue
        schema = local_defs.get(member)
        if schema is None:
            continue  # members from other files are checked where they are defined
        const = schema.get("properties", {}).get(prop, {}).get("const")
        if const != mapped[member]:
            yield Finding(
                at,
                "IL004",
                "violation",
                f"member {member} must have {prop}: const {mapped[member]!r}",
            )
        if prop not in schema.get("required", []):
            yield Finding(
                at, "IL004", "violation", f"member {member} must require its tag {prop!r}"
            )
    for name in mapped:
        if name not in members:
            yield Finding(at, "IL004", "violation", f"mapping names {name}, which is not a member")
    if fallback is not None:
        if fallback not in members:
            yield Finding(
                at, "IL012", "violation", f"fallback {fallback} must be a member of the union"
            )
        elif fallback in local_defs:
            excluded = (
                local_defs[fallback].get("properties", {}).get(prop, {}).get("not", {}).get("enum")
            )
            if sorted(excluded or []) != sorted(mapping):
                yield Finding(
                    at,
                    "IL012",
                    "violation",
                    f"fallback {fallback}.{prop} must exclude exactly the mapped tags",
                )


def _enum_of(bundle: dict[str, Json], name: str) -> list[str]:
    values: list[str] = bundle["$defs"].get(name, {}).get("enum", [])
    return values


def _lint_bundle(bundle: dict[str, Json]) -> Iterator[Finding]:
    defs = bundle["$defs"]
    capabilities = set(_enum_of(bundle, "Capability"))
    codes = set(_enum_of(bundle, "ErrorCode"))
    declared = set(defs.get("ErrorCode", {}).get("x-codes", {}))
    if codes != declared:
        yield Finding(
            "bundle#/$defs/ErrorCode",
            "IL009",
            "violation",
            f"x-codes must list exactly the enum; differs on {sorted(codes ^ declared)}",
        )
    retryable = set(defs.get("GatewayErrorCode", {}).get("x-retryable", []))
    if stray := retryable - set(_enum_of(bundle, "GatewayErrorCode")):
        yield Finding(
            "bundle#/$defs/GatewayErrorCode",
            "IL009",
            "violation",
            f"x-retryable names codes outside the enum: {sorted(stray)}",
        )
    for pointer, node in _walk(bundle, ""):
        at = "bundle#" + pointer
        for key in ("x-capability", "x-write-capability"):
            if key in node and node[key] not in capabilities:
                yield Finding(at, "IL008", "violation", f"{key} {node[key]!r} is not a Capability")
        used = [inv["code"] for inv in node.get("x-invariants", [])]
        used += [inv["repeat_code"] for inv in node.get("x-invariants", []) if "repeat_code" in inv]
        if "x-open-union" in node:
            used.append(node["x-open-union"]["code"])
        for code in used:
            if code not in codes:
                yield Finding(
                    at, "IL009", "violation", f"code {code!r} is not in the ErrorCode enum"
                )
        for inv in node.get("x-invariants", []):
            for path in _invariant_paths(inv):
                if not _path_exists(defs, node, path.split("/")):
                    yield Finding(
                        at,
                        "IL011",
                        "violation",
                        f"invariant {inv['kind']} names {path!r}, which the type does not define",
                    )
    for name, sub in defs.get("Extensions", {}).get("properties", {}).items():
        target = defs.get(def_name_of(sub.get("$ref", "#/$defs/?")), {})
        if "x-mutability" not in target:
            yield Finding(
                f"bundle#/$defs/Extensions/properties/{name}",
                "IL013",
                "violation",
                "every extension must declare its x-mutability tier",
            )


def _invariant_paths(inv: dict[str, Json]) -> list[str]:
    kind = inv["kind"]
    if kind in ("exactly_one", "equal_when_present"):
        return list(inv["fields"])
    if kind == "ordered":
        return [inv["lower"], inv["upper"]]
    if kind == "non_empty":
        return [inv["field"]] + [u["field"] for u in inv.get("unless", [])]
    if kind == "required_when":
        return list(inv["when"]) + list(inv["require"])
    if kind == "waives":
        return [inv["field"], inv["when"]["field"]]
    if kind in ("equals", "portable_schema"):
        return [inv["field"]]
    if kind == "answers" and "elsewhere" in inv:
        return [inv["path"][0], inv["elsewhere"]]
    return [inv["path"][0]]  # unique / answers: the first step must be a property


def _path_exists(defs: dict[str, Json], node: dict[str, Json], steps: list[str]) -> bool:
    """True when ``steps`` names properties that exist (in some member, through a union)."""
    if not steps:
        return True
    while "$ref" in node:
        node = defs.get(def_name_of(node["$ref"]), {})
    if "oneOf" in node:
        return any(_path_exists(defs, member, steps) for member in node["oneOf"])
    prop = node.get("properties", {}).get(steps[0])
    return prop is not None and _path_exists(defs, prop, steps[1:])


def _lint_seeds(sources: Sources, bundle: dict[str, Json]) -> Iterator[Finding]:
    homes: dict[str, list[str]] = {}
    for pointer, node in _walk(bundle, ""):
        for seed_field in node.get("x-seed", []):
            homes.setdefault(seed_field, []).append(pointer)
    listed: set[str] = set()
    for inventory in sources.seeds:
        for name, reason in inventory.fields.items():
            key = f"{inventory.seed}:{name}"
            listed.add(key)
            found = homes.get(key, [])
            at = f"seeds/{inventory.seed}#/fields/{_esc(name)}"
            if reason is None and not found:
                yield Finding(
                    at,
                    "IL010",
                    "violation",
                    "seed field has no canonical home (add x-seed, or give the reason it has none)",
                )
            elif reason is None and len(found) > 1:
                yield Finding(
                    at, "IL010", "violation", f"seed field has {len(found)} homes: {found}"
                )
            elif reason is not None and found:
                yield Finding(
                    at,
                    "IL010",
                    "violation",
                    f"seed field has a home {found} and a reason for having none",
                )
    for key, found in sorted(homes.items()):
        if key not in listed:
            yield Finding(
                "bundle#" + found[0],
                "IL010",
                "violation",
                f"x-seed names {key!r}, which no seed inventory lists",
            )
