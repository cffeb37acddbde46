"""The operations, each a thin call of the function the Python API and the CLI use.

Each takes the checked query (a dict) and the body (as :func:`read_payload` read it) and
returns the JSON answer, or raises :class:`ProblemError`. They run in a worker
(`interlingua.service.work`): conversion is CPU work.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interlingua.conversion import ConversionError, LossyConversionError
from interlingua.conversion.reading import InputError, read_json, read_text
from interlingua.service.problems import ProblemError, input_status

AUTO, CANONICAL = "auto", "canonical"
Query = dict[str, Any]


def read_payload(data: bytes, media: str, max_bytes: int, *, text: bool = False) -> Any:
    """The body as the CLI reads a file: JSON, or for `text/plain` a text format's document
    (text when the format is a text format, or when the JSON reader refuses it, `NaN` and
    duplicate keys included: the client said it is text). A body that cannot be read is a
    400 problem (413 past the limit)."""
    try:
        if media == "text/plain":
            if not text:
                try:
                    return read_json(data, max_bytes=max_bytes)
                except InputError:
                    pass  # read as text, which refuses what text cannot be (invalid UTF-8)
            return read_text(data, max_bytes=max_bytes)
        return read_json(data, max_bytes=max_bytes)
    except InputError as exc:
        raise ProblemError(input_status(exc.code), exc.code, exc.message, exc.path) from None


def _unusable(exc: ConversionError) -> ProblemError:
    if isinstance(exc, LossyConversionError):
        losses = [loss.as_json() for loss in exc.losses]
        return ProblemError(422, exc.code, exc.message, exc.pointer, losses=losses)
    return ProblemError(422, exc.code, exc.message, exc.pointer)


def _undetected(reason: str) -> ProblemError:
    return ProblemError(422, "unknown_format", f"cannot tell the format: {reason}")


def convert(query: Query, payload: Any) -> dict[str, Any]:
    """`interlingua convert`: detection where the query leaves the format or kind open."""
    from interlingua.conversion.converter import convert as run  # noqa: PLC0415
    from interlingua.conversion.detector import detect  # noqa: PLC0415

    source, kind, checked = query["from"], query.get("kind"), False
    if source == AUTO:
        found = detect(payload, kind=kind, explain=False, _data_checked=True)
        if not found.detected:
            raise _undetected(found.reason)
        source, kind, checked = str(found.format), str(found.kind), True
    elif kind is None:
        found = detect(payload, among=[source], explain=False, _data_checked=True)
        kind, checked = (str(found.kind), True) if found.detected else ("request", False)
    try:
        result = run(
            payload,
            source,
            query["to"],
            kind,
            strict=query.get("strict", False),
            thinking=query.get("thinking", "drop"),
            source_endpoint=query.get("source_endpoint"),
            target_endpoint=query.get("target_endpoint"),
            validate_input=not checked,  # detection has just validated it against that schema
            _data_checked=True,  # read_payload read it: read_json refuses what check_data does
        )
    except ConversionError as exc:
        raise _unusable(exc) from None
    return {"output": result.output, "report": result.report()}


def canonical_document(payload: Any, source: str) -> Any:
    """The body as a canonical document: as it is for `canonical`, else read through its
    format's adapter (`auto`: the detected one)."""
    if source == CANONICAL:
        return payload
    from interlingua.conversion.converter import to_canonical  # noqa: PLC0415
    from interlingua.conversion.detector import detect  # noqa: PLC0415

    kind = "request"
    found = detect(payload, among=None if source == AUTO else [source], explain=False)
    if found.detected:
        source, kind = str(found.format), str(found.kind)
    elif source == AUTO:
        raise _undetected(found.reason)
    if source == CANONICAL:
        return payload
    try:
        return to_canonical(payload, source, kind).output
    except ConversionError as exc:
        raise _unusable(exc) from None


def validate(query: Query, payload: Any) -> dict[str, Any]:
    """`interlingua validate`: an invalid document is an answer, not a refusal."""
    from interlingua.documents.validation import is_error  # noqa: PLC0415
    from interlingua.documents.validation import validate as run  # noqa: PLC0415

    document = canonical_document(payload, query.get("from", CANONICAL))
    findings = run(document, query.get("type"))
    return {
        "valid": not any(is_error(f) for f in findings),
        "findings": [f.model_dump(mode="json", exclude_none=True) for f in findings],
    }


def detect(query: Query, payload: Any) -> dict[str, Any]:
    """`interlingua detect`."""
    from interlingua.conversion.detector import detect as run  # noqa: PLC0415

    found: dict[str, Any] = run(payload, kind=query.get("kind")).as_json()
    return found


def views(query: Query, payload: Any) -> dict[str, Any]:
    """`interlingua views`: a document with an error finding is refused, every finding given."""
    from interlingua.documents.validation import document_messages, is_error, validate  # noqa: PLC0415
    from interlingua.documents.view import views as run  # noqa: PLC0415

    document = canonical_document(payload, query.get("from", CANONICAL))
    errors = [
        f
        for message in (document if isinstance(document, list) else [document])
        for f in validate(message)
        if is_error(f)
    ]
    if errors:
        first = errors[0]
        raise ProblemError(
            422,
            first.code,
            first.message,
            first.path,
            errors=[f.model_dump(mode="json", exclude_none=True) for f in errors],
        )
    capabilities = query.get("capabilities", [])
    key = "input" if query.get("opa") else "view"
    return {
        "views": [
            {"message": number, key: view.to_dict()}
            for number, message in enumerate(document_messages(document))
            for view in run(message, capabilities)
        ]
    }


def pairs(query: Query, payload: Any) -> dict[str, Any]:
    """`interlingua pairs`: each reading the body validates as is tried in turn (best first),
    unless the query names both format and kind."""
    from interlingua.conversion.converter import to_canonical  # noqa: PLC0415
    from interlingua.conversion.detector import readings  # noqa: PLC0415
    from interlingua.documents.exchanges import PAIRED, tool_exchanges  # noqa: PLC0415

    source, kind = query.get("from", AUTO), query.get("kind")
    among = None if source == AUTO else [source]
    tries = (
        [(source, kind)] if source != AUTO and kind else readings(payload, kind=kind, among=among)
    )
    first: ConversionError | None = None
    for source, kind in tries:
        try:
            document = to_canonical(payload, source, kind).output
            break
        except ConversionError as exc:
            first = first or exc
    else:
        if first is None:
            raise _undetected("no format's schema accepts it")
        raise _unusable(first)
    exchanges = tool_exchanges(document)
    return {
        "format": source,
        "kind": kind,
        "exchanges": [x.as_json() for x in exchanges],
        "paired": all(x.status in PAIRED for x in exchanges),
    }


def _gateway_problem(error: Any) -> ProblemError:
    envelope = error.as_json()
    return ProblemError(
        422, envelope["error"], envelope["message"], retryable=envelope["retryable"]
    )


def tool_ids(query: Query, payload: Any) -> dict[str, Any]:
    """`interlingua tool-id`: the input schema is trust-checked as any ingest is."""
    from interlingua.documents.validation import is_error, validate  # noqa: PLC0415
    from interlingua.gateway.errors import GatewayError  # noqa: PLC0415
    from interlingua.gateway.schema_trust import check_schema_trust  # noqa: PLC0415
    from interlingua.gateway.tool_id import derive_tool_id  # noqa: PLC0415

    try:
        errors = [f for f in validate(payload, "ToolIdRequest") if is_error(f)]
        if errors:
            first = errors[0]
            raise GatewayError(
                "ARGS_INVALID", f"not a ToolIdRequest: {first.path or '/'}: {first.message}"
            )
        check_schema_trust(payload["input_schema"])
        tool_id = derive_tool_id(
            payload["name"], payload["input_schema"], payload.get("version"), payload.get("server")
        )
    except GatewayError as error:
        raise _gateway_problem(error) from None
    return {"tool_id": tool_id}


def cards(query: Query, payload: Any) -> dict[str, Any]:
    """`interlingua card`."""
    from interlingua.gateway.cards import build_card  # noqa: PLC0415
    from interlingua.gateway.cli import _gateway_tool  # noqa: PLC0415
    from interlingua.gateway.errors import GatewayError  # noqa: PLC0415
    from interlingua.gateway.schema_trust import check_schema_trust  # noqa: PLC0415

    try:
        tool = _gateway_tool(payload)
        check_schema_trust(tool.definition.input_schema)
        card = build_card(tool, query.get("score"))
    except GatewayError as error:
        raise _gateway_problem(error) from None
    answer: dict[str, Any] = card.model_dump(mode="json", exclude_none=True)
    return answer


def text_body(operation: str, query: Query) -> bool:
    """Whether a `text/plain` body is a text format's document as it is (convert from one)."""
    from interlingua.conversion.converter import text_format  # noqa: PLC0415

    source = query.get("from", AUTO)
    return operation == "convert" and source not in (AUTO, CANONICAL) and text_format(source)


#: The operations that take a JSON (or text) body, by operationId.
HANDLERS: dict[str, Callable[[Query, Any], dict[str, Any]]] = {
    "convert": convert,
    "validate": validate,
    "detect": detect,
    "views": views,
    "pairs": pairs,
    "tool_ids": tool_ids,
    "cards": cards,
}
