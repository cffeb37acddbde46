"""RFC 9457 problem documents: how the service refuses a request.

Every refusal is a 4xx `application/problem+json` body of the schema's `Problem` type, with the
stable code (an `ErrorCode`, or a `GatewayErrorCode` for the gateway operations) and the JSON
pointer the CLI and the Python API report for the same input. One problem is a 5xx: 503
`worker_lost`, a request whose worker process died before it answered.
"""

from __future__ import annotations

import json
from http import HTTPStatus
from typing import Any

from starlette.responses import Response

MEDIA_TYPE = "application/problem+json"
#: Where each code is explained: the error reference page of the documentation site.
TYPE_BASE = "https://interlingua.dev/reference/errors/#"


class ProblemError(Exception):
    """A refused request: status, code, pointer, message, and any extra members."""

    def __init__(
        self,
        status: int,
        code: str,
        detail: str,
        pointer: str = "",
        *,
        headers: dict[str, str] | None = None,
        **extra: Any,
    ) -> None:
        # A 5xx is a bug, never a refusal; 503 alone is a problem: the work was lost with the
        # worker process doing it (`service.work`), and the request may be sent again.
        assert 400 <= status < 500 or status == 503, status
        super().__init__(f"{status} {code}: {detail}")
        self.status = status
        self.code = code
        self.detail = detail
        self.pointer = pointer
        self.headers = headers or {}
        self.extra = {k: v for k, v in extra.items() if v is not None}

    def __reduce__(self) -> tuple[Any, ...]:
        # Raised in a worker process (`service.work`), it is pickled back to the service.
        state = {"headers": self.headers, "extra": self.extra}
        return (ProblemError, (self.status, self.code, self.detail, self.pointer), state)

    def document(self) -> dict[str, Any]:
        """The problem as the `Problem` schema shapes it."""
        return {
            "type": TYPE_BASE + self.code.lower(),
            "title": HTTPStatus(self.status).phrase,
            "status": self.status,
            "detail": self.detail,
            "code": self.code,
            "pointer": self.pointer,
            **self.extra,
        }

    def response(self) -> Response:
        body = json.dumps(self.document(), ensure_ascii=False).encode()
        return Response(body, self.status, headers=self.headers, media_type=MEDIA_TYPE)


def input_status(code: str) -> int:
    """The status of a body the reader refused: too large is 413, anything else 400."""
    return 413 if code == "input_too_large" else 400
