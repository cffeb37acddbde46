"""Checks the fused pair converters (`interlingua.generated.pairs`) make on the way: what
`reading.check_value` asks of the input, asked of every value a pass takes (opaque values,
such as a tool's schema, by check_value itself). A body a pass converts is one the two-step
path's check takes; any other goes the two-step way. One copy for every generated pair.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Final

from interlingua.conversion.reading import DEFAULT_MAX_DEPTH, InputError, check_value

MISSING: Final[Any] = object()
"""What ``fields.get(key, MISSING)`` gives for a key the object does not hold: a pass that
reads a field and must also know whether it is there (a null is not an absence) asks the dict
once, where ``key in fields`` and then ``fields.get(key)`` asked it twice (a compiled lookup
of the parser's key strings is about 180 instructions)."""

# `str.isascii` called as a function: compiled, a method call without a mypyc primitive
# looks the method up on every call, and this is 2.5 times quicker (9 ns against 24).
_is_ascii: Final = str.isascii


def _python_clean(value: str) -> bool:
    """A string JSON carries: no lone surrogate (an ASCII string, the common answer, is
    told without looking at its characters)."""
    return _is_ascii(value) or _encodes(value)


def _encodes(value: str) -> bool:
    """Whether ``value`` encodes to UTF-8: the check where the C one was not built."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _python_word(value: str, marks: str, most: int) -> bool:
    """Whether ``value`` is 1 to ``most`` characters, each an ASCII letter or digit or one of
    ``marks``: what the regex ``[a-zA-Z0-9<marks>]{1,<most>}`` fullmatches, in half its
    instructions (a match builds its state and a match object; callgrind, compiled)."""
    if not 0 < len(value) <= most or not _is_ascii(value):
        return False
    for mark in marks:
        value = value.replace(mark, "")
    return not value or value.isalnum()


def _python_plain(value: Any, depth: int, limit: int) -> bool:
    """Whether ``value``, ``depth`` levels down, is plain JSON (exact dicts and lists, string
    keys, clean strings, finite floats, modest integers) nested within ``limit``."""
    kind = type(value)
    if kind is dict:
        if depth >= limit:
            return False
        fields: dict[Any, Any] = value
        for key, item in fields.items():
            if type(key) is not str:
                return False
            name: str = key
            if not _python_clean(name):
                return False
            if not _python_plain(item, depth + 1, limit):
                return False
        return True
    if kind is str:
        text: str = value
        return _python_clean(text)
    if kind is list:
        if depth >= limit:
            return False
        items: list[Any] = value
        for item in items:  # noqa: SIM110  (a loop, not all(): compiled, it makes no generator)
            if not _python_plain(item, depth + 1, limit):
                return False
        return True
    if kind is int:
        number: int = value
        return bool(number.bit_length() < 64)
    if kind is float:
        return math.isfinite(value)
    return value is None or kind is bool


def _python_add_loss(  # noqa: PLR0917 - the twin of a C function, whose arguments are positional
    losses: list[Any],
    kind: type[tuple[Any, ...]],
    pointer: str,
    code: str,
    reason: str,
    part_type: str | None,
) -> None:
    """``losses.append(kind(pointer, code, reason, part_type))`` for `Loss` (a named tuple):
    the tuple made as the named tuple's own ``__new__`` makes it, without calling that
    interpreted function (half the time, compiled: callgrind)."""
    losses.append(tuple.__new__(kind, (pointer, code, reason, part_type)))


_AddLoss = Callable[[list[Any], type[tuple[Any, ...]], str, str, str, "str | None"], None]


def _c_checks() -> tuple[
    Callable[[str], bool],
    Callable[[str, str, int], bool],
    Callable[[Any, int, int], bool],
    _AddLoss,
]:
    """Compiled, the checks run in C (conversion/_checks.c): the string check (encoding each
    string took an eighth of a short body's pass), the word rule (a `str.replace` a mark) and
    the walk of a carried value (a boxed call an item), and the loss record (a method lookup
    and an argument tuple a loss); callgrind, openai-chat → anthropic. The pure-Python wheel,
    or a checkout, has the Python twins, which answer the same."""
    try:
        from interlingua.conversion._checks import add_loss, clean, plain, word  # noqa: PLC0415
    except ImportError:
        return _python_clean, _python_word, _python_plain, _python_add_loss
    return clean, word, plain, add_loss


# Final: compiled, constants of the module (a plain name is a dict lookup at each call).
_CHECKS: Final = _c_checks()
clean: Final = _CHECKS[0]
"""`clean(value)`: a string JSON carries, no lone surrogate (an ASCII string, the common
answer, told without looking at its characters)."""
word: Final = _CHECKS[1]
"""`word(value, marks, most)`: whether ``value`` is 1 to ``most`` characters, each an ASCII
letter or digit or one of ``marks`` (what the regex ``[a-zA-Z0-9<marks>]{1,<most>}``
fullmatches)."""
_plain: Final = _CHECKS[2]
add_loss: Final = _CHECKS[3]
"""`add_loss(losses, kind, pointer, code, reason, part_type)`: append the loss
``kind(pointer, code, reason, part_type)`` (`kind` is `Loss`) to ``losses``."""


def scalar(value: Any) -> bool:
    """A JSON scalar `check_value` takes (a string, finite number, modest integer, boolean)."""
    kind = type(value)
    if kind is str:
        return clean(value)
    if kind is float:
        return math.isfinite(value)
    if kind is int:
        return bool(value.bit_length() < 64)
    return kind is bool


def opaque(value: Any, depth: int) -> bool:
    """Whether `check_value` takes a value the pass carries without reading (a tool's
    schema), found ``depth`` levels down in the body: a walk that answers yes only for plain
    JSON (exact dicts and lists, string keys, clean strings, finite floats, modest integers),
    so that a yes is always check_value's yes; anything else asks check_value itself."""
    if _plain(value, depth, DEFAULT_MAX_DEPTH):
        return True
    try:
        check_value(value, max_depth=DEFAULT_MAX_DEPTH - depth)
    except InputError:
        return False
    return True
