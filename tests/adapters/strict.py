"""What a written body must be: valid against its target's STRICT wire schema.

Reading may be tolerant (a provider sends more than its documentation says); what interlingua
writes must be what the provider documents, so it is checked against the schemas of
``schemas/formats/<format>/`` as written there (a format's stored-messages schema, derived from
them by the generator, from the packaged copy), and canonical output against the canonical
schema with its invariants.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema_rs
from jsonschema import Draft202012Validator

from interlingua.conversion.converter import (
    CANONICAL,
    DOCUMENT_TYPES,
    canonical_messages,
    from_text,
)
from interlingua.documents.validation import is_error, validate

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ROOT / "schemas" / "formats"
DERIVED = ROOT / "generated" / "python" / "wire_schemas"


@cache
def _schema(fmt: str, kind: str) -> dict[str, Any]:
    path = SOURCES / fmt / f"{kind}.json"
    if not path.exists():  # the stored-messages schema: derived by the generator
        path = DERIVED / fmt / f"{kind}.json"
    schema: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return schema


@cache
def _checker(fmt: str, kind: str) -> Any:
    return jsonschema_rs.validator_for(_schema(fmt, kind))


def problems(output: Any, fmt: str, kind: str) -> list[str]:
    """Why ``output`` (a body written in ``fmt``) is not a valid ``kind`` body; [] when it is."""
    if fmt == CANONICAL:
        type_name = DOCUMENT_TYPES[kind]
        documents = [output] if kind != "messages" else canonical_messages(output)
        return [
            f"{f.code} at {f.path}: {f.message}"
            for document in documents
            for f in validate(document, type_name)
            if is_error(f)
        ]
    body = from_text(output, fmt, kind)  # a text format's text: the shape it reads as
    if _checker(fmt, kind).is_valid(body):
        return []
    validator = Draft202012Validator(_schema(fmt, kind))
    out = []
    for found in validator.iter_errors(body):
        error = found
        while error.context:  # a union: the member that got furthest says what is wrong
            error = max(error.context, key=lambda e: len(list(e.absolute_path)))
        where = "".join(f"/{p}" for p in error.absolute_path)
        out.append(f"{where}: {error.message[:200]}")
    return out
