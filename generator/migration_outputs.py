"""What the manifest (generator/manifest.py) writes for the versions derived from this one:
their bundles, the migration modules, their table, and the reference page."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from generator.bundle import plain_bundle
from generator.migration_plan import plan_migration
from generator.migrations import Migration, load_migrations, next_bundles

if TYPE_CHECKING:
    from generator.render import Files, Inputs

Json = Any


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
