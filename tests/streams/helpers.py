"""What the stream tests share: the stream cases, wire chunk validation, framing a chunk list as
the raw text a provider sends, and comparing two Responses modulo reported losses."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from conformance.cases import Case, load_cases
from interlingua.conversion import Loss
from interlingua.generated.streams import STREAMS
from interlingua.streams.framing import dumps, frame

ROOT = Path(__file__).resolve().parents[2]
STREAM_CASES: list[Case] = [c for c in load_cases() if c.kind == "stream"]


@cache
def _registry() -> Registry[Any]:
    resources = []
    for path in sorted((ROOT / "schemas" / "formats").glob("*/*.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        resources.append((schema["$id"], Resource.from_contents(schema)))
    return Registry().with_resources(resources)


@cache
def chunk_validator(fmt: str) -> Draft202012Validator:
    """The validator of one wire chunk of ``fmt``'s stream."""
    path = STREAMS[fmt].schema
    assert path is not None, f"{fmt} declares no chunk schema"
    schema = json.loads((ROOT / "schemas" / path).read_text(encoding="utf-8"))
    return Draft202012Validator(schema, registry=_registry())


def framed(fmt: str, chunks: list[Any]) -> list[str]:
    """The chunks as the lines of raw stream text ``fmt`` sends (strings are sent as they are)."""
    spec = STREAMS[fmt]
    text = ""
    for chunk in chunks:
        if isinstance(chunk, str):
            text += frame(spec.framing, chunk)
        else:
            name = chunk.get(spec.event_field) if spec.event_field else None
            text += frame(spec.framing, dumps(chunk), name)
    return text.splitlines(keepends=True)


def _dropped_types(losses: list[Loss]) -> set[str]:
    dropped = ("part_dropped", "thinking_not_replayable")
    return {loss.part_type for loss in losses if loss.code in dropped and loss.part_type}


def project(response: dict[str, Any], losses: list[Loss]) -> dict[str, Any]:
    """What of ``response`` a translation that reported ``losses`` must still carry: the
    message's parts (without those of a type reported dropped, without signatures when a
    signature loss was reported, without citations when a citation loss was, without the origin a reader binds reasoning to) and the stop
    reason (unless reported approximated)."""
    dropped = _dropped_types(losses)
    reasons = " ".join(loss.reason for loss in losses)
    parts = []
    for part in response["message"]["content"]:
        if part["type"] in dropped:
            continue
        part = {k: v for k, v in part.items() if k != "origin"}  # noqa: PLW2901
        if "signature" in reasons and "signature" in part:
            del part["signature"]
        if "citation" in reasons and "citations" in part:
            del part["citations"]
        parts.append(part)
    out: dict[str, Any] = {"content": parts}
    if not any(loss.code == "stop_reason_approximated" for loss in losses):
        out["stop_reason"] = response["stop_reason"]
    return out
