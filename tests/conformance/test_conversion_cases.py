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


def _wire_bodies() -> list[tuple[str, str, str, Any]]:
    out = []
    for case in CASES:
        if case.function == "roundtrip":
            out.append((case.id, case.input["format"], case.input["kind"], case.input["wire"]))
            out.append((case.id, "canonical", case.input["kind"], case.expected["canonical"]))
        elif case.function == "convert" and case.expected is not None:
            out.append((case.id, case.input["target"], case.input["kind"], case.expected["output"]))
    return out


@pytest.mark.parametrize(("case_id", "fmt", "kind", "body"), _wire_bodies())
def test_written_bodies_are_valid(case_id: str, fmt: str, kind: str, body: Any) -> None:
    """Every body a case expects written (a round trip's, a conversion's output, canonical
    included) is valid against the target's strict wire schema (issue 14, item 5); a
    tolerated body (one the provider refuses that reading takes) is refused by the strict
    schema and taken by the reading schema (its canonical reading is valid, as any)."""
    if ".tolerated." in case_id and fmt != "canonical":
        assert problems(body, fmt, kind) != [], (
            f"{case_id} is valid: it belongs with the round trips"
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
