"""What a request may be: its media type, its size and how long it may take.

The body limit is the CLI's (`interlingua.conversion.reading.DEFAULT_MAX_BYTES`, 32 MiB): a larger
`Content-Length` is refused before anything is read, and a body sent without one is counted as
it arrives and refused at the limit, so no request makes the service hold more than that.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from starlette.requests import Request

from interlingua.conversion.reading import DEFAULT_MAX_BYTES
from interlingua.service import DEFAULT_TIMEOUT
from interlingua.service.problems import ProblemError


def default_processes() -> int:
    """One worker process per core the service may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


@dataclass(frozen=True)
class Limits:
    """The limits one service runs with."""

    max_bytes: int = DEFAULT_MAX_BYTES
    timeout: float = DEFAULT_TIMEOUT
    #: Worker processes answering requests (`service.work`); 0: threads, which a timeout
    #: cannot stop.
    processes: int = field(default_factory=default_processes)


def media_type(request: Request, allowed: tuple[str, ...]) -> str:
    """The body's media type (without parameters), if the operation reads it; else 415."""
    given = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if given not in allowed:
        shown = given or "none"
        raise ProblemError(
            415,
            "unsupported_media_type",
            f"the body's media type is {shown}; this operation reads {', '.join(allowed)}",
        )
    return given


def _too_large(limit: int) -> ProblemError:
    return ProblemError(
        413, "input_too_large", f"the body is larger than the limit of {limit} bytes"
    )


async def read_body(request: Request, limit: int) -> bytes:
    """The whole body, refused (413) past ``limit`` bytes without reading it all."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise _too_large(limit)
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise _too_large(limit)
        chunks.append(chunk)
    return b"".join(chunks)
