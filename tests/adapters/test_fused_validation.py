"""A fused pass that says it checked a body checked all its reading schema asks (issue 16,
item 4): the schema check is skipped only then, so a body the pass converts with `checked`
must be one the schema takes.

Valid bodies (the conformance cases, the real-traffic corpus, and the benchmark corpus's
shapes in `test_fused_pairs.BODY`) are mutated one place at a time: every value swapped for
values of every JSON type and for strings the schema's patterns and constants turn on (case
changed, near misses), every key deleted, a key added to every object. Whatever the pass then
converts while saying it checked must pass `check_wire`.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest

from interlingua.conversion import ConversionError
from interlingua.conversion.converter import check_wire, convert
from interlingua.generated.pairs import PAIRS
from tests.adapters import differential
from tests.adapters.fused import fresh
from tests.adapters.test_fused_pairs import ANTHROPIC_BODY, BODY, FROM_CHAT
from tests.adapters.test_fused_pairs_bedrock import BEDROCK_BODY
from tests.adapters.test_fused_pairs_gemini import GEMINI_BODY
from tests.adapters.test_fused_pairs_responses import RESPONSES_BODY
from tests.tracing import coverage_paused

# A body of the common shape in each source format a pair reads.
BODIES: dict[str, Any] = {
    "openai-chat": BODY,
    "anthropic": ANTHROPIC_BODY,
    "openai-responses": RESPONSES_BODY,
    "bedrock": BEDROCK_BODY,
    "gemini": GEMINI_BODY,
}

# Values of every JSON type, and strings next to what the schema's patterns and tags take.
_PALETTE: tuple[Any, ...] = (
    None,
    True,
    0,
    -1,
    1.5,
    "",
    "x",
    "auto",
    [],
    ["x"],
    [1],
    {},
    {"type": "text"},
    "HTTPS://example.com/a.png",
    "data:IMAGE/png;base64,AAAA",
    "data:image/png;base64,AAAA",
    "ftp://example.com/a.png",
)
_Path = tuple[Any, ...]


def _places(node: Any, path: _Path = ()) -> Iterator[_Path]:
    yield path
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _places(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _places(value, (*path, index))


def _at(body: Any, path: _Path) -> Any:
    for step in path:
        body = body[step]
    return body


def _mutants(body: Any) -> Iterator[tuple[str, Any]]:
    for path in _places(body):
        if path:
            parent, last = path[:-1], path[-1]
            value = _at(body, path)
            swaps = list(_PALETTE)
            if isinstance(value, str):
                swaps += [value.upper(), value.capitalize(), value + " ", value[1:]]
            for swap in swaps:
                mutant = fresh(body)
                _at(mutant, parent)[last] = swap
                yield f"{path} = {swap!r}", mutant
            mutant = fresh(body)
            del _at(mutant, parent)[last]
            yield f"del {path}", mutant
        if isinstance(_at(body, path), dict):
            mutant = fresh(body)
            _at(mutant, path)["zz_added"] = 1
            yield f"{path} + zz_added", mutant


def _bodies(source: str) -> list[tuple[str, Any]]:
    found = [
        (label, payload)
        for label, payload, fmt, kind in [
            *differential.conformance_bodies(),
            *differential.real_bodies(),
        ]
        if fmt == source and kind in (None, "request") and isinstance(payload, dict)
    ]
    return [(f"fused_pairs body of {source}", BODIES[source]), *found]


@pytest.mark.parametrize(("source", "target"), sorted(PAIRS))
def test_what_the_pass_says_it_checked_the_schema_takes(source: str, target: str) -> None:
    pair = PAIRS[source, target]
    taken = 0
    for label, body in _bodies(source):
        if type(pair(copy.deepcopy(body))) is not tuple:
            continue  # outside the pass's shape: its mutants are too
        for change, mutant in _mutants(body):
            got = pair(mutant)
            if type(got) is not tuple or not got[2]:
                continue
            taken += 1
            try:
                with coverage_paused():  # the reference, measured by the reading tests
                    check_wire(mutant, source, "request")
            except ConversionError as exc:
                pytest.fail(f"{label}: {change}: the pass took it, the schema says {exc}")
    assert taken > 1_000  # the mutants the pass took and vouched for: the test has teeth


def test_a_field_the_pass_drops_whose_schema_is_more_than_a_type_gets_the_schema_check() -> None:
    for source, target in FROM_CHAT:
        checked = PAIRS[source, target]({**copy.deepcopy(BODY), "metadata": {"a": "b"}})
        unchecked = PAIRS[source, target]({**copy.deepcopy(BODY), "metadata": {"a": 1}})
        assert type(checked) is tuple and type(unchecked) is tuple
        assert not checked[2] and not unchecked[2]
        with pytest.raises(ConversionError):
            convert({**copy.deepcopy(BODY), "metadata": {"a": 1}}, source, target)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("temperature", "hot"),
        ("max_tokens", 1.5),
        ("stop", ["END", 3]),
        ("stream", "yes"),
        ("n", True),
    ],
)
def test_a_field_of_the_wrong_type_gets_the_coded_error_on_the_fused_path(
    field: str, value: Any
) -> None:
    for source, target in FROM_CHAT:
        body = {**copy.deepcopy(BODY), field: value}
        assert type(PAIRS[source, target](copy.deepcopy(body))) is str
        with pytest.raises(ConversionError) as fused:
            convert(body, source, target)
        with pytest.raises(ConversionError) as two_step:
            convert(body, source, target, fused=False)
        assert (fused.value.code, fused.value.pointer) == (
            two_step.value.code,
            two_step.value.pointer,
        )


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("temperature", "hot"),
        ("max_tokens", 1.5),
        ("max_tokens", None),
        ("stop_sequences", ["END", 3]),
        ("top_k", True),
        ("stream", "yes"),
        ("service_tier", 1),
        ("metadata", {"user_id": 1}),
        ("cache_control", "ephemeral"),
    ],
)
def test_a_field_of_the_wrong_type_gets_the_coded_error_on_the_anthropic_pass(
    field: str, value: Any
) -> None:
    """A body of the pass's shape but for one field the schema refuses: the pass sends it the
    two-step way, or (a field it drops whose schema is more than a type) says it did not check
    it; either way the same coded error as the two-step path."""
    body = {**copy.deepcopy(ANTHROPIC_BODY), field: value}
    got = PAIRS["anthropic", "openai-chat"](copy.deepcopy(body))
    assert type(got) is str or not got[2]
    with pytest.raises(ConversionError) as fused:
        convert(body, "anthropic", "openai-chat")
    with pytest.raises(ConversionError) as two_step:
        convert(body, "anthropic", "openai-chat", fused=False)
    assert (fused.value.code, fused.value.pointer) == (
        two_step.value.code,
        two_step.value.pointer,
    )
