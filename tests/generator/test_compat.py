"""Compatibility with the published release: what is additive, what is breaking, and refusal."""

import copy
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

import generator.load
from generator.__main__ import generate
from generator.bundle import build_bundle
from generator.compat import (
    PUBLISHED,
    Change,
    broken_examples,
    changes,
    check_release,
    load_release,
    main,
    publish,
)
from generator.load import SchemaLoadError, load
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


def test_a_new_member_of_an_open_union_takes_its_tag_from_the_fallback() -> None:
    """UnknownPart excludes its siblings' tags: the list grows with each new part type, which
    a reader of the release read as an unknown part (additive). Any other change to a `not`
    may refuse what passed (breaking)."""

    def tag(values: list[str]) -> Json:
        return {"type": "string", "not": {"enum": values}}

    def unknown(type_schema: Json) -> Json:
        return {"$defs": {"UnknownPart": {"properties": {"type": type_schema}}}}

    pointer = "/$defs/UnknownPart/properties/type"
    old = unknown(tag(["text", "image"]))
    assert _verdicts(old, unknown(tag(["text", "image", "compaction"]))) == [(pointer, False)]
    assert _verdicts(old, unknown(tag(["text"]))) == [(pointer, True)]
    assert _verdicts(old, unknown({"type": "string", "not": {"const": "text"}})) == [
        (pointer, True)
    ]
    elsewhere = {"$defs": {"Name": {"not": {"enum": ["a"]}}}}
    grown = {"$defs": {"Name": {"not": {"enum": ["a", "b"]}}}}
    assert _verdicts(elsewhere, grown) == [("/$defs/Name", True)]
