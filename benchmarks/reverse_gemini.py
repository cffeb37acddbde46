"""Conversion throughput, gemini → openai-chat (a generateContent client, an OpenAI backend):
interlingua's fused pass, its two-step path, and LiteLLM's own generateContent → Chat
translation.

The corpora are ``convert.py``'s (``openai_corpus``: 2,000 short bodies, 200 long
conversations), each body written to a generateContent request by interlingua's two-step path,
so the numbers compare with the other directions'. Every row is checked on every body before
the timing (``convert.check_rows``: no exception, no tool call, result or image lost, a slice
of outputs valid OpenAI Chat requests), then timed interleaved, medians over slices
(``convert.time_rows``).

LiteLLM's row is what its ``/v1beta/models/{model}:generateContent`` endpoint runs for a model
it serves through Chat Completions (``GenerateContentToCompletionHandler``):
``GoogleGenAIAdapter.translate_generate_content_to_completion`` with the body's contents,
its ``generationConfig`` as the config and its other fields as keyword arguments. It reads
an inline image only under the snake_case ``inline_data`` (the REST body's ``inlineData`` is
left out) and gives every call of a function the one id ``call_<name>``, so it fails the
check; its row is then timed all the same, reported as unchecked (the ratio is against a
translation that does less).

    python benchmarks/convert.py --gemini-reverse-only [--size 2000] [--long 200]
"""

from __future__ import annotations

import argparse
import functools
import importlib
import importlib.metadata
import json
import os
from collections import Counter
from collections.abc import Callable
from typing import Any

import jsonschema_rs
import orjson
from convert import (
    FORMATS_DIR,
    LITELLM_OFFLINE,
    SOURCE,
    Convert,
    Corpus,
    Json,
    TargetRows,
    carried_out,
    carried_out_chat,
    check_rows,
    pair_section,
)

GEMINI = "gemini"
CHAT = "openai-chat"
# The model LiteLLM is told it translates for (the name only: no provider field is added).
LITELLM_MODEL = "gpt-4o"


def load_litellm() -> tuple[str, Callable[[Json], Json]] | str:
    """LiteLLM's generateContent → Chat translation (see the module's docstring)."""
    os.environ.update(LITELLM_OFFLINE)
    try:
        version = importlib.metadata.version("litellm")
        module = importlib.import_module("litellm.google_genai.adapters.transformation")
    except ImportError as error:
        return f"LiteLLM is not importable ({error}): its generateContent → Chat row is skipped"
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

    return version, to_chat


def gemini_corpora(convert: Convert, corpora: list[Corpus]) -> list[Corpus]:
    """The corpora in Gemini's format: each OpenAI Chat body as interlingua's two-step path
    writes it to generateContent (the same bodies, so the directions' numbers compare)."""
    found: list[Corpus] = []
    for label, bodies, _lines in corpora:
        written = [
            convert(body, source=SOURCE, target=GEMINI, fused=False).output for body in bodies
        ]
        found.append((label, written, [orjson.dumps(body) for body in written]))
    return found


def carried_in(body: Json) -> Counter[str]:
    """Tool calls, tool results and images in a generateContent request body."""
    return carried_out(GEMINI, body)


def rows(
    convert: Convert, corpora: list[Corpus], check_slice: int
) -> tuple[TargetRows, list[Corpus]]:
    """The rows (interlingua fused and two-step, LiteLLM's translation) over the corpora in
    Gemini's format, each checked on every body first; LiteLLM's, failing the check, timed
    unchecked and said so."""
    litellm = load_litellm()
    fused = functools.partial(convert, source=GEMINI, target=CHAT)
    candidates: list[tuple[str, str, Callable[[Json], Any]]] = [
        ("fused", f"interlingua {GEMINI} → {CHAT}", fused),
        (
            "two-step",
            f"interlingua {GEMINI} → {CHAT}, two-step",
            functools.partial(fused, fused=False),
        ),
    ]
    if not isinstance(litellm, str):
        candidates.append(("litellm", f"LiteLLM {litellm[0]} generateContent → Chat", litellm[1]))
    schema = json.loads((FORMATS_DIR / CHAT / "request.json").read_text("utf-8"))
    found = TargetRows(CHAT, [], {}, [litellm] if isinstance(litellm, str) else [], [])
    written = gemini_corpora(convert, corpora)
    checked = check_rows(
        found,
        candidates,
        written,
        check_slice,
        wire=jsonschema_rs.validator_for(schema),
        kind="OpenAI Chat",
        carried_in=carried_in,
        carried_out=carried_out_chat,
    )
    if not isinstance(litellm, str) and "litellm" not in checked.names:
        # The baseline's own failure is none of this section's: reported; a translation that
        # loses a part is timed all the same, unchecked (one that raises is not).
        name = f"LiteLLM {litellm[0]} generateContent → Chat"
        (problem,) = [p for p in checked.failed if p.startswith(name)]
        checked.failed.remove(problem)
        if " drops " in problem:
            checked.rows.append((f"{name} (unchecked)", litellm[1], False))
            checked.names["litellm"] = f"{name} (unchecked)"
            problem += ": timed unchecked, a translation that does less"
        checked.notes.append(problem)
    return checked, written


def section(convert: Convert | str, corpora: list[Corpus], args: argparse.Namespace) -> list[str]:
    """The gemini → openai-chat section (`convert.pair_section`)."""
    return pair_section(f"{GEMINI} → {CHAT}", rows, convert, corpora, args)
