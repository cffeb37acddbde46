"""The service and its contract agree: one route per operation of `generated/openapi.json`,
one handler per operation, the components are the canonical `$defs` (not copies), and the
names the document lists are the names the library knows."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, get_args

import pytest
from starlette.routing import Route

from generator import openapi
from generator.load import SchemaLoadError
from interlingua.conversion.converter import KINDS, formats
from interlingua.generated.models import Capability
from interlingua.service import contract, operations
from interlingua.service.app import SPECIAL, create_app
from interlingua.streams.engine import stream_formats

ROOT = Path(__file__).resolve().parents[2]
DOCUMENT = json.loads((ROOT / "generated" / "openapi.json").read_text(encoding="utf-8"))
BUNDLE = json.loads((ROOT / "generated" / "schemas" / "interlingua-v1.json").read_text())


def _documented() -> set[tuple[str, str, str]]:
    return {
        (path, method.upper(), spec["operationId"])
        for path, methods in DOCUMENT["paths"].items()
        for method, spec in methods.items()
    }


def test_routes_and_document_agree() -> None:
    routes = {
        (re.sub(r"\{(\w+):path\}", r"{\1}", route.path), method, route.name)
        for route in create_app().routes
        if isinstance(route, Route)
        for method in route.methods or ()
        if method != "HEAD"
    }
    assert routes == _documented()


def test_every_operation_has_a_handler_and_every_handler_an_operation() -> None:
    handled = set(operations.HANDLERS) | set(SPECIAL) | {"stream"}
    assert handled == {op_id for _, _, op_id in _documented()}
    assert not set(operations.HANDLERS) & set(SPECIAL)


def test_the_service_serves_the_generated_document() -> None:
    assert contract.document() == DOCUMENT


def _rewritten(node: Any) -> Any:
    return json.loads(json.dumps(node).replace('"#/$defs/', '"#/components/schemas/'))


def test_components_are_the_canonical_defs() -> None:
    components = DOCUMENT["components"]["schemas"]
    assert components == {name: _rewritten(BUNDLE["$defs"][name]) for name in components}
    refs = set(re.findall(r'"#/components/schemas/(\w+)"', json.dumps(DOCUMENT)))
    assert refs <= set(components)


def _enum(path: str, name: str) -> list[str]:
    params = DOCUMENT["paths"][path]["post"]["parameters"]
    schema = next(p["schema"] for p in params if p["name"] == name)
    schema = schema.get("items", schema)
    if "$ref" in schema:
        schema = DOCUMENT["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    values: list[str] = schema["enum"]
    return values


def test_the_names_listed_are_the_names_the_library_knows() -> None:
    assert _enum("/v1/convert", "from") == ["auto", *formats()]
    assert _enum("/v1/convert", "to") == formats()
    assert _enum("/v1/convert", "kind") == list(KINDS)
    assert _enum("/v1/stream", "from") == stream_formats()
    assert _enum("/v1/views", "capabilities") == list(get_args(get_args(Capability.__value__)[0]))


def test_the_served_schemas_are_the_sites() -> None:
    site = ROOT / "docs" / "schemas"
    served = {path.relative_to(site).as_posix(): path.read_bytes() for path in site.rglob("*.json")}
    assert contract.served_schemas() == served


def test_every_refusal_status_answers_a_problem() -> None:
    for methods in DOCUMENT["paths"].values():
        for spec in methods.values():
            for status, response in spec["responses"].items():
                if status.startswith("4"):
                    assert response["content"] == {
                        "application/problem+json": {
                            "schema": {"$ref": "#/components/schemas/Problem"}
                        }
                    }


def test_the_operations_file_is_checked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bad = tmp_path / "operations.yaml"
    bad.write_text("title: t\ndescription: d\noperations: []\n")
    monkeypatch.setattr(openapi, "OPERATIONS", bad)
    with pytest.raises(SchemaLoadError, match="operations"):
        openapi.load_operations()
    bad.write_text("title: [\n")
    with pytest.raises(SchemaLoadError):
        openapi.load_operations()


def test_an_operation_naming_no_type_is_refused() -> None:
    operations_file = openapi.load_operations()
    broken = {
        **operations_file,
        "operations": [{**operations_file["operations"][0], "answer": {"type": "NoSuchType"}}],
    }
    with pytest.raises(SchemaLoadError, match="NoSuchType"):
        openapi.build_openapi(BUNDLE, openapi.name_lists(BUNDLE, [], []), "1", broken)


def test_a_choice_parameter_and_a_path_parameter_render() -> None:
    built = openapi.build_openapi(BUNDLE, openapi.name_lists(BUNDLE, [], ["v1/a.json"]), "1")
    convert = built["paths"]["/v1/convert"]["post"]["parameters"]
    thinking = next(p for p in convert if p["name"] == "thinking")
    assert thinking["schema"] == {"type": "string", "enum": ["drop", "text"]}
    schema = built["paths"]["/schemas/{path}"]["get"]["parameters"][0]
    assert (schema["in"], schema["required"], schema["schema"]["enum"]) == (
        "path",
        True,
        ["v1/a.json"],
    )


def test_path_parameters_are_not_read_from_the_query() -> None:
    from interlingua.service.params import read_query

    schema = next(op for op in contract.operations() if op.id == "schema")
    assert read_query({"path": "v1/message.json"}, schema) == {}
