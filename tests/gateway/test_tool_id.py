"""Tool ids (seed 002 §1): derivation, grammar, round trips, hostile inputs."""

import hashlib
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from interlingua.gateway.errors import GatewayError
from interlingua.gateway.tool_id import (
    canonical_shape,
    derive_catalog_ids,
    derive_tool_id,
    format_tool_id,
    hash8,
    infer_namespace,
    make_parts,
    parse_tool_id,
    split_upstream_name,
    tool_id_of,
)
from interlingua.generated.models import GatewayTool, ToolIdParts

from .strategies import tool_id_parts


@given(tool_id_parts())
def test_parse_inverts_format(parts: ToolIdParts) -> None:
    text = format_tool_id(parts)
    assert parse_tool_id(text) == parts
    assert format_tool_id(parse_tool_id(text)) == text
    assert len(text) <= 240


@given(st.text(max_size=300))
def test_any_string_parses_or_is_tool_id_invalid(text: str) -> None:
    try:
        parts = parse_tool_id(text)
    except GatewayError as error:
        assert error.code == "TOOL_ID_INVALID"
        assert len(error.envelope().message) <= 256
    else:
        assert format_tool_id(parts) == text


@given(st.text(min_size=1, max_size=200), st.dictionaries(st.text(max_size=8), st.just({})))
def test_derivation_is_deterministic_or_coded(name: str, properties: dict[str, Any]) -> None:
    schema = {"type": "object", "properties": properties}
    try:
        first = derive_tool_id(name, schema)
    except GatewayError as error:
        assert error.code == "TOOL_ID_INVALID"
        return
    assert derive_tool_id(name, dict(reversed(schema.items()))) == first
    assert parse_tool_id(first).hash8 == hash8(name, schema)


def test_hash8_is_the_seed_formula() -> None:
    schema = {"properties": {"b": {}, "a": {"type": "string"}}, "required": ["b"]}
    text = 'svc.tool\n{"properties":["a","b"],"required":["b"]}'
    assert canonical_shape(schema) == text.partition("\n")[2]
    assert hash8("svc.tool", schema) == hashlib.sha256(text.encode()).hexdigest()[:8]


def test_split_keeps_the_underscore_name_and_strips_dot_prefixes() -> None:
    assert split_upstream_name("github.create_issue") == ("github", "create_issue")
    assert split_upstream_name("slack_send_message") == ("slack", "slack_send_message")
    assert split_upstream_name("read_file") == ("mcp", "read_file")
    assert split_upstream_name("x/y", server_name="Srv") == ("srv", "x/y")
    assert infer_namespace("A.b") == "a"


def test_lower_casing_is_ascii_only() -> None:
    # "İ" lower-cases to two code points in Unicode; it is left alone and the grammar refuses it.
    with pytest.raises(GatewayError) as raised:
        derive_tool_id("İstanbul.get", {})
    assert raised.value.code == "TOOL_ID_INVALID"
    assert raised.value.details == {"fields": ["namespace"]}


def test_version_replaces_the_hash() -> None:
    assert derive_tool_id("weather.get", {}, version="2024-05") == "weather:get@2024-05"
    assert derive_tool_id("weather.get", {}).startswith("weather:get#")


@pytest.mark.parametrize(
    "bad",
    [
        "",
        ":",
        "a:",
        ":b#12345678",
        "a:b",
        "a:b#1234567",
        "a:b#123456789",
        "a:b#1234567g",
        "a:b@",
        "a:b@v#",
        "a b:c#12345678",
        "a:b c#12345678",
        "a:b#12345678 ",
        " a:b#12345678",
        "a:b\n#12345678",
        "a:b:c@1",
        "-a:b@1",
        "a:-b@1",
        "a:b@1.0 beta",
        "a:b@" + "v" * 33,
        "n" * 65 + ":b@1",
        "a:" + "m" * 129 + "@1",
        "a" * 10_000,
        "a:" + "b" * 10_000 + "#12345678",
        "resource::a:b#12345678",
        "a:b#12345678~2",
    ],
)
def test_malformed_ids_are_tool_id_invalid(bad: str) -> None:
    with pytest.raises(GatewayError) as raised:
        parse_tool_id(bad)
    envelope = raised.value.as_json()
    assert envelope["error"] == "TOOL_ID_INVALID"
    assert envelope["retryable"] is False
    assert len(envelope["message"]) <= 256


@pytest.mark.parametrize("bad", [None, 42, ["a:b@1"], {"namespace": "a"}, b"a:b@1"])
def test_non_string_ids_are_tool_id_invalid(bad: object) -> None:
    with pytest.raises(GatewayError) as raised:
        parse_tool_id(bad)
    assert raised.value.code == "TOOL_ID_INVALID"


def test_a_10000_character_name_is_refused_without_echoing_it() -> None:
    with pytest.raises(GatewayError) as raised:
        derive_tool_id("n" * 10_000, {"type": "object"})
    assert raised.value.code == "TOOL_ID_INVALID"
    assert raised.value.details == {"fields": ["name"]}
    assert len(raised.value.message) < 200


@pytest.mark.parametrize("name", [None, 7, ""])
def test_upstream_name_must_be_a_non_empty_string(name: object) -> None:
    with pytest.raises(GatewayError) as raised:
        derive_tool_id(name, {})
    assert raised.value.code == "TOOL_ID_INVALID"


@pytest.mark.parametrize(
    "schema",
    [None, "object", 3, ["type"], {"properties": "x"}, {"required": "a"}, {"required": [1]}],
)
def test_non_object_schemas_are_schema_invalid(schema: object) -> None:
    with pytest.raises(GatewayError) as raised:
        derive_tool_id("read_file", schema)
    assert raised.value.code == "SCHEMA_INVALID"


def test_a_1000_deep_schema_still_has_a_shape() -> None:
    """Deriving reads the top level only; the trust checks of ingest refuse the depth."""
    deep: dict[str, Any] = {}
    node = deep
    for _ in range(1000):
        node["properties"] = {"a": {}}
        node = node["properties"]["a"]
    assert derive_tool_id("deep", deep) == f"mcp:deep#{hash8('deep', {'properties': {'a': {}}})}"


def test_format_refuses_unchecked_parts() -> None:
    with pytest.raises(GatewayError) as raised:
        format_tool_id(ToolIdParts.model_construct(namespace="Bad NS", name="x", hash8="12345678"))
    assert raised.value.code == "TOOL_ID_INVALID"
    with pytest.raises(GatewayError):
        format_tool_id(ToolIdParts.model_construct(namespace="a", name="b"))


def test_make_parts_names_every_bad_field() -> None:
    with pytest.raises(GatewayError) as raised:
        make_parts("A", "1", "x y", "zz")
    assert raised.value.details == {"fields": ["namespace", "name", "version", "hash8"]}


def _tool(name: str, **extra: Any) -> GatewayTool:
    definition = {"name": name, "input_schema": {"type": "object"}, **extra.pop("definition", {})}
    return GatewayTool.model_validate({"definition": definition, **extra})


def test_catalog_ids_use_server_names_and_versions() -> None:
    tools = [
        _tool("search", definition={"namespace": "brave"}),
        _tool("github.create_issue", version="1.4.0"),
    ]
    ids = derive_catalog_ids(tools)
    assert ids[1] == "github:create_issue@1.4.0"
    assert ids[0] == tool_id_of(tools[0]) == f"brave:search#{hash8('search', {'type': 'object'})}"


def test_a_tool_without_an_input_schema_has_the_id_of_one_without_arguments() -> None:
    """A definition may leave its input schema out: the tool takes no arguments, so its id is
    that of the empty object schema (regression: the schema was required, then absent read
    as an error)."""
    bare = GatewayTool.model_validate({"definition": {"name": "clock.now"}})
    empty = _tool("clock.now", definition={"input_schema": {"type": "object", "properties": {}}})
    assert bare.definition.input_schema is None
    assert tool_id_of(bare) == tool_id_of(empty) == derive_tool_id("clock.now", {})


def test_collision_names_both_indexes() -> None:
    with pytest.raises(GatewayError) as raised:
        derive_catalog_ids(
            [_tool("a.x", version="1"), _tool("b.y", version="1"), _tool("a/x", version="1")]
        )
    assert raised.value.code == "TOOL_ID_COLLISION"
    assert raised.value.details == {"tool_id": "a:x@1", "indexes": [0, 2]}
    assert json.loads(json.dumps(raised.value.as_json()))["retryable"] is False


def code_of(call: Any) -> str | None:
    try:
        call()
    except GatewayError as error:
        return error.code
    return None


def test_a_name_with_a_lone_surrogate_is_tool_id_invalid() -> None:
    """Regression (issue 22): `hash8` raised UnicodeEncodeError on a name that is not valid
    Unicode (undecodable command-line bytes arrive as lone surrogates)."""
    assert code_of(lambda: hash8("read\udcff", {})) == "TOOL_ID_INVALID"
    assert code_of(lambda: derive_tool_id("fs.\ud800", {})) == "TOOL_ID_INVALID"
    assert code_of(lambda: derive_tool_id("x", {}, "1", "\udcff")) == "TOOL_ID_INVALID"
    assert code_of(lambda: hash8(b"read", {})) == "TOOL_ID_INVALID"  # type: ignore[arg-type]
    assert code_of(lambda: derive_tool_id("x", {}, None, 5)) == "TOOL_ID_INVALID"  # type: ignore[arg-type]
    # A property name is data of the shape, written as a JSON escape: hashed, deterministic.
    schema = {"type": "object", "properties": {"\ud800": {}}}
    assert hash8("read", schema) == hash8("read", dict(schema))


@given(
    st.text(st.characters(exclude_categories=()), min_size=1, max_size=20),
    st.one_of(st.none(), st.text(st.characters(exclude_categories=()), max_size=5)),
)
def test_any_text_derives_or_is_coded(name: str, server: str | None) -> None:
    assert code_of(lambda: derive_tool_id(name, {}, None, server)) in (None, "TOOL_ID_INVALID")
