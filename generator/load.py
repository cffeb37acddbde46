"""Load every schema file, check it against JSON Schema 2020-12 and our keyword meta-schema."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from jsonschema import Draft202012Validator
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from generator.paths import BASE_URI, META, SCHEMAS, SEEDS

#: PyYAML's safe loader on libyaml's C parser when the wheel has it (every PyYAML wheel on
#: PyPI does): the same data as `yaml.safe_load` (the constructor is the same), read about eight
#: times quicker, and the generator reads its YAML files about a hundred times a run.
_SAFE_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read_yaml(text: str) -> Any:
    """The data of one YAML document (what `yaml.safe_load` reads); raises `yaml.YAMLError`."""
    return yaml.load(text, Loader=_SAFE_LOADER)


class SchemaLoadError(Exception):
    """A schema file is unreadable or not a valid schema; generation cannot start."""


@dataclass(frozen=True)
class SchemaFile:
    """One schema document as written by a spec author."""

    path: Path  # relative to schemas/
    uri: str
    contents: dict[str, Any]


@dataclass(frozen=True)
class SeedInventory:
    """Every field of one seed document and, for fields with no home, the reason."""

    seed: str
    title: str
    source: str
    fields: dict[str, str | None]


@dataclass
class Sources:
    """Everything the generator reads, loaded once."""

    version: str
    files: list[SchemaFile]
    registry: Registry[Any]
    seeds: list[SeedInventory] = field(default_factory=list)
    digest: str = ""


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SchemaLoadError(f"{path}: {exc}") from exc


def keyword_metaschema() -> dict[str, Any]:
    """The meta-schema that types our own annotation keywords (x-*)."""
    result: dict[str, Any] = _read_json(META / "keywords.json")
    return result


def schemas_digest() -> str:
    """sha256 over every file under schemas/ (path and bytes), the identity of a generation."""
    digest = hashlib.sha256()
    for path in sorted(p for p in SCHEMAS.rglob("*") if p.is_file()):
        digest.update(path.relative_to(SCHEMAS).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


def load(version: str) -> Sources:
    """Load and check every schema of one version, plus the seed inventories."""
    meta = keyword_metaschema()
    Draft202012Validator.check_schema(meta)
    meta_validator = Draft202012Validator(meta)
    files: list[SchemaFile] = []
    for path in sorted((SCHEMAS / version).glob("*.json")):
        contents = _read_json(path)
        if not isinstance(contents, dict):
            raise SchemaLoadError(f"{path}: a schema file must be a JSON object")
        try:
            Draft202012Validator.check_schema(contents)
        except Exception as exc:  # jsonschema.SchemaError; keep the message, drop the trace
            raise SchemaLoadError(f"{path}: not a valid 2020-12 schema: {exc}") from exc
        problems = sorted(meta_validator.iter_errors(contents), key=lambda e: list(e.path))
        if problems:
            first = problems[0]
            pointer = "/" + "/".join(str(p) for p in first.absolute_path)
            raise SchemaLoadError(f"{path}#{pointer}: {first.message}")
        rel = path.relative_to(SCHEMAS)
        expected = BASE_URI + rel.as_posix()
        if contents.get("$id") != expected:
            raise SchemaLoadError(f"{path}: $id must be {expected!r}")
        files.append(SchemaFile(rel, expected, contents))
    if not files:
        raise SchemaLoadError(f"no schemas found under {SCHEMAS / version}")
    registry: Registry[Any] = Registry().with_resources(
        (f.uri, DRAFT202012.create_resource(f.contents)) for f in files
    )
    seeds = [_load_seed(path) for path in sorted(SEEDS.glob("*.yaml"))]
    return Sources(version, files, registry.crawl(), seeds, schemas_digest())


def _load_seed(path: Path) -> SeedInventory:
    try:
        data = read_yaml(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise SchemaLoadError(f"{path}: {exc}") from exc
    if not isinstance(data, dict) or not isinstance(data.get("fields"), dict):
        raise SchemaLoadError(f"{path}: expected a mapping with a `fields` mapping")
    return SeedInventory(
        seed=str(data["seed"]),
        title=str(data["title"]),
        source=str(data["source"]),
        fields={str(k): (None if v is None else str(v)) for k, v in data["fields"].items()},
    )
