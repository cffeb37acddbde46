"""The validator that locates an invalid body's errors: python-jsonschema, whose errors (each
failed union with the errors of its members) `check_wire` chooses the reported one from, walking
only the parts a compiled check (jsonschema-rs) refuses.

jsonschema-rs already has the last word on whether a body is valid (`check_wire` asks it first);
a part it accepts yields no error in python-jsonschema either, so passing over it changes no
error, and the walk goes from every message of a body to the ones at fault. A reference to a
definition is followed by a dict lookup rather than the registry's resolution.

A list, a map of like values (`additionalProperties`) and an object's keys (`propertyNames`)
are located at their first entry at fault, in document order: the walk stops there, so
locating costs as much as the valid entries before it (jsonschema-rs's work) and one bad entry,
however many follow. Without that rule a body bad in every message (the reading a format's
detection asks of another format's body) was walked message by message in Python: 9.3 s for
10,001 messages across the 34 schemas detection asks.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator
from typing import Any

import jsonschema_rs
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from jsonschema.validators import extend
from referencing import Registry

Accepts = Callable[[Any], bool]
Keyword = Callable[[Any, Any, Any, dict[str, Any]], Iterator[ValidationError]]
# python-jsonschema's own keywords, for what the compiled check does not answer.
_ITEMS: Keyword = Draft202012Validator.VALIDATORS["items"]
_PROPERTIES: Keyword = Draft202012Validator.VALIDATORS["properties"]
_ADDITIONAL: Keyword = Draft202012Validator.VALIDATORS["additionalProperties"]
_REF: Keyword = Draft202012Validator.VALIDATORS["$ref"]


def locating_validator(schema: dict[str, Any], registry: Registry[Any]) -> Any:
    """A python-jsonschema validator of ``schema`` (one resource, its references local) that
    descends only into the array items and the objects' members (lists and objects: a
    scalar's own check is as quick) that the compiled check of their schema refuses, and of a
    list or map into the first of them only."""
    walk = _Walk(schema)
    keywords = {
        "items": walk.items,
        "properties": walk.properties,
        "additionalProperties": walk.additional_properties,
        "propertyNames": walk.property_names,
        "$ref": walk.reference,
    }
    locating = extend(Draft202012Validator, keywords)  # type: ignore[no-untyped-call]
    return locating(schema, registry=registry)


class _Walk:
    """The keywords `locating_validator` gives python-jsonschema in place of its own."""

    def __init__(self, schema: dict[str, Any]) -> None:
        self.schema = schema
        self.compiled: dict[int, tuple[Any, Accepts | None]] = {}  # by the schema's identity
        self.prunes = _self_contained(schema)
        # Each definition by its reference, where the schema is one resource: a dict lookup
        # where the registry's resolution took a fifth to a half of the walk. (A name a
        # pointer would escape is left to the registry.)
        found = schema.get("$defs", {}) if self.prunes else {}
        self.definitions: dict[str, Any] = {
            f"#/$defs/{name}": part
            for name, part in found.items()
            if not any(mark in name for mark in "/~%")
        }

    def accepts(self, part: Any) -> Accepts | None:
        """jsonschema-rs's yes/no of a part of the schema, built once (None: not asked)."""
        if not self.prunes or type(part) is not dict:
            return None
        found = self.compiled.get(id(part))
        if found is None:
            found = self.compiled[id(part)] = (part, _compiled(part, self.schema))
        return found[1]

    def items(
        self, validator: Any, items: Any, instance: Any, schema: dict[str, Any]
    ) -> Iterator[ValidationError]:
        if type(instance) is not list or items is False:  # (False: one error names them all)
            yield from _ITEMS(validator, items, instance, schema)
            return
        check = self.accepts(items)
        for index in range(len(schema.get("prefixItems", ())), len(instance)):
            item = instance[index]
            if check is not None and check(item):
                continue
            if (yield from _first(validator.descend(item, items, path=index))):
                return

    def properties(
        self, validator: Any, properties: Any, instance: Any, schema: dict[str, Any]
    ) -> Iterator[ValidationError]:
        if type(instance) is not dict:
            yield from _PROPERTIES(validator, properties, instance, schema)
            return
        for name, subschema in properties.items():
            if name not in instance:
                continue
            value = instance[name]
            if type(value) is dict or type(value) is list:
                check = self.accepts(subschema)
                if check is not None and check(value):
                    continue
            yield from validator.descend(value, subschema, path=name, schema_path=name)

    def additional_properties(
        self, validator: Any, extra: Any, instance: Any, schema: dict[str, Any]
    ) -> Iterator[ValidationError]:
        # (`false` gives one error naming every extra key; a pattern's keys are left to it)
        if type(instance) is not dict or type(extra) is not dict or "patternProperties" in schema:
            yield from _ADDITIONAL(validator, extra, instance, schema)
            return
        check = self.accepts(extra)
        declared = schema.get("properties", {})
        for name, value in instance.items():
            if name in declared or (check is not None and check(value)):
                continue
            if (yield from _first(validator.descend(value, extra, path=name))):
                return

    def property_names(
        self, validator: Any, names: Any, instance: Any, schema: dict[str, Any]
    ) -> Iterator[ValidationError]:
        if type(instance) is not dict:
            return
        check = self.accepts(names)
        for name in instance:
            if check is not None and check(name):
                continue
            if (yield from _first(validator.descend(name, names))):
                return

    def reference(
        self, validator: Any, reference: Any, instance: Any, schema: dict[str, Any]
    ) -> Iterator[ValidationError]:
        target = self.definitions.get(reference) if type(reference) is str else None
        if target is None:
            yield from _REF(validator, reference, instance, schema)
            return
        # (the resolver stays the walk's: the definition is in the same resource)
        yield from validator.descend(instance, target, resolver=validator._resolver)


def _first(errors: Iterator[ValidationError]) -> Generator[ValidationError, None, bool]:
    """Yield an entry's errors; whether there was one (the walk of its list then stops)."""
    found = False
    for error in errors:
        found = True
        yield error
    return found


def _self_contained(schema: Any, top: bool = True) -> bool:
    """Whether ``schema`` is one resource whose every `$ref` names one of its definitions
    (`#/$defs/…`): no `$id` below the top, no `$dynamicRef`. Its definitions then mean the
    same beside any part of it they are copied next to, and a reference is a lookup."""
    if type(schema) is list:
        return all(_self_contained(item, False) for item in schema)
    if type(schema) is not dict:
        return True
    reference = schema.get("$ref", "#/$defs/")
    if type(reference) is not str or not reference.startswith("#/$defs/"):
        return False
    if "$dynamicRef" in schema or (not top and "$id" in schema):
        return False
    return all(_self_contained(item, False) for item in schema.values())


def _compiled(part: dict[str, Any], root: dict[str, Any]) -> Accepts | None:
    """jsonschema-rs's yes/no of ``part``; None where the root's definitions beside it would
    not mean the same (a schema with definitions or an identity of its own)."""
    if "$defs" in part or "$id" in part:
        return None
    is_valid: Accepts = jsonschema_rs.validator_for(with_definitions(part, root)).is_valid
    return is_valid


def with_definitions(schema: dict[str, Any], root: Any) -> dict[str, Any]:
    """A schema found in ``root`` made whole on its own: the root's definitions and dialect
    beside it, so that its local references (`#/$defs/…`) resolve as they did in the root."""
    if schema is root or type(root) is not dict or "$defs" not in root:
        return schema
    whole = {**schema, "$defs": root["$defs"]}
    if "$schema" in root:
        whole["$schema"] = root["$schema"]
    return whole
