"""Translating streamed responses between formats, through canonical stream events.

>>> from interlingua.streams.engine import read_stream, reassemble
>>> chunks = [
...     {"type": "message_start", "message": {"id": "msg_1", "type": "message",
...      "role": "assistant", "model": "claude", "content": [], "stop_reason": None,
...      "usage": {"input_tokens": 3, "output_tokens": 1}}},
...     {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
...     {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hi"}},
...     {"type": "content_block_stop", "index": 0},
...     {"type": "message_delta", "delta": {"stop_reason": "end_turn"},
...      "usage": {"output_tokens": 2}},
...     {"type": "message_stop"},
... ]
>>> events = list(read_stream(chunks, "anthropic"))
>>> [e["type"] for e in events]  # doctest: +NORMALIZE_WHITESPACE
['message_start', 'usage', 'text_delta', 'text_delta', 'usage', 'message_complete']
>>> reassemble(events, "anthropic")["message"]["content"]
[{'type': 'text', 'text': 'Hi'}]

``canonical`` is a stream format too: its chunks are the canonical events themselves (one JSON
object per line). `StreamTranslator` works on raw text, line by line, and keeps no more than
the state of the chunk at hand, so memory stays flat whatever the length of the stream.

Whatever the stream holds, translation never raises: a chunk the reading rules refuse (not
JSON, nested too deep, a number no reader carries, a line past the length limit), a stream that
starts late, ends early, repeats or reorders its chunks all end the output with the target's
error chunk, after what was translated up to the fault.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Protocol

from interlingua.conversion import Context, ConversionError, Loss
from interlingua.conversion.adapters.stream_reader import StreamReader
from interlingua.conversion.adapters.stream_spec import Event, StreamSpec
from interlingua.conversion.adapters.stream_writer import StreamWriter
from interlingua.conversion.reading import DEFAULT_MAX_BYTES, InputError, check_value, read_json
from interlingua.documents.validation import validate
from interlingua.generated.streams import STREAMS
from interlingua.generated.streams.fused import FUSED
from interlingua.streams.accumulate import Accumulator
from interlingua.streams.framing import dumps, frame, parser, too_long

CANONICAL = "canonical"


def stream_formats() -> list[str]:
    """Every format that streams, `canonical` first."""
    return [CANONICAL, *sorted(STREAMS)]


def spec(name: str) -> StreamSpec:
    try:
        return STREAMS[name]
    except KeyError:
        known = ", ".join(stream_formats())
        raise ConversionError(
            "unknown_format", "", f"no streaming format {name!r} (known: {known})"
        ) from None


def read_stream(chunks: Iterable[Any], source: str, ctx: Context | None = None) -> Iterator[Event]:
    """The canonical events of a stream of wire chunks: parsed JSON, or payload strings as sent
    (the end marker, or a chunk to parse). The end of ``chunks`` is the end of the stream."""
    stream = spec(source)
    reader = StreamReader(stream, ctx)
    marked = False
    for chunk in chunks:
        if isinstance(chunk, str) and chunk == stream.done:
            marked = True
            break
        try:
            if isinstance(chunk, str | bytes):  # a payload as sent
                chunk = read_json(chunk)  # noqa: PLW2901
            else:
                check_value(chunk)
        except InputError as exc:
            yield from reader.fail(exc.code, _message(exc))
            return
        yield from reader.feed(chunk)
        if reader.done:
            return
    yield from reader.finish(marked)


def write_stream(
    events: Iterable[Mapping[str, Any]], target: str, ctx: Context | None = None
) -> Iterator[Any]:
    """The wire chunks of a stream of canonical events; an event that is not a valid canonical
    stream event raises :class:`ConversionError` (its pointer starts at the event's index)."""
    writer = StreamWriter(spec(target), ctx)
    for n, event in enumerate(events):
        problem = event_error(event, n)
        if problem is not None:
            raise ConversionError(problem["code"], problem["path"], problem["message"])
        yield from writer.feed(event)


def event_error(event: Any, n: int) -> dict[str, str] | None:
    """The coded error of an event that is not a valid canonical stream event (number ``n``
    of its stream), or None."""
    errors = [f for f in validate(event, "StreamEvent") if f.severity != "warning"]
    if not errors:
        return None
    first = errors[0]
    return {"code": first.code, "path": f"/{n}{first.path}", "message": first.message}


def _message(exc: InputError) -> str:
    """What a stream says of a chunk the reader refused."""
    return "the chunk is not JSON" if exc.code == "invalid_json" else exc.message


def reassemble(
    events: Iterable[Mapping[str, Any]], origin: str | None = None, endpoint: str | None = None
) -> dict[str, Any]:
    """The canonical `Response` a stream of events carries (see `Accumulator.response`)."""
    accumulator = Accumulator()
    for event in events:
        accumulator.feed(event)
    return accumulator.response(origin, endpoint)


class StreamTranslator:
    """Raw stream text in (SSE or NDJSON, as the source format streams), raw stream text out.

    Feed it one line at a time; each call returns the text to write at once. A chunk that is
    not JSON, a truncated stream or a provider's error all end the output with the target's
    error chunk and set `failed`. Every loss is in `losses` (and logged as it happens).

    A chunk that only continues a part (a delta of text or of a call's arguments, mostly) goes
    the fused way where the pair has one (`generated/python/streams/fused.py`): straight to the
    target's text, no canonical event in between; every other chunk the general way. The text
    and the losses are the same either way; `fused_chunks` and `general_chunks` count the
    chunks each way took.
    """

    def __init__(
        self,
        source: str,
        target: str,
        *,
        max_bytes: int = DEFAULT_MAX_BYTES,
        fused: bool = True,
        source_endpoint: str | None = None,
        target_endpoint: str | None = None,
    ) -> None:
        """``max_bytes`` bounds one line and one chunk: past it, the stream fails with
        `input_too_large`. ``fused=False`` takes the general path for every chunk.
        ``source_endpoint`` / ``target_endpoint`` name where the stream came from and where the
        output goes, where a provider serves its format at several endpoints that refuse each
        other's signatures (`vertex`, `gemini-api`): reasoning read is bound to the source's,
        and replayed only where the target's is the same (or either is unknown)."""
        self.ctx = Context(
            f"{source}->{target}", kind="response", fidelity=False, endpoint=source_endpoint
        )
        self.source = None if source == CANONICAL else spec(source)
        self.target = None if target == CANONICAL else spec(target)
        self.max_bytes = max_bytes
        self._parser = parser(self.source.framing if self.source else "ndjson", max_bytes)
        self._reader = StreamReader(self.source, self.ctx) if self.source else None
        self._writer = (
            StreamWriter(
                self.target,
                self.ctx,
                origin=None if source == CANONICAL else source,
                origin_endpoint=source_endpoint,
                endpoint=target_endpoint,
            )
            if self.target
            else None
        )
        self.failed = False
        self.ended = False
        self._events = 0
        self._fused = FUSED.get((source, target)) if fused else None
        self.fused_chunks = 0
        self.general_chunks = 0

    @property
    def losses(self) -> list[Loss]:
        return self.ctx.losses

    def feed(self, line: str | bytes) -> str:
        """The text one line of input (text, or bytes in UTF-8) gives at once."""
        if self.ended:
            return ""
        if len(line) > self.max_bytes:
            problem = too_long(line, self.max_bytes)
            assert problem is not None
            return self._fail(problem.code, problem.message)
        if isinstance(line, bytes):
            try:
                line = line.decode("utf-8")
            except UnicodeDecodeError as exc:
                return self._fail("invalid_unicode", f"not UTF-8: byte {exc.start} of a line")
        try:
            payload = self._parser.push(line)
        except InputError as exc:
            return self._fail(exc.code, exc.message)
        return "" if payload is None else self._payload(payload)

    def _fail(self, code: str, message: str, path: str | None = None) -> str:
        """End the stream with an error: the input at hand cannot be read."""
        if self._reader is not None:
            return self._events_out(self._reader.fail(code, message))
        self._events += 1
        error = {"code": code, "path": path or f"/{self._events - 1}", "message": message}
        return self._events_out([{"type": "error", "error": error}])

    def close(self) -> str:
        """The text the end of the input implies."""
        out = "".join(self._payload(p) for p in self._parser.close())
        if self.ended:
            return out
        if self._reader is not None:
            out += self._events_out(self._reader.finish())
        elif not self.failed:
            out += self._events_out(
                [
                    {
                        "type": "error",
                        "error": {
                            "code": "stream_truncated",
                            "path": f"/{self._events}",
                            "message": "the stream ended before the message was complete",
                        },
                    }
                ]
            )
        return out + self._done()

    def _done(self) -> str:
        if self.ended:
            return ""
        self.ended = True
        if self.target is not None and self.target.done is not None:
            return frame(self.target.framing, self.target.done)
        return ""

    def _payload(self, payload: str) -> str:
        if self.ended:
            return ""
        source = self.source
        if source is not None and source.done is not None and payload == source.done:
            assert self._reader is not None
            return self._events_out(self._reader.finish(marked=True)) + self._done()
        try:
            chunk = read_json(payload, max_bytes=self.max_bytes)
        except InputError as exc:
            return self._fail(exc.code, _message(exc))
        if self._fused is not None and type(chunk) is dict:
            assert self._reader is not None and self._writer is not None
            text = self._fused(self._reader, self._writer, chunk)
            if text is not None:
                self.fused_chunks += 1
                return text
        self.general_chunks += 1
        if self._reader is None:
            problem = event_error(chunk, self._events)
            if problem is not None:
                return self._fail(problem["code"], problem["message"], problem["path"])
            self._events += 1
            return self._events_out([chunk])
        return self._events_out(self._reader.feed(chunk))

    def _events_out(self, events: list[Event]) -> str:
        out = []
        for event in events:
            if event["type"] == "error":
                self.failed = True
            if self._writer is None:
                out.append(dumps(event) + "\n")
                continue
            try:
                chunks = self._writer.feed(event)
            except ConversionError as exc:
                self.failed = True
                chunks = self._writer.feed({"type": "error", "error": exc.as_json()})
            assert self.target is not None
            field = self.target.event_field
            for chunk in chunks:
                name = chunk.get(field) if field and type(chunk) is dict else None
                out.append(frame(self.target.framing, dumps(chunk), name))
        text = "".join(out)
        if (self._writer is not None and self._writer.done) or any(
            e["type"] in ("message_complete", "error") for e in events
        ):
            text += self._done()
        return text


def translate_stream(
    lines: Iterable[str],
    source: str,
    target: str,
    *,
    source_endpoint: str | None = None,
    target_endpoint: str | None = None,
) -> Iterator[str]:
    """The text of ``lines`` (a raw stream in ``source``'s framing) translated to ``target``,
    as soon as each piece is known (the endpoints as `StreamTranslator` takes them)."""
    translator = StreamTranslator(
        source, target, source_endpoint=source_endpoint, target_endpoint=target_endpoint
    )
    return pieces(translator, lines)


class Feeds(Protocol):
    """What `pieces` drives: a translator, or one that wraps it (`streams.losses.LossNotes`)."""

    @property
    def ended(self) -> bool: ...

    def feed(self, line: str | bytes) -> str: ...

    def close(self) -> str: ...


def pieces(translator: Feeds, lines: Iterable[str]) -> Iterator[str]:
    """The text each of ``lines`` gives ``translator`` as soon as it is known, then what the
    end of the input gives. No line is taken after the stream has ended (its end marker, or an
    error): what follows would be ignored, and a source that never ends would hold the caller
    forever."""
    for line in lines:
        text = translator.feed(line)
        if text:
            yield text
        if translator.ended:
            break
    text = translator.close()
    if text:
        yield text
