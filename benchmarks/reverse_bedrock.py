"""Conversion throughput, bedrock → openai-chat (a Converse client, an OpenAI backend): the
fused pair converter against interlingua's two-step path, checked and timed as ``reverse.py``
says.

There is no third-party baseline: LiteLLM 1.x translates OpenAI requests into Converse (and
Converse responses back), but has no translation of a Converse *request* into an OpenAI one
(its proxy passes Bedrock requests through as they are). The ratio reported is the fused
pass's to the two-step path's.

    python benchmarks/convert.py --bedrock-reverse-only [--size 2000] [--long 200]
"""

from __future__ import annotations

import argparse

import reverse
from convert import Convert, Corpus, TargetRows, carried_out_bedrock

BEDROCK = "bedrock"
# A Converse body's calls, results and images are counted as a Converse output's.
carried_in = carried_out_bedrock
NO_BASELINE = (
    "no third-party row: LiteLLM has no translation of a Converse request into an OpenAI one"
)


def rows(
    convert: Convert, corpora: list[Corpus], check_slice: int
) -> tuple[TargetRows, list[Corpus]]:
    """The section's rows over the corpora in Bedrock's format (`reverse.rows`)."""
    return reverse.rows(
        BEDROCK,
        convert,
        corpora,
        check_slice,
        baseline=NO_BASELINE,
        baseline_name="",
        carried_in=carried_in,
    )


def section(convert: Convert | str, corpora: list[Corpus], args: argparse.Namespace) -> list[str]:
    """The bedrock → openai-chat section (`reverse.section`)."""
    return reverse.section(BEDROCK, rows, convert, corpora, args)
