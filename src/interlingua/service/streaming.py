"""`POST /v1/stream`: a streamed response translated as it arrives, never buffered.

The request body is read message by message straight from the ASGI channel and cut into
lines; each line goes through :class:`~interlingua.streams.engine.StreamTranslator` (the CLI's
`interlingua stream`) and whatever it gives is sent at once, so the first translated chunk
reaches the client while the rest of the body is still on its way.

While nothing has been answered, a stream that fails (its first chunk is not JSON or not a
chunk of the format, or the body ends before any) is refused as a 422 problem with the code
the canonical reading gives. Once the answer has begun, a failure ends it in-band with the
target's error chunk, as the CLI writes it (the status is already 200 by then).

Every loss reaches the client in the stream itself, as soon as the translator meets it and in
the place the target's own readers pass over (:mod:`interlingua.streams.losses`): a `loss`
event in canonical events, an SSE comment line `: loss {...}` for Anthropic and OpenAI, an
`interlingua_losses` member of the next chunk for Gemini, Ollama and Bedrock. Always: the
provider SDKs read the stream unchanged, and a loss the client is not told is a loss made
silently. The answer begins with the first translated chunk, so losses met before it go out
with it (a stream that fails before it is still refused, and has no output to lose from).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import anyio
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from interlingua.service.problems import ProblemError
from interlingua.service.work import THREAD_BYTES
from interlingua.streams.engine import CANONICAL, StreamTranslator, spec
from interlingua.streams.losses import LossNotes

_MEDIA = {"sse": "text/event-stream", "ndjson": "application/x-ndjson"}


def answer_media(target: str) -> str:
    """The media type of the target's stream (canonical events are NDJSON)."""
    return _MEDIA["ndjson"] if target == CANONICAL else _MEDIA[spec(target).framing]


async def _lines(receive: Receive, limit: int) -> AsyncIterator[bytes]:
    """The body's lines as they arrive; a line past ``limit`` is handed over cut there (the
    translator refuses it) rather than held. Each byte is copied and searched for a newline
    once: a line arriving in pieces was joined and searched again at each piece, which took
    12.8 s for a 32 MiB line (quadratic), all of it on the event loop."""
    pending = bytearray()  # (deleting its head moves a start index, not the bytes)
    searched = 0  # how much of ``pending`` holds no newline
    more = True
    while more and len(pending) <= limit:
        message = await receive()
        if message["type"] != "http.request":
            return  # the client went away
        pending += message.get("body", b"")
        more = message.get("more_body", False)
        while (end := pending.find(b"\n", searched)) >= 0:
            yield bytes(pending[: end + 1])
            del pending[: end + 1]
            searched = 0
        searched = len(pending)
    if pending:
        yield bytes(pending)


def _refusal(events: str) -> ProblemError:
    """The problem of a stream that failed before answering: the error event its canonical
    reading ends with."""
    for line in events.splitlines():
        event = json.loads(line)
        if event.get("type") == "error":
            error = event["error"]
            return ProblemError(422, error["code"], error["message"], error.get("path", ""))
    # Every failure seen so far shows in the canonical reading; any other is answered the same.
    return ProblemError(  # pragma: no cover
        422, "stream_truncated", "the stream failed before its first chunk"
    )


class TranslatedStream(Response):
    """An ASGI response that reads the request body itself while it answers.

    (Starlette's StreamingResponse listens for a disconnect on the same channel, which would
    swallow the body's messages.)"""

    def __init__(
        self,
        source: str,
        target: str,
        limit: int,
        timeout: float,
        *,
        source_endpoint: str | None = None,
        target_endpoint: str | None = None,
    ) -> None:
        """The endpoints as :class:`StreamTranslator` takes them (the query's
        ``source_endpoint`` / ``target_endpoint``, as `/v1/convert` takes them)."""
        super().__init__(media_type=answer_media(target))
        self.translator = StreamTranslator(
            source,
            target,
            max_bytes=limit,
            source_endpoint=source_endpoint,
            target_endpoint=target_endpoint,
        )
        self.notes = LossNotes(self.translator)  # the text, telling its losses
        # Read to canonical events beside it until the answer begins, for a refusal's code.
        self.probe: StreamTranslator | None = StreamTranslator(
            source, CANONICAL, max_bytes=limit, source_endpoint=source_endpoint
        )
        self.limit = limit
        self.timeout = timeout
        self.started = False
        self.pending = ""  # losses told before the translator wrote anything

    async def _send(
        self, scope: Scope, receive: Receive, send: Send, text: str, probe: str, *, more: bool
    ) -> None:
        """Send ``text`` (the translation so far), or refuse when it is a failure and
        nothing has been answered yet (``probe``: the canonical events of the same input)."""
        if not self.started:
            if self.translator.failed:
                await _refusal(probe).response()(scope, receive, send)
                self.started = True
                return
            headers = [
                (b"content-type", str(self.media_type).encode()),
                (b"cache-control", b"no-cache"),
            ]
            await send({"type": "http.response.start", "status": 200, "headers": headers})
            self.started, self.probe = True, None
        await send({"type": "http.response.body", "body": text.encode(), "more_body": more})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        translator, notes, probed = self.translator, self.notes, ""
        # Out of time, the input stops where it is: the answer ends as a stream cut short does.
        with anyio.move_on_after(self.timeout):
            held = 0  # bytes fed since the translator last gave text: what a line may parse
            async for line in _lines(receive, self.limit):
                held += len(line)
                if held <= THREAD_BYTES:
                    read, told = self._feed(line)
                else:  # a long chunk is read in a thread, the event loop free meanwhile
                    read, told = await anyio.to_thread.run_sync(self._feed, line)
                if read or told:
                    held = 0
                probed += read
                text = self._ready(told)
                if text:
                    await self._send(scope, receive, send, text, probed, more=not translator.ended)
                if translator.ended:
                    return  # what follows an error is not read (it may never end)
        if self.probe is not None:
            probed += self.probe.close()
        await self._send(scope, receive, send, self._ready(notes.close()), probed, more=False)

    def _feed(self, line: bytes) -> tuple[str, str]:
        """The canonical events of ``line`` while the answer has not begun, and its text."""
        read = self.probe.feed(line) if self.probe is not None else ""
        return read, self.notes.feed(line)

    def _ready(self, text: str) -> str:
        """What of the text so far can be sent: nothing while it only tells losses and the
        answer has not begun (its status waits for the first translated chunk)."""
        text, self.pending = self.pending + text, ""
        if not self.started and not self.notes.wrote and not self.translator.failed:
            text, self.pending = "", text
        return text
