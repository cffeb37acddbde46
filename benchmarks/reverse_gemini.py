"""Conversion throughput, gemini → openai-chat (a generateContent client, an OpenAI backend):
interlingua's fused pass, its two-step path, and LiteLLM's own generateContent → Chat
translation; checked and timed as ``reverse.py`` says.

LiteLLM's row is what its ``/v1beta/models/{model}:generateContent`` endpoint runs for a model
it serves through Chat Completions (``GenerateContentToCompletionHandler``):
``GoogleGenAIAdapter.translate_generate_content_to_completion`` with the body's contents,
its ``generationConfig`` as the config and its other fields as keyword arguments. It reads
an inline image only under the snake_case ``inline_data`` (the REST body's ``inlineData`` is
left out) and gives every call of a function the one id ``call_<name>``, so it fails the
check; its row is then timed all the same, reported as unchecked.

    python benchmarks/convert.py --gemini-reverse-only [--size 2000] [--long 200]
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Callable
from typing import Any

import reverse
from convert import Convert, Corpus, Json, TargetRows, carried_out

GEMINI = "gemini"
# The model LiteLLM is told it translates for (the name only: no provider field is added).
LITELLM_MODEL = "gpt-4o"


def load_litellm() -> reverse.Baseline:
    """LiteLLM's generateContent → Chat translation (see the module's docstring)."""

    def make(module: Any) -> Callable[[Json], Json]:
        adapter = module.GoogleGenAIAdapter()

        def to_chat(body: Json) -> Json:
            others = {k: v for k, v in body.items() if k not in ("contents", "generationConfig")}
            request: Json = adapter.translate_generate_content_to_completion(
                model=LITELLM_MODEL,
                contents=body["contents"],
                config=body.get("generationConfig"),
                **others,
            )
            return request

        return to_chat

    return reverse.baseline(
        "litellm.google_genai.adapters.transformation", "generateContent → Chat", make
    )


def carried_in(body: Json) -> Counter[str]:
    """Tool calls, tool results and images in a generateContent request body."""
    return carried_out(GEMINI, body)


def rows(
    convert: Convert, corpora: list[Corpus], check_slice: int
) -> tuple[TargetRows, list[Corpus]]:
    """The section's rows over the corpora in Gemini's format (`reverse.rows`)."""
    return reverse.rows(
        GEMINI,
        convert,
        corpora,
        check_slice,
        baseline=load_litellm(),
        baseline_name="generateContent → Chat",
        carried_in=carried_in,
    )


def section(convert: Convert | str, corpora: list[Corpus], args: argparse.Namespace) -> list[str]:
    """The gemini → openai-chat section (`reverse.section`)."""
    return reverse.section(GEMINI, rows, convert, corpora, args)
