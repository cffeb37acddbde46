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


def batch(bodies: list[Body]) -> list[dict[str, Any]]:
    return [{"type": type_name, "document": document} for _, type_name, document in bodies]
