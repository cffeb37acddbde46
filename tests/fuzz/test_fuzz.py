"""Structure-aware fuzzing of every entry point (see `mutations` and `harness`): each mutated
conformance body, schema example and stream case either converts, detects, validates, loads,
pairs, views and streams, or gets a coded error — never another exception, never a hang.

`INTERLINGUA_FUZZ_EXAMPLES` sets the hypothesis examples per test (default 200, three times as
many streams; about twenty seconds in all); `python -m tests.fuzz.campaign --minutes 30` runs
a long campaign and counts.
"""

from __future__ import annotations

import json
import logging
import os
import random
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interlingua import InputError, read_json
from interlingua.generated.streams import STREAMS
from tests.fuzz.harness import Tally, exercise_document, exercise_stream
from tests.fuzz.mutations import mutate, mutate_stream, seeds, stream_seeds

EXAMPLES = int(os.environ.get("INTERLINGUA_FUZZ_EXAMPLES", "200"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    database=None,
)
# A stream translation costs a tenth of a body's round of conversions: three times as many.
FUZZ_STREAMS = settings(FUZZ, max_examples=3 * EXAMPLES)


@pytest.fixture(autouse=True)
def _quiet() -> Iterator[None]:
    logging.disable(logging.WARNING)  # hostile input: warnings (and loss traces) by the thousand
    yield
    logging.disable(logging.NOTSET)


def _clean(tally: Tally) -> None:
    assert tally.uncoded == [], tally.uncoded[:5]
    assert tally.hangs == [], tally.hangs[:5]


def test_the_seeds_cover_every_format_kind_and_stream() -> None:
    found = {(s.format, s.kind) for s in seeds()}
    assert {f for f, _ in found} >= {"canonical", "openai-chat", "anthropic", "gemini", "chatml"}
    assert {k for _, k in found} == {"request", "response", "messages"}
    assert {s.format for s in stream_seeds()} == set(STREAMS)
    assert len(seeds()) > 200


@FUZZ
@given(seed=st.sampled_from(seeds()), rng=st.randoms(use_true_random=False))
def test_mutated_bodies_convert_or_get_a_coded_error(seed: object, rng: random.Random) -> None:
    from tests.fuzz.mutations import Seed

    assert isinstance(seed, Seed)
    mutant = mutate(seed.body, rng, rng.choice((1, 1, 2, 3)))
    _clean(exercise_document(seed, mutant))


@FUZZ_STREAMS
@given(seed=st.sampled_from(stream_seeds()), rng=st.randoms(use_true_random=False))
def test_mutated_streams_translate_or_end_with_a_coded_error(
    seed: object, rng: random.Random
) -> None:
    from tests.fuzz.mutations import StreamSeed

    assert isinstance(seed, StreamSeed)
    _clean(exercise_stream(seed.format, mutate_stream(seed.chunks, rng)))


TEXT_FAULTS = ("1e999", "-1e999", "9" * 4_400, "NaN", "[" * 3_000, '"\\ud800"', "", "}", ",")


@FUZZ
@given(
    seed=st.sampled_from([s for s in seeds() if not isinstance(s.body, str)]),
    fault=st.sampled_from(TEXT_FAULTS),
    at=st.floats(0, 1),
)
def test_mutated_json_text_reads_or_gets_a_coded_error(seed: object, fault: str, at: float) -> None:
    from tests.fuzz.mutations import Seed

    assert isinstance(seed, Seed)
    text = json.dumps(seed.body)
    cut = int(len(text) * at)
    for candidate in (text[:cut] + fault + text[cut:], text[:cut], text.replace("1", fault, 1)):
        try:
            value = read_json(candidate)
        except InputError as exc:
            assert exc.code and isinstance(exc.path, str)
        else:
            json.dumps(value, allow_nan=False).encode("utf-8")
