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
