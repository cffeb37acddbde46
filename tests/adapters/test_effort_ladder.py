"""The reasoning-effort ladder: the canonical `reasoning_effort` takes every rung providers
share (`none` … `max`), each format reads and writes only its own rungs, and a rung a target
lacks is left out and reported (`parameter_dropped`), never written for the provider to refuse.

Before the ladder, OpenAI Chat's `xhigh`/`max` read into a canonical document the canonical
schema refused, and `minimal`/`none` went to Anthropic's `output_config.effort` (low … max),
`XHIGH`/`MAX`/`NONE` to Gemini's `thinkingLevel`, as they were, with no loss reported.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from interlingua.conversion.converter import convert
from tests.adapters.strict import ROOT, problems

LADDER = ["none", "minimal", "low", "medium", "high", "xhigh", "max"]

# The rungs each target takes (its wire schema's, or its provider's where the schema takes
# any word), and where it writes the effort. Bedrock writes Claude's own field, in the model's
# fields Converse passes through, so Claude's rungs.
TAKES = {
    "openai-chat": set(LADDER),
    "openai-responses": {"none", "minimal", "low", "medium", "high", "xhigh"},
    "anthropic": {"low", "medium", "high", "xhigh", "max"},
    "gemini": {"minimal", "low", "medium", "high"},
    "ollama": {"low", "medium", "high"},
    "bedrock": {"low", "medium", "high", "xhigh", "max"},
}

REAL = ROOT / "conformance" / "real"


def _canonical(effort: str) -> dict[str, Any]:
    return {
        "schema_version": 1,
        "model": "m",
        "messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}]}],
        "parameters": {"reasoning_effort": effort, "max_output_tokens": 64},
    }


# Where each target writes the effort.
WHERE: dict[str, tuple[str, ...]] = {
    "openai-chat": ("reasoning_effort",),
    "openai-responses": ("reasoning", "effort"),
    "anthropic": ("output_config", "effort"),
    "gemini": ("generationConfig", "thinkingConfig", "thinkingLevel"),
    "ollama": ("think",),
    "bedrock": ("additionalModelRequestFields", "output_config", "effort"),
}


def _written(output: dict[str, Any], target: str) -> Any:
    """The effort as the target wrote it (None: not written)."""
    found: Any = output
    for key in WHERE[target]:
        found = found.get(key, {}) if isinstance(found, dict) else None
    return found if found != {} else None


@pytest.mark.parametrize("target", sorted(TAKES))
@pytest.mark.parametrize("effort", LADDER)
def test_every_rung_is_written_where_the_target_has_it_and_reported_where_not(
    effort: str, target: str
) -> None:
    result = convert(_canonical(effort), "canonical", target, "request")
    assert problems(result.output, target, "request") == []
    dropped = [
        loss
        for loss in result.losses
        if loss.pointer == "/parameters/reasoning_effort" and loss.code == "parameter_dropped"
    ]
    if effort in TAKES[target]:
        written = _written(result.output, target)
        assert written == (effort.upper() if target == "gemini" else effort)
        assert dropped == []
    else:
        assert _written(result.output, target) is None
        assert len(dropped) == 1, result.losses


@pytest.mark.parametrize("effort", LADDER)
def test_every_rung_is_a_canonical_reasoning_effort(effort: str) -> None:
    body = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
    result = convert({**body, "reasoning_effort": effort}, "openai-chat", "canonical")
    assert result.output["parameters"]["reasoning_effort"] == effort
    assert not result.losses
    assert problems(result.output, "canonical", "request") == []


@pytest.mark.parametrize(
    ("path", "fmt", "effort"),
    [
        (
            "openai-chat/request/pydantic-ai--test-zai-test-zai-glm-5-3-reasoning-effort-0.json",
            "openai-chat",
            "max",
        ),
        (
            "anthropic/request/pydantic-ai--test-anthropic-test-anthropic-opus-5-features-0.json",
            "anthropic",
            "xhigh",
        ),
    ],
)
def test_the_recorded_bodies_with_the_top_rungs_read_into_valid_canonical_documents(
    path: str, fmt: str, effort: str
) -> None:
    body = json.loads((REAL / path).read_text(encoding="utf-8"))
    result = convert(copy.deepcopy(body), fmt, "canonical")
    assert result.output["parameters"]["reasoning_effort"] == effort
    assert problems(result.output, "canonical", "request") == []
    assert convert(result.output, "canonical", fmt).output == body  # exact, by round-trip data


def test_glms_max_goes_to_responses_left_out_and_reported_the_same_both_paths() -> None:
    path = "openai-chat/request/pydantic-ai--test-zai-test-zai-glm-5-3-reasoning-effort-0.json"
    body = json.loads((REAL / path).read_text(encoding="utf-8"))
    fused = convert(copy.deepcopy(body), "openai-chat", "openai-responses")
    two_step = convert(copy.deepcopy(body), "openai-chat", "openai-responses", fused=False)
    assert not fused.fused  # a word Responses lacks: the two-step path, which reports it
    assert (fused.output, fused.losses) == (two_step.output, two_step.losses)
    assert "reasoning" not in fused.output
    assert problems(fused.output, "openai-responses", "request") == []
    assert [(loss.pointer, loss.code) for loss in fused.losses if "reasoning" in loss.pointer] == [
        ("/parameters/reasoning_effort", "parameter_dropped")
    ]


@pytest.mark.parametrize(
    ("source", "body", "target", "where"),
    [
        ("openai-chat", {"reasoning_effort": "ultra"}, "anthropic", "/reasoning_effort"),
        (
            "gemini",
            {"generationConfig": {"thinkingConfig": {"thinkingLevel": "ULTRA"}}},
            "openai-chat",
            "/generationConfig/thinkingConfig/thinkingLevel",
        ),
    ],
)
def test_a_word_outside_the_ladder_is_reported_when_read_for_another_format_and_kept_for_its_own(
    source: str, body: dict[str, Any], target: str, where: str
) -> None:
    message = (
        {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
        if source == "openai-chat"
        else {"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}
    )
    given = {**message, **body}
    read = convert(copy.deepcopy(given), source, "canonical")
    assert "reasoning_effort" not in read.output.get("parameters", {})
    assert convert(read.output, "canonical", source).output == given  # round-trip data
    crossed = convert(copy.deepcopy(given), source, target)
    dropped = [
        (loss.pointer, loss.code) for loss in crossed.losses if "placeholder" not in loss.code
    ]
    assert dropped == [(where, "parameter_dropped")]  # beside the placeholders the target needs
    assert problems(crossed.output, target, "request") == []


@pytest.mark.parametrize(
    ("source", "target"),
    [
        ("openai-chat", "anthropic"),
        ("openai-chat", "openai-responses"),
        ("openai-chat", "bedrock"),
        ("openai-chat", "gemini"),
        ("openai-responses", "openai-chat"),
    ],
)
@pytest.mark.parametrize("effort", [*LADDER, "ultra"])
def test_the_fused_pass_and_the_two_step_path_agree_on_every_rung(
    source: str, target: str, effort: str
) -> None:
    if source == "openai-chat":
        body: dict[str, Any] = {
            "model": "m",
            "messages": [{"role": "user", "content": "hi"}],
            "reasoning_effort": effort,
        }
    else:
        # (`max` and `ultra` are words Responses lacks: read, both paths drop them, reported)
        body = {"model": "m", "input": "hi", "reasoning": {"effort": effort}}
    fused = convert(copy.deepcopy(body), source, target)
    two_step = convert(copy.deepcopy(body), source, target, fused=False)
    assert fused.output == two_step.output
    assert fused.losses == two_step.losses
    assert (fused.id_map, fused.name_map) == (two_step.id_map, two_step.name_map)
    assert problems(fused.output, target, "request") == []


def test_bedrocks_effort_is_claudes_own_field_both_ways() -> None:
    """Bedrock writes the effort where it writes Claude's thinking and top_k: Claude's
    `output_config.effort` in `additionalModelRequestFields`, which Converse passes through;
    a body recorded from traffic (pydantic-ai's adaptive-effort test) gives its effort to Chat,
    where it was reported as dropped before."""
    chat = {
        "model": "m",
        "reasoning_effort": "high",
        "messages": [{"role": "user", "content": "hi"}],
    }
    fused = convert(copy.deepcopy(chat), "openai-chat", "bedrock")
    two_step = convert(copy.deepcopy(chat), "openai-chat", "bedrock", fused=False)
    assert fused.fused and (fused.output, fused.losses) == (two_step.output, two_step.losses)
    assert fused.output["additionalModelRequestFields"] == {"output_config": {"effort": "high"}}
    assert problems(fused.output, "bedrock", "request") == []
    back = convert(fused.output, "bedrock", "openai-chat")
    assert back.output["reasoning_effort"] == "high"
    path = "bedrock/request/pydantic-ai--test-bedrock-test-bedrock-model-thinking-part-anthropic-adaptive-effort-1.json"
    body = json.loads((REAL / path).read_text(encoding="utf-8"))
    result = convert(body, "bedrock", "openai-chat")
    assert result.output["reasoning_effort"] == "high"
    pointers = [loss.pointer for loss in result.losses]
    assert "/additionalModelRequestFields/output_config" not in pointers
    assert "/additionalModelRequestFields/thinking/type" in pointers  # adaptive: not read
