"""The ASGI application: one route per operation of the document, nothing else.

Routes are made from `generated/openapi.json` itself (path, method, operationId), each bound to
its handler by operationId, so the service answers exactly what its contract says; a test
checks that every operation has a handler and every handler an operation. Every refusal is a
problem document: the handlers' own, and the router's 404 and 405.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from interlingua import __version__
from interlingua.generated import SCHEMA_VERSION
from interlingua.service import contract
from interlingua.service.auth import OPEN_OPERATIONS, check_token
from interlingua.service.limits import Limits, media_type, read_body
from interlingua.service.params import read_path, read_query
from interlingua.service.problems import ProblemError
from interlingua.service.streaming import TranslatedStream
from interlingua.service.work import Workers

Endpoint = Callable[[Request], Awaitable[Response]]
_JSON = "application/json"


def _json(answer: Any) -> Response:
    return Response(json.dumps(answer, ensure_ascii=False).encode(), media_type=_JSON)


def _timed_out(limits: Limits) -> ProblemError:
    return ProblemError(
        408, "request_timeout", f"the request took longer than the limit of {limits.timeout:g} s"
    )


def _body_endpoint(op: contract.Operation, limits: Limits, workers: Workers) -> Endpoint:
    """An operation that reads a whole body, then answers it in a worker (`service.work`)."""

    async def endpoint(request: Request) -> Response:
        query = read_query(request.query_params, op)
        media = media_type(request, op.body_media)
        try:
            with anyio.fail_after(limits.timeout):
                data = await read_body(request, limits.max_bytes)
                answer = await workers.answer(op.id, query, data, media, limits.max_bytes)
        except TimeoutError:
            raise _timed_out(limits) from None
        return Response(answer, media_type=_JSON)

    return endpoint


def _stream_endpoint(op: contract.Operation, limits: Limits) -> Endpoint:
    async def endpoint(request: Request) -> Response:
        query = read_query(request.query_params, op)
        media_type(request, op.body_media)
        return TranslatedStream(
            query["from"],
            query["to"],
            limits.max_bytes,
            limits.timeout,
            source_endpoint=query.get("source_endpoint"),
            target_endpoint=query.get("target_endpoint"),
        )

    return endpoint


async def _schema(request: Request) -> Response:
    name = read_path(request.path_params, _OPERATIONS["schema"])["path"]
    return Response(contract.served_schemas()[name], media_type="application/schema+json")


async def _openapi(request: Request) -> Response:
    return Response(contract.document_bytes(), media_type=_JSON)


async def _health(request: Request) -> Response:
    return _json({"status": "ok", "version": __version__, "schema_version": SCHEMA_VERSION})


_OPERATIONS = {op.id: op for op in contract.operations()}
#: The operations answered without a handler of `operations.HANDLERS`.
SPECIAL: dict[str, Endpoint] = {"schema": _schema, "openapi": _openapi, "health": _health}


def _guarded(op: contract.Operation, endpoint: Endpoint, token: str | None) -> Endpoint:
    """``endpoint`` behind the token check, its refusals answered as problems."""
    needs_token = token if op.id not in OPEN_OPERATIONS else None

    async def guarded(request: Request) -> Response:
        try:
            check_token(request, needs_token)
            return await endpoint(request)
        except ProblemError as problem:
            return problem.response()

    return guarded


def _endpoint(op: contract.Operation, limits: Limits, workers: Workers) -> Endpoint:
    if op.id in SPECIAL:
        return SPECIAL[op.id]
    if op.id == "stream":
        return _stream_endpoint(op, limits)
    return _body_endpoint(op, limits, workers)


def routes(limits: Limits, token: str | None) -> list[Route]:
    """One route per operation of the document (a `{name}` path parameter matches across
    slashes, as a schema path needs)."""
    workers = Workers(limits.processes)
    return [
        Route(
            op.path.replace("{path}", "{path:path}"),
            _guarded(op, _endpoint(op, limits, workers), token),
            methods=[op.method],
            name=op.id,
        )
        for op in contract.operations()
    ]


async def _http_problem(request: Request, exc: Exception) -> Response:
    """The router's own refusals (no such path, no such method) as problems."""
    assert isinstance(exc, HTTPException)
    if exc.status_code == 405:
        problem = ProblemError(
            405,
            "method_not_allowed",
            f"{request.method} is not an operation of {request.url.path}",
            headers=dict(exc.headers or {}),
        )
    else:
        problem = ProblemError(
            404, "unknown_operation", f"no operation answers at {request.url.path}"
        )
    return problem.response()


def create_app(*, token: str | None = None, limits: Limits | None = None) -> Starlette:
    """The service as an ASGI application (`interlingua serve` runs it with uvicorn)."""
    return Starlette(
        routes=routes(limits or Limits(), token),
        exception_handlers={HTTPException: _http_problem},
    )
