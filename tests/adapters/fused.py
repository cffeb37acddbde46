"""What the fused pair tests share (test_fused_pairs*.py): a body with one value changed, and
the check that two results are the same answer."""

from __future__ import annotations

import copy
import logging
from typing import Any

import orjson
import pytest

from interlingua.conversion import ConversionError, ConversionResult
from interlingua.conversion.converter import convert
from interlingua.generated.pairs import PAIRS
from tests.tracing import coverage_paused

#: Given as the value to `changed`: the key is removed.
DELETE: Any = object()


def fresh(body: Any) -> Any:
    """A copy of a JSON ``body`` that shares nothing with it, by orjson's round trip: a C call
    where `copy.deepcopy` is Python (the mutant tests copy thousands of bodies, and deepcopy
    was a sixth of their time)."""
    return orjson.loads(orjson.dumps(body))


def changed(body: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    """A copy of ``body`` with the value at ``path`` replaced (`DELETE`: removed)."""
    found = copy.deepcopy(body)
    node: Any = found
    for step in path[:-1]:
        node = node[step]
    if value is DELETE:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return found


def same(a: ConversionResult, b: ConversionResult) -> None:
    """The same output, losses, id map and name map."""
    assert (a.output, a.losses, dict(a.id_map), dict(a.name_map)) == (
        b.output,
        b.losses,
        dict(b.id_map),
        dict(b.name_map),
    )


def takes_two_steps(
    body: dict[str, Any], why: str, source: str, target: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The pair sends ``body`` back with ``why``; `convert` says so in its debug log and gives
    the two-step path's answer."""
    assert PAIRS[source, target](copy.deepcopy(body)) == why
    with caplog.at_level(logging.DEBUG, logger="interlingua.conversion.converter"):
        result = convert(copy.deepcopy(body), source, target)
    assert not result.fused
    assert any(f"two-step path: {why}" in r.message for r in caplog.records)
    same(result, convert(copy.deepcopy(body), source, target, fused=False))


def mutants_taken(body: dict[str, Any], source: str, target: str) -> int:
    """Each value of ``body`` swapped for values of every JSON type, each key deleted, a key
    added to each object (`test_fused_validation`): the same outcome whichever path converts
    it. How many of the mutants the pass took (a test that wants teeth asks for enough)."""
    from tests.adapters.differential import outcome
    from tests.adapters.test_fused_validation import _mutants

    def two_step(payload: Any, source: str, target: str, kind: str) -> Any:
        return convert(payload, source, target, kind, fused=False)

    def fused(payload: Any, source: str, target: str, kind: str) -> Any:
        return convert(payload, source, target, kind)

    taken = 0
    for change, mutant in _mutants(body):
        with coverage_paused():  # the reference: other tests measure the two-step path
            expected = outcome(two_step, fresh(mutant), source, target, "request")
        assert outcome(fused, fresh(mutant), source, target, "request") == expected, change
        taken += type(PAIRS[source, target](fresh(mutant))) is tuple
    return taken


def deep(levels: int) -> Any:
    """A value nested ``levels`` objects deep (past the reading's depth limit, given enough)."""
    node: Any = "x"
    for _ in range(levels):
        node = {"a": node}
    return node


def refused_alike(body: Any, source: str, target: str, *, validate: bool) -> None:
    """Bad input: the pass gives what the two-step path gives (with the input check on, the
    same coded error, pointer and message)."""

    def outcome(**options: Any) -> tuple[Any, ...]:
        try:
            result = convert(
                copy.deepcopy(body), source, target, validate_input=validate, **options
            )
        except ConversionError as exc:
            return ("error", exc.code, exc.pointer, exc.message)
        return ("ok", result.output, result.losses)

    expected = outcome(fused=False)
    assert outcome() == expected
    if validate:
        assert expected[0] == "error"


def logged_alike(
    body: dict[str, Any], source: str, target: str, caplog: pytest.LogCaptureFixture
) -> list[str]:
    """The lines the converter logs converting ``body``, the same by the fused pass and the
    two-step path (each taken as asked)."""
    lines = []
    for fused in (True, False):
        caplog.clear()
        with caplog.at_level(logging.DEBUG, logger="interlingua.conversion.converter"):
            result = convert(copy.deepcopy(body), source, target, fused=fused)
        assert result.fused is fused
        lines.append([r.getMessage() for r in caplog.records])
    assert lines[0] == lines[1]
    return lines[0]
