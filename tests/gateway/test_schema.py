"""The gateway schema: its grammar is one fact, its types are exemplified, its doc runs."""

import doctest
import json
import re
from pathlib import Path

import interlingua.gateway

ROOT = Path(__file__).resolve().parents[2]
GATEWAY = json.loads((ROOT / "schemas/v1/gateway.json").read_text(encoding="utf-8"))["$defs"]


def _body(name: str) -> str:
    return str(GATEWAY[name]["pattern"]).removeprefix("^").removesuffix("$")


def test_the_tool_id_pattern_is_built_from_the_field_patterns() -> None:
    ns, name, version, shape = (
        _body(n) for n in ("ToolNamespace", "ToolName", "ToolVersion", "ShapeHash")
    )
    tool_id = f"{ns}:{name}(@{version}(#{shape})?|#{shape})"
    assert GATEWAY["ToolId"]["pattern"] == f"^{tool_id}$"
    assert GATEWAY["PrimitiveId"]["pattern"] == f"^((resource|prompt)::)?{tool_id}$"
    assert GATEWAY["PrimitiveId"]["maxLength"] == GATEWAY["ToolId"]["maxLength"] + len("resource::")


def test_path_roots_are_namespaces() -> None:
    assert _body("ToolNamespace") in GATEWAY["BrowsePath"]["pattern"]
    assert re.fullmatch(GATEWAY["BrowsePath"]["pattern"], "/github/issues/*")


def test_every_gateway_type_has_examples() -> None:
    examples = ROOT / "schemas/examples"
    skipped = {"ToolNamespace", "ToolName", "ToolVersion", "ShapeHash", "CardTag"}  # inside others
    enums = {name for name, schema in GATEWAY.items() if "enum" in schema}
    for name in set(GATEWAY) - skipped - enums:
        assert len(list((examples / name).glob("*.json"))) >= 2, name


def test_the_choice_card_is_closed() -> None:
    card = GATEWAY["ChoiceCard"]
    assert card["additionalProperties"] is False
    assert set(card["properties"]) == {
        "id", "name", "description", "tags", "kind", "namespace", "has_schema", "score",
        "cost_hint", "side_effects", "safety",
    }  # fmt: skip


def test_the_package_doctest_runs() -> None:
    failed, attempted = doctest.testmod(interlingua.gateway)
    assert (failed, attempted > 0) == (0, True)
