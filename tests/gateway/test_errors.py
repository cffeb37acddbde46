"""The error envelope (seed 002 §3.4): codes, retryable per code, redaction."""

import json
from pathlib import Path
from typing import get_args

import pytest
from hypothesis import given
from hypothesis import strategies as st

from interlingua.documents.validation import validate
from interlingua.gateway._text import max_length
from interlingua.gateway.errors import MESSAGE_LIMIT, RETRYABLE, GatewayError, redact
from interlingua.generated.models import GatewayErrorCode, GatewayErrorEnvelope

CODES = get_args(get_args(GatewayErrorCode.__value__)[0])
SEED_CODES = {
    "PATH_INVALID", "PATH_NOT_FOUND", "ARGS_INVALID", "SCHEMA_INVALID", "UPSTREAM_ERROR",
    "UPSTREAM_TIMEOUT", "UPSTREAM_UNAVAILABLE", "AUTH_FAILED", "PERMISSION_DENIED",
    "RATE_LIMITED", "HYDRATE_FAILED", "VIEW_FAILED", "RESOURCE_NOT_FOUND", "PROMPT_NOT_FOUND",
}  # fmt: skip


def test_retryable_table_covers_exactly_the_schema_enum() -> None:
    assert list(RETRYABLE) == list(CODES)
    assert set(CODES) >= SEED_CODES
    assert {c for c, r in RETRYABLE.items() if r} == {
        "UPSTREAM_TIMEOUT",
        "UPSTREAM_UNAVAILABLE",
        "RATE_LIMITED",
    }


def test_the_message_cap_is_the_schema_maxlength() -> None:
    bundle = Path(__file__).resolve().parents[2] / "generated/schemas/interlingua-v1.json"
    schema = json.loads(bundle.read_text(encoding="utf-8"))
    assert (
        schema["$defs"]["GatewayErrorEnvelope"]["properties"]["message"]["maxLength"]
        == MESSAGE_LIMIT
    )


@given(
    st.sampled_from(CODES),
    st.text(),
    st.text(),
    st.none() | st.dictionaries(st.text(max_size=5), st.integers()),
)
def test_every_envelope_is_valid_and_redacted(
    code: GatewayErrorCode, message: str, path: str, details: dict[str, int] | None
) -> None:
    error = GatewayError(code, message, path=path, details=details)
    envelope = error.as_json()
    assert validate(envelope, "GatewayErrorEnvelope") == []
    assert envelope["retryable"] is RETRYABLE[code]
    for text in (envelope["message"], envelope["path"]):
        assert len(text) <= MESSAGE_LIMIT
        assert not any(ord(ch) < 32 or 127 <= ord(ch) <= 159 or ch in "\u2028\u2029" for ch in text)
        assert text == text.strip(" ")
        assert "  " not in text
    assert error.message == message  # the full text stays for logs
    assert str(error).startswith(code)


def test_a_field_without_maxlength_has_no_cap() -> None:
    with pytest.raises(LookupError):
        max_length(GatewayErrorEnvelope, "retryable")


def test_redaction_keeps_short_clean_text() -> None:
    assert redact("ok") == "ok"
    assert redact("x" * 300) == "x" * 255 + "…"
    assert redact("a\n\n  b", 3) == "a b"
