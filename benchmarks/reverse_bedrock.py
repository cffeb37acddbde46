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

    python benchmarks/reverse_bedrock.py [--size 2000] [--long 200] [--repeat 5]
    python benchmarks/convert.py --bedrock-reverse-only   # the same section, from convert.py
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
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
    load_interlingua,
    takes_fused,
    time_rows,
)
from openai_corpus import corpus, long_corpus

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


def bedrock_report(found: TargetRows, rates: dict[tuple[str, str], float]) -> str:
    """The section's report: `TargetRows.report` under its own heading."""
    lines = found.report(rates).splitlines()
    lines[0] = f"## {BEDROCK_SOURCE} → {BEDROCK_TARGET}, dict → dict (the reverse direction)"
    return "\n".join([*lines, ""])


def bedrock_section(
    convert: Convert | str, corpora: list[Corpus], args: argparse.Namespace
) -> list[str]:
    """Checks, times (its rows interleaved, medians) and prints the section; what failed.
    Skipped without an interlingua that has the fused pass."""
    if isinstance(convert, str) or not takes_fused(convert):
        print(f"## {BEDROCK_SOURCE} → {BEDROCK_TARGET}: skipped (no interlingua fused pass)\n")
        return []
    found, written = bedrock_rows(convert, corpora, args.check_slice)
    rates = time_rows(found.rows, written, args.chunk, args.repeat)
    print(bedrock_report(found, rates))
    return found.failed


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--size", type=int, default=2000, help="request bodies in the corpus")
    parser.add_argument("--long", type=int, default=200, help="long conversations beside them")
    parser.add_argument("--repeat", type=int, default=5, help="median of this many passes")
    parser.add_argument("--chunk", type=int, default=250, help="bodies timed at a time")
    parser.add_argument("--seed", type=int, default=0, help="seed of the corpora")
    parser.add_argument(
        "--check-slice", type=int, default=200, help="outputs checked against the wire schema"
    )
    args = parser.parse_args()
    corpora: list[Corpus] = []
    for label, bodies in (
        ("short", corpus(args.size, args.seed)),
        ("long", long_corpus(args.long, args.seed)),
    ):
        if bodies:
            corpora.append((label, bodies, [orjson.dumps(body) for body in bodies]))
    failed = bedrock_section(load_interlingua(), corpora, args)
    for problem in failed:
        print(problem)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
