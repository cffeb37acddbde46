"""Ajv, the common JavaScript validator, takes the bundled schema as-is and agrees with us.

Ajv 2020 in strict mode with its discriminator option compiles the plain bundle
(generated/schemas/interlingua-v1.plain.json), and its verdict on every example, every
canonical validation vector and thousands of broken copies (tests/typescript/corpus.py)
equals ours: one Node process judges the whole batch.
JSON Schema checks structure only, so "ours" is: no error-severity finding other than an
invariant's (the invariants are annotations a generic validator does not run).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from interlingua.documents.validation import validate
from interlingua.generated.codes import INVARIANT_CODES
from tests.typescript.corpus import PATTERN_EDGES, batch, broken_copies, examples_and_vectors
from tests.typescript.toolchain import ROOT, TOOLS, run_node

PLAIN = ROOT / "generated" / "schemas" / "interlingua-v1.plain.json"


def _structurally_valid(document: Any, type_name: str | None) -> bool:
    return not any(
        f.severity == "error" and f.code not in INVARIANT_CODES
        for f in validate(document, type_name)
    )


@pytest.fixture(scope="module")
def verdicts() -> list[tuple[str, bool, dict[str, Any]]]:
    bodies = examples_and_vectors() + broken_copies() + PATTERN_EDGES
    answers = run_node(TOOLS / "ajv_verdicts.js", [str(PLAIN)], batch(bodies))
    return [
        (name, _structurally_valid(body, type_name), answer)
        for (name, type_name, body), answer in zip(bodies, answers, strict=True)
    ]


def test_ajv_agrees_with_us_on_every_example_vector_and_broken_copy(
    verdicts: list[tuple[str, bool, dict[str, Any]]],
) -> None:
    disagreements = [
        f"{name}: ours {'valid' if ours else 'invalid'}, Ajv {answer}"
        for name, ours, answer in verdicts
        if answer["valid"] is not ours
    ]
    assert not disagreements, "\n".join(disagreements)
    # Both verdicts occur: the batch holds valid and invalid bodies alike.
    assert {ours for _, ours, _ in verdicts} == {True, False}
    assert len(verdicts) > 3000


def test_one_typo_in_a_part_is_one_error_not_one_per_member() -> None:
    """The discriminator points Ajv at the tagged member only (the issue saw 52 errors)."""
    batch = [
        {
            "type": "Message",
            "document": {"role": "user", "content": [{"type": "text", "txt": "hi"}]},
        }
    ]
    [answer] = run_node(TOOLS / "ajv_verdicts.js", [str(PLAIN)], batch)
    paths = {error["path"] for error in answer["errors"]}
    assert paths == {"/content/0"} and len(answer["errors"]) <= 3, answer


def test_a_timestamp_is_its_pattern_for_ajv_too() -> None:
    """`format` is left out of the plain bundle: Ajv would assert date-time (and refuse Feb 30)
    where our validators check the pattern only, so the verdicts would differ."""
    values = ["2024-02-30T00:00:00Z", "2024-02-29T23:59:60Z", "2024-13-01T00:00:00Z"]
    answers = run_node(
        TOOLS / "ajv_verdicts.js",
        [str(PLAIN)],
        [{"type": "Timestamp", "document": value} for value in values],
    )
    assert [a["valid"] for a in answers] == [_structurally_valid(v, "Timestamp") for v in values]
    assert [a["valid"] for a in answers] == [True, True, False]


def test_the_plain_bundle_has_no_annotations() -> None:
    text = PLAIN.read_text(encoding="utf-8")
    plain = json.loads(text)
    assert plain["$id"].endswith("/v1/interlingua.plain.json")
    assert (
        '"mapping"' not in text
        and '"x-invariants"' not in text
        and '"format": "date-time"' not in text
    )
