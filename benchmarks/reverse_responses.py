"""Conversion throughput, openai-responses → openai-chat (a Responses client, a Chat backend):
interlingua's fused pass, its two-step path, and LiteLLM's own Responses → Chat translation.

The corpora are `benchmarks/convert.py`'s (short bodies and long conversations), written in
Responses' format by interlingua's two-step path, so the numbers compare with the other
sections. LiteLLM's row is what its Responses API runs for a model it serves through Chat
Completions (`LiteLLMCompletionTransformationHandler.response_api_handler`):
``LiteLLMCompletionResponsesConfig.transform_responses_api_request_to_chat_completion_request``,
the model given, no provider (so no provider-specific field is added), its output the keyword
arguments it hands ``litellm.completion``. Every row is checked on every body first (it must not
raise nor lose a tool call, a result or an image) and a slice of its outputs goes to Chat's wire
schema; then the rows are timed interleaved (medians), as convert.py times its rows.

    python benchmarks/convert.py --responses-reverse-only [--size 2000] [--long 200]
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
    carried_out_chat,
    carried_out_responses,
    check_rows,
    pair_section,
)

RESPONSES = "openai-responses"
CHAT = "openai-chat"


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


def responses_corpora(convert: Convert, corpora: list[Corpus]) -> list[Corpus]:
    """The corpora in Responses' format: each OpenAI Chat body as interlingua's two-step path
    writes it."""
    found: list[Corpus] = []
    for label, bodies, _lines in corpora:
        written = [
            convert(body, source=SOURCE, target=RESPONSES, fused=False).output for body in bodies
        ]
        found.append((label, written, [orjson.dumps(body) for body in written]))
    return found


def carried_in(body: Json) -> Counter[str]:
    """Tool calls, tool results and images in a Responses request body."""
    return carried_out_responses(body)


def rows(
    convert: Convert, corpora: list[Corpus], check_slice: int
) -> tuple[TargetRows, list[Corpus]]:
    """The rows (interlingua fused and two-step, LiteLLM's translation) over the corpora in
    Responses' format, each checked on every body first."""
    litellm = load_litellm()
    fused = functools.partial(convert, source=RESPONSES, target=CHAT)
    candidates: list[tuple[str, str, Callable[[Json], Any]]] = [
        ("fused", f"interlingua {RESPONSES} → {CHAT}", fused),
        (
            "two-step",
            f"interlingua {RESPONSES} → {CHAT}, two-step",
            functools.partial(fused, fused=False),
        ),
    ]
    if not isinstance(litellm, str):
        candidates.append(("litellm", f"LiteLLM {litellm[0]} Responses → Chat", litellm[1]))
    schema = json.loads((FORMATS_DIR / CHAT / "request.json").read_text("utf-8"))
    found = TargetRows(CHAT, [], {}, [litellm] if isinstance(litellm, str) else [], [])
    written = responses_corpora(convert, corpora)
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
    return checked, written


def section(convert: Convert | str, corpora: list[Corpus], args: argparse.Namespace) -> list[str]:
    """The openai-responses → openai-chat section (`convert.pair_section`)."""
    return pair_section(f"{RESPONSES} → {CHAT}", rows, convert, corpora, args)
