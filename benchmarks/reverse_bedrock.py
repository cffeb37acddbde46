"""Conversion throughput, bedrock → openai-chat (a Converse client, an OpenAI backend): the
fused pair converter against interlingua's two-step path, on the benchmark corpora written in
Bedrock's format.

The corpora are ``convert.py``'s (``openai_corpus``: 2,000 short bodies, 200 long
conversations), each body written to a Converse request by interlingua's two-step path, so the
numbers compare with the other directions'. Every row is checked on every body before the
timing (``convert.check_rows``: no exception, no tool call, result or image lost, a slice of
outputs valid OpenAI Chat requests), then timed interleaved, medians over slices
(``convert.time_rows``).

There is no third-party baseline: LiteLLM 1.x translates OpenAI requests into Converse (and
Converse responses back), but has no translation of a Converse *request* into an OpenAI one
(its proxy passes Bedrock requests through as they are). The ratio reported is the fused
pass's to the two-step path's.

    python benchmarks/convert.py --bedrock-reverse-only [--size 2000] [--long 200]
"""

from __future__ import annotations

import argparse
import functools
import json
from collections.abc import Callable
from typing import Any

import jsonschema_rs
import orjson
from convert import (
    FORMATS_DIR,
    SOURCE,
    Convert,
    Corpus,
    TargetRows,
    carried_out_bedrock,
    carried_out_chat,
    check_rows,
    pair_section,
)

Json = dict[str, Any]

BEDROCK_SOURCE = "bedrock"
BEDROCK_TARGET = "openai-chat"
NO_BASELINE = (
    "no third-party row: LiteLLM has no translation of a Converse request into an OpenAI one"
)


def bedrock_corpora(convert: Convert, corpora: list[Corpus]) -> list[Corpus]:
    """The corpora in Bedrock's format: each OpenAI Chat body as interlingua's two-step path
    writes it to Converse (the same bodies, so the directions' numbers compare)."""
    found: list[Corpus] = []
    for label, bodies, _lines in corpora:
        written = [
            convert(body, source=SOURCE, target=BEDROCK_SOURCE, fused=False).output
            for body in bodies
        ]
        found.append((label, written, [orjson.dumps(body) for body in written]))
    return found


def bedrock_rows(
    convert: Convert, corpora: list[Corpus], check_slice: int
) -> tuple[TargetRows, list[Corpus]]:
    """The rows of bedrock → openai-chat (interlingua fused and two-step) over the corpora in
    Bedrock's format, each checked on every body first as `convert.check_rows` checks."""
    fused = functools.partial(convert, source=BEDROCK_SOURCE, target=BEDROCK_TARGET)
    candidates: list[tuple[str, str, Callable[[Json], Any]]] = [
        ("fused", f"interlingua {BEDROCK_SOURCE} → {BEDROCK_TARGET}", fused),
        (
            "two-step",
            f"interlingua {BEDROCK_SOURCE} → {BEDROCK_TARGET}, two-step",
            functools.partial(fused, fused=False),
        ),
    ]
    schema = json.loads((FORMATS_DIR / BEDROCK_TARGET / "request.json").read_text("utf-8"))
    found = TargetRows(BEDROCK_TARGET, [], {}, [NO_BASELINE], [])
    written = bedrock_corpora(convert, corpora)
    checked = check_rows(
        found,
        candidates,
        written,
        check_slice,
        wire=jsonschema_rs.validator_for(schema),
        kind="OpenAI Chat",
        carried_in=carried_out_bedrock,  # a Converse body's calls, results and images
        carried_out=carried_out_chat,
    )
    return checked, written


def bedrock_section(
    convert: Convert | str, corpora: list[Corpus], args: argparse.Namespace
) -> list[str]:
    """The bedrock → openai-chat section (`convert.pair_section`)."""
    return pair_section(
        f"{BEDROCK_SOURCE} → {BEDROCK_TARGET}", bedrock_rows, convert, corpora, args
    )
