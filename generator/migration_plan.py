"""The migration between two versions, planned: for each direction, one function per type that
a declaration touches or that holds such a type (types nest: a Message holds parts, a part
messages), with what it does to a value of that type. ``python/migration.py.j2`` writes the
plan as straight-line Python.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from generator.bundle import def_name_of
from generator.load import SchemaLoadError
from generator.migrations import Migration, refs

Json = Any


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
        """The functions of interlingua.documents.migration_runtime the module calls."""
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
            todo += [def_name_of(ref) for ref in refs(self.defs[name])]
        return seen

    def _affected(self, names: list[str]) -> set[str]:
        """Types a change touches, and types that hold them (to a fixed point: types nest)."""
        affected = self._touched() & set(names)
        grew = True
        while grew:
            grew = False
            for name in names:
                if name not in affected and any(
                    def_name_of(ref) in affected for ref in refs(self.defs[name])
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
            elif isinstance(inner, dict) and set(refs(inner)) & {f"#/$defs/{a}" for a in affected}:
                raise SchemaLoadError(f"{where}: nested collections cannot be migrated yet")
        if "oneOf" in prop and {def_name_of(r) for r in refs(prop)} & affected:
            raise SchemaLoadError(f"{where}: an inline union cannot be migrated; name it")
        return None
