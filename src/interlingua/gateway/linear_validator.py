"""A draft 2020-12 validator whose regex keywords run on RE2 (linear time), for untrusted schemas.

python-jsonschema matches ``pattern`` and ``patternProperties`` with Python's backtracking
``re`` in four keywords: ``pattern``, ``patternProperties``, ``additionalProperties`` (which
properties the patterns already cover) and ``unevaluatedProperties`` (which properties any
adjacent keyword evaluated). :data:`LinearValidator` replaces exactly those four with versions
that match through :mod:`interlingua.gateway.patterns`; every other keyword is the library's.
A pattern RE2 cannot run raises :class:`~interlingua.gateway.patterns.PatternRefused` from
validation (ingest refuses the patterns it can find first; this catches one reached only
through a ``$ref`` into a non-schema location).

The replacements keep the library's behaviour, including its reading of
``unevaluatedProperties`` (a property counts as evaluated when ``properties`` names it, a
pattern matches it, or an ``additionalProperties`` / ``unevaluatedProperties`` subschema
accepts it, through ``$ref``, ``$dynamicRef``, ``dependentSchemas``, passing ``allOf`` /
``anyOf`` / ``oneOf`` branches and the taken ``if`` branch).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any, Final

from jsonschema import Draft202012Validator, FormatChecker
from jsonschema.exceptions import ValidationError
from jsonschema.validators import extend

from interlingua.gateway.patterns import PatternRefused, compile_linear, search

Keyword = Iterator[ValidationError]


def _listed(names: list[str], verb: tuple[str, str]) -> str:
    return f"{', '.join(repr(n) for n in names)} {verb[0] if len(names) == 1 else verb[1]}"


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Keyword:
    if validator.is_type(instance, "string") and not search(pattern, instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _pattern_properties(
    validator: Any, patterns: Mapping[str, Any], instance: Any, schema: Any
) -> Keyword:
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in patterns.items():
        for key, value in instance.items():
            if search(pattern, key):
                yield from validator.descend(value, subschema, path=key, schema_path=pattern)


def _uncovered(instance: Mapping[str, Any], schema: Mapping[str, Any]) -> list[str]:
    """Properties neither ``properties`` nor a ``patternProperties`` pattern covers."""
    named = schema.get("properties", {})
    patterns = list(schema.get("patternProperties", {}))
    return [
        key for key in instance if key not in named and not any(search(p, key) for p in patterns)
    ]


def _additional_properties(
    validator: Any, additional: Any, instance: Any, schema: Mapping[str, Any]
) -> Keyword:
    if not validator.is_type(instance, "object"):
        return
    extras = _uncovered(instance, schema)
    if validator.is_type(additional, "object"):
        for extra in extras:
            yield from validator.descend(instance[extra], additional, path=extra)
    elif not additional and extras:
        if "patternProperties" in schema:
            patterns = ", ".join(repr(p) for p in sorted(schema["patternProperties"]))
            listed = _listed(sorted(extras), ("does", "do"))
            yield ValidationError(f"{listed} not match any of the regexes: {patterns}")
        else:
            listed = _listed(extras, ("was", "were"))
            yield ValidationError(f"Additional properties are not allowed ({listed} unexpected)")


def _passes(validator: Any, instance: Any, schema: Any) -> bool:
    return next(validator.descend(instance, schema), None) is None


def _evaluated(validator: Any, instance: Mapping[str, Any], schema: Any) -> set[str]:
    """The properties of ``instance`` some keyword of ``schema`` evaluates."""
    if not isinstance(schema, Mapping):
        return set()
    found: set[str] = set()
    for keyword in ("$ref", "$dynamicRef"):
        if keyword in schema:
            resolved = validator._resolver.lookup(schema[keyword])
            target = validator.evolve(schema=resolved.contents, _resolver=resolved.resolver)
            found |= _evaluated(target, instance, resolved.contents)
    if validator.is_type(schema.get("properties"), "object"):
        found |= schema["properties"].keys() & instance.keys()
    for keyword in ("additionalProperties", "unevaluatedProperties"):
        if keyword in schema:
            found |= {k for k, v in instance.items() if _passes(validator, v, schema[keyword])}
    patterns = schema.get("patternProperties", {})
    found |= {k for k in instance if any(search(p, k) for p in patterns)}
    for name, subschema in schema.get("dependentSchemas", {}).items():
        if name in instance:
            found |= _evaluated(validator, instance, subschema)
    for keyword in ("allOf", "oneOf", "anyOf"):
        for subschema in schema.get(keyword, []):
            if _passes(validator, instance, subschema):
                found |= _evaluated(validator, instance, subschema)
    if "if" in schema:
        if validator.evolve(schema=schema["if"]).is_valid(instance):
            found |= _evaluated(validator, instance, schema["if"])
            found |= _evaluated(validator, instance, schema.get("then"))
        else:
            found |= _evaluated(validator, instance, schema.get("else"))
    return found


def _unevaluated_properties(
    validator: Any, unevaluated: Any, instance: Any, schema: Mapping[str, Any]
) -> Keyword:
    if not validator.is_type(instance, "object"):
        return
    evaluated = _evaluated(validator, instance, schema)
    failing = [
        key
        for key in instance
        if key not in evaluated
        and next(validator.descend(instance[key], unevaluated, path=key), None) is not None
    ]
    if failing and unevaluated is False:
        listed = _listed(sorted(failing), ("was", "were"))
        yield ValidationError(f"Unevaluated properties are not allowed ({listed} unexpected)")
    elif failing:
        listed = _listed(failing, ("was", "were"))
        yield ValidationError(
            "Unevaluated properties are not valid under the given schema "
            f"({listed} unevaluated and invalid)"
        )


LinearValidator: Final[Any] = extend(  # type: ignore[no-untyped-call]
    Draft202012Validator,
    validators={
        "pattern": _pattern,
        "patternProperties": _pattern_properties,
        "additionalProperties": _additional_properties,
        "unevaluatedProperties": _unevaluated_properties,
    },
)


def _is_regex(instance: object) -> bool:
    """The ``regex`` format for meta-validation: a pattern RE2 can compile. A pattern it
    cannot compile is still a regex here when Python's parser accepts it (its length is
    bounded first): meta-validation answers "is this a regex at all"; whether it can run is the
    separate ``pattern_unsupported`` check."""
    if not isinstance(instance, str):
        return True
    try:
        compile_linear(instance)
    except PatternRefused:
        try:  # Python's parser, only to parse: never to match
            re.compile(instance)
        except (re.error, RecursionError, OverflowError):
            return False
    return True


#: The 2020-12 format checker with ``regex`` checked as above (the library's compiles with
#: Python's ``re``, which raises RecursionError on deeply nested groups).
META_FORMATS: Final = FormatChecker(formats=Draft202012Validator.FORMAT_CHECKER.checkers)
META_FORMATS.checks("regex")(_is_regex)


__all__ = ["META_FORMATS", "LinearValidator"]
