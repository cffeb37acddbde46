"""The gateway's one error shape (seed 002 §3.4): a coded exception and its wire envelope.

Inside the gateway, failures are raised as :class:`GatewayError`; at the boundary they become a
:class:`GatewayErrorEnvelope` (returned, never raised across it). The envelope's ``message`` and
``path`` are redacted the way §3.4 asks: collapsed to a single line with no control characters
and capped at the length the schema allows (256 characters; a longer text keeps its first 255
and ends in ``…``). No other scrubbing is done: the seed defines redaction as exactly that, and
the full, unredacted text stays on the exception for server-side logs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from interlingua.gateway._text import cap, max_length, single_line
from interlingua.generated import codes
from interlingua.generated.models import GatewayErrorCode, GatewayErrorEnvelope

#: Whether a call failing with each code may succeed if retried: transient transport failures
#: and throttling (§3.4). Generated from the schema's `x-retryable` on GatewayErrorCode.
RETRYABLE: Final[Mapping[str, bool]] = codes.RETRYABLE

MESSAGE_LIMIT: Final = max_length(GatewayErrorEnvelope, "message")
PATH_LIMIT: Final = max_length(GatewayErrorEnvelope, "path")


def redact(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """``text`` as it may reach a model: one line, no control characters, at most ``limit``."""
    return cap(single_line(text), limit)


class GatewayError(Exception):
    """A gateway failure with a stable code. ``message`` is the full text (for logs); the
    envelope carries its redacted form."""

    def __init__(
        self,
        code: GatewayErrorCode,
        message: str,
        *,
        path: str = "",
        details: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(f"{code}: {message}")
        self.code: GatewayErrorCode = code
        self.message = message
        self.path = path
        self.details = dict(details) if details is not None else None

    @property
    def retryable(self) -> bool:
        return RETRYABLE[self.code]

    def envelope(self) -> GatewayErrorEnvelope:
        """The wire form: redacted message and path, ``retryable`` fixed by the code."""
        fields: dict[str, Any] = {
            "error": self.code,
            "message": redact(self.message),
            "path": redact(self.path, PATH_LIMIT),
            "retryable": self.retryable,
        }
        if self.details is not None:
            fields["details"] = self.details
        return GatewayErrorEnvelope.model_validate(fields)

    def as_json(self) -> dict[str, Any]:
        """The envelope as a JSON value."""
        value: dict[str, Any] = self.envelope().model_dump(mode="json", exclude_none=True)
        return value
