"""Mapping layout features the generator checks: markers and the block after @parts."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from generator.adapters import Mapping, plan_adapter
from generator.load import SchemaLoadError
from tests.generator.mappings import mapping_data

ROOT = Path(__file__).resolve().parents[2]
BUNDLE = json.loads((ROOT / "generated/schemas/interlingua-v1.json").read_text())


def _bedrock() -> dict[str, Any]:
    return mapping_data("bedrock")


def _plan(data: dict[str, Any]) -> Any:
    return plan_adapter(Mapping(Path("mappings/bedrock.yaml"), data), BUNDLE)


def test_the_marker_names_its_field_kind_and_part_types() -> None:
    plan = _plan(_bedrock())
    assert plan.marker is not None
    field, kind, types = plan.marker
    assert (field, kind) == ("cache_hint", "cachePoint")
    assert {"text", "image", "document", "tool_call", "tool_result"} <= set(types)
    assert "thinking" not in types  # reasoning has no cache hint
    tools = next(f.source for f in plan.functions if f.name == "enc_request_envelope")
    assert "marker=MARKER" in tools  # the tool list carries it too


def _result_wire(data: dict[str, Any]) -> dict[str, Any]:
    wire: dict[str, Any] = data["parts"]["tool_result"][2]["wire"]["toolResult"]
    return wire


EDITS: list[tuple[Callable[[dict[str, Any]], None], str]] = [
    (lambda d: d["codecs"].pop("cache_hint"), "needs a codec named 'cache_hint'"),
    (
        lambda d: d["codecs"]["cache_hint"].append(
            {
                "canonical": {"type": "ephemeral", "ttl": "$ttl"},
                "wire": {"cacheMark": {"ttl": "$ttl"}},
            }
        ),
        "of one kind",
    ),
    (
        lambda d: d["codecs"]["cache_hint"].__setitem__(
            0, {"canonical": {"type": "ephemeral"}, "wire": {"a": {}, "b": {}}}
        ),
        "a literal tag or a single key",
    ),
    (lambda d: d["layout"].update(marker="detail"), "needs a codec named 'detail'"),
    (
        lambda d: _result_wire(d).update(
            content={"@parts": ["$content", {"json": "$structured"}, {"x": "$structured"}]}
        ),
        "@parts takes",
    ),
    (
        lambda d: _result_wire(d).update(content={"@parts": ["$content", "$structured"]}),
        "must be an object template",
    ),
]


@pytest.mark.parametrize(("edit", "message"), EDITS)
def test_bad_layout_features_are_refused(
    edit: Callable[[dict[str, Any]], None], message: str
) -> None:
    data = _bedrock()
    edit(data)
    with pytest.raises(SchemaLoadError, match=message):
        _plan(data)


def _ollama() -> dict[str, Any]:
    return mapping_data("ollama")


def _plan_ollama(data: dict[str, Any]) -> Any:
    return plan_adapter(Mapping(Path("mappings/ollama.yaml"), data), BUNDLE)


def test_slot_kinds_follow_the_template_unless_declared() -> None:
    data = _ollama()
    plan = _plan_ollama(data)
    assert [(f, k) for f, k, _ in plan.slots] == [
        ("thinking", "value"),
        ("images", "list"),  # a transform call, declared a list by slot_list
        ("tool_calls", "list"),  # an object template: a list by default
    ]
    data["parts"]["image"][0]["slot_list"] = False
    data["parts"]["tool_call"][0]["slot_list"] = False
    plan = _plan_ollama(data)
    assert [(f, k) for f, k, _ in plan.slots][1:] == [("images", "value"), ("tool_calls", "value")]


def test_content_that_is_one_string_takes_only_a_variable() -> None:
    data = _ollama()
    data["parts"]["text"][0]["wire"] = {"text": "$text"}
    with pytest.raises(SchemaLoadError, match="content is one string here"):
        _plan_ollama(data)
    # the same template is a keyed block when content holds blocks
    data["layout"]["text_shorthand"] = True
    plan = _plan_ollama(data)
    assert [key for key, _ in plan.decode_keyed] == ["text"]
