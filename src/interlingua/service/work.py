"""Where a request's work runs: a body of any size in a worker process, the one running a request
that outlives its time limit killed; a small body in a thread of the service.

A thread cannot be stopped. When every request ran in one, a request past its limit was
answered 408 while its thread went on converting (a body of hundreds of thousands of messages
takes minutes), so a few such requests held every core. A worker process is killed instead
(SIGKILL: the compiled passes cannot be interrupted), and the pool starts another when it next
needs one. Reading the body, the operation and writing the answer all run in the worker, so
the event loop only moves bytes: a large body does not hold up the other requests while it is
parsed, and large requests use as many cores as there are workers.

A body of at most `THREAD_BYTES` is answered in a thread: no operation takes long on it, and
a worker's round trip (pickling, two pipes, the event loop's turns) would cost more than a
small conversion. ``processes=0`` answers every body in a thread.

A worker's own output goes nowhere (anyio points its standard streams at the null device), so
what the package logs there comes back with the answer and is logged by the service
(`answer_in_worker`). A worker that dies before it answers (the system killed it, out of
memory say) is the problem 503 `worker_lost`, never a bare server error.
"""

from __future__ import annotations

import json
import logging
from functools import partial
from logging.handlers import QueueHandler
from queue import SimpleQueue
from typing import Final

import anyio
import anyio.to_process
from anyio import BrokenWorkerProcess, CapacityLimiter

from interlingua.service import operations
from interlingua.service.problems import ProblemError

#: The largest body answered in a thread. The costliest operations take about 4 µs a byte of
#: a body of short messages (a two-step conversion, detection of a body no format takes), so
#: 0.3 s here; a worker's round trip costs 0.3-0.5 ms, a fifth to a third of a request of a
#: few KiB.
THREAD_BYTES: Final = 64 * 1024


def answer(
    operation: str, query: operations.Query, data: bytes, media: str, max_bytes: int
) -> bytes:
    """The JSON answer of ``operation`` for a request's body, or the `ProblemError` refusing
    it."""
    text = operations.text_body(operation, query)
    payload = operations.read_payload(data, media, max_bytes, text=text)
    found = operations.HANDLERS[operation](query, payload)
    return json.dumps(found, ensure_ascii=False).encode()


#: The package's logger: what it logs in a worker is relayed to the service.
PACKAGE_LOG = "interlingua"
log = logging.getLogger(__name__)


def answer_in_worker(
    operation: str,
    query: operations.Query,
    data: bytes,
    media: str,
    max_bytes: int,
    *,
    level: int,
) -> tuple[bytes | ProblemError, list[logging.LogRecord]]:
    """`answer` in a worker process: the answer or the refusal, and what the package logged
    meanwhile at ``level`` or above (the service's level), each record made picklable (its
    message formatted, its arguments dropped)."""
    kept: SimpleQueue[logging.LogRecord] = SimpleQueue()
    handler = QueueHandler(kept)
    package = logging.getLogger(PACKAGE_LOG)
    package.setLevel(level)
    package.addHandler(handler)
    try:
        found: bytes | ProblemError = answer(operation, query, data, media, max_bytes)
    except ProblemError as problem:
        found = problem
    finally:
        package.removeHandler(handler)
    records = []
    while not kept.empty():
        records.append(kept.get())
    return found, records


class Workers:
    """The service's workers: up to ``processes`` worker processes (started when a body first
    needs one; anyio stops one idle for five minutes), and threads."""

    def __init__(self, processes: int) -> None:
        self.processes = processes
        self._limiter: CapacityLimiter | None = None  # made in the event loop that uses it

    async def answer(
        self, operation: str, query: operations.Query, data: bytes, media: str, max_bytes: int
    ) -> bytes:
        """`answer`, in a worker process unless the body is small; the caller's cancellation
        (its time limit) kills the worker process."""
        if not self.processes or len(data) <= THREAD_BYTES:
            return await anyio.to_thread.run_sync(
                answer, operation, query, data, media, max_bytes, abandon_on_cancel=True
            )
        if self._limiter is None:
            self._limiter = CapacityLimiter(self.processes)
        try:
            level = logging.getLogger(PACKAGE_LOG).getEffectiveLevel()
            found, records = await anyio.to_process.run_sync(
                partial(answer_in_worker, level=level),
                operation,
                query,
                data,
                media,
                max_bytes,
                cancellable=True,
                limiter=self._limiter,
            )
        except BrokenWorkerProcess as exc:
            # (anyio's own words say whether it died or never started: a main module that
            # is not import-safe starts the service again in the worker)
            why = str(exc) or "it stopped before it answered"
            log.warning(
                "the worker process answering %s (%d bytes) was lost: %s", operation, len(data), why
            )
            raise ProblemError(
                503,
                "worker_lost",
                "the worker process answering the request stopped before it answered (killed "
                "by the system, out of memory say, or it could not start: the service's log "
                "says which); the request may be sent again",
            ) from None
        for record in records:
            logging.getLogger(record.name).handle(record)
        if isinstance(found, ProblemError):
            raise found
        return found
