"""Declared changes between versions: checking the declarations, deriving the next bundle,
and the migration code written from them (run here on declarations of every kind)."""

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from generator.bundle import build_bundle
from generator.environment import environment
from generator.load import SchemaLoadError, load
from generator.migration_plan import plan_migration
from generator.migrations import Migration, derive, load_migrations, next_bundles
from generator.paths import ROOT

Json = dict[str, Any]


@pytest.fixture(scope="module")
def bundle() -> Json:
    return build_bundle(load("v1"), "")


def _migration(*changes: Json, status: str = "draft") -> Migration:
    return Migration(1, 2, status, "test", tuple(changes), Path("v1-v2.yaml"))


def _compiled(bundle: Json, migration: Migration) -> dict[str, Any]:
    """The module the template writes for ``migration``, executed."""
    plan = plan_migration(migration, bundle, derive(bundle, migration))
    values = {"header": "# test", "m": migration, "plan": plan, "where": migration.file}
    source = environment().get_template("python/migration.py.j2").render(values)
    namespace: dict[str, Any] = {}
    exec(compile(source, "<migration>", "exec"), namespace)
    return namespace


def _write(root: Path, name: str, data: Any) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    path = root / name
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


# --- the declaration files -----------------------------------------------------------------


def test_the_repository_declares_v1_to_v2() -> None:
    (migration,) = load_migrations()
    assert (migration.source, migration.target, migration.status) == (1, 2, "draft")
    kinds = [change["kind"] for change in migration.changes]
    assert kinds == ["rename_field", "rename_field", "rename_value", "move_field", "move_field"]


def test_a_declaration_file_is_checked_against_its_meta_schema(tmp_path: Path) -> None:
    change = {"kind": "rename_field", "type": "Usage", "from": "a", "to": "b"}  # no `why`
    data = {"from": 1, "to": 2, "status": "draft", "description": "d", "changes": [change]}
    _write(tmp_path, "v1-v2.yaml", data)
    with pytest.raises(SchemaLoadError, match=r"v1-v2.yaml#/changes/0"):
        load_migrations(tmp_path)


@pytest.mark.parametrize(
    ("name", "source", "target"), [("v1-v3.yaml", 1, 3), ("v2-v3.yaml", 1, 2), ("one.yaml", 1, 2)]
)
def test_a_migration_goes_one_version_up_in_its_named_file(
    tmp_path: Path, name: str, source: int, target: int
) -> None:
    change = {"kind": "rename_value", "type": "Role", "from": "a", "to": "b", "why": "w"}
    data = {
        "from": source,
        "to": target,
        "status": "draft",
        "description": "d",
        "changes": [change],
    }
    _write(tmp_path, name, data)
    with pytest.raises(SchemaLoadError, match="one version up"):
        load_migrations(tmp_path)


def test_an_unreadable_declaration_file_is_a_load_error(tmp_path: Path) -> None:
    (tmp_path / "v1-v2.yaml").write_text("from: [1", encoding="utf-8")
    with pytest.raises(SchemaLoadError, match=r"v1-v2\.yaml"):
        load_migrations(tmp_path)


# --- the derived bundle ----------------------------------------------------------------------


def test_the_v2_bundle_is_derived_not_copied(bundle: Json) -> None:
    (_, source, v2), *_ = next_bundles(bundle, load_migrations(), "v1")
    assert source is bundle and v2["$id"].endswith("/v2/interlingua.json")
    assert v2["title"] == "interlingua v2 (draft)" and v2["$defs"]["SchemaVersion"]["const"] == 2
    usage = list(v2["$defs"]["Usage"]["properties"])
    assert usage[3:5] == ["cache_read_input_tokens", "cache_write_input_tokens"]  # same places
    assert "tool_call" in v2["$defs"]["StopReason"]["enum"]
    assert "`tool_call`: it stopped" in v2["$defs"]["StopReason"]["description"]
    ref = v2["$defs"]["ResourceRefPart"]
    assert "range_start" not in ref["properties"]
    assert ref["properties"]["range"]["$ref"] == "#/$defs/ResourceRange"
    assert list(v2["$defs"]["ResourceRange"]["properties"]) == ["start", "end"]
    assert ref["x-invariants"][0]["lower"] == "range/start"  # the invariant follows the field
    conversation = v2["$defs"]["Conversation"]["properties"]["schema_version"]
    assert "always 2" in conversation["description"]
    # A type no declaration touches is the same in both versions.
    assert v2["$defs"]["TextPart"] == bundle["$defs"]["TextPart"]
    assert bundle["$defs"]["SchemaVersion"]["const"] == 1, "the source bundle is not changed"


def test_the_generated_v2_bundle_is_the_derived_one(bundle: Json) -> None:
    (_, _, v2), *_ = next_bundles(bundle, load_migrations(), "v1")
    written = json.loads((ROOT / "generated/schemas/interlingua-v2.json").read_text("utf-8"))
    assert {k: v for k, v in written.items() if k != "$comment"} == {
        k: v for k, v in v2.items() if k != "$comment"
    }


def test_a_version_with_no_migration_from_it_derives_nothing(bundle: Json) -> None:
    assert list(next_bundles(bundle, load_migrations(), "v2")) == []


@pytest.mark.parametrize(
    ("change", "refusal"),
    [
        ({"kind": "rename_field", "type": "Usage", "from": "nope", "to": "x"}, "no field 'nope'"),
        (
            {
                "kind": "rename_field",
                "type": "Usage",
                "from": "input_tokens",
                "to": "output_tokens",
            },
            "already has a field",
        ),
        ({"kind": "rename_field", "type": "Role", "from": "a", "to": "b"}, "not an object type"),
        ({"kind": "rename_value", "type": "Role", "from": "critic", "to": "x"}, "no enum value"),
        ({"kind": "rename_value", "type": "Role", "from": "user", "to": "tool"}, "already has"),
        ({"kind": "rename_part_type", "union": "Part", "from": "nope", "to": "x"}, "no member"),
        ({"kind": "rename_part_type", "union": "Part", "from": "text", "to": "image"}, "already"),
        ({"kind": "move_field", "type": "Usage", "from": "nope", "to": "x"}, "no field"),
        (
            {"kind": "move_field", "type": "Message", "from": "role", "to": "extensions/role"},
            "a required field cannot move",
        ),
        (
            {
                "kind": "move_field",
                "type": "Message",
                "from": "channel",
                "to": "session_id/channel",
            },
            "does not hold an object type",
        ),
        (
            {"kind": "move_field", "type": "Message", "from": "id", "to": "session_id"},
            "already has a field",
        ),
        (
            {
                "kind": "move_field",
                "type": "Message",
                "from": "id",
                "to": "where/id",
                "create": {"name": "TextPart", "description": "d"},
            },
            "exists already",
        ),
        (
            {"kind": "add_required", "type": "Usage", "field": "input_tokens", "schema": {}},
            "already has a field",
        ),
        (
            {
                "kind": "add_required",
                "type": "Usage",
                "field": "x",
                "schema": {"$ref": "#/$defs/No"},
            },
            "unknown type",
        ),
    ],
)
def test_a_declaration_that_does_not_fit_the_schemas_is_refused(
    bundle: Json, change: Json, refusal: str
) -> None:
    extra = {"default": 0, "description": "d"} if change["kind"] == "add_required" else {}
    with pytest.raises(SchemaLoadError, match=rf"v1-v2.yaml#/changes/0: .*{refusal}"):
        derive(bundle, _migration({**change, **extra, "why": "w"}))


# --- the migration code ----------------------------------------------------------------------


def test_the_v2_plan_touches_only_what_declarations_reach(bundle: Json) -> None:
    (migration, source, target), *_ = next_bundles(bundle, load_migrations(), "v1")
    plan = plan_migration(migration, source, target)
    up = {f.type for f in plan.functions if f.direction == "up"}
    assert {"Usage", "StopReason", "ResourceRefPart", "SchemaVersion", "Part", "Message"} <= up
    assert not up & {"TextPart", "ToolCallPart", "Role", "ImagePart"}
    assert plan.documents == {"messages": "Conversation", "message": "Response", "role": "Message"}
    assert plan.versioned == ["Conversation", "Response"]
    assert plan.helpers == ["each", "emptied", "move", "prune"]


def test_a_renamed_part_type_is_migrated_both_ways(bundle: Json) -> None:
    rename = {
        "kind": "rename_part_type",
        "union": "Part",
        "from": "resource_ref",
        "to": "resource_link",
    }
    module = _compiled(bundle, _migration({**rename, "why": "w"}))
    part: Json = {"type": "resource_ref", "uri": "u", "resource_type": "file"}
    message: Json = {
        "role": "tool",
        "content": [{"type": "tool_result", "tool_call_id": "c", "content": [part]}],
    }
    losses: list[Any] = []
    up = module["UP"]["Message"](message, "", losses)
    assert up["content"][0]["content"][0] == {**part, "type": "resource_link"}
    assert list(up["content"][0]["content"][0]) == list(part), "the tag keeps its place"
    assert module["DOWN"]["Message"](up, "", losses) == message
    assert losses == [] and message["content"][0]["content"][0]["type"] == "resource_ref"
    assert (
        derive(bundle, _migration({**rename, "why": "w"}))["$defs"]["Part"]["discriminator"][
            "mapping"
        ]["resource_link"]
        == "#/$defs/ResourceRefPart"
    )


def test_a_new_required_field_gets_its_default_and_is_dropped_back(bundle: Json) -> None:
    change = {
        "kind": "add_required",
        "type": "ToolResultPart",
        "field": "failed",
        "schema": {"type": "boolean"},
        "default": False,
        "description": "d",
        "why": "w",
    }
    v2 = derive(bundle, _migration(change))
    assert "failed" in v2["$defs"]["ToolResultPart"]["required"]
    module = _compiled(bundle, _migration(change))
    result = {"type": "tool_result", "tool_call_id": "c", "content": []}
    message = {"role": "tool", "content": [result]}
    losses: list[Any] = []
    up = module["UP"]["Message"](message, "", losses)
    assert up["content"][0]["failed"] is False
    assert module["DOWN"]["Message"](up, "", losses) == message and losses == []
    failed = {"role": "tool", "content": [{**result, "failed": True}]}
    assert module["DOWN"]["Message"](failed, "", losses) == message
    assert [(loss.pointer, loss.code) for loss in losses] == [
        ("/content/0/failed", "field_dropped")
    ]


def test_a_field_moved_into_an_existing_object_keeps_its_own_changes(bundle: Json) -> None:
    """A move into a type that exists already (nothing to prune on the way back), of a value
    whose own type changes too."""
    move = {"kind": "move_field", "type": "Message", "from": "channel", "to": "extensions/channel"}
    rename = {"kind": "rename_value", "type": "Channel", "from": "final", "to": "answer"}
    module = _compiled(bundle, _migration({**move, "why": "w"}, {**rename, "why": "w"}))
    message = {"role": "assistant", "content": [], "channel": "final", "extensions": {"custom": {}}}
    losses: list[Any] = []
    up = module["UP"]["Message"](message, "", losses)
    assert up == {
        "role": "assistant",
        "content": [],
        "extensions": {"custom": {}, "channel": "answer"},
    }
    assert module["DOWN"]["Message"](up, "", losses) == message and losses == []
    assert message["extensions"] == {"custom": {}}, "the input is not changed"


def _tiny(field: Json) -> Json:
    """A bundle of one document type, ``Doc``, whose field ``u`` is ``field``; ``A`` is the
    object type the declaration below changes."""
    return {
        "$id": "https://interlingua.dev/schemas/v1/interlingua.json",
        "$defs": {
            "SchemaVersion": {"const": 1},
            "Doc": {
                "x-document": {"key": "k"},
                "type": "object",
                "properties": {"k": {"type": "string"}, "u": field, "any": True},
            },
            "A": {"type": "object", "properties": {"a": {"type": "string"}}},
            "B": {"type": "object", "properties": {"b": {"type": "string"}}},
        },
    }


RENAME_A = {"kind": "rename_field", "type": "A", "from": "a", "to": "z", "why": "w"}


def test_a_map_of_changed_values_is_migrated_value_by_value() -> None:
    bundle = _tiny({"type": "object", "additionalProperties": {"$ref": "#/$defs/A"}})
    described = {**RENAME_A, "description": "The z."}
    assert derive(bundle, _migration(described))["$defs"]["A"]["properties"]["z"] == {
        "type": "string",
        "description": "The z.",
    }
    module = _compiled(bundle, _migration(RENAME_A))
    document = {"k": "x", "u": {"one": {"a": "1"}, "two": {"a": "2"}}}
    up = module["UP"]["Doc"](document, "", [])
    assert up == {"k": "x", "u": {"one": {"z": "1"}, "two": {"z": "2"}}}
    assert module["DOWN"]["Doc"](up, "", []) == document


@pytest.mark.parametrize(
    ("field", "refusal"),
    [
        ({"oneOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}]}, "an inline union"),
        ({"type": "array", "items": {"type": "array", "items": {"$ref": "#/$defs/A"}}}, "nested"),
        ({"$ref": "#/$defs/Pick"}, "a union without a tag"),
    ],
)
def test_what_the_plan_cannot_look_inside_is_refused(field: Json, refusal: str) -> None:
    bundle = _tiny(field)
    bundle["$defs"]["Pick"] = {"oneOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}]}
    migration = _migration(RENAME_A)
    with pytest.raises(SchemaLoadError, match=refusal):
        plan_migration(migration, bundle, derive(bundle, migration))


def test_a_lenient_derivation_leaves_out_what_does_not_fit(bundle: Json) -> None:
    unfit = {"kind": "rename_value", "type": "Role", "from": "critic", "to": "x", "why": "w"}
    migration = _migration(unfit, {**RENAME_A, "type": "Usage", "from": "input_tokens"})
    derived = derive(bundle, migration, lenient=True)
    assert derived["$defs"]["Role"] == bundle["$defs"]["Role"]
    assert "z" in derived["$defs"]["Usage"]["properties"]


def test_a_hand_written_step_runs_where_its_type_is_in_the_newer_shape(bundle: Json) -> None:
    step = {
        "kind": "step",
        "type": "ToolCallPart",
        "module": "tests.generator.migration_steps",
        "name": "split_namespace",
        "lossless": False,
        "why": "w",
    }
    migration = _migration({**RENAME_A, "type": "ToolCallPart", "from": "arguments"}, step)
    assert derive(bundle, migration)["$defs"]["ToolCallPart"]["properties"]["z"]
    module = _compiled(bundle, migration)
    assert module["LOSSLESS"] is False
    call = {"type": "tool_call", "id": "c", "name": "fs__read", "arguments": {}}
    message = {"role": "assistant", "content": [call]}
    up = module["UP"]["Message"](message, "", [])
    assert up["content"] == [
        {"type": "tool_call", "id": "c", "name": "read", "z": {}, "namespace": "fs"}
    ]
    assert module["DOWN"]["Message"](up, "", []) == message
    with pytest.raises(SchemaLoadError, match="Role is not an object type"):
        derive(bundle, _migration({**step, "type": "Role"}))


def test_the_reference_page_lists_every_kind_of_declaration() -> None:
    changes = [
        {"kind": "rename_part_type", "union": "Part", "from": "a", "to": "b", "why": "one"},
        {"kind": "add_required", "type": "T", "field": "f", "why": "two"},
        {"kind": "step", "type": "T", "module": "m", "name": "s", "why": "three\nlines"},
    ]
    page = (
        environment()
        .get_template("docs/migrations.md.j2")
        .render(header="<!-- h -->", migrations=[_migration(*changes, status="published")])
    )
    assert "| rename part type | `Part` | `a` | `b` | one |" in page
    assert "| add required | `T` | `—` | `f` | two |" in page
    assert "| step | `T` | `—` | `m.s_up / _down` | three lines |" in page
    assert "(draft)" not in page
