"""Loading cases: the vector files under conformance/vectors/ and the conversion case files
under conformance/cases/, each checked against its schema."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema_rs
from jsonschema import Draft202012Validator

VECTORS = Path(__file__).resolve().parent / "vectors"
CONVERSIONS = Path(__file__).resolve().parent / "cases"


class CaseFileError(Exception):
    """A case file is unreadable, invalid against its schema, or repeats an id."""


@dataclass(frozen=True)
class Case:
    """One golden case: call ``function`` with ``input``; expect ``expected`` or an error."""

    id: str
    kind: str
    group: str
    level: str
    description: str
    function: str
    input: dict[str, Any]
    expected: Any = None
    expected_error: dict[str, Any] | None = None
    format: str = ""  # conversion cases: the format they are about
    check: str = ""  # real-traffic cases: which check of the body (read, roundtrip, cross, stream)

    def as_json(self) -> dict[str, Any]:
        """The case as the protocol sends it to an external implementation."""
        case: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind,
            "function": self.function,
            "input": self.input,
        }
        return case


def load_cases(root: Path = VECTORS, conversions: Path = CONVERSIONS) -> list[Case]:
    """Every case: the vectors, then the conversion cases; ids are unique across both."""
    cases = _load_vectors(root)
    seen = {case.id for case in cases}
    for case in _load_conversions(conversions):
        if case.id in seen:
            raise CaseFileError(f"{conversions}: case id {case.id!r} repeats")
        seen.add(case.id)
        cases.append(case)
    return cases


def _read(path: Path, validator: Draft202012Validator, valid: Callable[[Any], bool]) -> Any:
    """A case file's document, checked: ``valid`` (jsonschema-rs: a load reads some 400
    files, which python-jsonschema took a second over) says yes or no, ``validator`` why."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise CaseFileError(f"{path}: {exc}") from None
    if valid(document):
        return document
    problems = list(validator.iter_errors(document))
    if problems:
        raise CaseFileError(f"{path}: {problems[0].message}")
    return document


def _load_conversions(root: Path) -> list[Case]:
    if not (root / "case.schema.json").exists():
        return []
    schema = json.loads((root / "case.schema.json").read_text(encoding="utf-8"))
    validator = Draft202012Validator(schema)
    valid = jsonschema_rs.validator_for(schema).is_valid
    cases: list[Case] = []
    for path in sorted(root.glob("*/*.json")):
        document = _read(path, validator, valid)
        fmt = document["format"]
        if fmt != path.parent.name or document["group"] != path.stem:
            raise CaseFileError(f"{path}: format and group must match the directory and file name")
        for case in document["cases"]:
            cases.append(_conversion_case(case, fmt, f"{fmt}/{document['group']}"))
    return cases


def _conversion_case(case: dict[str, Any], fmt: str, group: str) -> Case:
    """A conversion case as a call of the contract's `roundtrip`, `convert` or `stream`."""
    kind = case["kind"]
    common = {
        "id": case["id"],
        "kind": kind,
        "group": group,
        "level": case["level"],
        "description": case["description"],
        "format": fmt,
    }
    options = case.get("options", {})
    if kind == "roundtrip":
        return Case(
            **common,
            function="roundtrip",
            input={"format": fmt, "kind": case["document"], "wire": case["wire"]},
            expected={"canonical": case["canonical"], "wire": case["wire"]},
        )
    if kind == "cross":
        return Case(
            **common,
            function="convert",
            input={
                "source": case["source"],
                "target": case.get("target", fmt),
                "kind": case["document"],
                "payload": case["input"],
                "options": options,
            },
            expected={
                "output": case["expected"],
                "losses": sorted(case["losses"], key=lambda x: (x["pointer"], x["code"])),
            },
        )
    if kind == "stream":
        return Case(
            **common,
            function="stream",
            input={"format": fmt, "chunks": case["chunks"], **_read_endpoint(options)},
            expected={
                "events": case["events"],
                "canonical": case["canonical"],
                "losses": sorted(case["losses"], key=lambda x: (x["pointer"], x["code"])),
            },
        )
    return Case(
        **common,
        function="convert",
        input={
            "source": fmt,
            "target": "canonical",
            "kind": case["document"],
            "payload": case["input"],
            "options": options,
        },
        expected_error={"code": case["error"]["code"], "details": {"path": case["error"]["path"]}},
    )


def _read_endpoint(options: dict[str, Any]) -> dict[str, Any]:
    """The option a reading takes (a stream case's): where its input was served."""
    return {key: options[key] for key in ("source_endpoint",) if key in options}


def _load_vectors(root: Path) -> list[Case]:
    schema = json.loads((root / "vector.schema.json").read_text(encoding="utf-8"))
    validator = Draft202012Validator(schema)
    valid = jsonschema_rs.validator_for(schema).is_valid
    cases: list[Case] = []
    seen: set[str] = set()
    for path in sorted(root.glob("*/*.json")):
        document = _read(path, validator, valid)
        for vector in document["vectors"]:
            if vector["id"] in seen:
                raise CaseFileError(f"{path}: case id {vector['id']!r} repeats")
            seen.add(vector["id"])
            cases.append(
                Case(
                    id=vector["id"],
                    kind="vectors",
                    group=f"{path.parent.name}/{document['group']}",
                    level=vector["level"],
                    description=vector["description"],
                    function=vector["function"],
                    input=vector["input"],
                    expected=vector.get("expected"),
                    expected_error=vector.get("expected_error"),
                )
            )
    return cases
