"""Every lint rule fires on a schema that breaks it, and only then."""

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from generator.bundle import build_bundle
from generator.lint import Finding, lint
from generator.load import SchemaFile, SchemaLoadError, SeedInventory, Sources, load
from generator.paths import BASE_URI, SCHEMAS


def sources_of(
    files: dict[str, dict[str, Any]], seeds: list[SeedInventory] | None = None
) -> Sources:
    schema_files = []
    for name, defs in files.items():
        uri = f"{BASE_URI}t/{name}"
        contents = {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": uri,
            "$defs": defs,
        }
        schema_files.append(SchemaFile(Path("t") / name, uri, contents))
    registry: Registry[Any] = Registry().with_resources(
        (f.uri, DRAFT202012.create_resource(f.contents)) for f in schema_files
    )
    return Sources("t", schema_files, registry, seeds or [], "0" * 64)


BASE: dict[str, Any] = {
    "ErrorCode": {
        "title": "ErrorCode",
        "description": "codes",
        "type": "string",
        "enum": ["bad"],
        "x-codes": {"bad": {"severity": "error", "description": "bad thing"}},
    },
    "Capability": {
        "title": "Capability",
        "description": "caps",
        "type": "string",
        "enum": ["read_x"],
    },
    "Thing": {
        "title": "Thing",
        "description": "A thing.",
        "type": "object",
        "additionalProperties": False,
        "required": ["type"],
        "properties": {
            "type": {"const": "thing", "description": "tag"},
            "size": {"type": "integer", "description": "size"},
        },
    },
}


def findings_for(change: dict[str, Any], seeds: list[SeedInventory] | None = None) -> list[Finding]:
    defs = copy.deepcopy(BASE)
    defs.update(change)
    sources = sources_of({"a.json": defs}, seeds)
    return lint(sources, build_bundle(sources, "test"))


def ids(findings: list[Finding]) -> list[str]:
    return sorted({f.id for f in findings})


def test_base_is_clean() -> None:
    assert findings_for({}) == []


def test_real_schemas_are_clean() -> None:
    sources = load("v1")
    assert lint(sources, build_bundle(sources, "test")) == []


def test_inline_objects_are_refused() -> None:
    inline = {
        "type": "object",
        "description": "d",
        "additionalProperties": False,
        "properties": {"a": {"type": "string", "description": "a"}},
    }
    thing = copy.deepcopy(BASE["Thing"])
    thing["properties"]["nested"] = inline
    assert ids(findings_for({"Thing": thing})) == ["IL001"]


def test_titles_and_descriptions() -> None:
    thing = copy.deepcopy(BASE["Thing"])
    thing["title"] = "Other"
    del thing["properties"]["size"]["description"]
    found = findings_for({"Thing": thing})
    assert ids(found) == ["IL002", "IL003"]
    assert any(f.location.endswith("/properties/size") for f in found)


def test_open_objects_must_say_why() -> None:
    thing = copy.deepcopy(BASE["Thing"])
    thing["additionalProperties"] = True
    assert ids(findings_for({"Thing": thing})) == ["IL006"]
    thing["x-open"] = "Because callers extend it freely."
    assert findings_for({"Thing": thing}) == []


def test_unsupported_keywords() -> None:
    thing = copy.deepcopy(BASE["Thing"])
    thing["properties"]["size"]["multipleOf"] = 2
    thing["properties"]["size"]["not"] = {"const": 3}
    assert ids(findings_for({"Thing": thing})) == ["IL007"]


def union(**extra: Any) -> dict[str, Any]:
    return {
        "title": "Union",
        "description": "u",
        "oneOf": [{"$ref": "#/$defs/Thing"}],
        "discriminator": {"propertyName": "type", "mapping": {"thing": "#/$defs/Thing"}},
        **extra,
    }


def test_unions_need_tagged_members_and_a_mapping() -> None:
    assert findings_for({"Union": union()}) == []
    no_disc = union()
    del no_disc["discriminator"]
    assert ids(findings_for({"Union": no_disc})) == ["IL005"]
    wrong_tag = union(discriminator={"propertyName": "type", "mapping": {"other": "#/$defs/Thing"}})
    assert ids(findings_for({"Union": wrong_tag})) == ["IL004"]
    inline_member = union(oneOf=[{"$ref": "#/$defs/Thing"}, {"type": "string"}])
    assert ids(findings_for({"Union": inline_member})) == ["IL004"]


def test_open_union_fallback_must_exclude_the_known_tags() -> None:
    other: dict[str, Any] = {
        "title": "Other",
        "description": "o",
        "type": "object",
        "additionalProperties": True,
        "x-open": "Kept verbatim, every field.",
        "required": ["type"],
        "properties": {"type": {"type": "string", "description": "t", "not": {"enum": ["thing"]}}},
    }
    open_union = union(
        oneOf=[{"$ref": "#/$defs/Thing"}, {"$ref": "#/$defs/Other"}],
        **{"x-open-union": {"fallback": "Other", "code": "bad"}},
    )
    assert findings_for({"Union": open_union, "Other": other}) == []
    other["properties"]["type"]["not"] = {"enum": []}
    assert ids(findings_for({"Union": open_union, "Other": other})) == ["IL012"]


def test_capabilities_codes_and_invariant_paths_must_exist() -> None:
    thing = copy.deepcopy(BASE["Thing"])
    thing["properties"]["size"]["x-capability"] = "read_y"
    thing["x-invariants"] = [{"kind": "ordered", "lower": "size", "upper": "nope", "code": "worse"}]
    assert ids(findings_for({"Thing": thing})) == ["IL008", "IL009", "IL011"]


def test_error_codes_must_all_be_described() -> None:
    codes = copy.deepcopy(BASE["ErrorCode"])
    codes["enum"].append("undocumented")
    assert ids(findings_for({"ErrorCode": codes})) == ["IL009"]


def test_retryable_codes_must_be_gateway_codes() -> None:
    gateway = {
        "title": "GatewayErrorCode",
        "description": "g",
        "type": "string",
        "enum": ["RATE_LIMITED", "AUTH_FAILED"],
        "x-retryable": ["RATE_LIMITED"],
    }
    assert findings_for({"GatewayErrorCode": gateway}) == []
    gateway["x-retryable"] = ["RATE_LIMITED", "SLOW"]
    findings = findings_for({"GatewayErrorCode": gateway})
    assert ids(findings) == ["IL009"]
    assert "['SLOW']" in findings[0].message


def test_extensions_declare_a_tier() -> None:
    extensions = {
        "title": "Extensions",
        "description": "e",
        "type": "object",
        "additionalProperties": False,
        "properties": {"thing": {"$ref": "#/$defs/Thing", "description": "t"}},
    }
    assert ids(findings_for({"Extensions": extensions})) == ["IL013"]


def test_unique_items_only_on_strings() -> None:
    thing = copy.deepcopy(BASE["Thing"])
    thing["properties"]["size"] = {
        "type": "array",
        "uniqueItems": True,
        "items": {"type": "integer"},
        "description": "s",
    }
    assert ids(findings_for({"Thing": thing})) == ["IL014"]


def seed(**fields: str | None) -> list[SeedInventory]:
    return [SeedInventory("009", "test seed", "nowhere", dict(fields))]


def test_seed_fields_have_exactly_one_home_or_a_reason() -> None:
    thing = copy.deepcopy(BASE["Thing"])
    thing["properties"]["size"]["x-seed"] = ["009:Thing.size"]
    assert findings_for({"Thing": thing}, seed(**{"Thing.size": None})) == []
    assert ids(findings_for({}, seed(**{"Thing.size": None}))) == ["IL010"]  # no home
    assert ids(findings_for({"Thing": thing}, seed(**{"Thing.size": "derived"}))) == [
        "IL010"
    ]  # home and reason
    assert ids(findings_for({"Thing": thing}, seed())) == [
        "IL010"
    ]  # annotation names an unlisted field
    thing["x-seed"] = ["009:Thing.size"]
    assert ids(findings_for({"Thing": thing}, seed(**{"Thing.size": None}))) == [
        "IL010"
    ]  # two homes


def test_bundle_refuses_duplicate_names_and_bad_refs() -> None:
    sources = sources_of({"a.json": copy.deepcopy(BASE), "b.json": {"Thing": BASE["Thing"]}})
    with pytest.raises(SchemaLoadError, match="already defined"):
        build_bundle(sources, "test")
    broken = copy.deepcopy(BASE)
    broken["Thing"]["properties"]["size"] = {"$ref": "#/$defs/Missing", "description": "s"}
    with pytest.raises(SchemaLoadError, match="unresolvable"):
        build_bundle(sources_of({"a.json": broken}), "test")
    deep = copy.deepcopy(BASE)
    deep["Thing"]["properties"]["size"] = {
        "$ref": "#/$defs/Thing/properties/size",
        "description": "s",
    }
    with pytest.raises(SchemaLoadError, match="top-level"):
        build_bundle(sources_of({"a.json": deep}), "test")


def test_load_refuses_bad_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import generator.load as loading

    (tmp_path / "v9").mkdir()
    monkeypatch.setattr(loading, "SCHEMAS", tmp_path)
    monkeypatch.setattr(loading, "SEEDS", tmp_path / "seeds")
    monkeypatch.setattr(loading, "META", SCHEMAS / "meta")
    with pytest.raises(SchemaLoadError, match="no schemas"):
        load("v9")
    bad = tmp_path / "v9" / "a.json"
    bad.write_text("{not json")
    with pytest.raises(SchemaLoadError):
        load("v9")
    bad.write_text(json.dumps({"$id": f"{BASE_URI}v9/a.json", "type": 12}))
    with pytest.raises(SchemaLoadError, match="not a valid 2020-12 schema"):
        load("v9")
    bad.write_text(json.dumps({"$id": f"{BASE_URI}v9/a.json", "x-mutability": "sometimes"}))
    with pytest.raises(SchemaLoadError, match="x-mutability"):
        load("v9")
    bad.write_text(json.dumps({"$id": "https://elsewhere/a.json"}))
    with pytest.raises(SchemaLoadError, match=r"\$id must be"):
        load("v9")
    bad.write_text("[]")
    with pytest.raises(SchemaLoadError, match="JSON object"):
        load("v9")


def test_part_types_need_a_view_with_real_paths_and_kinds() -> None:
    kinds = {
        "title": "ViewKind",
        "description": "k",
        "type": "string",
        "enum": ["thing"],
        "x-kinds": {"thing": {"direction": "pre", "action": {"*": "read"}}},
    }
    thing = copy.deepcopy(BASE["Thing"])
    thing["x-view"] = {"kind": "thing", "name": "size"}
    part = union(**{"x-open-union": {"fallback": "Thing", "code": "bad"}})
    part["oneOf"] = [{"$ref": "#/$defs/Thing"}]
    part["discriminator"]["mapping"] = {}
    assert findings_for({"ViewKind": kinds, "Thing": thing, "Union": part}) == []
    thing["x-view"] = {"kind": "other", "uri": ["x://{nope}"]}
    found = findings_for({"ViewKind": kinds, "Thing": thing, "Union": part})
    assert sorted((f.id, f.message.split(",")[0]) for f in found) == [
        ("IL016", "x-view names 'nope'"),
        ("IL017", "x-view kind 'other' is not a ViewKind"),
    ]
    del thing["x-view"]
    kinds["x-kinds"] = {}
    assert ids(findings_for({"ViewKind": kinds, "Thing": thing, "Union": part})) == [
        "IL016",
        "IL017",
    ]
