"""Compatibility with the published release: what is additive, what is breaking, and refusal."""

import copy
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

import generator.load
import generator.migrations
from generator.__main__ import generate
from generator.bundle import build_bundle
from generator.compat import (
    PUBLISHED,
    Change,
    _migrated_examples,
    broken_examples,
    changes,
    check_migration,
    check_release,
    check_versions,
    load_release,
    main,
    publish,
)
from generator.load import SchemaLoadError, load
from generator.migrations import load_migrations, next_bundles
from generator.paths import SCHEMAS

Json = dict[str, Any]


@pytest.fixture(scope="module")
def release() -> Json:
    found = load_release("v1")
    assert found is not None, "v1 is published: schemas/published/v1.json"
    return found


@pytest.fixture(scope="module")
def bundle() -> Json:
    return build_bundle(load("v1"), "")


def _edited(bundle: Json, edit: Any) -> Json:
    edited = copy.deepcopy(bundle)
    edit(edited["$defs"])
    return edited


def _verdicts(old: Json, new: Json) -> list[tuple[str, bool]]:
    return [(c.pointer, c.breaking) for c in changes(old, new)]


def test_the_current_schemas_keep_every_promise_of_the_release(release: Json, bundle: Json) -> None:
    assert [c for c in changes(release["bundle"], bundle) if c.breaking] == []
    assert broken_examples(release, bundle) == []
    assert check_release("v1", bundle) == []


def test_annotations_are_free_to_change(bundle: Json) -> None:
    def edit(defs: Json) -> None:
        defs["Role"]["description"] = "who spoke"
        defs["Role"]["title"] = "Speaker"
        defs["TextPart"]["x-seed"] = []

    assert changes(bundle, _edited(bundle, edit)) == []


@pytest.mark.parametrize(
    ("edit", "pointer", "breaking"),
    [
        (lambda d: d["Role"]["enum"].remove("developer"), "/$defs/Role", True),
        (lambda d: d["Role"]["enum"].append("critic"), "/$defs/Role", False),
        (lambda d: d["TextPart"]["required"].append("cache_hint"), "/$defs/TextPart", True),
        (lambda d: d["TextPart"]["required"].remove("text"), "/$defs/TextPart", False),
        (
            lambda d: d["TextPart"]["properties"].update(lang={"type": "string"}),
            "/$defs/TextPart/properties/lang",
            False,
        ),
        (
            lambda d: d["TextPart"]["properties"].pop("cache_hint"),
            "/$defs/TextPart/properties/cache_hint",
            True,
        ),
        (
            lambda d: d["TextPart"]["properties"]["text"].update(maxLength=10),
            "/$defs/TextPart/properties/text",
            True,
        ),
        (
            lambda d: d["TextPart"]["properties"]["text"].update(pattern="^a"),
            "/$defs/TextPart/properties/text",
            True,
        ),
        (
            lambda d: d["TextPart"]["properties"]["text"].update(type=["string", "null"]),
            "/$defs/TextPart/properties/text",
            False,
        ),
        (lambda d: d.pop("AudioPart"), "/$defs/AudioPart", True),
        (lambda d: d.update(LaterPart={"type": "object"}), "/$defs/LaterPart", False),
        (
            lambda d: d["TextPart"].update({"additionalProperties": True}),
            "/$defs/TextPart",
            False,
        ),
        (
            lambda d: d["Extensions"].pop("x-forward"),
            "/$defs/Extensions",
            True,
        ),
    ],
)
def test_each_kind_of_change_is_sorted(
    bundle: Json, edit: Any, pointer: str, breaking: bool
) -> None:
    found = _verdicts(bundle, _edited(bundle, edit))
    assert (pointer, breaking) in found, found
    assert all(b == breaking for _, b in found), found


def test_bounds_compare_by_direction() -> None:
    old = {"$defs": {"N": {"type": "integer", "minimum": 1, "maximum": 10}}}
    looser = {"$defs": {"N": {"type": "integer", "minimum": 0, "maximum": 20}}}
    tighter = {"$defs": {"N": {"type": "integer", "minimum": 2, "maximum": 5}}}
    assert {b for _, b in _verdicts(old, looser)} == {False}
    assert {b for _, b in _verdicts(old, tighter)} == {True}
    assert _verdicts(old, {"$defs": {"N": {"type": "integer"}}}) == [
        ("/$defs/N", False),
        ("/$defs/N", False),
    ]


def test_unions_invariants_and_references() -> None:
    old = {
        "oneOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}],
        "$defs": {"A": {"x-invariants": [{"kind": "x"}]}, "B": {"$ref": "#/$defs/A"}},
    }
    new = {
        "oneOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/C"}],
        "$defs": {"A": {"x-invariants": [{"kind": "y"}]}, "B": {"$ref": "#/$defs/C"}},
    }
    messages = {(c.message, c.breaking) for c in changes(old, new)}
    assert ("union member #/$defs/B removed", True) in messages
    assert ("union member #/$defs/C added", False) in messages
    assert ('invariant added: {"kind": "y"}', True) in messages
    assert ('invariant removed: {"kind": "x"}', False) in messages
    assert ("reference changed from #/$defs/A to #/$defs/C", True) in messages


def test_an_invariant_that_lets_more_documents_through_is_additive() -> None:
    """`answers` with `elsewhere` (a result may answer a call held elsewhere) refuses fewer
    documents than the rule without it: relaxed, not added and removed."""
    rule = {"kind": "answers", "path": ["messages"], "code": "orphan_result"}
    old = {"$defs": {"A": {"x-invariants": [rule]}}}
    new = {"$defs": {"A": {"x-invariants": [{**rule, "elsewhere": "continues"}]}}}
    found = [(c.message.split(":")[0], c.breaking) for c in changes(old, new)]
    assert found == [("invariant relaxed", False)]
    # The other way, the rule is tightened: breaking.
    assert any(c.breaking for c in changes(new, old))


def test_a_waiver_naming_more_values_is_additive() -> None:
    """A `waives` rule whose condition names more values waives its finding for more
    documents: relaxed. Naming fewer, or another field, refuses documents it let through."""
    rule = {
        "kind": "waives",
        "code": "empty_content",
        "field": "message/content",
        "when": {"field": "stop_reason", "in": ["error"]},
    }
    wider = {**rule, "when": {"field": "stop_reason", "in": ["end", "error"]}}
    elsewhere = {**wider, "when": {"field": "model", "in": ["end", "error"]}}

    def schema(invariant: Json) -> Json:
        return {"$defs": {"A": {"x-invariants": [invariant]}}}

    found = [(c.message.split(":")[0], c.breaking) for c in changes(schema(rule), schema(wider))]
    assert found == [("invariant relaxed", False)]
    assert any(c.breaking for c in changes(schema(wider), schema(rule)))
    assert any(c.breaking for c in changes(schema(rule), schema(elsewhere)))


def test_a_released_example_the_schema_now_refuses_is_breaking(release: Json, bundle: Json) -> None:
    def edit(defs: Json) -> None:
        defs["TextPart"]["properties"]["text"]["maxLength"] = 1

    refused = broken_examples(release, _edited(bundle, edit))
    assert refused and all(c.breaking for c in refused)
    assert any(c.pointer.startswith("examples/TextPart/") for c in refused)


def test_the_generator_refuses_a_breaking_change_to_a_published_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    schemas = tmp_path / "schemas"
    shutil.copytree(SCHEMAS, schemas)
    message_file = schemas / "v1" / "message.json"
    text = message_file.read_text(encoding="utf-8")
    assert '"developer", ' in text
    message_file.write_text(text.replace('"developer", ', "", 1), encoding="utf-8")
    monkeypatch.setattr(generator.load, "SCHEMAS", schemas)
    with pytest.raises(SchemaLoadError, match="lint violation"):
        generate(tmp_path / "out")
    refusal = capsys.readouterr().err
    assert "IL019" in refusal and "enum value 'developer' removed" in refusal
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").rglob("*.py"))


def test_publishing_numbers_releases_and_refuses_breaking_changes(
    tmp_path: Path, bundle: Json
) -> None:
    first = publish("v1", bundle, tmp_path)
    assert first["release"] == "1.0"
    assert publish("v1", bundle, tmp_path)["release"] == "1.0"  # nothing changed

    def add(defs: Json) -> None:
        defs["Role"]["enum"].append("critic")

    assert publish("v1", _edited(bundle, add), tmp_path)["release"] == "1.1"
    with pytest.raises(ValueError, match="breaking"):
        publish("v1", bundle, tmp_path)  # the release has `critic`; removing it breaks
    stored = json.loads((tmp_path / "v1.json").read_text(encoding="utf-8"))
    assert "critic" in stored["bundle"]["$defs"]["Role"]["enum"]
    assert stored["examples"], "the examples travel with the release"


def test_the_command_lists_changes_and_fails_on_breaking_ones(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main([]) == 0  # additive changes since the release are listed, never refused
    out = capsys.readouterr().out
    assert re.search(r"^v1: \d+ change\(s\) since release 1\.\d+$", out, re.M), out
    assert re.search(r"^v2 \(draft, from schemas/migrations/v1-v2.yaml\): \d+ breaking", out, re.M)
    assert "0 undeclared" in out
    assert "breaking:" not in out
    assert PUBLISHED.is_dir()
    assert str(Change("/x", True, "why")) == "breaking: /x: why"


def test_an_invariant_that_only_warns_is_additive() -> None:
    codes = {
        "ErrorCode": {"x-codes": {"late": {"severity": "warning"}, "bad": {"severity": "error"}}}
    }
    old = {"$defs": {**codes, "A": {"type": "object"}}}
    warns = {"$defs": {**codes, "A": {"type": "object", "x-invariants": [{"code": "late"}]}}}
    refuses = {"$defs": {**codes, "A": {"type": "object", "x-invariants": [{"code": "bad"}]}}}
    assert [(c.breaking, c.message.endswith("(a warning)")) for c in changes(old, warns)] == [
        (False, True)
    ]
    assert [c.breaking for c in changes(old, refuses)] == [True]


# --- the next version: breaking changes are declared, or refused ---------------------------


def test_every_breaking_change_to_v2_is_declared(release: Json, bundle: Json) -> None:
    assert check_versions("v1", bundle) == []
    (migration, _, v2), *_ = next_bundles(bundle, load_migrations(), "v1")
    declared, refused = check_migration(release["bundle"], v2, migration)
    assert refused == [] and declared
    assert any("'call' removed" in c.message for c in declared)
    assert any(c.pointer == "/$defs/Usage/properties/cached_input_tokens" for c in declared)
    assert any(c.pointer == "/$defs/ResourceRefPart/properties/range_start" for c in declared)


def test_an_undeclared_breaking_change_to_the_next_version_is_refused(
    release: Json, bundle: Json
) -> None:
    (migration, _, v2), *_ = next_bundles(bundle, load_migrations(), "v1")

    def edit(defs: Json) -> None:
        defs["Role"]["enum"].remove("developer")
        defs["Usage"]["properties"]["cache_write_input_tokens"]["maximum"] = 10

    _, refused = check_migration(release["bundle"], _edited(v2, edit), migration)
    assert [f.id for f in refused] == ["IL020", "IL020"]
    assert {f.location for f in refused} == {
        "schemas/migrations/v1-v2.yaml#/$defs/Role",
        "schemas/migrations/v1-v2.yaml#/$defs/Usage/properties/cache_write_input_tokens",
    }


def test_a_breaking_change_declared_with_a_version_bump_is_generated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The change the test above refuses in v1 (no version bump) passes when it is declared
    for v2: v1 keeps `developer`, v2 is derived without it, and the migration says so."""
    schemas = tmp_path / "schemas"
    shutil.copytree(SCHEMAS, schemas)
    declarations = schemas / "migrations" / "v1-v2.yaml"
    text = declarations.read_text(encoding="utf-8")
    rename = "  - kind: rename_value\n    type: Role\n    from: developer\n    to: instructions\n"
    declarations.write_text(text + rename + "    why: a test\n", encoding="utf-8")
    monkeypatch.setattr(generator.load, "SCHEMAS", schemas)
    monkeypatch.setattr(generator.migrations, "MIGRATIONS", schemas / "migrations")
    generate(tmp_path / "out")
    v1 = json.loads((tmp_path / "out/generated/schemas/interlingua-v1.json").read_text("utf-8"))
    v2 = json.loads((tmp_path / "out/generated/schemas/interlingua-v2.json").read_text("utf-8"))
    assert "developer" in v1["$defs"]["Role"]["enum"]
    assert v2["$defs"]["Role"]["enum"] == ["system", "instructions", "user", "assistant", "tool"]
    module = (tmp_path / "out/generated/python/migrations/v1_v2.py").read_text("utf-8")
    assert "{'developer': 'instructions'}" in module.replace('"', "'")


def test_a_published_next_version_is_held_to_its_release(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, bundle: Json
) -> None:
    (_, _, v2), *_ = next_bundles(bundle, load_migrations(), "v1")
    assert publish("v2", v2, tmp_path, examples={})["release"] == "2.0"
    shutil.copy(PUBLISHED / "v1.json", tmp_path / "v1.json")
    assert check_versions("v1", bundle, tmp_path) == []

    def edit(defs: Json) -> None:
        defs["Usage"]["properties"]["input_tokens"]["maximum"] = 10

    assert [f.id for f in check_versions("v1", _edited(bundle, edit), tmp_path)] == [
        "IL020",
        "IL019",
    ]


def test_a_published_next_version_releases_the_examples_migrated(bundle: Json) -> None:
    (_, _, v2), *_ = next_bundles(bundle, load_migrations(), "v1")
    examples = _migrated_examples("v2", v2)
    assert examples and {key.split("/")[0] for key in examples} == {
        "Conversation",
        "Response",
        "Message",
    }
    assert all(example.get("schema_version", 2) == 2 for example in examples.values())
    assert broken_examples({"examples": examples}, v2) == []


def test_the_command_compares_a_published_next_version_with_its_release(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    migrations = tmp_path / "migrations"
    migrations.mkdir()
    text = (SCHEMAS / "migrations" / "v1-v2.yaml").read_text(encoding="utf-8")
    published = text.replace("status: draft", "status: published")
    (migrations / "v1-v2.yaml").write_text(published, encoding="utf-8")
    monkeypatch.setattr(generator.migrations, "MIGRATIONS", migrations)
    assert main([]) == 0
    out = capsys.readouterr().out
    assert "v2 (published, from schemas/migrations/v1-v2.yaml): " in out
    assert "v2: never published" in out


def _open_union(tags: list[str], fallback_refuses: list[str], code: str) -> Json:
    codes = {
        "ErrorCode": {"x-codes": {"odd": {"severity": "warning"}, "bad": {"severity": "error"}}}
    }
    members = {t: f"#/$defs/{t.upper()}" for t in tags}
    return {
        "$defs": {
            **codes,
            "Part": {
                "x-open-union": {"fallback": "Other", "code": code},
                "oneOf": [{"$ref": ref} for ref in [*members.values(), "#/$defs/Other"]],
                "discriminator": {"propertyName": "type", "mapping": members},
            },
            **{t.upper(): {"properties": {"type": {"const": t}}} for t in tags},
            "Other": {"properties": {"type": {"not": {"enum": fallback_refuses}}}},
        }
    }


def test_a_tag_an_open_union_adopts_from_its_fallback_is_additive() -> None:
    """A new member taking a tag the fallback used to take refuses only documents already
    reported with the union's code, when that code is a warning; otherwise it is breaking."""
    old = _open_union(["a"], ["a"], "odd")
    new = _open_union(["a", "b"], ["a", "b"], "odd")
    fallback = [c for c in changes(old, new) if c.pointer == "/$defs/Other/properties/type"]
    assert [(c.breaking, "['b'] taken from the fallback" in c.message) for c in fallback] == [
        (False, True)
    ]
    # the union's code refuses: breaking
    strict = changes(_open_union(["a"], ["a"], "bad"), _open_union(["a", "b"], ["a", "b"], "bad"))
    assert ("/$defs/Other/properties/type", True) in [(c.pointer, c.breaking) for c in strict]
    # the fallback refuses a tag no member takes: breaking
    orphan = changes(old, _open_union(["a"], ["a", "b"], "odd"))
    assert ("/$defs/Other/properties/type", True) in [(c.pointer, c.breaking) for c in orphan]
