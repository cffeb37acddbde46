"""Conversion throughput, openai-responses → openai-chat (a Responses client, a Chat backend):
interlingua's fused pass, its two-step path, and LiteLLM's own Responses → Chat translation;
checked and timed as ``reverse.py`` says.

LiteLLM's row is what its Responses API runs for a model it serves through Chat Completions
(``LiteLLMCompletionTransformationHandler.response_api_handler``):
``LiteLLMCompletionResponsesConfig.transform_responses_api_request_to_chat_completion_request``,
the model given, no provider (so no provider-specific field is added), its output the keyword
arguments it hands ``litellm.completion``.

    python benchmarks/convert.py --responses-reverse-only [--size 2000] [--long 200]
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Callable
from typing import Any

import reverse
from convert import (
    Convert,
    Corpus,
    Json,
    TargetRows,
    carried_out_responses,
)

RESPONSES = "openai-responses"


def load_litellm() -> reverse.Baseline:
    """LiteLLM's Responses → Chat translation (see the module's docstring)."""

    def make(module: Any) -> Callable[[Json], Json]:
        config = module.LiteLLMCompletionResponsesConfig

        def to_chat(body: Json) -> Json:
            params = {k: v for k, v in body.items() if k not in ("model", "input")}
            request: Json = config.transform_responses_api_request_to_chat_completion_request(
                model=body["model"],
                input=body["input"],
                responses_api_request=params,
                stream=body.get("stream"),
            )
            return request

        return to_chat

    return reverse.baseline(
        "litellm.responses.litellm_completion_transformation.transformation",
        "Responses → Chat",
        make,
    )


def carried_in(body: Json) -> Counter[str]:
    """Tool calls, tool results and images in a Responses request body."""
    return carried_out_responses(body)


def rows(
    convert: Convert, corpora: list[Corpus], check_slice: int
) -> tuple[TargetRows, list[Corpus]]:
    """The section's rows over the corpora in Responses' format (`reverse.rows`)."""
    return reverse.rows(
        RESPONSES,
        convert,
        corpora,
        check_slice,
        baseline=load_litellm(),
        baseline_name="Responses → Chat",
        carried_in=carried_in,
    )


def section(convert: Convert | str, corpora: list[Corpus], args: argparse.Namespace) -> list[str]:
    """The openai-responses → openai-chat section (`reverse.section`)."""
    return reverse.section(RESPONSES, rows, convert, corpora, args)
