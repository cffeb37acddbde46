"""Tolerant argument normalization (seed 002 §4.4): the fixed, opt-in repair rules, no others.

1. ``parse_stringified_object``: arguments that are a string holding a JSON object (after
   removing one leading BOM, then JSON whitespace at both ends) become that object. The
   string is read as strictly as any document (duplicate keys, NaN or lone surrogates leave
   it unrepaired).
2. Then, for each top-level property of the arguments, in code point order of the names,
   whose value is a string and whose schema in the input schema's ``properties`` has a
   ``type`` (a name or a list of names) that does not include ``string``, the first rule that
   applies, in this order:

   - ``str_to_integer``: ``integer`` is a type and the value is an exact integer literal
     (``-?(0|[1-9][0-9]*)``) → that integer;
   - ``str_to_number``: ``number`` is a type and the value is a finite JSON number literal
     → that number as a float;
   - ``str_to_boolean``: ``boolean`` is a type and the value is ``true`` or ``false``;
   - ``str_to_null``: ``null`` is a type and the value is ``null``.

No key is renamed, nothing is fuzzily matched, no unknown key is dropped, nested values are
not touched (the seed's rules speak of a field's schema type; only top-level fields have one
without resolving subschemas), and a property whose schema has no ``type`` (``$ref``,
``anyOf`` …) is left as it is. Every repair is recorded.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from typing import Any, Final

from interlingua.conversion.reading import InputError, read_json
from interlingua.generated.models import ArgRepair, ArgRepairRule

_INTEGER: Final = re.compile(r"-?(0|[1-9][0-9]*)")
_NUMBER: Final = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?")
_JSON_WHITESPACE: Final = " \t\n\r"
_MISSING: Final = object()


def _pointer_token(name: str) -> str:
    return name.replace("~", "~0").replace("/", "~1")


def _to_integer(value: str) -> object:
    if not _INTEGER.fullmatch(value):
        return _MISSING
    try:
        return int(value)
    except ValueError:  # more digits than Python converts (sys.int_info.str_digits_check_threshold)
        return _MISSING


def _to_number(value: str) -> object:
    if not _NUMBER.fullmatch(value):
        return _MISSING
    number = float(value)
    return number if math.isfinite(number) else _MISSING


def _to_boolean(value: str) -> object:
    return {"true": True, "false": False}.get(value, _MISSING)


def _to_null(value: str) -> object:
    return None if value == "null" else _MISSING


_FIELD_RULES: Final[tuple[tuple[ArgRepairRule, str, Callable[[str], object]], ...]] = (
    ("str_to_integer", "integer", _to_integer),
    ("str_to_number", "number", _to_number),
    ("str_to_boolean", "boolean", _to_boolean),
    ("str_to_null", "null", _to_null),
)


def _types(field_schema: object) -> frozenset[str]:
    if not isinstance(field_schema, Mapping):
        return frozenset()
    declared = field_schema.get("type")
    if isinstance(declared, str):
        return frozenset({declared})
    if isinstance(declared, list):
        return frozenset(t for t in declared if isinstance(t, str))
    return frozenset()


def _parse_stringified(args: str) -> object:
    text = args.removeprefix("\ufeff").strip(_JSON_WHITESPACE)
    if text.startswith("\ufeff"):  # one BOM is stripped, not two (read_json would drop it)
        return _MISSING
    try:
        value = read_json(text)
    except InputError:
        return _MISSING
    return value if isinstance(value, dict) else _MISSING


def normalize_arguments(
    args: object, input_schema: Mapping[str, Any]
) -> tuple[object, list[ArgRepair]]:
    """``args`` after the §4.4 repairs, and the repairs applied. ``args`` is not modified."""
    repairs: list[ArgRepair] = []
    if isinstance(args, str):
        parsed = _parse_stringified(args)
        if parsed is _MISSING:
            return args, repairs
        args = parsed
        repairs.append(ArgRepair(rule="parse_stringified_object", path=""))
    if not isinstance(args, dict):
        return args, repairs
    properties = input_schema.get("properties")
    if not isinstance(properties, Mapping):
        return args, repairs
    repaired = dict(args)
    for name in sorted(repaired):
        value = repaired[name]
        types = _types(properties.get(name))
        if not isinstance(value, str) or "string" in types:
            continue
        for rule, type_name, convert in _FIELD_RULES:
            if type_name in types and (new := convert(value)) is not _MISSING:
                repaired[name] = new
                repairs.append(
                    ArgRepair(rule=rule, path="/" + _pointer_token(name), original=value)
                )
                break
    return repaired, repairs
