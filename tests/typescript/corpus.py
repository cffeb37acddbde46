"""The documents the TypeScript tests judge in one batch: every example, every canonical
validation vector, and the broken copies tests/schemas/test_mutations.py makes of one
document of every type (each node retyped, removed, emptied, given an unknown key or tag)."""

from __future__ import annotations

import json
from typing import Any

from conformance.cases import load_cases
from generator.examples import iter_examples
from generator.paths import EXAMPLES
from tests.schemas.test_mutations import SUBJECTS, mutants

Body = tuple[str, str | None, Any]  # (name, type or None for any document, document)


def examples_and_vectors() -> list[Body]:
    bodies: list[Body] = [
        (f"example {path.parent.name}/{path.name}", type_name, json.loads(path.read_text()))
        for type_name, path in iter_examples(EXAMPLES)
    ]
    for case in load_cases():
        if case.function == "validate":
            bodies.append((case.id, case.input.get("type"), case.input["document"]))
    return bodies


def broken_copies() -> list[Body]:
    first: dict[str, Any] = {}
    for type_name, document in SUBJECTS:
        first.setdefault(type_name, document)
    return [
        (f"mutant {type_name} #{i}", type_name, mutant)
        for type_name, document in sorted(first.items())
        for i, mutant in enumerate(mutants(document))
    ]


#: Values on which Python's `re` and ECMA-262 (what JSON Schema patterns mean, and what Ajv
#: and the TypeScript validators run) would disagree unless the generator spells the classes
#: out: U+FEFF is a space to ECMA-262 and U+0085, U+001C are not; `.` stops at \r and U+2028.
PATTERN_EDGES: list[Body] = [
    ("ModelId with U+FEFF", "ModelId", "a:b\ufeff"),
    ("ModelId with U+0085", "ModelId", "a:b\x85"),
    ("ModelId with U+001C", "ModelId", "a:b\x1c"),
    ("MediaType with U+2028", "MediaType", "text/plain;\u2028x"),
    ("MediaType with CR", "MediaType", "text/plain;\rx"),
    ("MediaType with a parameter", "MediaType", "text/plain; charset=utf-8"),
]


def batch(bodies: list[Body]) -> list[dict[str, Any]]:
    return [{"type": type_name, "document": document} for _, type_name, document in bodies]
