"""How streamed chunks travel as text: server-sent events or newline-delimited JSON.

Parsing is incremental: a parser is fed one line at a time and hands back the payloads that
line completes, so a stream of any length is read in constant memory. Memory has a bound too:
:func:`lines` never holds more than one line of at most ``limit`` bytes (a longer one is cut
there and refused), and an SSE event whose `data:` lines add up past the limit is refused.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, BinaryIO, Final

from interlingua.reading import DEFAULT_MAX_BYTES, InputError


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
        line = line.rstrip("\r\n")
        if not line:
            return self._dispatch()
        if line.startswith(":"):
            return []
        name, _, value = line.partition(":")
        if name == "data":
            self._size += len(value) + 1
            if self._size > self._max:
                self._data, self._size = [], 0
                raise InputError(
                    "input_too_large", f"an event's data is larger than {self._max} bytes"
                )
            self._data.append(value[1:] if value.startswith(" ") else value)
        return []

    def close(self) -> list[str]:
        """The payload of an event the input ended without a blank line after."""
        return self._dispatch()

    def _dispatch(self) -> list[str]:
        if not self._data:
            return []
        payload = "\n".join(self._data)
        self._data, self._size = [], 0
        return [payload]


class NdjsonParser:
    """One payload per non-blank line."""

    def feed(self, line: str) -> list[str]:
        line = line.strip()
        return [line] if line else []

    def close(self) -> list[str]:
        return []


def parser(framing: str, max_bytes: int = DEFAULT_MAX_BYTES) -> SseParser | NdjsonParser:
    return SseParser(max_bytes) if framing == "sse" else NdjsonParser()


# One encoder for every chunk: json.dumps with options builds a new one on each call.
_ENCODER: Final = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def dumps(chunk: Any) -> str:
    return _ENCODER.encode(chunk)


def frame(framing: str, payload: str, event: str | None = None) -> str:
    """One payload as the text that carries it."""
    if framing == "ndjson":
        return payload + "\n"
    head = f"event: {event}\n" if event else ""
    return f"{head}data: {payload}\n\n"
