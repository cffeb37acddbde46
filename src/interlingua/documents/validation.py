"""Validate documents and load them into models."""

from __future__ import annotations

import logging
from typing import Any

from pydantic import BaseModel
from pydantic import ValidationError as ModelError

from interlingua.conversion.reading import InputError, check_value, read_json
from interlingua.generated.codes import SEVERITY
from interlingua.generated.models import Conversation, Message, Response, ValidationError
from interlingua.generated.validators import DOCUMENT_KEYS, VALIDATORS, check

logger = logging.getLogger("interlingua")

DOCUMENT_MODELS: dict[str, type[Conversation | Response | Message]] = {
    "Conversation": Conversation,
    "Response": Response,
    "Message": Message,
}


class DocumentError(Exception):
    """A document failed validation; ``errors`` says where and why."""

    def __init__(self, errors: list[ValidationError]) -> None:
        first = errors[0]
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        super().__init__(f"{first.code} at {first.path or '/'}: {first.message}{more}")
        self.errors = errors


def detect_document(document: Any) -> str | None:
    """The top-level type a document is (Conversation, Response, Message), by its keys."""
    if isinstance(document, dict):
        for key, name in DOCUMENT_KEYS.items():
            if key in document:
                return name
    return None


def document_messages(document: Any) -> list[Any]:
    """The messages of a Conversation, Response or Message document (or a list of Messages)."""
    if isinstance(document, list):
        return document
    kind = detect_document(document)
    if kind == "Conversation":
        return list(document["messages"])
    if kind == "Response":
        return [document["message"]]
    return [document]


def _finding(code: str, path: str, message: str) -> ValidationError:
    severity = SEVERITY[code]
    return ValidationError.model_validate(
        {"code": code, "path": path, "message": message, "severity": severity}
    )


def validate(document: Any, type: str | None = None) -> list[ValidationError]:
    """Every finding about ``document`` (errors and warnings); empty when it is clean.

    ``type`` names the schema type to check against; by default the document's own kind is
    recognised from its keys.
    """
    try:
        check_value(document)
    except InputError as exc:
        return [_finding(exc.code, exc.path, exc.message)]
    name = type or detect_document(document)
    if name is None:
        kinds = ", ".join(f"{n} (has {k!r})" for k, n in DOCUMENT_KEYS.items())
        return [
            _finding("unknown_document", "", f"not a recognised document; expected one of {kinds}")
        ]
    if name not in VALIDATORS:
        raise ValueError(f"unknown type {name!r}; known types: {', '.join(sorted(VALIDATORS))}")
    try:
        findings = check(name, document)
    except RecursionError:
        return [_finding("nesting_too_deep", "", "the document nests deeper than Python can walk")]
    return [_finding(*f) for f in findings]


def is_error(finding: ValidationError) -> bool:
    return SEVERITY[finding.code] == "error"


Document = Conversation | Response | Message


def load(document: Any, type: str | None = None) -> Document:
    """Validate ``document`` (a parsed value, or JSON text/bytes) and build its model.

    Raises :class:`DocumentError` when it has errors. Warnings (such as an unknown part type,
    which is kept as an ``UnknownPart``) are logged, one WARN line each.
    """
    if isinstance(document, str | bytes):
        document = read_json(document)
    findings = validate(document, type)
    errors = [f for f in findings if is_error(f)]
    if errors:
        raise DocumentError(errors)
    for warning in findings:
        logger.warning("%s at %s: %s", warning.code, warning.path, warning.message)
    name = type or detect_document(document)
    model = DOCUMENT_MODELS.get(name or "")
    if model is None:
        raise ValueError(f"load() builds documents ({', '.join(DOCUMENT_MODELS)}), not {name!r}")
    try:
        return model.model_validate(document)
    except ModelError as exc:  # valid JSON the model cannot hold (1e308 as a token count)
        first = exc.errors()[0]
        path = "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in first["loc"])
        raise DocumentError([_finding("wrong_type", path, first["msg"])]) from None


def dump(model: BaseModel) -> Any:
    """The JSON value of a model, exactly as it would be loaded back (absent fields omitted)."""
    return model.model_dump(mode="json", exclude_none=True)
