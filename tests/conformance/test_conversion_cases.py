"""The conversion cases: enough of them per format, every kind present, and every wire body in
them (round trips both ways, every conversion output) valid against the strict schema of its format."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from conformance.cases import CaseFileError, load_cases
from interlingua.conversion.converter import _wire_validator, from_text, reading_schema
from interlingua.generated.adapters import ADAPTERS
from tests.adapters.strict import problems

ROOT = Path(__file__).resolve().parents[2]
CASES = [c for c in load_cases() if c.format]


@pytest.mark.parametrize("fmt", sorted(ADAPTERS))
def test_each_format_has_forty_cases_of_every_kind(fmt: str) -> None:
    kinds = Counter(c.kind for c in CASES if c.format == fmt)
    assert sum(kinds.values()) >= 40, kinds
    assert {"roundtrip", "cross", "invalid"} <= set(kinds)


def _wire_bodies() -> list[tuple[str, str, str, Any, bool]]:
    """(case id, format, kind, body, tolerated) of every wire body a case gives or writes: a
    tolerated case's given body (a round trip's wire, a conversion's input) breaks a provider rule;
    what any case writes in another format (a conversion's output) must be valid."""
    out = []
    for case in CASES:
        tolerated = ".tolerated." in case.id
        if case.function == "roundtrip":
            given = case.input
            out.append((case.id, given["format"], given["kind"], given["wire"], tolerated))
            out.append((case.id, "canonical", given["kind"], case.expected["canonical"], False))
        elif case.function == "convert" and case.expected is not None:
            given = case.input
            if tolerated:
                out.append((case.id, given["source"], given["kind"], given["payload"], True))
            out.append((case.id, given["target"], given["kind"], case.expected["output"], False))
    return out


@pytest.mark.parametrize(("case_id", "fmt", "kind", "body", "tolerated"), _wire_bodies())
def test_written_bodies_are_valid(
    case_id: str, fmt: str, kind: str, body: Any, tolerated: bool
) -> None:
    """Every body a case expects written (a round trip's, a conversion's output, canonical
    included) is valid against the target's strict wire schema (issue 14, item 5); a
    tolerated body (one the provider refuses that reading takes) is refused by the strict
    schema and taken by the reading schema (its canonical reading is valid, as any)."""
    if tolerated:
        assert problems(body, fmt, kind) != [], (
            f"{case_id} gives a valid body: it does not belong with the tolerated cases"
        )
        reading = _wire_validator(reading_schema(ADAPTERS[fmt].schemas[kind]))
        errors = [e.message for e in reading.iter_errors(from_text(body, fmt, kind))]
        assert errors == [], case_id
        return
    assert problems(body, fmt, kind) == [], case_id


def test_case_files_must_sit_in_their_format_directory(tmp_path: Path) -> None:
    src = ROOT / "conformance" / "cases"
    (tmp_path / "cases").mkdir()
    (tmp_path / "cases" / "case.schema.json").write_text((src / "case.schema.json").read_text())
    (tmp_path / "cases" / "anthropic").mkdir()
    document = json.loads((src / "anthropic" / "invalid.json").read_text())
    (tmp_path / "cases" / "anthropic" / "other.json").write_text(json.dumps(document))
    with pytest.raises(CaseFileError, match="must match"):
        load_cases(conversions=tmp_path / "cases")
    (tmp_path / "cases" / "anthropic" / "other.json").unlink()
    (tmp_path / "cases" / "anthropic" / "invalid.json").write_text(json.dumps(document))
    duplicate = json.loads((src / "anthropic" / "invalid.json").read_text())
    duplicate["group"] = "again"
    (tmp_path / "cases" / "anthropic" / "again.json").write_text(json.dumps(duplicate))
    with pytest.raises(CaseFileError, match="repeats"):
        load_cases(conversions=tmp_path / "cases")
