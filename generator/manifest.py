"""Every file the generator writes, in one list: where it goes, what it is rendered from, and
which producer (generator/render.py) gives its values.

A path's ``{placeholders}`` are filled per file by the producer (one adapter module per mapping
file, one page per type, ...). A source ending in ``.j2`` is a template under
generator/templates/, rendered with the shared values plus the producer's; any other source
says what writes the text the producer gives. Adding an output is adding a line here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from generator import migration_outputs as migrated
from generator import (
    pairs,
    pairs_from_blocks,
    pairs_from_contents,
    pairs_from_items,
    render,
    stream_fused,
)
from generator.environment import environment
from generator.load import Sources
from generator.paths import SEED_COVERAGE

Json = Any
PY = "generated/python"


@dataclass(frozen=True)
class Output:
    """One kind of generated file."""

    path: str  # relative to the output root, with {placeholders} filled per file
    source: str  # a template under generator/templates/ (`.j2`), or what writes the text
    files: Callable[[render.Inputs], render.Files]

    @property
    def template(self) -> str | None:
        return self.source if self.source.endswith(".j2") else None


MANIFEST: Final[tuple[Output, ...]] = (
    Output("generated/schemas/interlingua-{version}.json", "the bundle", render.bundle_json),
    Output(
        "generated/schemas/interlingua-{version}.plain.json",
        "generator/bundle.py (plain_bundle)",
        render.plain_bundle_json,
    ),
    Output(
        "generated/schemas/interlingua-{version}.json",
        "generator/migrations.py (derived from the version before)",
        migrated.derived_bundles,
    ),
    Output(
        "generated/schemas/interlingua-{version}.plain.json",
        "generator/migrations.py (plain_bundle of the derived bundle)",
        migrated.derived_plain_bundles,
    ),
    Output(f"{PY}/__init__.py", "python/__init__.py.j2", render.no_values),
    Output(f"{PY}/codes.py", "python/codes.py.j2", render.codes),
    Output(f"{PY}/validators.py", "python/validators.py.j2", render.validators),
    Output(f"{PY}/models.py", "datamodel-code-generator", render.models),
    Output(f"{PY}/view_tables.py", "python/view_tables.py.j2", render.view_tables),
    Output(f"{PY}/providers.py", "python/providers.py.j2", render.providers),
    Output(f"{PY}/pricing.py", "python/pricing.py.j2", render.prices),
    Output(f"{PY}/parts.py", "python/parts.py.j2", render.parts),
    Output(f"{PY}/adapters/{{module}}.py", "python/adapter.py.j2", render.adapter_modules),
    Output(f"{PY}/adapters/__init__.py", "python/adapters_init.py.j2", render.adapters_init),
    Output(f"{PY}/pairs/{{module}}.py", "python/pair.py.j2", pairs.pair_modules),
    Output(
        f"{PY}/pairs/{{module}}.py", "python/pair_from_blocks.py.j2", pairs_from_blocks.pair_modules
    ),
    Output(
        f"{PY}/pairs/{{module}}.py", "python/pair_from_items.py.j2", pairs_from_items.pair_modules
    ),
    Output(
        f"{PY}/pairs/{{module}}.py",
        "python/pair_from_contents.py.j2",
        pairs_from_contents.pair_modules,
    ),
    Output(f"{PY}/pairs/__init__.py", "python/pairs_init.py.j2", pairs.pairs_index),
    Output(f"{PY}/streams/{{module}}.py", "python/stream.py.j2", render.stream_modules),
    Output(f"{PY}/streams/__init__.py", "python/streams_init.py.j2", render.streams_init),
    Output(f"{PY}/streams/fused.py", "python/stream_fused.py.j2", stream_fused.fused_module),
    Output(
        f"{PY}/migrations/{{module}}.py",
        "python/migration.py.j2",
        migrated.migration_modules,
    ),
    Output(
        f"{PY}/migrations/__init__.py",
        "python/migrations_init.py.j2",
        migrated.migrations_init,
    ),
    Output(f"{PY}/wire_schemas/{{document}}", "schemas/formats/", render.wire_schemas),
    Output(f"{PY}/wire_schemas/{{document}}", "generator/stored.py", render.stored_schemas),
    Output(f"{PY}/wire_schemas/{{document}}", "generator/reading.py", render.reading_schemas),
    Output(SEED_COVERAGE, "docs/seed-coverage.md.j2", render.seed_coverage),
    Output("docs/reference/migrations.md", "docs/migrations.md.j2", migrated.migration_docs),
    Output("{page}", "generator/docs.py (templates docs/)", render.docs_pages),
    Output("{file}", "generator/layout_docs.py", render.layout_pages),
    Output("{file}", "generator/typescript.py (templates typescript/)", render.typescript_files),
    Output("{file}", "generator/openapi.py", render.openapi_files),
)


def rendered(sources: Sources, bundle: dict[str, Json]) -> dict[Path, str]:
    """Every generated file of one schema version, by path relative to the output root."""
    inputs = render.Inputs(sources, bundle, environment())
    written: dict[Path, str] = {}
    for output in MANIFEST:
        template = inputs.env.get_template(output.template) if output.template else None
        for fields, values in output.files(inputs):
            path = Path(output.path.format(**fields))
            text = template.render({**inputs.context, **values}) if template else values
            # Formats may share a wire schema: the same file twice is one file.
            if written.setdefault(path, text) != text:
                raise ValueError(f"two different files would be written at {path}")
    return written


def render_all(sources: Sources, bundle: dict[str, Json], root: Path) -> list[Path]:
    """Write every generated file under ``root``; return their paths relative to it."""
    written = rendered(sources, bundle)
    for rel, text in written.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    render.format_python([root / rel for rel in written if rel.suffix == ".py"])
    return sorted(written)
