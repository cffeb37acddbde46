"""Conversion throughput, anthropic → openai-chat (an Anthropic client, an OpenAI backend):
interlingua's fused pass, its two-step path, and LiteLLM's own Anthropic adapter; checked and
timed as ``reverse.py`` says.

LiteLLM's row is the translation its Anthropic ``/v1/messages`` adapter runs before handing
the body to an OpenAI-compatible backend:
``LiteLLMAnthropicMessagesAdapter.translate_anthropic_to_openai`` (its tool-name map, the
second value, left aside).

    python benchmarks/convert.py --reverse-only [--size 2000] [--long 200]
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Callable
from typing import Any

import reverse
from convert import Convert, Corpus, Json, TargetRows, walk

ANTHROPIC = "anthropic"


def load_litellm() -> reverse.Baseline:
    """LiteLLM's Anthropic → Chat translation (see the module's docstring)."""

    def make(module: Any) -> Callable[[Json], Json]:
        adapter = module.LiteLLMAnthropicMessagesAdapter()

        def to_openai_chat(body: Json) -> Json:
            request, _names = adapter.translate_anthropic_to_openai(body)
            return dict(request)

        return to_openai_chat

    return reverse.baseline(
        "litellm.llms.anthropic.pass_through.adapters.transformation", "reverse", make
    )


def carried_in(body: Json) -> Counter[str]:
    """Tool calls, tool results and images in an Anthropic Messages request body."""
    counts: Counter[str] = Counter()
    for node in walk(body["messages"]):
        kind = node.get("type")
        counts["tool calls"] += kind == "tool_use"
        counts["tool results"] += kind == "tool_result"
        counts["images"] += kind == "image"
    return counts


def rows(
    convert: Convert, corpora: list[Corpus], check_slice: int
) -> tuple[TargetRows, list[Corpus]]:
    """The section's rows over the corpora in Anthropic's format (`reverse.rows`)."""
    return reverse.rows(
        ANTHROPIC,
        convert,
        corpora,
        check_slice,
        baseline=load_litellm(),
        baseline_name=f"Anthropic adapter → {reverse.TARGET}",
        carried_in=carried_in,
    )


def section(convert: Convert | str, corpora: list[Corpus], args: argparse.Namespace) -> list[str]:
    """The anthropic → openai-chat section (`reverse.section`)."""
    return reverse.section(ANTHROPIC, rows, convert, corpora, args)
