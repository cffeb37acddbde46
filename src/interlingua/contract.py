"""The functions the conformance vectors call, as the Python implementation provides them.

Every vector names a function and gives its JSON input; an implementation in any language
provides the same functions. Failures are raised as :class:`GatewayError` (with the code the
vector expects); validation reports findings as its output instead of raising.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, Final

from interlingua.conversion import Context, ConversionError
from interlingua.conversion.adapters.fidelity import without_raw
from interlingua.conversion.converter import convert
from interlingua.documents.migrate import migrate
from interlingua.documents.validation import validate
from interlingua.gateway.errors import GatewayError
from interlingua.gateway.vectors import FUNCTIONS as GATEWAY_FUNCTIONS
from interlingua.streams.engine import StreamTranslator, read_stream, reassemble, spec

ContractError = (GatewayError, ConversionError)


def validate_findings(arguments: Mapping[str, Any]) -> list[dict[str, str]]:
    """Findings as `{code, path, severity}`, sorted by path then code: the order is not part of
    the contract, so every implementation reports them in this one."""
    findings = validate(arguments["document"], arguments.get("type"))
    rows = [{"code": f.code, "path": f.path, "severity": f.severity or "error"} for f in findings]
    return sorted(rows, key=lambda row: (row["path"], row["code"]))


def convert_case(arguments: Mapping[str, Any]) -> dict[str, Any]:
    """`convert`: the output (without provider_raw) and the losses as sorted {pointer, code}."""
    result = convert(
        arguments["payload"],
        arguments["source"],
        arguments["target"],
        arguments["kind"],
        **arguments.get("options", {}),
    )
    losses = sorted(
        ({"pointer": loss.pointer, "code": loss.code} for loss in result.losses),
        key=lambda x: (x["pointer"], x["code"]),
    )
    return {"output": without_raw(result.output), "losses": losses}


def roundtrip_case(arguments: Mapping[str, Any]) -> dict[str, Any]:
    """`roundtrip`: the canonical reading of a body (without provider_raw), and the body
    written back from it (from the full canonical document, provider_raw included)."""
    fmt, kind = arguments["format"], arguments["kind"]
    canonical = convert(arguments["wire"], fmt, "canonical", kind).output
    wire = convert(canonical, "canonical", fmt, kind).output
    return {"canonical": without_raw(canonical), "wire": wire}


def stream_case(arguments: Mapping[str, Any]) -> dict[str, Any]:
    """`stream`: the canonical events of a chunk sequence, the Response they reassemble into,
    and the losses as sorted {pointer, code}. ``source_endpoint`` (optional) is where the
    stream was served, as `translate_stream` takes it: reasoning read is bound to it. (A
    reading writes nothing, so it has no target endpoint: `translate_stream` takes that.)"""
    fmt, endpoint = arguments["format"], arguments.get("source_endpoint")
    ctx = Context(fmt, kind="response", fidelity=False, endpoint=endpoint)
    events = list(read_stream(arguments["chunks"], fmt, ctx))
    losses = sorted(
        ({"pointer": loss.pointer, "code": loss.code} for loss in ctx.losses),
        key=lambda x: (x["pointer"], x["code"]),
    )
    return {"events": events, "canonical": reassemble(events, fmt, endpoint), "losses": losses}


def convert_many_case(arguments: Mapping[str, Any]) -> dict[str, Any]:
    """`convert_many`: one body converted to each of ``targets``; per target the output and
    losses as `convert` gives them, or the coded error (with its path and message)."""
    answers: dict[str, Any] = {}
    for target in arguments["targets"]:
        try:
            answers[target] = convert_case({**arguments, "target": target})
        except ConversionError as exc:
            details = {**exc.details, "message": exc.message}
            answers[target] = {"error": {"code": exc.code, "details": details}}
    return answers


def migrate_case(arguments: Mapping[str, Any]) -> dict[str, Any]:
    """`migrate`: the document in version ``to`` and the losses as sorted {pointer, code}."""
    migrated = migrate(arguments["document"], arguments["to"], source=arguments.get("source"))
    losses = sorted(
        ({"pointer": loss.pointer, "code": loss.code} for loss in migrated.losses),
        key=lambda x: (x["pointer"], x["code"]),
    )
    return {"document": migrated.output, "losses": losses}


def _lines(text: str, framing: str, source: str) -> list[str]:
    """The lines of a raw stream, in the framing ``source`` streams in: a transcript kept one
    chunk per line (``ndjson``) is framed as server-sent events when the source sends those."""
    lines = text.splitlines(keepends=True)
    if framing == "ndjson" and source != "canonical" and spec(source).framing == "sse":
        return [
            framed for line in lines if line.strip() for framed in (f"data: {line.strip()}\n", "\n")
        ]
    return lines


def translate_stream_case(arguments: Mapping[str, Any]) -> dict[str, Any]:
    """`translate_stream`: a raw stream (``text`` in ``framing``) translated to each of
    ``targets``; per target the raw text written, whether the translation failed, and, when
    it failed in reading the source, the coded error reading met. ``source_endpoint`` /
    ``target_endpoint`` (optional) are the endpoints as `StreamTranslator` takes them."""
    source = arguments["source"]
    source_endpoint = arguments.get("source_endpoint")
    lines = _lines(arguments["text"], arguments.get("framing", ""), source)
    answers: dict[str, Any] = {}
    for target in arguments["targets"]:
        translator = StreamTranslator(
            source,
            target,
            source_endpoint=source_endpoint,
            target_endpoint=arguments.get("target_endpoint"),
        )
        text = "".join(translator.feed(line) for line in lines) + translator.close()
        answers[target] = {"text": text, "failed": translator.failed}
    if any(answer["failed"] for answer in answers.values()):
        reading = _reading_error(lines, source, source_endpoint)
        for answer in answers.values():
            if answer["failed"] and reading is not None:
                answer["error"] = reading
    return answers


def _reading_error(
    lines: list[str], source: str, source_endpoint: str | None
) -> dict[str, Any] | None:
    """The error event reading the source stream ends with, as a coded error, if it does."""
    translator = StreamTranslator(source, "canonical", source_endpoint=source_endpoint)
    text = "".join(translator.feed(line) for line in lines) + translator.close()
    for line in text.splitlines():
        event = json.loads(line)
        if event.get("type") == "error":
            error = event["error"]
            return {
                "code": error.get("code"),
                "details": {"path": error.get("path", ""), "message": error.get("message", "")},
            }
    return None


FUNCTIONS: Final[Mapping[str, Callable[[Mapping[str, Any]], Any]]] = {
    **GATEWAY_FUNCTIONS,
    "validate": validate_findings,
    "convert": convert_case,
    "roundtrip": roundtrip_case,
    "stream": stream_case,
    "convert_many": convert_many_case,
    "translate_stream": translate_stream_case,
    "migrate": migrate_case,
}
