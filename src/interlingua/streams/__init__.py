"""Streamed responses: translated between formats through canonical stream events.

- :mod:`~interlingua.streams.engine`: ``read_stream``, ``write_stream``, ``reassemble``,
  ``StreamTranslator``, ``translate_stream`` (exported here too, imported on first use);
- :mod:`~interlingua.streams.framing`: server-sent events and NDJSON, read incrementally;
- :mod:`~interlingua.streams.accumulate`: canonical events folded into a Message.

Each format's chunk code is generated (``interlingua.generated.streams``) and runs on
``interlingua.conversion.adapters.stream_reader`` and ``stream_writer``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from interlingua._lazy import lazy_exports

if TYPE_CHECKING:
    from interlingua.streams.engine import (
        StreamTranslator,
        read_stream,
        reassemble,
        stream_formats,
        translate_stream,
        write_stream,
    )

_WHERE = {
    "StreamTranslator": "interlingua.streams.engine",
    "read_stream": "interlingua.streams.engine",
    "reassemble": "interlingua.streams.engine",
    "stream_formats": "interlingua.streams.engine",
    "translate_stream": "interlingua.streams.engine",
    "write_stream": "interlingua.streams.engine",
}

__getattr__, __dir__ = lazy_exports(__name__, _WHERE)

__all__ = [
    "StreamTranslator",
    "read_stream",
    "reassemble",
    "stream_formats",
    "translate_stream",
    "write_stream",
]
