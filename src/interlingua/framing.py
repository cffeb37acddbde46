"""How streamed chunks travel as text: server-sent events or newline-delimited JSON.

Parsing is incremental: a parser is fed one line at a time and hands back the payloads that
line completes, so a stream of any length is read in constant memory.
"""

from __future__ import annotations

import json
from typing import Any


class SseParser:
    """Server-sent events (the WHATWG event-stream format): the `data:` fields of one event
    (joined by newlines) are its payload; a blank line ends the event. `event:`, `id:`,
    `retry:` and comment lines are read and ignored, since every chunk names its own kind."""

    def __init__(self) -> None:
        self._data: list[str] = []

    def feed(self, line: str) -> list[str]:
        line = line.rstrip("\r\n")
        if not line:
            return self._dispatch()
        if line.startswith(":"):
            return []
        name, _, value = line.partition(":")
        if name == "data":
            self._data.append(value[1:] if value.startswith(" ") else value)
        return []

    def close(self) -> list[str]:
        """The payload of an event the input ended without a blank line after."""
        return self._dispatch()

    def _dispatch(self) -> list[str]:
        if not self._data:
            return []
        payload = "\n".join(self._data)
        self._data = []
        return [payload]


class NdjsonParser:
    """One payload per non-blank line."""

    def feed(self, line: str) -> list[str]:
        line = line.strip()
        return [line] if line else []

    def close(self) -> list[str]:
        return []


def parser(framing: str) -> SseParser | NdjsonParser:
    return SseParser() if framing == "sse" else NdjsonParser()


def dumps(chunk: Any) -> str:
    return json.dumps(chunk, ensure_ascii=False, separators=(",", ":"))


def frame(framing: str, payload: str, event: str | None = None) -> str:
    """One payload as the text that carries it."""
    if framing == "ndjson":
        return payload + "\n"
    head = f"event: {event}\n" if event else ""
    return f"{head}data: {payload}\n\n"
