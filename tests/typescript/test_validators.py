"""The generated TypeScript validators report what the Python ones report.

One Node process validates the whole corpus (tests/typescript/corpus.py): every example,
every canonical vector and thousands of broken copies; for each, the findings (code, JSON
pointer, severity) must equal Python's. Messages are for people and are not compared.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from generator.typescript import MAX_DEPTH
from interlingua.conversion.reading import DEFAULT_MAX_DEPTH
from interlingua.documents.validation import validate
from tests.typescript.corpus import (
    PATTERN_EDGES,
    Body,
    batch,
    broken_copies,
    examples_and_vectors,
)
from tests.typescript.toolchain import PACKAGE, compiled, run_node

Row = tuple[str, str, str]


def _python(document: Any, type_name: str | None) -> list[Row]:
    return sorted((f.code, f.path, f.severity or "error") for f in validate(document, type_name))


def _typescript(bodies: list[Body]) -> list[list[Row]]:
    script = compiled() / "tools" / "node" / "validate_batch.js"
    answers = run_node(script, [], batch(bodies))
    return [sorted((code, path, severity) for code, path, severity in rows) for rows in answers]


@pytest.fixture(scope="module")
def bodies() -> list[Body]:
    return examples_and_vectors() + broken_copies() + PATTERN_EDGES


def test_typescript_reports_what_python_reports(bodies: list[Body]) -> None:
    theirs = _typescript(bodies)
    differences = [
        f"{name}: python {ours}, typescript {their}\n  {json.dumps(document)[:300]}"
        for (name, type_name, document), their in zip(bodies, theirs, strict=True)
        if (ours := _python(document, type_name)) != their
    ]
    assert not differences, f"{len(differences)} of {len(bodies)} differ:\n" + "\n".join(
        differences[:20]
    )
    # The corpus reaches errors, warnings and invariants alike.
    codes = {row[0] for rows in theirs for row in rows}
    assert {"missing_field", "unknown_field", "unknown_part_type", "orphan_result"} <= codes
    assert len(bodies) > 3000


def test_unreadable_values_get_the_readers_codes() -> None:
    deep: Any = "leaf"
    for _ in range(MAX_DEPTH + 1):
        deep = [deep]
    bodies: list[Body] = [
        ("too deep", "Message", {"role": "user", "content": deep}),
        (
            "lone surrogate",
            "Message",
            {"role": "user", "content": [{"type": "text", "text": "\ud800"}]},
        ),
        ("no document", None, {"hello": "world"}),
    ]
    theirs = _typescript(bodies)
    assert [rows[0][0] for rows in theirs] == [
        "nesting_too_deep",
        "invalid_unicode",
        "unknown_document",
    ]
    assert theirs == [_python(document, type_name) for _, type_name, document in bodies]


def test_patterns_mean_what_ecma_262_says() -> None:
    """Python's `re` reads `\\s` and `.` wider than ECMA-262; the generated Python validators
    spell them out, so these verdicts are the same in both languages (and in Ajv)."""
    ours = [_python(value, type_name) for _, type_name, value in PATTERN_EDGES]
    assert [[code for code, _, _ in rows] for rows in ours] == [
        ["pattern_mismatch"],
        [],
        [],
        ["pattern_mismatch"],
        ["pattern_mismatch"],
        [],
    ]


def test_the_depth_limit_is_the_readers() -> None:
    assert MAX_DEPTH == DEFAULT_MAX_DEPTH


def test_the_package_names_what_it_exports() -> None:
    manifest = json.loads((PACKAGE / "package.json").read_text(encoding="utf-8"))
    assert manifest["types"] == "dist/index.d.ts"
    assert (PACKAGE / "src" / "index.ts").is_file()
