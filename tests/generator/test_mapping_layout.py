"""Mapping layout features the generator checks: markers and the block after @parts."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from generator.adapters import Mapping, load_mappings, plan_adapter
from generator.load import SchemaLoadError

ROOT = Path(__file__).resolve().parents[2]
BUNDLE = json.loads((ROOT / "generated/schemas/interlingua-v1.json").read_text())


def _bedrock() -> dict[str, Any]:
    (mapping,) = [m for m in load_mappings() if m.format == "bedrock"]
    return copy.deepcopy(mapping.data)


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
    assert "marker=LAYOUT.marker" in tools  # the tool list carries it too


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
