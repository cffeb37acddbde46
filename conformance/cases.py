"""Loading cases: every vector file under conformance/vectors/, checked against its schema."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

VECTORS = Path(__file__).resolve().parent / "vectors"


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

    def as_json(self) -> dict[str, Any]:
        """The case as the protocol sends it to an external implementation."""
        case: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind,
            "function": self.function,
            "input": self.input,
        }
        return case


def load_cases(root: Path = VECTORS) -> list[Case]:
    schema = json.loads((root / "vector.schema.json").read_text(encoding="utf-8"))
    validator = Draft202012Validator(schema)
    cases: list[Case] = []
    seen: set[str] = set()
    for path in sorted(root.glob("*/*.json")):
        try:
            document = json.loads(path.read_text(encoding="utf-8"))
        except ValueError as exc:
            raise CaseFileError(f"{path}: {exc}") from None
        problems = list(validator.iter_errors(document))
        if problems:
            raise CaseFileError(f"{path}: {problems[0].message}")
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
