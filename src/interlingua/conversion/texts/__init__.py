"""Text formats: documents that are text, not JSON, read into the JSON shape their wire schema
describes before the adapter runs, and written back from it after.

A mapping names its framing (``documents: {text: chatml}``); :data:`TEXTS` holds each framing's
``parse(text, kind)`` and ``render(document, kind)``. Both raise a coded
:class:`~interlingua.conversion.ConversionError` on what they cannot read or write.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from interlingua.conversion.texts import chatml


@dataclass(frozen=True)
class TextFraming:
    name: str
    parse: Callable[[str, str], Any]
    render: Callable[[Any, str], str]


TEXTS: Mapping[str, TextFraming] = {
    "chatml": TextFraming("chatml", chatml.parse, chatml.render),
}
