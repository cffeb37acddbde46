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
import importlib
import importlib.metadata
import os
from collections import Counter
from collections.abc import Callable

import reverse
from convert import (
    LITELLM_OFFLINE,
    Convert,
    Corpus,
    Json,
    TargetRows,
    carried_out_responses,
)

RESPONSES = "openai-responses"


def load_litellm() -> tuple[str, Callable[[Json], Json]] | str:
    """LiteLLM's Responses → Chat translation (see the module's docstring)."""
    os.environ.update(LITELLM_OFFLINE)
    try:
        version = importlib.metadata.version("litellm")
        module = importlib.import_module(
            "litellm.responses.litellm_completion_transformation.transformation"
        )
    except ImportError as error:
        return f"LiteLLM is not importable ({error}): its Responses → Chat row is skipped"
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

    return version, to_chat


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
