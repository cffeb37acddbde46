"""Resolve every schema file of a version into one self-contained document.

The bundle is the only input to the renderers and the file other-language teams take:
all `$defs` of all files under one `$id`, every `$ref` rewritten to a local `#/$defs/...`.
"""

from __future__ import annotations

import copy
from typing import Any

from referencing.exceptions import Unresolvable

from generator.load import SchemaLoadError, Sources
from generator.paths import BASE_URI

Json = Any


def bundle_id(version: str) -> str:
    return f"{BASE_URI}{version}/interlingua.json"


def def_name_of(ref: str) -> str:
    """`parts.json#/$defs/Part` or `#/$defs/Part` -> `Part`."""
    _, _, pointer = ref.partition("#")
    prefix = "/$defs/"
    if not pointer.startswith(prefix) or "/" in pointer[len(prefix) :]:
        raise SchemaLoadError(f"$ref {ref!r} must point at a top-level $defs entry")
    return pointer[len(prefix) :]


def _rewrite_refs(node: Json, base_uri: str, sources: Sources) -> Json:
    if isinstance(node, dict):
        out: dict[str, Json] = {}
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                resolver = sources.registry.resolver(base_uri=base_uri)
                try:
                    resolver.lookup(value)
                except Unresolvable as exc:
                    raise SchemaLoadError(f"{base_uri}: unresolvable $ref {value!r}") from exc
                out[key] = "#/$defs/" + def_name_of(value)
            elif key == "mapping" and isinstance(value, dict):
                out[key] = {tag: "#/$defs/" + def_name_of(ref) for tag, ref in value.items()}
            else:
                out[key] = _rewrite_refs(value, base_uri, sources)
        return out
    if isinstance(node, list):
        return [_rewrite_refs(item, base_uri, sources) for item in node]
    return node


def build_bundle(sources: Sources, comment: str) -> dict[str, Json]:
    """One document holding every `$defs` entry of every file, refs made local."""
    defs: dict[str, Json] = {}
    for file in sources.files:
        for name, schema in file.contents.get("$defs", {}).items():
            if name in defs:
                raise SchemaLoadError(f"{file.path}: $defs name {name!r} is already defined")
            defs[name] = _rewrite_refs(copy.deepcopy(schema), file.uri, sources)
    documents = [name for name, schema in defs.items() if "x-document" in schema]
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": bundle_id(sources.version),
        "$comment": comment,
        "title": f"interlingua {sources.version}",
        "description": (
            "Every type of the interlingua canonical format in one document. The root accepts "
            "any top-level document (" + ", ".join(documents) + "); validate against "
            "`#/$defs/<Type>` for a single type."
        ),
        "oneOf": [{"$ref": f"#/$defs/{name}"} for name in documents],
        "$defs": defs,
    }


# Keywords whose value is one subschema, a list of them, or a name -> subschema table; every
# other keyword's value is data (`const`, `enum`, `required` ...) and is copied untouched.
_SUBSCHEMA = frozenset(
    {"items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames"}
)
_SUBSCHEMA_LISTS = frozenset({"oneOf", "anyOf", "allOf", "prefixItems"})
_SUBSCHEMA_TABLES = frozenset({"properties", "patternProperties", "$defs", "dependentSchemas"})


def plain_bundle(bundle: dict[str, Json]) -> dict[str, Json]:
    """The bundle as strict validators take it as-is (Ajv 2020 with `strict` and
    `discriminator`): the same validation, without what only our generator reads.

    - annotation keywords (`x-...`) are left out: strict validators refuse unknown keywords;
    - so is `format`: an annotation in 2020-12 that interlingua does not assert (a `pattern`
      says what a Timestamp is), which Ajv would assert, or refuse to compile without plugins;
    - a discriminator keeps only `propertyName` (each member's `const` tag says the rest) and
      its union says `"type": "object"`;
    - an open union becomes `if` (a known tag) `then` (the tagged union) `else` (the fallback).
    """
    defs = bundle["$defs"]
    plain: dict[str, Json] = _plain(bundle, defs)
    plain["$id"] = plain_id(bundle["$id"])
    plain["title"] = bundle["title"] + " (plain JSON Schema)"
    return plain


def plain_id(bundle_uri: str) -> str:
    return bundle_uri.removesuffix(".json") + ".plain.json"


def _plain(node: Json, defs: dict[str, Json]) -> Json:
    if not isinstance(node, dict):
        return node
    out: dict[str, Json] = {}
    for key, value in node.items():
        if key.startswith("x-") or (key == "format" and isinstance(value, str)):
            continue
        if key in _SUBSCHEMA:
            out[key] = _plain(value, defs)
        elif key in _SUBSCHEMA_LISTS:
            out[key] = [_plain(item, defs) for item in value]
        elif key in _SUBSCHEMA_TABLES:
            out[key] = {name: _plain(sub, defs) for name, sub in value.items()}
        elif key == "discriminator":
            out[key] = {"propertyName": value["propertyName"]}
        else:
            out[key] = value
    if "discriminator" not in out:
        return out
    out.setdefault("type", "object")
    open_union = node.get("x-open-union")
    if open_union is not None:
        return _open_union(out, defs, open_union["fallback"])
    return out


def _open_union(union: dict[str, Json], defs: dict[str, Json], fallback: str) -> dict[str, Json]:
    """An open union split in two, since a discriminator needs a `const` tag on every member.

    A known tag is checked against its member only (one error for one typo, not one per
    member); any other tag, or none, is the fallback's.
    """
    prop = union["discriminator"]["propertyName"]
    fallback_ref = "#/$defs/" + fallback
    known = [m for m in union["oneOf"] if m["$ref"] != fallback_ref]
    tags = [defs[def_name_of(m["$ref"])]["properties"][prop]["const"] for m in known]
    out = {k: v for k, v in union.items() if k not in ("oneOf", "discriminator")}
    out["if"] = {"properties": {prop: {"enum": tags}}, "required": [prop]}
    out["then"] = {"discriminator": union["discriminator"], "oneOf": known}
    out["else"] = {"$ref": fallback_ref}
    return out


def retryable_table(bundle: dict[str, Json]) -> dict[str, bool]:
    """Every GatewayErrorCode, in enum order, with whether its call may be retried
    (`x-retryable` lists the codes that may)."""
    codes = bundle["$defs"]["GatewayErrorCode"]
    retryable = set(codes.get("x-retryable", []))
    return {code: code in retryable for code in codes["enum"]}
