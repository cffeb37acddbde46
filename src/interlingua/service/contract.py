"""The service's contract: `generated/openapi.json` and the schemas it serves, as shipped.

Both are package data (links into `generated/` in a checkout), read once; a request names a
schema by its path and gets it from this table, so no request can make the service open a
file.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import Any

_PACKAGE = "interlingua.service"


@dataclass(frozen=True)
class Operation:
    """One operation of the document: where it answers and how it reads its request."""

    id: str
    method: str
    path: str
    spec: dict[str, Any]

    @property
    def body_media(self) -> tuple[str, ...]:
        """The media types the request body may have (none: the operation takes no body)."""
        return tuple(self.spec.get("requestBody", {}).get("content", {}))

    @property
    def parameters(self) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = self.spec.get("parameters", [])
        return found


@cache
def document_bytes() -> bytes:
    """The OpenAPI document as served."""
    return files(_PACKAGE).joinpath("openapi.json").read_bytes()


@cache
def document() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(document_bytes())
    return loaded


def operations() -> list[Operation]:
    """Every operation of the document, in its order."""
    return [
        Operation(spec["operationId"], method.upper(), path, spec)
        for path, methods in document()["paths"].items()
        for method, spec in methods.items()
    ]


def component(name: str) -> dict[str, Any]:
    """A schema of the document's components (the canonical `$defs` entry of that name)."""
    found: dict[str, Any] = document()["components"]["schemas"][name]
    return found


def _walk(folder: Traversable, prefix: str) -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    for entry in folder.iterdir():
        if entry.is_dir():
            out.update(_walk(entry, f"{prefix}{entry.name}/"))
        elif entry.name.endswith(".json"):
            out[prefix + entry.name] = entry.read_bytes()
    return out


@cache
def served_schemas() -> dict[str, bytes]:
    """Every served schema by its path below `/schemas/` (`v1/message.json` …)."""
    return _walk(files(_PACKAGE).joinpath("schemas"), "")
