"""`POST /v1/stream`: a streamed response translated as it arrives, never buffered.

The request body is read message by message straight from the ASGI channel and cut into
lines; each line goes through :class:`~interlingua.streams.StreamTranslator` (the CLI's
`interlingua stream`) and whatever it gives is sent at once, so the first translated chunk
reaches the client while the rest of the body is still on its way. A line longer than the
limit, a chunk that is not JSON, a provider error or a truncated stream end the answer with the
target's error chunk (the status is already 200 by then), as the CLI writes them.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import anyio
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from interlingua.streams import StreamTranslator

_MEDIA = {"sse": "text/event-stream", "ndjson": "application/x-ndjson"}


def answer_media(target: str) -> str:
    """The media type of the target's stream (canonical events are NDJSON)."""
    from interlingua.streams import spec, stream_formats  # noqa: PLC0415

    return _MEDIA["ndjson"] if target == stream_formats()[0] else _MEDIA[spec(target).framing]


async def _lines(receive: Receive, limit: int) -> AsyncIterator[bytes]:
    """The body's lines as they arrive; a line past ``limit`` is handed over cut there (the
    translator refuses it) rather than held."""
    pending = b""
    more = True
    while more:
        message = await receive()
        if message["type"] != "http.request":
            return  # the client went away
        pending += message.get("body", b"")
        more = message.get("more_body", False)
        while True:
            end = pending.find(b"\n")
            if end < 0:
                break
            yield pending[: end + 1]
            pending = pending[end + 1 :]
        if len(pending) > limit:
            yield pending
            return
    if pending:
        yield pending


class TranslatedStream(Response):
    """An ASGI response that reads the request body itself while it answers.

    (Starlette's StreamingResponse listens for a disconnect on the same channel, which would
    swallow the body's messages.)"""

    def __init__(self, source: str, target: str, limit: int, timeout: float) -> None:
        super().__init__(media_type=answer_media(target))
        self.translator = StreamTranslator(source, target, max_bytes=limit)
        self.limit = limit
        self.timeout = timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = [(b"content-type", str(self.media_type).encode()), (b"cache-control", b"no-cache")]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        translator = self.translator
        # Out of time, the input stops where it is: the answer ends as a stream cut short does.
        with anyio.move_on_after(self.timeout):
            async for line in _lines(receive, self.limit):
                text = translator.feed(line)
                if text:
                    body = text.encode()
                    await send({"type": "http.response.body", "body": body, "more_body": True})
                if translator.ended:
                    break  # what follows an error is not read (it may never end)
        tail = translator.close()
        await send({"type": "http.response.body", "body": tail.encode(), "more_body": False})
