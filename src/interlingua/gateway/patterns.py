"""Regular expressions from upstream schemas, matched in linear time by RE2.

An upstream tool schema is untrusted, and so are the ``pattern`` and ``patternProperties``
regexes in it. Python's ``re`` backtracks: ``^(a+)+$`` against 30 ``a`` and a ``b`` runs for
minutes. Every such pattern is compiled by RE2 instead (google-re2), whose automaton matches in
time linear in the text; a pattern RE2 cannot run (lookaround, backreferences, ``\\Z``, a
repetition above 1000) is refused, never handed to a backtracking engine.

Text is matched as UTF-8; a lone surrogate, which UTF-8 cannot carry, is matched as the three
bytes ``surrogatepass`` gives it, which RE2 reads as one character of no Unicode class (never
a crash). A pattern holding a lone surrogate is refused.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import lru_cache
from typing import Any, Final

import re2  # type: ignore[import-untyped]  # google-re2 ships no stubs

from interlingua.generated.models import SchemaTrustReason

#: Keywords whose value is one subschema, a list of subschemas, or a map of them (2020-12, and
#: draft-07's ``definitions`` and array ``items``).
ONE_SCHEMA: Final = (
    "additionalProperties",
    "items",
    "additionalItems",
    "contains",
    "propertyNames",
    "not",
    "if",
    "then",
    "else",
    "unevaluatedItems",
    "unevaluatedProperties",
)
SCHEMA_LISTS: Final = ("allOf", "anyOf", "oneOf", "prefixItems", "items")
SCHEMA_MAPS: Final = (
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
)


class PatternRefused(Exception):
    """A pattern the gateway will not run, with the SchemaTrustReason to report."""

    def __init__(self, reason: SchemaTrustReason, message: str) -> None:
        super().__init__(message)
        self.reason: SchemaTrustReason = reason
        self.message = message


def _options() -> Any:
    options = re2.Options()
    options.log_errors = False  # a refused pattern is reported by code, not logged to stderr
    return options


_OPTIONS: Final = _options()


@lru_cache(maxsize=512)
def compile_linear(pattern: str) -> Any:
    """``pattern`` compiled by RE2, or PatternRefused(``pattern_unsupported``)."""
    try:
        return re2.compile(pattern.encode("utf-8"), _OPTIONS)
    except (re2.error, UnicodeEncodeError) as exc:
        detail = exc.args[0] if isinstance(exc, re2.error) and exc.args else "not UTF-8"
        if isinstance(detail, bytes):
            detail = detail.decode("utf-8", "replace")
        raise PatternRefused(
            "pattern_unsupported",
            f"the pattern {pattern[:60]!r} cannot run in linear time (RE2: {detail})",
        ) from None


def search(pattern: str, text: str) -> bool:
    """Whether ``pattern`` matches somewhere in ``text`` (JSON Schema's unanchored match)."""
    return compile_linear(pattern).search(text.encode("utf-8", "surrogatepass")) is not None


def subschemas(schema: Any) -> Iterator[Mapping[str, Any]]:
    """Every object subschema of ``schema``, reached through schema keywords only (so data
    under ``const``, ``enum`` or ``default`` is never mistaken for a schema). Iterative."""
    stack: list[Any] = [schema]
    while stack:
        node = stack.pop()
        if not isinstance(node, Mapping):
            continue
        yield node
        stack.extend(node[k] for k in ONE_SCHEMA if k in node)
        for key in SCHEMA_LISTS:
            if isinstance(node.get(key), list):
                stack.extend(node[key])
        for key in SCHEMA_MAPS:
            if isinstance(node.get(key), Mapping):
                stack.extend(node[key].values())


def schema_patterns(schema: Any) -> Iterator[str]:
    """Every regex of ``schema``: ``pattern`` values and ``patternProperties`` keys."""
    for node in subschemas(schema):
        if isinstance(node.get("pattern"), str):
            yield node["pattern"]
        if isinstance(node.get("patternProperties"), Mapping):
            yield from (k for k in node["patternProperties"] if isinstance(k, str))


__all__ = [
    "PatternRefused",
    "compile_linear",
    "schema_patterns",
    "search",
    "subschemas",
]
