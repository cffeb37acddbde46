"""Python and the Node harness side by side on cases beyond the conformance vectors.

Each case is a contract function and its input, run through both implementations exactly as
the conformance runner runs them (the Node harness in one process for the whole batch). An
outcome is the output, or the error code with ``details.reason``: messages are for people.
"""

from __future__ import annotations

from typing import Any

from conformance.cases import Case
from conformance.protocol import External, InProcess, Outcome
from interlingua.contract import FUNCTIONS, ContractError
from tests.typescript.toolchain import compiled, node


def _verdict(outcome: Outcome) -> Any:
    if outcome.error is not None:
        return (outcome.error["code"], (outcome.error.get("details") or {}).get("reason"))
    return ("ok", outcome.skipped or outcome.broken or outcome.output)


def outcomes(rows: list[tuple[str, dict[str, Any]]]) -> tuple[list[Any], list[str]]:
    """Python's outcome of every case, and how Node's differ from them (empty when equal)."""
    cases = [
        Case(id=f"extra.{n}", kind="vectors", group="extra", level="required", description="",
             function=function, input=data)
        for n, (function, data) in enumerate(rows)
    ]  # fmt: skip
    harness = External(f"{node()} {compiled() / 'tools' / 'node' / 'harness.js'}")
    try:
        theirs = [_verdict(harness.run(case)) for case in cases]
    finally:
        harness.close()
    python = InProcess(dict(FUNCTIONS), ContractError)
    ours = [_verdict(python.run(case)) for case in cases]
    differences = [
        f"{case.function} {str(case.input)[:300]}: python {mine}, node {their}"
        for case, mine, their in zip(cases, ours, theirs, strict=True)
        if mine != their
    ]
    return ours, differences
