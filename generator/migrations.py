"""Versions after the first: the declared changes, and the bundle they give.

``schemas/migrations/v<N>-v<N+1>.yaml`` (checked by ``schemas/meta/migration.json``) lists
what changes from one version to the next: fields renamed or moved, enum values and part tags
renamed, new required fields with the default old documents get. From them and the bundle of
version N the generator

* derives the bundle of version N+1 (``generated/schemas/interlingua-v<N+1>.json``): the next
  version is never a hand copy, so a field added to v1 reaches v2 too; and
* plans the migration both ways (generator/migration_plan.py), which
  ``python/migration.py.j2`` writes as straight-line Python
  (``generated/python/migrations/v<N>_v<N+1>.py``).

What no declaration can say is a hand-written ``step``, named by the declaration file.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from jsonschema import Draft202012Validator

from generator.bundle import bundle_id, def_name_of
from generator.load import SchemaLoadError, read_yaml
from generator.paths import META, SCHEMAS

Json = Any
MIGRATIONS = SCHEMAS / "migrations"


@dataclass(frozen=True)
class Migration:
    """The declared changes from version ``source`` to ``target`` (= source + 1)."""

    source: int
    target: int
    status: str
    description: str
    changes: tuple[dict[str, Json], ...]
    path: Path

    @property
    def module(self) -> str:
        return f"v{self.source}_v{self.target}"

    @property
    def version(self) -> str:
        """The target version's name, as schema directories and bundles spell it."""
        return f"v{self.target}"

    @property
    def file(self) -> str:
        """The declaration file, as the repository names it."""
        return f"schemas/migrations/{self.path.name}"

    def where(self, index: int) -> str:
        return f"{self.file}#/changes/{index}"


@cache
def _meta_validator() -> Draft202012Validator:
    schema = json.loads((META / "migration.json").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def load_migrations(root: Path | None = None) -> list[Migration]:
    """Every declaration file under ``root`` (default schemas/migrations/), checked, in
    version order."""
    found = []
    for path in sorted((root or MIGRATIONS).glob("*.yaml")):
        try:
            data = read_yaml(path.read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError) as exc:
            raise SchemaLoadError(f"{path}: {exc}") from exc
        errors = sorted(_meta_validator().iter_errors(data), key=lambda e: list(e.path))
        if errors:
            pointer = "/" + "/".join(str(p) for p in errors[0].absolute_path)
            raise SchemaLoadError(f"{path}#{pointer}: {errors[0].message}")
        expected = f"v{data['from']}-v{data['from'] + 1}.yaml"
        if path.name != expected or data["to"] != data["from"] + 1:
            raise SchemaLoadError(f"{path}: a migration goes one version up, in {expected}")
        found.append(
            Migration(
                data["from"],
                data["to"],
                data["status"],
                data["description"],
                tuple(data["changes"]),
                path,
            )
        )
    found.sort(key=lambda m: m.source)
    return found


def next_bundles(
    bundle: dict[str, Json], migrations: list[Migration], version: str
) -> Iterator[tuple[Migration, dict[str, Json], dict[str, Json]]]:
    """Each migration up from ``version`` with the bundle it starts from and the one it gives."""
    current = bundle
    for migration in migrations:
        if f"v{migration.source}" != version:
            continue
        derived = derive(current, migration)
        yield migration, current, derived
        current, version = derived, migration.version


# --- deriving the next version's bundle ---------------------------------------------------


def derive(bundle: dict[str, Json], migration: Migration, lenient: bool = False) -> dict[str, Json]:
    """The bundle of ``migration.target``: ``bundle`` with every declared change applied.
    ``lenient`` leaves out a declaration that does not fit instead of refusing it."""
    out = copy.deepcopy(bundle)
    defs: dict[str, Json] = out["$defs"]
    for index, change in enumerate(migration.changes):
        try:
            _APPLY[change["kind"]](defs, change)
        except _Refused as exc:
            if lenient:
                continue
            raise SchemaLoadError(f"{migration.where(index)}: {exc}") from None
    for schema in defs.values():  # the fields holding the version say which one
        for prop in schema.get("properties", {}).values() if isinstance(schema, dict) else ():
            versioned = isinstance(prop, dict) and prop.get("$ref") == "#/$defs/SchemaVersion"
            if versioned and "description" in prop:
                prop["description"] = prop["description"].replace(
                    f"always {migration.source}", f"always {migration.target}"
                )
    version = defs["SchemaVersion"]
    version["const"] = migration.target
    version["description"] = (
        f"Version of this specification a document conforms to. This is version {migration.target}."
    )
    status = " (draft)" if migration.status == "draft" else ""
    out["$id"] = bundle_id(migration.version)
    out["title"] = f"interlingua {migration.version}{status}"
    # The source's comment names the command and the schemas' sha256, as every generated file.
    source = f"{bundle.get('$comment', '')} ".lstrip()
    out["$comment"] = f"{source}Derived from {bundle['$id']} and {migration.file}."
    return out


class _Refused(Exception):
    """A declaration does not fit the schemas it applies to."""


def _object(defs: dict[str, Json], name: str) -> dict[str, Json]:
    node = defs.get(name)
    if not isinstance(node, dict) or not isinstance(node.get("properties"), dict):
        raise _Refused(f"{name} is not an object type")
    return node


def _renamed_keys(table: dict[str, Json], old: str, new: str) -> dict[str, Json]:
    """``table`` with key ``old`` spelt ``new``, in the same place."""
    return {(new if key == old else key): value for key, value in table.items()}


def _respell(node: Json, old: str, new: str) -> Json:
    """Annotation values naming field ``old`` (invariants, views) naming ``new`` instead."""
    if isinstance(node, dict):
        return {key: _respell(value, old, new) for key, value in node.items()}
    if isinstance(node, list):
        return [_respell(item, old, new) for item in node]
    return new if node == old else node


def _retitle(owner: dict[str, Json], old: str, new: str) -> None:
    """Follow a rename in the owner's description and field-naming annotations."""
    if "description" in owner:
        owner["description"] = owner["description"].replace(f"`{old}`", f"`{new}`")
    for key in ("x-invariants", "x-view"):
        if key in owner:
            owner[key] = _respell(owner[key], old, new)


def _rename_field(defs: dict[str, Json], change: dict[str, Json]) -> None:
    owner = _object(defs, change["type"])
    old, new = change["from"], change["to"]
    if old not in owner["properties"]:
        raise _Refused(f"{change['type']} has no field {old!r}")
    if new in owner["properties"]:
        raise _Refused(f"{change['type']} already has a field {new!r}")
    owner["properties"] = _renamed_keys(owner["properties"], old, new)
    if "description" in change:
        owner["properties"][new]["description"] = change["description"]
    if "required" in owner:
        owner["required"] = [new if name == old else name for name in owner["required"]]
    _retitle(owner, old, new)


def _walk(defs: dict[str, Json], owner: dict[str, Json], steps: list[str]) -> dict[str, Json]:
    """The object type reached from ``owner`` through the fields ``steps``."""
    for step in steps:
        prop = owner["properties"].get(step)
        if not isinstance(prop, dict) or "$ref" not in prop:
            raise _Refused(f"field {step!r} does not hold an object type")
        owner = _object(defs, def_name_of(prop["$ref"]))
    return owner


def _move_field(defs: dict[str, Json], change: dict[str, Json]) -> None:
    root = _object(defs, change["type"])
    *src_steps, src = change["from"].split("/")
    *dst_steps, dst = change["to"].split("/")
    src_owner = _walk(defs, root, src_steps)
    if src not in src_owner["properties"]:
        raise _Refused(f"{change['type']} has no field {change['from']!r}")
    if src in src_owner.get("required", ()):
        raise _Refused("a required field cannot move: the older version would lose it")
    create = change.get("create")
    parent = _walk(defs, root, dst_steps[:-1]) if dst_steps else root
    if create and dst_steps and dst_steps[-1] not in parent["properties"]:
        if create["name"] in defs:
            raise _Refused(f"type {create['name']!r} exists already")
        defs[create["name"]] = {
            "title": create["name"],
            "description": create["description"],
            "type": "object",
            "additionalProperties": False,
            "properties": {},
        }
        parent["properties"][dst_steps[-1]] = {
            "$ref": f"#/$defs/{create['name']}",
            "description": create["description"],
        }
    dst_owner = _walk(defs, root, dst_steps)
    if dst in dst_owner["properties"]:
        raise _Refused(f"{change['type']} already has a field {change['to']!r}")
    schema = src_owner["properties"].pop(src)
    if "description" in change:
        schema = {**schema, "description": change["description"]}
    dst_owner["properties"][dst] = schema
    if src_owner is root:
        _retitle(root, src, change["to"])


def _rename_value(defs: dict[str, Json], change: dict[str, Json]) -> None:
    node = defs.get(change["type"])
    values = node.get("enum") if isinstance(node, dict) else None
    old, new = change["from"], change["to"]
    if not isinstance(values, list) or old not in values:
        raise _Refused(f"{change['type']} has no enum value {old!r}")
    if new in values:
        raise _Refused(f"{change['type']} already has the value {new!r}")
    assert isinstance(node, dict)
    node["enum"] = [new if value == old else value for value in values]
    _retitle(node, old, new)


def _rename_part_type(defs: dict[str, Json], change: dict[str, Json]) -> None:
    union = defs.get(change["union"])
    mapping = union.get("discriminator", {}).get("mapping") if isinstance(union, dict) else None
    old, new = change["from"], change["to"]
    if not isinstance(mapping, dict) or old not in mapping:
        raise _Refused(f"{change['union']} has no member tagged {old!r}")
    if new in mapping:
        raise _Refused(f"{change['union']} already has a member tagged {new!r}")
    assert isinstance(union, dict)
    member = _object(defs, def_name_of(mapping[old]))
    member["properties"][union["discriminator"]["propertyName"]]["const"] = new
    union["discriminator"]["mapping"] = _renamed_keys(mapping, old, new)


def _add_required(defs: dict[str, Json], change: dict[str, Json]) -> None:
    owner = _object(defs, change["type"])
    name = change["field"]
    if name in owner["properties"]:
        raise _Refused(f"{change['type']} already has a field {name!r}")
    for ref in refs(change["schema"]):
        if def_name_of(ref) not in defs:
            raise _Refused(f"the field's schema names an unknown type {ref!r}")
    owner["properties"][name] = {**change["schema"], "description": change["description"]}
    owner["required"] = [*owner.get("required", []), name]


def refs(node: Json) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                yield value
            else:
                yield from refs(value)
    elif isinstance(node, list):
        for item in node:
            yield from refs(item)


def _step(defs: dict[str, Json], change: dict[str, Json]) -> None:
    _object(defs, change["type"])  # values only: the schema changes are declared beside it


_APPLY = {
    "step": _step,
    "rename_field": _rename_field,
    "move_field": _move_field,
    "rename_value": _rename_value,
    "rename_part_type": _rename_part_type,
    "add_required": _add_required,
}
