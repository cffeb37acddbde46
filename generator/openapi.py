"""The HTTP service's contract: `generated/openapi.json` (OpenAPI 3.1), from the schemas.

Two inputs and nothing typed twice: `schemas/service/operations.yaml` (the one list of
operations, checked by `schemas/meta/operations.json`) and the bundle, whose `$defs` become the
document's `components.schemas` (the operations' types and everything they reference, refs
rewritten to `#/components/schemas/...`). The names a parameter may take (formats, streaming
formats, types, served schema paths) come from the mapping files and the bundle.

The service serves this file and routes by the same list (`interlingua.service.routes`); a
test fails when the two disagree.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import PurePosixPath
from typing import Any

import yaml
from jsonschema import Draft202012Validator

from generator.load import SchemaLoadError, read_yaml
from generator.paths import META, SCHEMAS

Json = Any

OPERATIONS = SCHEMAS / "service" / "operations.yaml"
OPENAPI = PurePosixPath("generated/openapi.json")
#: Where the served schemas are copied for the service (the site serves them from docs/).
SERVED = PurePosixPath("generated/service/schemas")
PROBLEM_MEDIA = "application/problem+json"
_COMPONENTS = "#/components/schemas/"
_REASONS = {
    400: "Bad Request",
    401: "Unauthorized",
    404: "Not Found",
    408: "Request Timeout",
    413: "Content Too Large",
    415: "Unsupported Media Type",
    422: "Unprocessable Content",
    503: "Service Unavailable",
}


def load_operations() -> dict[str, Json]:
    """The operations file, checked against its meta-schema."""
    try:
        data = read_yaml(OPERATIONS.read_text(encoding="utf-8"))
        meta = json.loads((META / "operations.json").read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError, ValueError) as exc:
        raise SchemaLoadError(f"{OPERATIONS}: {exc}") from exc
    problems = sorted(Draft202012Validator(meta).iter_errors(data), key=lambda e: list(e.path))
    if problems:
        first = problems[0]
        pointer = "/" + "/".join(str(p) for p in first.absolute_path)
        raise SchemaLoadError(f"{OPERATIONS}#{pointer}: {first.message}")
    result: dict[str, Json] = data
    return result


def _local(node: Json) -> Json:
    """``node`` with every bundle ref (`#/$defs/X`) pointing into the components."""
    if isinstance(node, dict):
        out: dict[str, Json] = {}
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                out[key] = value.replace("#/$defs/", _COMPONENTS)
            elif key == "mapping" and isinstance(value, dict):
                out[key] = {k: v.replace("#/$defs/", _COMPONENTS) for k, v in value.items()}
            else:
                out[key] = _local(value)
        return out
    if isinstance(node, list):
        return [_local(item) for item in node]
    return node


def _closure(defs: Mapping[str, Json], roots: Iterable[str]) -> list[str]:
    """``roots`` and every `$defs` name they reference, transitively, sorted."""
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        if name not in defs:
            raise SchemaLoadError(f"{OPERATIONS}: no $defs type {name!r}")
        seen.add(name)
        todo += _refs(defs[name])
    return sorted(seen)


def _refs(node: Json) -> Iterable[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                yield value.rsplit("/", 1)[-1]
            else:
                yield from _refs(value)
    elif isinstance(node, list):
        for item in node:
            yield from _refs(item)


def _ref(name: str) -> dict[str, str]:
    return {"$ref": _COMPONENTS + name}


def _parameter_schema(param: Mapping[str, Json], lists: Mapping[str, list[str]]) -> Json:
    if "list" in param:
        schema: Json = {"type": "string", "enum": lists[param["list"]]}
    elif "type" in param:
        schema = _ref(param["type"])
    elif param.get("boolean"):
        schema = {"type": "boolean"}
    elif param.get("number"):
        schema = {"type": "number"}
    else:
        schema = {"type": "string", "enum": list(param["choices"])}
    return {"type": "array", "items": schema} if param.get("array") else schema


def _parameter(where: str, param: Mapping[str, Json], lists: Mapping[str, list[str]]) -> Json:
    out: dict[str, Json] = {
        "name": param["name"],
        "in": where,
        "required": where == "path" or bool(param.get("required")),
        "description": param["description"],
        "schema": _parameter_schema(param, lists),
    }
    if "example" in param:
        out["example"] = param["example"]
    if param.get("array"):
        out["style"], out["explode"] = "form", True
    return out


def _media_schema(media: str, type_name: str | None, event_type: str | None = None) -> Json:
    if type_name is not None:
        return _ref(type_name)
    if media == "text/event-stream" and event_type is not None:
        return _ref(event_type)  # OpenAPI 3.1: an event stream's schema is one event's
    if media.endswith("json"):
        return {}  # any JSON value: the operation itself tells a usable body from another
    return {"type": "string"}


def _examples(body: Mapping[str, Json]) -> dict[str, Json]:
    """The body's examples by name: the files it names, and every example of its type."""
    paths = [SCHEMAS / path for path in body.get("examples", [])]
    if "type" in body:
        paths += sorted((SCHEMAS / "examples" / body["type"]).glob("*.json"))
    out = {}
    for path in paths:
        try:
            value = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise SchemaLoadError(f"{OPERATIONS}: example {path}: {exc}") from exc
        out[path.stem] = {"value": value}
    return out


def _problem(status: int) -> Json:
    return {
        "description": f"{_REASONS[status]}: an RFC 9457 problem with the error code.",
        "content": {PROBLEM_MEDIA: {"schema": _ref("Problem")}},
    }


def _operation(op: Mapping[str, Json], lists: Mapping[str, list[str]]) -> Json:
    out: dict[str, Json] = {"operationId": op["id"], "summary": op["summary"]}
    if "description" in op:
        out["description"] = op["description"]
    out["x-twin"] = op["twin"]  # the Python API call and CLI command it is the twin of
    parameters = [_parameter("query", p, lists) for p in op.get("query", [])]
    if "path_parameter" in op:
        parameters.insert(0, _parameter("path", op["path_parameter"], lists))
    if parameters:
        out["parameters"] = parameters
    body = op.get("body")
    if body is not None:
        content = {
            media: {"schema": _media_schema(media, body.get("type"))} for media in body["media"]
        }
        examples = _examples(body)
        if examples:
            content["application/json"]["examples"] = examples
        out["requestBody"] = {"required": True, "content": content}
    answer = op["answer"]
    media_types = answer.get("media", ["application/json"])
    responses: dict[str, Json] = {
        "200": {
            "description": "The answer.",
            "content": {
                m: {"schema": _media_schema(m, answer.get("type"), answer.get("event_type"))}
                for m in media_types
            },
        }
    }
    statuses = set(op["errors"])
    if op["path"] != "/healthz":
        statuses.add(401)
    if body is not None:
        statuses.update((408, 503))  # past the time limit; the worker process answering it lost
    if "path_parameter" in op:
        statuses.add(404)
    for status in sorted(statuses):
        responses[str(status)] = _problem(status)
    out["responses"] = responses
    return out


def type_roots(operations: Mapping[str, Json]) -> list[str]:
    """The `$defs` names the operations name (their components' roots)."""
    roots = {"Problem"}
    for op in operations["operations"]:
        for param in [*op.get("query", []), op.get("path_parameter", {})]:
            if "type" in param:
                roots.add(param["type"])
        for part in (op.get("body", {}), op["answer"]):
            roots.update(part[key] for key in ("type", "event_type") if key in part)
    return sorted(roots)


def build_openapi(
    bundle: Mapping[str, Json],
    lists: Mapping[str, list[str]],
    version: str,
    operations: Mapping[str, Json] | None = None,
    comment: str = "",
) -> dict[str, Json]:
    """The OpenAPI 3.1 document of the service (``comment``: the do-not-edit header)."""
    operations = operations if operations is not None else load_operations()
    defs = bundle["$defs"]
    paths: dict[str, dict[str, Json]] = {}
    for op in operations["operations"]:
        paths.setdefault(op["path"], {})[op["method"]] = _operation(op, lists)
    components = {name: _local(defs[name]) for name in _closure(defs, type_roots(operations))}
    return {
        "x-generated": comment,
        "openapi": "3.1.0",
        "info": {
            "title": operations["title"],
            "description": operations["description"],
            "version": version,
        },
        "jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
        "servers": [{"url": "/"}],
        "security": [{}, {"bearer": []}],
        "paths": paths,
        "components": {
            "schemas": components,
            "securitySchemes": {
                "bearer": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "Required when the service was started with a token.",
                }
            },
        },
    }


def name_lists(
    bundle: Mapping[str, Json], mappings: Iterable[Mapping[str, Json]], schema_paths: list[str]
) -> dict[str, list[str]]:
    """The names each `list` of the operations file stands for."""
    mapping_list = list(mappings)
    formats = sorted(m["format"] for m in mapping_list)
    streaming = sorted(m["format"] for m in mapping_list if "stream" in m)
    return {
        "sources": ["auto", "canonical", *formats],
        "targets": ["canonical", *formats],
        "stream_formats": ["canonical", *streaming],
        "types": sorted(bundle["$defs"]),
        "schema_paths": sorted(schema_paths),
    }


def render_openapi(
    bundle: Mapping[str, Json],
    mappings: Iterable[Mapping[str, Json]],
    served: Mapping[PurePosixPath, str],
    *,
    version: str,
    comment: str,
    env: Any,
) -> dict[PurePosixPath, str]:
    """`generated/openapi.json` and the served schemas the service answers with, by path.

    ``served`` is the site's schema files (`docs/schemas/...` -> text) as the docs renderer
    wrote them; the service serves the same bytes below `/schemas/`.
    """
    out: dict[PurePosixPath, str] = {}
    paths = []
    for path, text in served.items():
        rel = path.relative_to("docs/schemas")
        paths.append(rel.as_posix())
        out[SERVED / rel] = text
    document = build_openapi(bundle, name_lists(bundle, mappings, paths), version, None, comment)
    out[OPENAPI] = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    out.update(render_page(document, env, "<!-- " + comment + " -->"))
    return out


# --- the reference page ------------------------------------------------------------------------

PAGE = PurePosixPath("docs/reference/service.md")
SITE_COPY = PurePosixPath("docs/reference/openapi.json")


def _values(schema: Mapping[str, Json], page: PurePosixPath) -> str:
    from generator.docs import type_link  # noqa: PLC0415 - docs imports much; only here

    schema = schema.get("items", schema)
    if "$ref" in schema:
        return type_link(schema["$ref"].rsplit("/", 1)[-1], page)
    if "enum" in schema:
        shown = schema["enum"] if len(schema["enum"]) <= 16 else [*schema["enum"][:3], "…"]
        return ", ".join(f"`{v}`" for v in shown)
    return str(schema.get("type", "any"))


def _media(content: Mapping[str, Json], page: PurePosixPath) -> str:
    shown = []
    for media, entry in content.items():
        schema = entry["schema"]
        what = _values(schema, page) if schema else "any JSON"
        shown.append(f"`{media}` ({what})")
    return ", ".join(shown)


def page_rows(document: Mapping[str, Json], page: PurePosixPath = PAGE) -> list[dict[str, Json]]:
    """What the reference page shows of each operation."""
    rows = []
    for path, methods in document["paths"].items():
        for method, spec in methods.items():
            rows.append(
                {
                    "id": spec["operationId"],
                    "method": method.upper(),
                    "path": path,
                    "summary": spec["summary"],
                    "description": spec.get("description", ""),
                    "twin": spec["x-twin"],
                    "parameters": [
                        {
                            "name": p["name"],
                            "where": p["in"],
                            "required": "yes" if p["required"] else "no",
                            "allowed": _values(p["schema"], page)
                            + (" (repeatable)" if p.get("explode") else ""),
                            "description": p["description"],
                        }
                        for p in spec.get("parameters", [])
                    ],
                    "body": _media(spec["requestBody"]["content"], page)
                    if "requestBody" in spec
                    else "",
                    "answer": _media(spec["responses"]["200"]["content"], page),
                    "statuses": ", ".join(s for s in spec["responses"] if s != "200"),
                }
            )
    return rows


def render_page(document: Mapping[str, Json], env: Any, header: str) -> dict[PurePosixPath, str]:
    """The service's reference page, and the document beside it for the site to serve."""
    from generator.docs import type_link  # noqa: PLC0415

    text = env.get_template("docs/service.md.j2").render(
        header=header,
        openapi=document["openapi"],
        operations=page_rows(document),
        problem=type_link("Problem", PAGE),
    )
    return {PAGE: text, SITE_COPY: json.dumps(document, indent=2, ensure_ascii=False) + "\n"}
