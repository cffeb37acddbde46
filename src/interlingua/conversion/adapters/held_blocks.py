"""Wire blocks a stream holds until their end (a `block` rule with `json`).

Some blocks cannot be read when they open: an Anthropic server tool's block gets its input as
fragments of JSON text (`input_json_delta`), a compaction block its summary as text
(`compaction_delta`). The stream reader holds such a block by its wire key, gathers what the
following chunks add to it, and reads it whole, as a whole response's block, at its end (or
at the stop, for a block the stream never closed).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from interlingua.conversion import ConversionError
from interlingua.conversion.reading import InputError, read_json


@dataclass
class _Held:
    block: dict[str, Any]  # the wire block as it opened, with what `fill` added
    field: str  # the field its input fragments are the JSON text of
    text: str  # those fragments so far
    start: str  # the pointer of the chunk that opened it


class HeldBlocks:
    """The blocks held open, by wire key."""

    def __init__(self) -> None:
        self._held: dict[Any, _Held] = {}

    def __contains__(self, key: Any) -> bool:
        return key in self._held

    def open_keys(self) -> list[Any]:
        """The keys held, in the order their blocks opened."""
        return list(self._held)

    def hold(self, key: Any, value: Any, field: str, ptr: str, *, seen: bool) -> None:
        """Hold the block ``value`` opened at ``key`` (``seen``: a part of that key was
        already read); its input fragments are the JSON text of its ``field``."""
        if type(value) is not dict:
            raise ConversionError("wrong_type", ptr, "a content block is an object")
        if key in self._held or seen:
            raise ConversionError("stream_out_of_order", ptr, f"block {key!r} began twice")
        self._held[key] = _Held(dict(value), field, "", ptr)

    def add_input(self, key: Any, fragment: str) -> None:
        """A fragment of the JSON text of the held block's input."""
        self._held[key].text += fragment

    def fill(self, key: Any, field: str, text: str) -> None:
        """Text appended to field ``field`` of the held block."""
        block = self._held[key].block
        before = block.get(field)
        block[field] = (before if type(before) is str else "") + text

    def release(self, key: Any, ptr: str) -> tuple[dict[str, Any], str] | None:
        """The block held at ``key`` at its end (None: none is), its input parsed, with the
        pointer it opened at; no longer held."""
        held = self._held.pop(key, None)
        if held is None:
            return None
        block, field = held.block, held.field
        if held.text.strip():
            try:
                block[field] = read_json(held.text)
            except InputError as exc:
                raise ConversionError(
                    exc.code, ptr, f"the block's {field} is not JSON: {exc.message}"
                ) from None
        return block, held.start
