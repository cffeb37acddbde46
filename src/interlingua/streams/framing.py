"""How streamed chunks travel as text: server-sent events or newline-delimited JSON.

Parsing is incremental: a parser is fed one line at a time and hands back the payloads that
line completes, so a stream of any length is read in constant memory. Memory has a bound too:
:func:`lines` never holds more than one line of at most ``limit`` bytes (a longer one is cut
there and refused), and an SSE event whose `data:` lines add up past the limit is refused.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from json.encoder import encode_basestring
from typing import Any, BinaryIO, Final

from interlingua.conversion.reading import DEFAULT_MAX_BYTES, InputError


def lines(raw: BinaryIO, limit: int = DEFAULT_MAX_BYTES) -> Iterator[bytes]:
    """The lines of ``raw`` as they arrive, each at most ``limit + 1`` bytes: a line longer
    than ``limit`` is handed over cut there (without its newline, so the reader refuses it);
    the rest of it is skipped only if the caller asks for more."""
    while True:
        data = raw.readline(limit + 1)
        if not data:
            return
        yield data
        while len(data) > limit and not data.endswith(b"\n"):
            data = raw.readline(limit + 1)


def too_long(line: str | bytes, limit: int) -> InputError | None:
    """The error of a line past ``limit`` bytes (characters, for text), else None."""
    if len(line) > limit:
        return InputError("input_too_large", f"a line is longer than {limit} bytes")
    return None


class SseParser:
    """Server-sent events (the WHATWG event-stream format): the `data:` fields of one event
    (joined by newlines) are its payload; a blank line ends the event. `event:`, `id:`,
    `retry:` and comment lines are read and ignored, since every chunk names its own kind."""

    def __init__(self, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        self._data: list[str] = []
        self._size = 0
        self._max = max_bytes

    def feed(self, line: str) -> list[str]:
        """The payloads ``line`` completes; :class:`InputError` when an event's data is
        larger than the limit."""
        payload = self.push(line)
        return [] if payload is None else [payload]

    def push(self, line: str) -> str | None:
        """The payload ``line`` completes (a line completes one at most), else None."""
        line = line.rstrip("\r\n")
        if not line:
            return self.close_event()
        # A field's name ends at the first colon (no colon: the line is the name): `data`,
        # or else an ignored field or a comment (a line starting with a colon).
        if line.startswith("data:"):
            value = line[5:]
        elif line == "data":
            value = ""
        else:
            return None
        self._size += len(value) + 1
        if self._size > self._max:
            self._data, self._size = [], 0
            raise InputError("input_too_large", f"an event's data is larger than {self._max} bytes")
        self._data.append(value[1:] if value.startswith(" ") else value)
        return None

    def close(self) -> list[str]:
        """The payload of an event the input ended without a blank line after."""
        payload = self.close_event()
        return [] if payload is None else [payload]

    def close_event(self) -> str | None:
        """The payload of the event at hand (its `data:` lines joined), if it has one."""
        data = self._data
        if not data:
            return None
        self._data, self._size = [], 0
        return data[0] if len(data) == 1 else "\n".join(data)


class NdjsonParser:
    """One payload per non-blank line."""

    def feed(self, line: str) -> list[str]:
        line = line.strip()
        return [line] if line else []

    def push(self, line: str) -> str | None:
        line = line.strip()
        return line or None

    def close(self) -> list[str]:
        return []


def parser(framing: str, max_bytes: int = DEFAULT_MAX_BYTES) -> SseParser | NdjsonParser:
    return SseParser(max_bytes) if framing == "sse" else NdjsonParser()


# One encoder for every chunk: json.dumps with options builds a new one on each call.
_ENCODER: Final = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def dumps(chunk: Any) -> str:
    return _ENCODER.encode(chunk)


def json_text(value: Any) -> str:
    """``dumps(value)``, a string's faster (the generated text writers encode each variable of
    a chunk with this; JSON text composes, so their chunks read as `dumps` writes them)."""
    kind = type(value)
    if kind is str:
        return encode_basestring(value)
    if kind is int:
        return int.__repr__(value)  # what the encoder writes of an int (not a bool)
    return _ENCODER.encode(value)


def frame(framing: str, payload: str, event: str | None = None) -> str:
    """One payload as the text that carries it."""
    if framing == "ndjson":
        return payload + "\n"
    head = f"event: {event}\n" if event else ""
    return f"{head}data: {payload}\n\n"
