"""Every value of every example, broken on purpose: the generated validator agrees with jsonschema-rs.

For each node of each example document, a handful of mutations (wrong type, removal, an
unexpected key, an empty string, a negative number, an unknown tag) each make a new document.
For every one: the fast path agrees with the detailed path, every finding has a code and a
pointer that reaches into the document, and the structural verdict equals jsonschema's.
This walks nearly every branch the generator emits, so the templates are tested through it.
"""

import copy
import json
from collections.abc import Iterator
from functools import cache
from typing import Any

import jsonschema_rs
import pytest

import interlingua
from generator.examples import iter_examples
from generator.paths import ROOT
from interlingua.generated.codes import INVARIANT_CODES as SEMANTIC
from interlingua.generated.codes import SEVERITY
from interlingua.generated.validators import VALIDATORS
from tests.mutants import REMOVED, replaced

BUNDLE = json.loads((ROOT / "generated/schemas/interlingua-v1.json").read_text())


@cache
def reference(type_name: str) -> Any:
    """jsonschema-rs: an independent implementation, and fast enough for thousands of mutants.

    (The Python `jsonschema` judges the examples themselves in test_examples.py.)
    """
    return jsonschema_rs.validator_for({**BUNDLE, "oneOf": [{"$ref": f"#/$defs/{type_name}"}]})


def nodes(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    yield path, value
    if isinstance(value, dict):
        for key, sub in value.items():
            yield from nodes(sub, (*path, key))
    elif isinstance(value, list):
        for index, sub in enumerate(value):
            yield from nodes(sub, (*path, index))


def replacements(value: Any) -> list[Any]:
    """Values that break a node in as many different ways as its type allows."""
    if isinstance(value, bool):
        return ["true"]
    if isinstance(value, int | float):
        return [-1, 1.5, "1", 10**12]
    if isinstance(value, str):
        return [7, "", value + "~/ unexpected"]
    if isinstance(value, list):
        return [{}, [*value, *value[:1]] if value else [None]]
    if isinstance(value, dict):
        return [
            [],
            {**value, "unexpected": True},
            {k: v for k, v in value.items() if k != "type"} | {"type": "bogus"},
        ]
    return [0]


def mutants(document: Any, depth: int = 5) -> Iterator[Any]:
    """Documents that differ from ``document`` in one node at most ``depth`` levels down."""
    for path, value in list(nodes(document)):
        if len(path) > depth:
            continue
        for replacement in [*replacements(value), None]:
            yield replaced(document, path, replacement)
        if path and isinstance(path[-1], str):
            yield replaced(document, path, REMOVED)


def reaches(document: Any, pointer: str) -> bool:
    """True when every token of ``pointer`` but the last names something in the document."""
    tokens = [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]]
    value = document
    for token in tokens[:-1]:
        if isinstance(value, dict) and token in value:
            value = value[token]
        elif isinstance(value, list) and token.isdigit() and int(token) < len(value):
            value = value[int(token)]
        else:
            return False
    return True


def typed_nodes(value: Any, schema: Any) -> Iterator[tuple[str, Any]]:
    """Every sub-document of ``value`` whose schema is a named type, with that type's name."""
    defs = BUNDLE["$defs"]
    if not isinstance(schema, dict):
        return
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[1]
        yield name, value
        yield from typed_nodes(value, defs[name])
    elif "oneOf" in schema and isinstance(value, dict):
        mapping = schema["discriminator"]["mapping"]
        target = mapping.get(value.get("type"))
        if target:
            yield from typed_nodes(value, {"$ref": target})
    elif isinstance(value, dict):
        properties = schema.get("properties", {})
        extra = schema.get("additionalProperties")
        for key, sub in value.items():
            yield from typed_nodes(sub, properties.get(key, extra))
    elif isinstance(value, list):
        for item in value:
            yield from typed_nodes(item, schema.get("items"))


def subjects(per_type: int = 3) -> list[tuple[str, Any]]:
    """Up to ``per_type`` distinct documents of every type: the examples and what they contain.

    Types that are inlined into their parents by the generator still have standalone
    validators; validating the sub-documents as their own type reaches those too.
    """
    found: dict[str, dict[str, Any]] = {}
    for type_name, path in iter_examples():
        document = json.loads(path.read_text())
        for name, value in typed_nodes(document, {"$ref": f"#/$defs/{type_name}"}):
            found.setdefault(name, {})[json.dumps(value, sort_keys=True)] = value
    chosen = []
    known = {name: values[max(values, key=len)] for name, values in found.items()}
    for name, values in sorted(found.items()):
        largest = sorted(values, key=len, reverse=True)[:per_type]  # the most fields first
        chosen += [(name, values[key]) for key in largest]
        completed = complete(known[name], {"$ref": f"#/$defs/{name}"}, known)
        if completed != known[name]:
            chosen.append((name, completed))
    return chosen


def complete(value: Any, schema: Any, known: dict[str, Any], depth: int = 0) -> Any:
    """``value`` with every optional property the schema allows filled in, a few levels down.

    No example sets every field at once; a completed document reaches the branches of the
    ones that are never set. It need not be valid: the properties under test are agreement.
    """
    defs = BUNDLE["$defs"]
    if not isinstance(schema, dict) or depth > 6:
        return value
    if "$ref" in schema:
        return complete(value, defs[schema["$ref"].rsplit("/", 1)[1]], known, depth)
    if "oneOf" in schema and isinstance(value, dict):
        target = schema["discriminator"]["mapping"].get(value.get("type"))
        return complete(value, {"$ref": target}, known, depth) if target else value
    if isinstance(value, dict) and "properties" in schema:
        filled = dict(value)
        for key, sub in schema["properties"].items():
            if key not in filled:
                filled[key] = sample(sub, known)
            filled[key] = complete(filled[key], sub, known, depth + 1)
        return filled
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        return [complete(item, schema["items"], known, depth + 1) for item in value]
    return value


def sample(schema: Any, known: dict[str, Any]) -> Any:
    """A plausible value for ``schema``: a known example of a named type, or a simple scalar."""
    defs = BUNDLE["$defs"]
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[1]
        return copy.deepcopy(known[name]) if name in known else sample(defs[name], known)
    if "oneOf" in schema:
        return sample({"$ref": next(iter(schema["discriminator"]["mapping"].values()))}, known)
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return schema["enum"][-1]
    kind = schema.get("type")
    if kind == "string":
        return "x" * max(schema.get("minLength", 1), 1)
    if kind == "integer":
        return schema.get("minimum", 0) + 1
    if kind == "number":
        return 0.5
    if kind == "boolean":
        return True
    if kind == "array":
        return [sample(schema.get("items", {}), known)]
    if kind == "object" and isinstance(schema.get("additionalProperties"), dict):
        return {"k": sample(schema["additionalProperties"], known)}
    return {}


ABSENCE_CODES = frozenset({"assistant_missing_metadata", "assistant_missing_routing"})
SUBJECTS = subjects()


@pytest.mark.parametrize(
    ("type_name", "document"), SUBJECTS, ids=[f"{t}-{i}" for i, (t, _) in enumerate(SUBJECTS)]
)
def test_mutants(type_name: str, document: Any) -> None:
    fast, _ = VALIDATORS[type_name]
    for mutant in mutants(document):
        findings = interlingua.validate(mutant, type_name)
        assert fast(mutant) == (findings == []), mutant
        for finding in findings:
            # A "required but missing" finding points where the value belongs, below what exists.
            assert finding.code in ABSENCE_CODES or reaches(mutant, finding.path), (finding, mutant)
        structural_errors = [
            f for f in findings if SEVERITY[f.code] == "error" and f.code not in SEMANTIC
        ]
        assert reference(type_name).is_valid(mutant) == (not structural_errors), (findings, mutant)
