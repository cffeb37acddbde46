"""Is a version's schema still compatible with what was published of it?

A published release of a version is kept in the repository, `schemas/published/<version>.json`:
the bundled schema and the examples as they were released. Generation compares the bundle
built from `schemas/<version>/` with it and sorts every difference into

* **additive**: every document valid under the release stays valid (a new optional field, a
  new enum value, a new type or union member, a looser constraint), and
* **breaking**: some document valid under the release may now be refused (a removed type,
  field or enum value, a new required field, a tighter constraint, a new invariant), or a
  released example no longer validates.

A breaking change to a published version is the lint violation IL019: it belongs in the next
version, declared in `schemas/migrations/v<N>-v<N+1>.yaml` (generator/migrations.py derives the
next version's bundle from the declarations and writes the migration). Each breaking change from
a version's release to the next version must be one a declaration explains; one that is not is
IL020. Only what decides validity is compared; titles, descriptions, examples and the other
annotations may change freely.

    python -m generator.compat            # list the changes since the release
    python -m generator.compat --publish  # record the current state as the next release
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from jsonschema import Draft202012Validator

from generator.lint import Finding
from generator.paths import EXAMPLES, SCHEMAS

if TYPE_CHECKING:
    from generator.migrations import Migration

Json = Any
PUBLISHED = SCHEMAS / "published"

# Lower bounds: raising one (or adding it) refuses documents that passed; upper bounds the other
# way round.
LOWER_BOUNDS = ("minLength", "minItems", "minimum", "exclusiveMinimum")
UPPER_BOUNDS = ("maxLength", "maxItems", "maximum", "exclusiveMaximum")
# Constraints whose change cannot be compared, only seen: a new or changed one may refuse a
# document, removing one cannot.
OPAQUE = ("pattern", "format", "propertyNames", "uniqueItems", "not")
# Our annotations that validators act on: removing one of these lets documents through that
# were refused (or warned about) — adding one may refuse documents that passed.
LOOSENING_FLAGS = ("x-forward", "x-open-union")


@dataclass(frozen=True, order=True)
class Change:
    """One difference between a release and the current schema."""

    pointer: str
    breaking: bool
    message: str
    code: str | None = field(default=None, compare=False)  # the finding an invariant reports

    def __str__(self) -> str:
        return f"{'breaking' if self.breaking else 'additive'}: {self.pointer}: {self.message}"


def release_path(version: str, root: Path = PUBLISHED) -> Path:
    return root / f"{version}.json"


def load_release(version: str, root: Path = PUBLISHED) -> dict[str, Json] | None:
    """The published release of ``version``, or None when it was never published."""
    path = release_path(version, root)
    if not path.exists():
        return None
    release: dict[str, Json] = json.loads(path.read_text(encoding="utf-8"))
    return release


def changes(released: dict[str, Json], current: dict[str, Json]) -> list[Change]:
    """Every validity-relevant difference from the released bundle to the current one."""
    found: list[Change] = []
    old_defs, new_defs = released.get("$defs", {}), current.get("$defs", {})
    for name in sorted(old_defs.keys() - new_defs.keys()):
        found.append(Change(f"/$defs/{name}", True, "type removed"))
    for name in sorted(new_defs.keys() - old_defs.keys()):
        found.append(Change(f"/$defs/{name}", False, "type added"))
    for name in sorted(old_defs.keys() & new_defs.keys()):
        found += _compare(old_defs[name], new_defs[name], f"/$defs/{name}")
    found += _compare_members(released.get("oneOf"), current.get("oneOf"), "")
    # An invariant that only warns refuses no document: adding one is additive.
    warnings = {
        code
        for code, about in current.get("$defs", {}).get("ErrorCode", {}).get("x-codes", {}).items()
        if about.get("severity") == "warning"
    }
    adopted = _adopted_tags(old_defs, new_defs, warnings)
    return sorted(
        replace(c, breaking=False, message=c.message + " (a warning)")
        if c.breaking and c.code in warnings
        else replace(c, breaking=False, message=adopted[c.pointer])
        if c.breaking and c.pointer in adopted
        else c
        for c in found
    )


def _adopted_tags(
    old_defs: dict[str, Json], new_defs: dict[str, Json], warnings: set[str]
) -> dict[str, str]:
    """Open unions whose fallback now leaves some tags to new members: the fallback's tag
    refuses them (a changed `not`), but a document that used one was already reported with
    the union's code, a warning, so giving the tag a member is additive, like a warning
    invariant. Keyed by the pointer of the fallback's tag."""
    out = {}
    for name, union in new_defs.items():
        spec, tagging = union.get("x-open-union"), union.get("discriminator")
        if not spec or not tagging or spec.get("code") not in warnings:
            continue
        tag, fallback = tagging["propertyName"], spec["fallback"]
        was = old_defs.get(fallback, {}).get("properties", {}).get(tag, {}).get("not", {})
        now = new_defs.get(fallback, {}).get("properties", {}).get(tag, {}).get("not", {})
        old_union = old_defs.get(name, {}).get("discriminator", {}).get("mapping", {})
        added = [v for v in now.get("enum", []) if v not in was.get("enum", [])]
        members = tagging.get("mapping", {})
        if (
            set(was) == {"enum"} == set(now)
            and all(v in now["enum"] for v in was["enum"])
            and all(v in members and v not in old_union for v in added)
        ):
            out[f"/$defs/{fallback}/properties/{tag}"] = (
                f"tags {added} taken from the fallback by new members of {name} "
                f"(a document using one was reported with {spec['code']}, a warning)"
            )
    return out


def broken_examples(release: dict[str, Json], current: dict[str, Json]) -> list[Change]:
    """Released examples the current bundle refuses."""
    found = []
    for key, instance in sorted(release.get("examples", {}).items()):
        type_name = key.split("/", 1)[0]
        if type_name not in current.get("$defs", {}):
            continue  # reported once, as the removed type
        schema = {**current, "$ref": f"#/$defs/{type_name}"}
        schema.pop("oneOf", None)
        error = next(iter(Draft202012Validator(schema).iter_errors(instance)), None)
        if error is not None:
            where = "/".join(str(p) for p in error.absolute_path)
            found.append(
                Change(
                    f"examples/{key}",
                    True,
                    f"released example refused at /{where}: {error.message[:160]}",
                )
            )
    return found


def check_release(version: str, bundle: dict[str, Json], root: Path = PUBLISHED) -> list[Finding]:
    """IL019 for each breaking change to a published version; nothing when unpublished."""
    release = load_release(version, root)
    if release is None:
        return []
    where = release_path(version, root).relative_to(root.parent.parent).as_posix()
    breaking = [
        c
        for c in changes(release["bundle"], bundle) + broken_examples(release, bundle)
        if c.breaking
    ]
    return [
        Finding(
            f"{where}#{change.pointer}",
            "IL019",
            "violation",
            f"breaking change to published {version} {release['release']}: {change.message}; "
            "make it additive, or put it in a new version",
        )
        for change in breaking
    ]


def check_migration(
    source: dict[str, Json], target: dict[str, Json], migration: Migration
) -> tuple[list[Change], list[Finding]]:
    """The breaking changes the declarations make to ``source`` (a version's release), and
    IL020 for every breaking change from there to ``target`` (the next version's bundle) that
    they do not make.

    The declarations are applied to the release as well: what differs between that and the
    next version's bundle is what no declaration says (a declaration that does not fit the
    release, made for something added since, is left out of it).
    """
    from generator.migrations import derive  # noqa: PLC0415 - migrations imports the bundle

    expected = derive(source, migration, lenient=True)
    declared = [
        c
        for c in changes(source, expected)
        if c.breaking and c.pointer != "/$defs/SchemaVersion"  # every version bumps it
    ]
    findings = [
        Finding(
            f"{migration.file}#{change.pointer}",
            "IL020",
            "violation",
            f"breaking change to v{migration.target} that no declaration explains: "
            f"{change.message}; declare it in {migration.file}",
        )
        for change in changes(expected, target)
        if change.breaking
    ]
    return declared, findings


def check_versions(version: str, bundle: dict[str, Json], root: Path = PUBLISHED) -> list[Finding]:
    """IL020 for every breaking change from ``version`` (its release, when it has one) to the
    versions derived from it that no declaration explains; IL019 for a breaking change to a
    derived version's own release."""
    from generator.migrations import load_migrations, next_bundles  # noqa: PLC0415

    findings: list[Finding] = []
    for migration, source, derived in next_bundles(bundle, load_migrations(), version):
        release = load_release(f"v{migration.source}", root)
        before = release["bundle"] if release else source
        findings += check_migration(before, derived, migration)[1]
        findings += check_release(migration.version, derived, root)
    return findings


def _types(node: dict[str, Json]) -> set[str] | None:
    kind = node.get("type")
    if kind is None:
        return None
    return {kind} if isinstance(kind, str) else set(kind)


def _compare(old: Json, new: Json, at: str) -> Iterator[Change]:
    if not isinstance(old, dict) or not isinstance(new, dict):
        if old != new:
            yield Change(at, True, "schema replaced")
        return
    if old.get("$ref") != new.get("$ref"):
        yield Change(at, True, f"reference changed from {old.get('$ref')} to {new.get('$ref')}")
        return
    yield from _compare_types(old, new, at)
    yield from _compare_values(old, new, at)
    yield from _compare_bounds(old, new, at)
    yield from _compare_object(old, new, at)
    yield from _compare_members(old.get("oneOf"), new.get("oneOf"), at)
    yield from _compare_invariants(old, new, at)
    if isinstance(old.get("items"), dict) or isinstance(new.get("items"), dict):
        yield from _compare(old.get("items", {}), new.get("items", {}), at + "/items")


def _compare_types(old: dict[str, Json], new: dict[str, Json], at: str) -> Iterator[Change]:
    was, now = _types(old), _types(new)
    if was == now:
        return
    if now is None:
        yield Change(at, False, f"type {sorted(was or ())} no longer required")
    elif was is None or was - now:
        yield Change(at, True, f"type narrowed from {sorted(was or ['any'])} to {sorted(now)}")
    else:
        yield Change(at, False, f"type widened to {sorted(now)}")


def _compare_values(old: dict[str, Json], new: dict[str, Json], at: str) -> Iterator[Change]:
    if "enum" in old or "enum" in new:
        if "enum" not in new:
            yield Change(at, False, "enum lifted")
        elif "enum" not in old:
            yield Change(at, True, "enum added")
        else:
            was, now = old["enum"], new["enum"]
            for value in [v for v in was if v not in now]:
                yield Change(at, True, f"enum value {value!r} removed")
            for value in [v for v in now if v not in was]:
                yield Change(at, False, f"enum value {value!r} added")
    if old.get("const", ...) != new.get("const", ...):
        yield Change(at, "const" in new, f"const {old.get('const')!r} → {new.get('const')!r}")
    for key in OPAQUE:
        if old.get(key) != new.get(key):
            yield Change(at, key in new, f"{key} {'changed' if key in new else 'removed'}")


def _compare_bounds(old: dict[str, Json], new: dict[str, Json], at: str) -> Iterator[Change]:
    for key in LOWER_BOUNDS + UPPER_BOUNDS:
        was, now = old.get(key), new.get(key)
        if was == now:
            continue
        if now is None:
            yield Change(at, False, f"{key} {was} removed")
        elif was is None:
            yield Change(at, True, f"{key} {now} added")
        else:
            tighter = now > was if key in LOWER_BOUNDS else now < was
            yield Change(at, tighter, f"{key} {was} → {now}")


def _closed(node: dict[str, Json]) -> bool:
    return node.get("additionalProperties") is False


def _compare_object(old: dict[str, Json], new: dict[str, Json], at: str) -> Iterator[Change]:
    for name in sorted(set(new.get("required", ())) - set(old.get("required", ()))):
        yield Change(at, True, f"field {name!r} now required")
    for name in sorted(set(old.get("required", ())) - set(new.get("required", ()))):
        yield Change(at, False, f"field {name!r} now optional")
    was, now = old.get("properties", {}), new.get("properties", {})
    for name in sorted(was.keys() - now.keys()):
        yield Change(f"{at}/properties/{name}", _closed(new), "field removed")
    for name in sorted(now.keys() - was.keys()):
        # On a closed object the field was refused before; on an open one it was accepted
        # whatever it held, so a schema for it now may refuse what passed.
        yield Change(f"{at}/properties/{name}", not _closed(old), "field added")
    for name in sorted(was.keys() & now.keys()):
        yield from _compare(was[name], now[name], f"{at}/properties/{name}")
    extra_was, extra_now = old.get("additionalProperties"), new.get("additionalProperties")
    if isinstance(extra_was, dict) and isinstance(extra_now, dict):
        yield from _compare(extra_was, extra_now, at + "/additionalProperties")
    elif extra_was != extra_now:
        yield Change(
            at,
            extra_now is False or extra_was in (None, True),
            "additional properties " + ("closed" if extra_now is False else "changed"),
        )
    for flag in LOOSENING_FLAGS:
        if bool(old.get(flag)) != bool(new.get(flag)):
            yield Change(
                at, bool(old.get(flag)), f"{flag} {'removed' if old.get(flag) else 'added'}"
            )


def _member_refs(members: Json) -> list[Json]:
    return [m.get("$ref", m) if isinstance(m, dict) else m for m in members or ()]


def _compare_members(old: Json, new: Json, at: str) -> Iterator[Change]:
    was, now = _member_refs(old), _member_refs(new)
    for member in [m for m in was if m not in now]:
        yield Change(at + "/oneOf", True, f"union member {member} removed")
    for member in [m for m in now if m not in was]:
        yield Change(at + "/oneOf", False, f"union member {member} added")


# Keys whose addition to an invariant only lets more documents through (`answers`'
# `elsewhere`: a result may answer a call held elsewhere).
RELAXING: Final = ("elsewhere",)


def _relaxed_from(rule: Json, was: list[Json]) -> Json | None:
    """The rule of ``was`` that ``rule`` relaxes, if it does: the same rule with a relaxing key
    added, or a `waives` rule whose condition names more values (it waives its finding for
    more documents and refuses none the old rule let through)."""
    if not isinstance(rule, dict):
        return None
    before = {k: v for k, v in rule.items() if k not in RELAXING}
    if before in was:
        return before
    when = rule.get("when")
    if rule.get("kind") != "waives" or not isinstance(when, dict):
        return None
    for old in was:
        old_when = old.get("when") if isinstance(old, dict) else None
        if (
            isinstance(old_when, dict)
            and isinstance(old_when.get("in"), list)
            and isinstance(when.get("in"), list)
            and {**old, "when": {**old_when, "in": []}} == {**rule, "when": {**when, "in": []}}
            and all(value in when["in"] for value in old_when["in"])
        ):
            return old
    return None


def _compare_invariants(old: dict[str, Json], new: dict[str, Json], at: str) -> Iterator[Change]:
    was, now = old.get("x-invariants", []), new.get("x-invariants", [])
    relaxed = []
    for rule in [r for r in now if r not in was]:
        before = _relaxed_from(rule, was)
        if before is not None:
            relaxed.append(before)
            yield Change(at + "/x-invariants", False, f"invariant relaxed: {json.dumps(rule)}")
            continue
        yield Change(
            at + "/x-invariants", True, f"invariant added: {json.dumps(rule)}", rule.get("code")
        )
    for rule in [r for r in was if r not in now and r not in relaxed]:
        yield Change(at + "/x-invariants", False, f"invariant removed: {json.dumps(rule)}")


def _examples(root: Path = EXAMPLES) -> dict[str, Json]:
    from generator.examples import iter_examples  # noqa: PLC0415 - examples imports lint

    return {
        f"{type_name}/{path.stem}": json.loads(path.read_text(encoding="utf-8"))
        for type_name, path in iter_examples(root)
    }


def _next_release(previous: str | None, additive: bool, version: str = "v1") -> str:
    if previous is None:
        return f"{version.removeprefix('v')}.0"
    major, minor = previous.split(".")
    return f"{major}.{int(minor) + 1}" if additive else previous


def publish(
    version: str,
    bundle: dict[str, Json],
    root: Path = PUBLISHED,
    examples: dict[str, Json] | None = None,
) -> dict[str, Json]:
    """Record ``bundle`` and the examples (default: today's, schemas/examples/, which are the
    first version's) as the next release of ``version``."""
    previous = load_release(version, root)
    found = changes(previous["bundle"], bundle) if previous else []
    if any(c.breaking for c in found):
        raise ValueError(f"{version} has breaking changes since its release; not published")
    release = {
        "version": version,
        "release": _next_release(previous["release"] if previous else None, bool(found), version),
        "published": datetime.now(UTC).date().isoformat(),
        "bundle": {k: v for k, v in bundle.items() if k != "$comment"},
        "examples": _examples() if examples is None else examples,
    }
    root.mkdir(parents=True, exist_ok=True)
    text = json.dumps(release, indent=1, ensure_ascii=False, sort_keys=True) + "\n"
    release_path(version, root).write_text(text, encoding="utf-8")
    return release


def _migrated_examples(version: str, bundle: dict[str, Json]) -> dict[str, Json]:
    """The examples of documents, migrated to a version derived from the first; the examples
    of other types are the first version's own."""
    from interlingua.documents.migrate import migrate  # noqa: PLC0415 - the generated migrations

    documents = {name for name, schema in bundle["$defs"].items() if "x-document" in schema}
    return {
        key: migrate(example, int(version.removeprefix("v")), source=1).output
        for key, example in _examples().items()
        if key.split("/", 1)[0] in documents
    }


def main(argv: list[str] | None = None) -> int:
    from generator.bundle import build_bundle  # noqa: PLC0415
    from generator.load import load  # noqa: PLC0415
    from generator.paths import VERSIONS  # noqa: PLC0415

    parser = argparse.ArgumentParser(prog="python -m generator.compat", description=__doc__)
    parser.add_argument("--publish", action="store_true", help="record the next release")
    args = parser.parse_args(argv)
    from generator.migrations import load_migrations, next_bundles  # noqa: PLC0415

    status = 0
    bundles = {version: build_bundle(load(version), "") for version in VERSIONS}
    for version in VERSIONS:
        for migration, _, derived in next_bundles(bundles[version], load_migrations(), version):
            bundles[migration.version] = derived
            release = load_release(version)
            before = release["bundle"] if release else bundles[version]
            declared, refused = check_migration(before, derived, migration)
            print(
                f"{migration.version} ({migration.status}, from {migration.file}): "
                f"{len(declared)} breaking change(s) from {version}, each declared; "
                f"{len(refused)} undeclared"
            )
            for finding in refused:
                print(f"  {finding}")
            status |= bool(refused)
            if migration.status == "draft":
                bundles.pop(migration.version)  # nothing to compare with or publish
    for version, bundle in bundles.items():
        if args.publish:
            examples = None if version in VERSIONS else _migrated_examples(version, bundle)
            release = publish(version, bundle, examples=examples)
            print(f"{version}: published release {release['release']}")
            continue
        release = load_release(version)
        if release is None:
            print(f"{version}: never published")
            continue
        found = changes(release["bundle"], bundle) + broken_examples(release, bundle)
        print(f"{version}: {len(found)} change(s) since release {release['release']}")
        for change in found:
            print(f"  {change}")
        status |= any(c.breaking for c in found)
    return status


if __name__ == "__main__":
    sys.exit(main())
