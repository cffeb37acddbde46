"""Mapping keys the CMF mapping brought: `turn` (message fields a wire turn carries), the
`@messages` built-in (turns nested in a value) and a stop-reason table used without a
response body."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from generator.adapters import Mapping, plan_adapter
from generator.load import SchemaLoadError
from tests.generator.mappings import mapping_data

ROOT = Path(__file__).resolve().parents[2]
BUNDLE = json.loads((ROOT / "generated/schemas/interlingua-v1.json").read_text())


def _data(fmt: str) -> dict[str, Any]:
    return mapping_data(fmt)


def _plan(data: dict[str, Any]) -> Any:
    return plan_adapter(Mapping(Path(f"mappings/{data['format']}.yaml"), data), BUNDLE)


def _source(plan: Any, name: str) -> str:
    return str(next(f.source for f in plan.functions if f.name == name))


def test_a_turn_section_compiles_to_an_encoder_and_a_decoder() -> None:
    plan = _plan(_data("cmf"))
    assert plan.turn == ("enc_turn", "dec_turn")
    encode = _source(plan, "enc_turn")
    # the literal goes on every turn: the object is built whole, never left out
    assert "{'schema_version': '2.0'}" in encode.replace('"', "'")
    assert "return _d" in encode
    # the role and content are the layout's, not fields the template drops (the known keys
    # are a module constant, built once)
    (known,) = [
        name
        for name, value in plan.tables.items()
        if value == frozenset({"channel", "content", "extensions", "role"})
    ]
    assert f"not {known}.issuperset(c)" in encode


def test_formats_without_a_turn_section_have_none() -> None:
    assert _plan(_data("openai-chat")).turn is None


def test_nested_messages_use_the_adapter_itself() -> None:
    plan = _plan(_data("cmf"))
    # the module's own generated turn writer and reader, laid out as the top level is
    assert "encode_nested(ctx, " in _source(plan, "enc_prompt_result_0")
    assert "decode_nested(ctx, " in _source(plan, "dec_prompt_result_0")
    assert "decode_nested(ctx, " in _source(plan, "dec_turn")


def test_messages_takes_one_variable() -> None:
    data = _data("cmf")
    wire = data["parts"]["prompt_result"][0]["wire"]
    wire["content"]["messages"] = {"@messages": ["$messages", "$id"]}
    with pytest.raises(SchemaLoadError, match="@messages takes one"):
        _plan(data)


def test_a_stop_reason_table_without_a_response_is_compiled() -> None:
    plan = _plan(_data("cmf"))
    assert plan.tables["STOP_REASONS_TO_CANONICAL"]["return"] == "return"
    assert "content_filter" in plan.tables["STOP_REASONS_APPROXIMATE"]
