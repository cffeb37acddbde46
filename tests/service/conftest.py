"""The service in-process (Starlette's TestClient over the ASGI app, so coverage sees it), and
every JSON answer checked against the schema the document gives for its operation and status."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from interlingua.service import contract
from interlingua.service.app import create_app
from interlingua.service.limits import Limits

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


class CheckedClient:
    """A TestClient whose every answer must be what the document says its operation answers:
    a documented status, a documented media type, a body valid against that schema."""

    def __init__(self, client: TestClient) -> None:
        self.client = client

    def request(self, method: str, url: str, **options: Any) -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            answer = self.client.request(method, url, **options)
        check_answer(method, url.split("?", 1)[0], answer)
        return answer

    def post(self, url: str, **options: Any) -> Any:
        return self.request("POST", url, **options)

    def get(self, url: str, **options: Any) -> Any:
        return self.request("GET", url, **options)


def _operation(method: str, path: str) -> dict[str, Any] | None:
    for op in contract.operations():
        template = op.path.split("{", 1)[0]
        if op.method == method and (
            path == op.path or ("{" in op.path and path.startswith(template))
        ):
            return op.spec
    return None


def check_answer(method: str, path: str, answer: Any) -> None:
    media = answer.headers.get("content-type", "").split(";")[0]
    if answer.status_code in (404, 405) and _operation(method, path) is None:
        assert media == "application/problem+json"
        body = answer.json()
        _validate({"$ref": "#/components/schemas/Problem"}, body)
        assert body["status"] == answer.status_code
        return
    json_body = answer.json() if media == "application/json" or media.endswith("+json") else None
    check_documented(method, path, answer.status_code, media, json_body)


def check_documented(method: str, path: str, status: int, media: str, body: Any) -> None:
    """``status`` and ``media`` are documented for the operation at ``path``, and ``body`` (a
    JSON answer, or None) is valid against the schema the document gives for them."""
    spec = _operation(method, path)
    assert spec is not None, (method, path)
    documented = spec["responses"].get(str(status))
    assert documented is not None, f"{method} {path}: {status} is not documented"
    assert media in documented["content"], (status, media)
    if body is not None:
        _validate(documented["content"][media]["schema"], body)


def _validate(schema: dict[str, Any], value: Any) -> None:
    root = {**schema, "components": contract.document()["components"]}
    errors = list(Draft202012Validator(root).iter_errors(value))
    assert not errors, [e.message for e in errors[:3]]


@pytest.fixture
def make_client() -> Iterator[Any]:
    clients: list[TestClient] = []

    def make(*, token: str | None = None, limits: Limits | None = None) -> CheckedClient:
        client = TestClient(create_app(token=token, limits=limits))
        clients.append(client)
        return CheckedClient(client)

    yield make
    for client in clients:
        client.close()


@pytest.fixture
def client(make_client: Any) -> CheckedClient:
    made: CheckedClient = make_client()
    return made


def body(value: Any) -> bytes:
    return json.dumps(value).encode()
