"""Versions after the first: the declared changes, the bundle they give, the migration plan.

``schemas/migrations/v<N>-v<N+1>.yaml`` (checked by ``schemas/meta/migration.json``) lists
what changes from one version to the next: fields renamed or moved, enum values and part tags
renamed, new required fields with the default old documents get. From them and the bundle of
version N the generator

* derives the bundle of version N+1 (``generated/schemas/interlingua-v<N+1>.json``): the next
  version is never a hand copy, so a field added to v1 reaches v2 too; and
* plans the migration both ways, which ``python/migration.py.j2`` writes as straight-line
  Python (``generated/python/migrations/v<N>_v<N+1>.py``): one function per type that a
  change touches or that holds such a type, for each direction.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml
from jsonschema import Draft202012Validator

from generator.bundle import bundle_id, def_name_of, plain_bundle
from generator.load import SchemaLoadError
from generator.paths import META, SCHEMAS

if TYPE_CHECKING:
    from generator.render import Files, Inputs

Json = Any
MIGRATIONS = SCHEMAS / "migrations"
_NAME = re.compile(r"^v(\d+)-v(\d+)\.yaml$")


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
        match = _NAME.match(path.name)
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError) as exc:
            raise SchemaLoadError(f"{path}: {exc}") from exc
        errors = sorted(_meta_validator().iter_errors(data), key=lambda e: list(e.path))
        if errors:
            pointer = "/" + "/".join(str(p) for p in errors[0].absolute_path)
            raise SchemaLoadError(f"{path}#{pointer}: {errors[0].message}")
        expected = f"v{data['from']}-v{data['from'] + 1}.yaml"
        if match is None or path.name != expected or data["to"] != data["from"] + 1:
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
    out["$comment"] = (
        f"Derived from {bundle['$id']} and {migration.file} by `python -m generator`; do not edit."
    )
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
    for ref in _refs(change["schema"]):
        if def_name_of(ref) not in defs:
            raise _Refused(f"the field's schema names an unknown type {ref!r}")
    owner["properties"][name] = {**change["schema"], "description": change["description"]}
    owner["required"] = [*owner.get("required", []), name]


def _refs(node: Json) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                yield value
            else:
                yield from _refs(value)
    elif isinstance(node, list):
        for item in node:
            yield from _refs(item)


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


# --- planning the migration code ------------------------------------------------------------


@dataclass
class Function:
    """One generated function: how one type's values change in one direction."""

    direction: str  # up | down
    type: str
    kind: str  # object | enum | union
    # (field, helper over a list or map of values or "", the function a value goes through)
    children: list[tuple[str, str, str]] = field(default_factory=list)
    moves: list[tuple[tuple[str, ...], tuple[str, ...]]] = field(default_factory=list)
    renames: dict[str, str] = field(default_factory=dict)  # object fields, old -> new
    values: dict[Json, Json] = field(default_factory=dict)  # enum values, old -> new
    members: list[tuple[str, str]] = field(default_factory=list)  # union: (tag, member type)
    tag: str = ""  # union: the tag's field
    tags: dict[str, str] = field(default_factory=dict)  # union tags, old -> new
    defaults: list[tuple[str, Json]] = field(default_factory=list)  # fields filled when absent
    drops: list[tuple[str, Json]] = field(default_factory=list)  # fields dropped (default)
    prune: list[tuple[str, ...]] = field(default_factory=list)  # emptied objects to drop
    # Hand-written steps, each seeing the object in the newer version's shape: up after the
    # declared changes, down before them (and before the fields inside are migrated).
    steps_first: list[str] = field(default_factory=list)
    steps_last: list[str] = field(default_factory=list)
    # Whether a value of any JSON type may come in: a field's value may; a union member's
    # (its union looked at the tag) and a document's (migrate() checks it) are objects.
    guard: bool = True

    @property
    def name(self) -> str:
        return f"_{self.direction}_{self.type}"

    @property
    def table(self) -> str:
        """The name of the module-level table of renames (fields, values or tags)."""
        return f"_{self.direction.upper()}_{self.type.upper()}"


@dataclass
class MigrationPlan:
    """What the migration template needs for one migration."""

    migration: Migration
    documents: dict[str, str]  # the key that tells a document apart -> its type
    versioned: list[str]  # document types that carry `schema_version`
    functions: list[Function]  # up then down
    roots: dict[str, dict[str, str]]  # direction -> document type -> function name

    @property
    def helpers(self) -> list[str]:
        """The functions of interlingua.migration_runtime the module calls."""
        used = {helper for f in self.functions for _, helper, _ in f.children if helper}
        used |= {"move" for f in self.functions if f.moves}
        used |= {name for f in self.functions if f.prune for name in ("emptied", "prune")}
        used |= {"drop" for f in self.functions if f.drops}
        used |= {"respell" for f in self.functions if f.tags}
        used |= {"same" for roots in self.roots.values() if "same" in roots.values()}
        return sorted(used)

    @property
    def step_imports(self) -> list[tuple[str, str]]:
        """(module, function) of every hand-written step the module calls."""
        steps = [c for c in self.migration.changes if c["kind"] == "step"]
        return sorted(
            (c["module"], f"{c['name']}_{direction}") for c in steps for direction in ("up", "down")
        )

    @property
    def lossless(self) -> bool:
        """Whether up then down gives every valid older document back: every declaration
        kind does, and a step when it says so."""
        return all(c["lossless"] for c in self.migration.changes if c["kind"] == "step")


def plan_migration(
    migration: Migration, source: dict[str, Json], target: dict[str, Json]
) -> MigrationPlan:
    """The functions that migrate documents of ``source``'s version to ``target``'s and back."""
    up = _Direction("up", source["$defs"])
    down = _Direction("down", target["$defs"])
    up.values["SchemaVersion"] = {migration.source: migration.target}
    down.values["SchemaVersion"] = {migration.target: migration.source}
    for change in migration.changes:
        kind = change["kind"]
        if kind == "rename_field":
            up.renames.setdefault(change["type"], {})[change["from"]] = change["to"]
            down.renames.setdefault(change["type"], {})[change["to"]] = change["from"]
        elif kind == "move_field":
            src, dst = tuple(change["from"].split("/")), tuple(change["to"].split("/"))
            up.moves.setdefault(change["type"], []).append((src, dst))
            down.moves.setdefault(change["type"], []).append((dst, src))
            if "create" in change:
                down.prune.setdefault(change["type"], []).append(dst[:-1])
        elif kind == "rename_value":
            up.values.setdefault(change["type"], {})[change["from"]] = change["to"]
            down.values.setdefault(change["type"], {})[change["to"]] = change["from"]
        elif kind == "rename_part_type":
            up.tags.setdefault(change["union"], {})[change["from"]] = change["to"]
            down.tags.setdefault(change["union"], {})[change["to"]] = change["from"]
        elif kind == "step":
            up.steps.setdefault(change["type"], []).append(f"{change['name']}_up")
            down.steps.setdefault(change["type"], []).append(f"{change['name']}_down")
        else:  # add_required
            up.defaults.setdefault(change["type"], []).append((change["field"], change["default"]))
            down.drops.setdefault(change["type"], []).append((change["field"], change["default"]))
    documents = {
        schema["x-document"]["key"]: name
        for name, schema in source["$defs"].items()
        if "x-document" in schema
    }
    versioned = [
        name
        for name in documents.values()
        if "schema_version" in source["$defs"][name]["properties"]
    ]
    functions: list[Function] = []
    roots: dict[str, dict[str, str]] = {}
    for direction in (up, down):
        made = direction.functions(list(documents.values()))
        functions += made
        names = {f.type for f in made}
        roots[direction.name] = {
            doc: (f"_{direction.name}_{doc}" if doc in names else "same")
            for doc in documents.values()
        }
    return MigrationPlan(migration, documents, versioned, functions, roots)


@dataclass
class _Direction:
    """The changes seen from one side: what each type's values become on the other."""

    name: str
    defs: dict[str, Json]  # the bundle documents are read with, in this direction
    renames: dict[str, dict[str, str]] = field(default_factory=dict)
    moves: dict[str, list[tuple[tuple[str, ...], tuple[str, ...]]]] = field(default_factory=dict)
    prune: dict[str, list[tuple[str, ...]]] = field(default_factory=dict)
    values: dict[str, dict[Json, Json]] = field(default_factory=dict)
    tags: dict[str, dict[str, str]] = field(default_factory=dict)
    defaults: dict[str, list[tuple[str, Json]]] = field(default_factory=dict)
    drops: dict[str, list[tuple[str, Json]]] = field(default_factory=dict)
    steps: dict[str, list[str]] = field(default_factory=dict)

    def _touched(self) -> set[str]:
        tables = (
            self.renames,
            self.moves,
            self.values,
            self.tags,
            self.defaults,
            self.drops,
            self.steps,
        )
        return {name for table in tables for name in table}

    def _reachable(self, roots: list[str]) -> list[str]:
        """Every type reachable from ``roots``, in a stable order."""
        seen: list[str] = []
        todo = list(roots)
        while todo:
            name = todo.pop(0)
            if name in seen:
                continue
            seen.append(name)
            todo += [def_name_of(ref) for ref in _refs(self.defs[name])]
        return seen

    def _affected(self, names: list[str]) -> set[str]:
        """Types a change touches, and types that hold them (to a fixed point: types nest)."""
        affected = self._touched() & set(names)
        grew = True
        while grew:
            grew = False
            for name in names:
                if name not in affected and any(
                    def_name_of(ref) in affected for ref in _refs(self.defs[name])
                ):
                    affected.add(name)
                    grew = True
        return affected

    def functions(self, roots: list[str]) -> list[Function]:
        names = self._reachable(roots)
        affected = self._affected(names)
        functions = [self._function(name, affected) for name in names if name in affected]
        called = {call for f in functions for _, _, call in f.children}
        for function in functions:
            function.guard = function.name in called
        return functions

    def _function(self, name: str, affected: set[str]) -> Function:
        schema = self.defs[name]
        if "enum" in schema or "const" in schema:
            return Function(self.name, name, "enum", values=self.values.get(name, {}))
        if "oneOf" in schema:
            return self._union(name, schema, affected)
        function = Function(
            self.name,
            name,
            "object",
            moves=self.moves.get(name, []),
            renames=self.renames.get(name, {}),
            defaults=self.defaults.get(name, []),
            drops=self.drops.get(name, []),
            prune=self.prune.get(name, []),
        )
        steps = self.steps.get(name, [])
        if self.name == "up":
            function.steps_last = steps
        else:
            function.steps_first = steps
        for key, prop in schema.get("properties", {}).items():
            call = self._call(prop, affected, f"{name}.{key}")
            if call is not None:
                function.children.append((key, *call))
        return function

    def _union(self, name: str, schema: dict[str, Json], affected: set[str]) -> Function:
        discriminator = schema.get("discriminator")
        if discriminator is None:  # affected, so one of its members is: which one is it?
            raise SchemaLoadError(f"{name}: a union without a tag cannot be migrated")
        tags = [(tag, def_name_of(ref)) for tag, ref in discriminator["mapping"].items()]
        return Function(
            self.name,
            name,
            "union",
            members=[(tag, member) for tag, member in tags if member in affected],
            tag=discriminator["propertyName"],
            tags=self.tags.get(name, {}),
        )

    def _call(self, prop: Json, affected: set[str], where: str) -> tuple[str, str] | None:
        """The function a field's value goes through: a type's, or a list's or map's of it."""
        if not isinstance(prop, dict):
            return None
        if "$ref" in prop:
            target = def_name_of(prop["$ref"])
            return ("", f"_{self.name}_{target}") if target in affected else None
        for key, helper in (("items", "each"), ("additionalProperties", "values")):
            inner = prop.get(key)
            if isinstance(inner, dict) and "$ref" in inner:
                target = def_name_of(inner["$ref"])
                if target in affected:
                    return helper, f"_{self.name}_{target}"
            elif isinstance(inner, dict) and set(_refs(inner)) & {f"#/$defs/{a}" for a in affected}:
                raise SchemaLoadError(f"{where}: nested collections cannot be migrated yet")
        if "oneOf" in prop and {def_name_of(r) for r in _refs(prop)} & affected:
            raise SchemaLoadError(f"{where}: an inline union cannot be migrated; name it")
        return None


# --- the producers of the manifest (generator/manifest.py) ----------------------------------


def _chain(inputs: Inputs) -> list[tuple[Migration, dict[str, Json], dict[str, Json]]]:
    return list(next_bundles(inputs.bundle, load_migrations(), inputs.sources.version))


def derived_bundles(inputs: Inputs) -> Files:
    """The bundle of every version derived from this one."""
    for migration, _, derived in _chain(inputs):
        text = json.dumps(derived, indent=2, ensure_ascii=False) + "\n"
        yield {"version": migration.version}, text


def derived_plain_bundles(inputs: Inputs) -> Files:
    """The same, as strict validators take it as-is (generator/bundle.py, plain_bundle)."""
    for migration, _, derived in _chain(inputs):
        text = json.dumps(plain_bundle(derived), indent=2, ensure_ascii=False) + "\n"
        yield {"version": migration.version}, text


def migration_modules(inputs: Inputs) -> Files:
    """One module per migration up from this version, both directions."""
    for migration, source, target in _chain(inputs):
        plan = plan_migration(migration, source, target)
        yield {"module": migration.module}, {"m": migration, "plan": plan, "where": migration.file}


def migrations_init(inputs: Inputs) -> Files:
    """The table of migrations; written only when there is one."""
    chain = [migration for migration, _, _ in _chain(inputs)]
    if chain:
        versions = (chain[0].source, *(m.target for m in chain))
        drafts = frozenset(m.target for m in chain if m.status == "draft")
        yield {}, {"migrations": chain, "versions": versions, "drafts": drafts}


def migration_docs(inputs: Inputs) -> Files:
    """The reference page listing every declared change, with why."""
    from generator.docs import md_header  # noqa: PLC0415 - docs imports the renderers

    chain = [migration for migration, _, _ in _chain(inputs)]
    if chain:
        yield {}, {"header": md_header(inputs.sources.digest), "migrations": chain}
