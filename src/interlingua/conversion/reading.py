"""Read untrusted bytes as JSON, refusing what parsers disagree on.

Everything refused gets a stable code and, where it can be located, a JSON pointer:
malformed or truncated JSON, invalid UTF-8 and lone surrogates, duplicate keys (parsers
disagree on which value wins), NaN and infinities (not JSON), numbers no reader carries
exactly (an integer of more than 4,300 digits, a literal such as ``1e999`` that would read as
infinity), nesting past a limit, and input past a byte limit (checked before anything is
parsed, so a huge input costs nothing).

:func:`check_value` holds a Python value (a caller's document, never parsed here) to the same
rules, so an API call on hostile objects gets the same codes as a file would.
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections.abc import Callable
from json.scanner import make_scanner
from typing import Any, Final, cast

import msgspec

DEFAULT_MAX_BYTES: Final = 32 * 1024 * 1024
DEFAULT_MAX_DEPTH: Final = 256
# The first reader of every text: msgspec's JSON decoder (the quickest C reader here, a body
# and a tool call's short arguments alike), strict where the rules are (see `read_json`).
_loads: Final = msgspec.json.Decoder().decode
# What it raises for a text it does not read: malformed or invalid UTF-8 (DecodeError), a
# number out of its range (ValidationError, a DecodeError), a str holding a lone surrogate
# (UnicodeEncodeError, as it encodes the str), nesting past its own limit (RecursionError).
_REFUSED: Final = (msgspec.DecodeError, UnicodeEncodeError, RecursionError)

# A lone surrogate can only enter through a \uD800-\uDFFF escape (raw UTF-8 cannot encode one),
# or, in text handed over as a Python string, as itself.
_SURROGATE_ESCAPE: Final = re.compile(r"\\u[dD][89abcdefABCDEF]")
# chr(), not a literal: mypyc cannot compile a lone surrogate in a string literal.
_SURROGATE: Final = re.compile(f"[{chr(0xD800)}-{chr(0xDFFF)}]")


class InputError(Exception):
    """The input could not be read as a JSON document."""

    def __init__(self, code: str, message: str, path: str = "") -> None:
        super().__init__(message)
        self.code = code
        self.path = path
        self.message = message

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "path": self.path, "message": self.message}


_INFINITIES: Final = (math.inf, -math.inf)


class _Marker:
    """Stands in for a refused value during a second, locating parse."""

    def __init__(self, what: str, key: str | None = None) -> None:
        self.what = what
        self.key = key


class _DuplicateKey(Exception):
    pass


class _NonFinite(Exception):
    pass


def _digits_limit() -> int:
    """The most digits an integer literal may have (Python refuses to convert more)."""
    limit = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else 0
    return limit or 4_300


def _marking_int(text: str) -> Any:
    if len(text.lstrip("-")) > _digits_limit():
        return _Marker("a long integer")
    return 0


def _safe_int(text: str) -> Any:
    """An integer literal in a locating parse, where its value does not matter."""
    return 0


def _esc(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def _strict_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        raise _DuplicateKey
    return result


def _refuse_constant(name: str) -> Any:
    raise _NonFinite(name)


class _Overflow(Exception):
    """A number literal past the largest double (it would read as infinity)."""


def _finite_float(text: str) -> float:
    number = float(text)
    if number in _INFINITIES:
        raise _Overflow
    return number


# One decoder for every read (``json.loads`` with hooks builds a new one per call).
_DECODER: Final = json.JSONDecoder(
    object_pairs_hook=_strict_object, parse_constant=_refuse_constant
)
# The first try: the same, and a float that overflows stops it (then `_read_located` reads the
# text again and says where). A document without one then needs no scan for huge numbers.
# (typeshed types the scanner's argument as a scanner; it is the decoder it reads hooks from)
_SCAN: Final = make_scanner(
    cast(
        Any,
        json.JSONDecoder(
            object_pairs_hook=_strict_object,
            parse_constant=_refuse_constant,
            parse_float=_finite_float,
        ),
    )
)
_JSON_SPACE: Final = " \t\n\r"  # whitespace as JSON has it
_SPACE_OR_EMPTY: Final = frozenset(["", *_JSON_SPACE])  # what `text[:1]` is when space opens it


def _marking_object(pairs: list[tuple[str, Any]]) -> Any:
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            return _Marker(f"duplicate key {key!r}", key)
        seen.add(key)
    return dict(pairs)


def _locate(text: str, **hooks: Any) -> str:
    """Parse again with hooks that leave markers, and return the pointer of the first marker."""
    hooks = {"parse_int": _safe_int, "parse_constant": _safe_int, **hooks}
    try:
        parsed = json.loads(text, **hooks)
    except ValueError:  # the text is broken further on, too: the whole of it is the place
        return ""
    found = _find(parsed, lambda v: isinstance(v, _Marker))
    if found is None:
        return ""
    pointer, marker = found
    return pointer if marker.key is None else f"{pointer}/{_esc(marker.key)}"


def _find(root: Any, predicate: Any) -> tuple[str, Any] | None:
    """First value (depth-first, document order) matching predicate, with its pointer."""
    stack: list[tuple[str, Any]] = [("", root)]
    while stack:
        pointer, value = stack.pop()
        if predicate(value):
            return pointer, value
        if isinstance(value, dict):
            stack.extend((f"{pointer}/{_esc(k)}", v) for k, v in reversed(value.items()))
            keys = [k for k in value if predicate(k)]
            if keys:
                return f"{pointer}/{_esc(keys[0])}", keys[0]
        elif isinstance(value, list):
            # Indices counted down rather than reversed(enumerate(...)): mypyc cannot compile it.
            stack.extend((f"{pointer}/{i}", value[i]) for i in range(len(value) - 1, -1, -1))
    return None


def _depth_exceeding(root: Any, limit: int) -> tuple[str, str] | None:
    """The first container nested past ``limit``, or the first float that overflowed to
    infinity (a literal past the largest double): its code and pointer. Pointers are built
    only for what is found (a trail of (parent, key) pairs), so a clean document costs one
    pass over its containers."""
    kind = type(root)
    if kind is float and root in _INFINITIES:
        return "number_out_of_range", ""
    if kind is not dict and kind is not list:
        return None
    stack: list[tuple[Any, int, tuple[Any, ...]]] = [(root, 0, ())]
    while stack:
        value, depth, trail = stack.pop()
        if depth >= limit:
            return "nesting_too_deep", _pointer(trail)
        for key, item in value.items() if type(value) is dict else enumerate(value):
            kind = type(item)
            if kind is dict or kind is list:
                stack.append((item, depth + 1, (trail, key)))
            elif kind is float and item in _INFINITIES:
                return "number_out_of_range", _pointer((trail, key))
    return None


#: What a number literal past the largest double needs: an exponent, or over 308 digits.
_HUGE_NUMBER: Final = re.compile(r"[0-9][eE]|[0-9]{309}")


def _may_exceed(text: str, limit: int) -> bool:
    """Whether the document ``text`` parsed into may nest ``limit`` deep or hold a float that
    overflowed: scans of the text at C speed, so most documents (a stream chunk above all)
    skip the walk over their containers. A container ``limit`` deep needs more than ``limit``
    opening brackets; a false alarm (brackets or ``1e`` in a string) only costs the walk."""
    brackets = text.count("{") + text.count("[")
    return brackets > limit or _HUGE_NUMBER.search(text) is not None


def _has_lone_surrogate(value: Any) -> bool:
    if not isinstance(value, str):
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def read_json(
    data: bytes | str, *, max_bytes: int = DEFAULT_MAX_BYTES, max_depth: int = DEFAULT_MAX_DEPTH
) -> Any:
    """Parse ``data`` as one JSON document, or raise :class:`InputError` with a code.

    msgspec reads it first, and its value stands when nothing shows that a rule msgspec
    does not keep was broken (`_undoubted`); any other text, or one msgspec refuses, is read
    again by `read_with_hooks`, which gives every refusal its code and pointer. msgspec
    refuses what the rules refuse of text (invalid UTF-8, a lone surrogate raw or escaped,
    NaN, a literal past the largest double, trailing text, a byte order mark, which the
    second reading drops); it takes a repeated key (the last wins), reads an integer of up to
    4,300 digits whatever Python's own limit, and nests deeper than the limit, which
    `_undoubted` looks for."""
    size = len(data)
    if size > max_bytes:
        raise InputError("input_too_large", f"input is {size} bytes; the limit is {max_bytes}")
    try:
        value = _loads(data)
    except _REFUSED:
        return read_with_hooks(data, max_depth)
    if _undoubted_check(value, data, max_depth):
        return value
    return read_with_hooks(data, max_depth)


def read_with_hooks(data: bytes | str, max_depth: int = DEFAULT_MAX_DEPTH) -> Any:
    """`read_json` by the standard library's scanner, with a hook for each rule it does not
    keep itself: slower, and the reading that says what was refused and where."""
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(
                "invalid_unicode",
                f"not UTF-8: byte {exc.start} is {data[exc.start : exc.start + 1]!r}",
            ) from None
    else:
        text = data
        if not text.isascii() and _SURROGATE.search(text):
            raise InputError("invalid_unicode", "the text holds a lone UTF-16 surrogate")
    text = text.removeprefix("\ufeff")
    # The decoder's scanner called straight (what `JSONDecoder.decode` does around it, less
    # two calls a read: a stream reads a document a chunk). Anything refused, trailing text
    # included, is read again by `_read_located`, which says how and where.
    # (lstrip copies the text: only asked when the text opens with space)
    start = len(text) - len(text.lstrip(_JSON_SPACE)) if text[:1] in _SPACE_OR_EMPTY else 0
    try:
        value, end = _SCAN(text, start)
    except (StopIteration, ValueError, RecursionError, _DuplicateKey, _NonFinite, _Overflow):
        return _read_located(text, max_depth)
    if end != len(text) and text[end:].strip(_JSON_SPACE):
        return _read_located(text, max_depth)
    # No float overflowed (the scanner would have stopped): only nesting can be past a limit,
    # which takes more opening brackets than the limit, so more characters (a short text, a
    # tool call's arguments say, is not counted); a lone surrogate takes a `\u` escape.
    deep = end > max_depth and text.count("{") + text.count("[") > max_depth
    if deep or ("\\u" in text and _SURROGATE_ESCAPE.search(text)):
        return _checked(value, text, max_depth, deep)
    return value


# The integers a 64-bit reader holds: one outside is read again by the hooked reading, which
# applies Python's own limit on an integer literal's digits (sys.set_int_max_str_digits).
_LEAST_INT: Final = -(2**63)
_INT_END: Final = 2**64


def _undoubted(value: Any, data: bytes | str, max_depth: int) -> bool:
    """Whether ``value``, which msgspec read from ``data``, is what `read_with_hooks` reads.

    Unless a quote is escaped as ``\\u0022``, every quote in the text opens or closes a key
    or string, or is escaped (``\\"``) inside one, so when the text has as many quotes as the
    value's keys and strings account for, no key was given twice (a repeated key, and the
    strings of the value it replaced, would be missing from the value). Where the text has
    no escaped backslash, every ``\\"`` is a quote inside a string; otherwise the value's
    strings are searched for their quotes. `_strings` also says no when the value nests as
    deep as the limit, or holds an integer past 64 bits."""
    if type(data) is bytes:
        raw: bytes = data
        quotes = raw.count(b'"')
        if b"\\" not in raw:
            return _strings(value, 0, max_depth - 1) * 2 == quotes
        if b"\\u0022" in raw:
            return False
        if b"\\\\" not in raw:
            return _strings(value, 0, max_depth - 1) * 2 + raw.count(b'\\"') == quotes
        return _quotes(value, 0, max_depth - 1) == quotes
    text: str = cast(str, data)
    quotes = text.count('"')
    if "\\" not in text:
        return _strings(value, 0, max_depth - 1) * 2 == quotes
    if "\\u0022" in text:
        return False
    if "\\\\" not in text:
        return _strings(value, 0, max_depth - 1) * 2 + text.count('\\"') == quotes
    return _quotes(value, 0, max_depth - 1) == quotes


def _c_undoubted() -> Callable[[Any, bytes | str, int], bool]:
    """Compiled, `_undoubted` runs in C (conversion/_checks.c: the counts of the text in one
    loop and the walk of the value without a boxed call an item); a tool call's arguments
    are read this way on each call. The pure-Python wheel, or a checkout, has `_undoubted`."""
    try:
        from interlingua.conversion._checks import undoubted  # noqa: PLC0415
    except ImportError:
        return _undoubted
    return undoubted


# Final: compiled, a constant of the module (a plain name is a dict lookup at each call).
_undoubted_check: Final = _c_undoubted()


def _strings(value: Any, depth: int, limit: int) -> int:
    """How many keys and strings ``value`` holds; -1 for a value nested ``limit`` deep, or
    holding an integer past 64 bits. (Only containers and integers are called for: a call
    per string would cost more than the count. Objects and lists have a loop each: compiled,
    a typed loop is the quick one.)"""
    kind = type(value)
    if kind is str:
        return 1
    if kind is dict:
        if depth >= limit:
            return -1
        fields: dict[str, Any] = value
        count = len(fields)
        for item in fields.values():
            kind = type(item)
            if kind is str:
                count += 1
            elif kind is dict or kind is list or kind is int:
                found = _strings(item, depth + 1, limit)
                if found < 0:
                    return -1
                count += found
        return count
    if kind is list:
        if depth >= limit:
            return -1
        items: list[Any] = value
        count = 0
        for item in items:
            kind = type(item)
            if kind is str:
                count += 1
            elif kind is dict or kind is list or kind is int:
                found = _strings(item, depth + 1, limit)
                if found < 0:
                    return -1
                count += found
        return count
    if kind is int and not _LEAST_INT <= value < _INT_END:
        return -1
    return 0


def _quotes(value: Any, depth: int, limit: int) -> int:
    """How many quotes the JSON text of ``value`` holds, no quote written ``\\u0022``: two
    for each key and string, and one for each quote in them; -1 as `_strings` gives it."""
    kind = type(value)
    if kind is dict:
        if depth >= limit:
            return -1
        fields: dict[str, Any] = value
        count = 2 * len(fields)
        for key, item in fields.items():
            count += key.count('"')
            found = _quotes(item, depth + 1, limit)
            if found < 0:
                return -1
            count += found
        return count
    if kind is list:
        if depth >= limit:
            return -1
        count = 0
        items: list[Any] = value
        for item in items:
            found = _quotes(item, depth + 1, limit)
            if found < 0:
                return -1
            count += found
        return count
    if kind is str:
        text: str = value
        return 2 + text.count('"')
    if kind is int and not _LEAST_INT <= value < _INT_END:
        return -1
    return 0


def _read_located(text: str, max_depth: int) -> Any:
    """``text`` read as `read_json` reads it, each refusal with its code and pointer: the
    path of a document the first try refused."""
    try:
        value = _DECODER.decode(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            "invalid_json", f"{exc.msg} at line {exc.lineno}, column {exc.colno}"
        ) from None
    except ValueError:  # an integer literal with more digits than Python converts
        pointer = _locate(text, parse_int=_marking_int)
        raise InputError(
            "number_out_of_range",
            f"an integer has more than {_digits_limit()} digits; no reader carries it exactly",
            pointer,
        ) from None
    except RecursionError:
        raise InputError(
            "nesting_too_deep", f"nesting is deeper than the limit of {max_depth}"
        ) from None
    except _DuplicateKey:
        pointer = _locate(text, object_pairs_hook=_marking_object)
        raise InputError("duplicate_key", "an object names the same key twice", pointer) from None
    except _NonFinite as exc:
        pointer = _locate(text, parse_constant=_Marker)
        raise InputError(
            "non_finite_number", f"{exc.args[0]} is not a JSON number", pointer
        ) from None
    return _checked(value, text, max_depth, _may_exceed(text, max_depth))


def _checked(value: Any, text: str, max_depth: int, may_exceed: bool) -> Any:
    """``value`` (parsed from ``text``) unless it nests past ``max_depth``, holds a float that
    overflowed (only looked for when ``may_exceed``) or a lone surrogate."""
    found_at = _depth_exceeding(value, max_depth) if may_exceed else None
    if found_at is not None:
        code, pointer = found_at
        message = (
            f"nesting is deeper than the limit of {max_depth}"
            if code == "nesting_too_deep"
            else "the number is past the largest double; it would read as infinity"
        )
        raise InputError(code, message, pointer)
    if _SURROGATE_ESCAPE.search(text):
        found = _find(value, _has_lone_surrogate)
        if found is not None:
            raise InputError("invalid_unicode", "string holds a lone UTF-16 surrogate", found[0])
    return value


def read_text(data: bytes | str, *, max_bytes: int = DEFAULT_MAX_BYTES) -> str:
    """``data`` as text (a text format's document), or raise :class:`InputError` with a code."""
    if len(data) > max_bytes:
        raise InputError("input_too_large", f"input is {len(data)} bytes; the limit is {max_bytes}")
    if isinstance(data, str):
        return data.removeprefix("\ufeff")
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        raise InputError(
            "invalid_unicode",
            f"not UTF-8: byte {exc.start} is {data[exc.start : exc.start + 1]!r}",
        ) from None


def looks_like_json(data: bytes) -> bool:
    """Whether ``data`` opens as a JSON document would (an object, array or string), so that
    JSON errors in it are reported as such rather than read as text."""
    head = data.lstrip()[:1]
    return head in (b"{", b"[", b'"') or not head


def check_value(value: Any, *, max_depth: int = DEFAULT_MAX_DEPTH) -> None:
    """Raise :class:`InputError` unless ``value`` is JSON data a reader could have produced:
    objects with string keys, lists, strings without lone surrogates, finite numbers (integers
    of at most 4,300 digits), booleans and null, nested at most ``max_depth`` deep. The walk is
    iterative, so no nesting makes it fail with anything but the coded error; pointers are
    built only for what is refused."""
    if not isinstance(value, dict | list):
        _check_scalar(value, ())
        return
    many_bits = _digits_limit() * 3  # fewer bits than this: too few for too many digits
    stack: list[tuple[Any, int, tuple[Any, ...]]] = [(value, 0, ())]
    while stack:
        node, depth, trail = stack.pop()
        if depth >= max_depth:
            raise InputError(
                "nesting_too_deep",
                f"nesting is deeper than the limit of {max_depth}",
                _pointer(trail),
            )
        is_object = isinstance(node, dict)
        for key, item in node.items() if is_object else enumerate(node):
            if is_object and (
                type(key) is not str or (not key.isascii() and _has_lone_surrogate(key))
            ):
                _check_key(key, trail)
            kind = type(item)
            if kind is str:
                if not item.isascii() and _has_lone_surrogate(item):
                    _check_scalar(item, (trail, key))
            elif kind is dict or kind is list:
                stack.append((item, depth + 1, (trail, key)))
            elif kind is int:
                if item.bit_length() >= many_bits:
                    _check_scalar(item, (trail, key))
            elif kind is float:
                if not math.isfinite(item):
                    _check_scalar(item, (trail, key))
            elif item is not None and kind is not bool:
                if isinstance(item, dict | list):  # a subclass: walked like its base
                    stack.append((item, depth + 1, (trail, key)))
                else:
                    _check_scalar(item, (trail, key))


def _check_key(key: Any, trail: tuple[Any, ...]) -> None:
    if not isinstance(key, str):
        raise InputError(
            "wrong_type", f"an object key is a {type(key).__name__}, not a string", _pointer(trail)
        )
    if not key.isascii() and _has_lone_surrogate(key):
        raise InputError("invalid_unicode", "a key holds a lone UTF-16 surrogate", _pointer(trail))


def _check_scalar(item: Any, trail: tuple[Any, ...]) -> None:
    """Raise the coded error of a value that is not a JSON scalar, or one JSON cannot carry."""
    if isinstance(item, str):
        if not item.isascii() and _has_lone_surrogate(item):
            raise InputError(
                "invalid_unicode", "string holds a lone UTF-16 surrogate", _pointer(trail)
            )
    elif item is None or isinstance(item, bool):
        return
    elif isinstance(item, int):
        if _too_many_digits(item):
            raise InputError(
                "number_out_of_range",
                f"an integer has more than {_digits_limit()} digits; no reader carries it exactly",
                _pointer(trail),
            )
    elif isinstance(item, float):
        if not math.isfinite(item):
            raise InputError("non_finite_number", f"{item!r} is not a JSON number", _pointer(trail))
    else:
        raise InputError("wrong_type", f"a {type(item).__name__} is not JSON data", _pointer(trail))


def _too_many_digits(number: int) -> bool:
    if number.bit_length() < _digits_limit() * 3:  # too few bits for that many digits
        return False
    try:
        str(number)
    except ValueError:
        return True
    return False


def _pointer(trail: tuple[Any, ...]) -> str:
    keys: list[str] = []
    while trail:
        trail, key = trail
        keys.append(_esc(str(key)))
    return "".join("/" + k for k in reversed(keys))
