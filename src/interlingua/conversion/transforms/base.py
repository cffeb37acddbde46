"""What a transform is, and the two signals the generated adapters exchange with it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Final


class _Absent:
    """The value of an optional variable that is not there (distinct from JSON null)."""

    _instance: ClassVar[_Absent | None] = None

    def __new__(cls) -> _Absent:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "ABSENT"

    def __bool__(self) -> bool:
        return False


ABSENT: Final = _Absent()


class Mismatch(Exception):
    """Raised by ``decode`` when a wire value is not of this variant's shape (a URL that is
    not a data URL, say), or by ``encode`` when a canonical value is not this variant's (the
    choice of a function, not of a free-form tool), so the adapter tries the next variant."""


@dataclass(frozen=True)
class Transform:
    """A reversible change of shape between canonical values and one wire value.

    ``encode(ctx, pointer, *canonical_values)`` returns the wire value, or ABSENT to leave the wire
    key out. ``decode(ctx, wire_value, pointer)`` returns the canonical values, one per
    argument in the mapping (a tuple when there are several); it raises :class:`Mismatch`
    when the value belongs to another variant and ``ConversionError`` when it is malformed.
    With ``literals``, decoding is given the call's literal arguments too, in order after the
    pointer (the wire keys a value goes under, say), as encoding always is. With ``fills``,
    encoding gives a value even when its variable is absent (what the format requires in its
    place, of the same meaning), so the wire always has the key: a wire value without it is
    not of this variant (an Anthropic server tool has no `input_schema`). With
    ``reads_absent``, decoding is given ABSENT when the wire has no value there (left out or
    null), for a format whose absence means something the canonical absence does not. With
    ``member_keys``, the transform reads members of the object around it, and its literal
    arguments name them all: as one member of a ``@merge``, it is given only those, and the
    object's other keys are reported unread as any template's are.
    """

    name: str
    arity: int
    encode: Callable[..., Any]
    decode: Callable[..., Any]
    doc: str
    literals: bool = False
    fills: bool = False
    reads_absent: bool = False
    member_keys: bool = False


def read_as_is(ctx: Any, wire: Any, at: str) -> Any:
    """The decoding of a transform that only shapes what is written: the wire value is read as
    it is."""
    return wire
