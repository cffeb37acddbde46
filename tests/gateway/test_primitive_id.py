"""Primitive ids and collision keys (seed 002 §9)."""

from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from interlingua.gateway.errors import GatewayError
from interlingua.gateway.primitive_id import (
    derive_prompt_id,
    derive_resource_id,
    format_primitive_id,
    parse_primitive_id,
    prompt_hash8,
    resolve_collisions,
    resource_hash8,
)
from interlingua.gateway.tool_id import parse_tool_id
from interlingua.generated.models import PrimitiveIdParts, ToolIdParts

from .strategies import tool_id_parts

kinds = st.sampled_from(["tool", "resource", "prompt"])
ids = st.sampled_from(
    ["a:x#12345678", "resource::a:x#12345678", "prompt::a:x#12345678", "b:y@1", "prompt::b:y@1"]
)


@given(kinds, tool_id_parts())
def test_parse_inverts_format(kind: str, parts: ToolIdParts) -> None:
    fields = {"kind": kind, **parts.model_dump(exclude_none=True)}
    primitive = PrimitiveIdParts.model_validate(fields)
    text = format_primitive_id(primitive)
    assert parse_primitive_id(text) == primitive
    assert (kind == "tool") == ("::" not in text)


@given(st.lists(ids, max_size=12))
def test_collision_keys_are_unique_and_keep_the_first_bare(catalog: list[str]) -> None:
    keys = resolve_collisions(catalog)
    assert len(keys) == len(catalog) == len(set(keys))
    for index, (primitive_id, key) in enumerate(zip(catalog, keys, strict=True)):
        first = catalog.index(primitive_id) == index
        assert key == primitive_id if first else key.startswith(primitive_id + "~")
        if not first:
            assert int(key.rpartition("~")[2]) == catalog[: index + 1].count(primitive_id)


def test_the_three_id_spaces_are_disjoint() -> None:
    body = "gh:search#0badf00d"
    keys = resolve_collisions([body, "resource::" + body, "prompt::" + body])
    assert keys == [body, "resource::" + body, "prompt::" + body]
    with pytest.raises(GatewayError):
        parse_tool_id("prompt::" + body)


def test_derived_resource_and_prompt_ids() -> None:
    assert (
        derive_resource_id("README", "file:///r", "FS")
        == f"resource::fs:README#{resource_hash8('file:///r')}"
    )
    assert (
        derive_prompt_id("gh.summarize", ["b", "a"])
        == f"prompt::gh:summarize#{prompt_hash8('gh.summarize', ['a', 'b'])}"
    )
    assert resource_hash8("x") != prompt_hash8("x", [])


@pytest.mark.parametrize("name", ["", None, 5])
def test_a_missing_name_has_no_id(name: object) -> None:
    with pytest.raises(GatewayError) as resource:
        derive_resource_id(name, "u")
    with pytest.raises(GatewayError) as prompt:
        derive_prompt_id(name, [])
    assert resource.value.code == prompt.value.code == "TOOL_ID_INVALID"


@pytest.mark.parametrize(
    "bad", [None, 1, "tool::a:b@1", "x::a:b@1", "resource::", "::a:b@1", "resource::a:b@1~2"]
)
def test_malformed_primitive_ids(bad: object) -> None:
    with pytest.raises(GatewayError) as raised:
        parse_primitive_id(bad)
    assert raised.value.code == "TOOL_ID_INVALID"


def test_lone_surrogates_and_wrong_types_are_tool_id_invalid() -> None:
    calls: list[Callable[[], str]] = [
        lambda: derive_resource_id("r", "file:///\ud800"),
        lambda: derive_resource_id("r", 5),  # type: ignore[arg-type]
        lambda: derive_prompt_id("p\udcff", []),
        lambda: derive_prompt_id("p", "ab"),
        lambda: derive_prompt_id("p", [1]),  # type: ignore[list-item]
    ]
    for call in calls:
        with pytest.raises(GatewayError) as raised:
            call()
        assert raised.value.code == "TOOL_ID_INVALID"
    # Argument names are hashed as JSON, where a lone surrogate is an escape: defined.
    assert derive_prompt_id("p", ["\ud800"]) == derive_prompt_id("p", ["\ud800"])
