"""The anthropic → openai-chat pass on the request's settings (issue 16, real traffic): the
reasoning effort in `output_config` (a word both formats take, `@only`), the structured-output
format beside it, `thinking` in each setting its schema names (enabled, adaptive, disabled),
and the keys of those two fields reading leaves behind (`display`, a task budget), reported
dropped in the reader's order: after the tools', before the body's own keys. Output, losses
(pointer, code, reason, order), id map and name map are the two-step path's; what the pass
cannot make the same goes two-step, with the reason."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from interlingua.conversion import ConversionError
from interlingua.conversion.converter import check_wire, convert
from tests.adapters.fused import deep, mutants_taken, refused_alike, same, takes_two_steps
from tests.adapters.test_fused_pairs import ANTHROPIC_BODY

_PAIR = ("anthropic", "openai-chat")
_FORMAT = {"type": "json_schema", "schema": {"type": "object", "properties": {}}}
_SERVER_TOOL = {"type": "bash_20250124", "name": "bash"}  # no canonical tool stands for it


def _body(**fields: Any) -> dict[str, Any]:
    """ANTHROPIC_BODY with a server tool (reported first) and ``fields``."""
    body = {**copy.deepcopy(ANTHROPIC_BODY), **copy.deepcopy(fields)}
    body["tools"] = [*body["tools"], _SERVER_TOOL]
    return body


def _convert(body: dict[str, Any]) -> Any:
    return convert(copy.deepcopy(body), *_PAIR)


# name: a body the pass now takes (each went the two-step way before: the pass took no
# effort, no setting of thinking but `enabled`, no key reading leaves in either field)
SHAPES: dict[str, dict[str, Any]] = {
    "adaptive thinking shown summarized, an effort": _body(
        thinking={"type": "adaptive", "display": "summarized"}, output_config={"effort": "xhigh"}
    ),
    "adaptive thinking alone": _body(thinking={"type": "adaptive"}),
    "adaptive thinking whose display is null (carries nothing)": _body(
        thinking={"type": "adaptive", "display": None}
    ),
    "thinking disabled": _body(thinking={"type": "disabled"}),
    "thinking enabled, shown omitted": _body(
        thinking={"type": "enabled", "budget_tokens": 2048, "display": "omitted"}
    ),
    "thinking with a key its schema does not name": _body(
        thinking={"type": "adaptive", "new_knob": {"a": [1]}}
    ),
    "each effort word": _body(output_config={"effort": "low"}),
    "the top effort": _body(output_config={"effort": "max"}),
    "an effort of null": _body(output_config={"effort": None}),
    "an effort beside a format": _body(output_config={"effort": "medium", "format": _FORMAT}),
    "a task budget (dropped)": _body(
        output_config={"task_budget": {"type": "tokens", "total": 20000, "remaining": 500}}
    ),
    "a task budget, an effort, a format, adaptive thinking shown": _body(
        output_config={
            "format": _FORMAT,
            "task_budget": {"type": "tokens", "total": 9},
            "effort": "high",
            "z~/odd": [1],
        },
        thinking={"type": "adaptive", "display": "summarized"},
    ),
    "an empty output_config": _body(output_config={}),
}


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_settings_take_one_pass_with_the_two_step_answer(name: str) -> None:
    body = SHAPES[name]
    fused = _convert(body)
    two_step = convert(copy.deepcopy(body), *_PAIR, fused=False)
    assert fused.fused and not two_step.fused
    same(fused, two_step)
    check_wire(fused.output, "openai-chat", "request", strict=True)


def test_what_reading_leaves_in_the_settings_is_reported_after_the_tools() -> None:
    """Spelled out once: the server tool (the tools' loss), then `output_config`'s keys, then
    `thinking`'s (its setting, then its other keys), then the body's own (`metadata`); the effort
    goes out as the target's word."""
    body = {
        **SHAPES["a task budget, an effort, a format, adaptive thinking shown"],
        "metadata": {"user_id": "u"},
    }
    result = _convert(body)
    assert result.fused
    assert result.output["reasoning_effort"] == "high"
    assert "thinking" not in result.output
    assert [(x.pointer, x.code) for x in result.losses][:6] == [
        ("/tools/1", "field_dropped"),
        ("/output_config/task_budget", "field_dropped"),
        ("/output_config/z~0~1odd", "field_dropped"),
        ("/thinking/type", "parameter_dropped"),  # adaptive: another setting than a budget
        ("/thinking/display", "field_dropped"),
        ("/metadata", "field_dropped"),
    ]


def test_the_recorded_anthropic_requests_convert_the_same_both_ways() -> None:
    """Every recorded Anthropic request (conformance/real): 45 of the 58 in one pass (the rest hold
    a system message among the turns, which the two-step path reads where it stands, a system
    prompt, a cache breakpoint on media or a call's `caller` outside the pass's shape, or offer a
    hosted tool, which the two-step path reads),
    each with the two-step path's answer, and none refused."""
    root = Path(__file__).resolve().parents[2] / "conformance" / "real"
    manifest = json.loads((root / "manifest.json").read_text(encoding="utf-8"))
    entries = [
        e for e in manifest["bodies"] if e["format"] == "anthropic" and e["kind"] == "request"
    ]
    fused = refused = 0
    for entry in entries:
        body = json.loads((root / entry["file"]).read_text(encoding="utf-8"))
        try:
            two_step = convert(copy.deepcopy(body), *_PAIR, fused=False)
        except ConversionError:  # (the same error both ways: refused_alike)
            refused_alike(body, *_PAIR, validate=True)
            refused += 1
            continue
        result = _convert(body)
        same(result, two_step)
        fused += result.fused
    assert (len(entries), fused, refused) == (58, 45, 0)


# name: (body, the reason the pass gives for sending it the two-step way)
OUTSIDE: dict[str, tuple[dict[str, Any], str]] = {
    "an effort word Anthropic does not take (reading reports it)": (
        _body(output_config={"effort": "minimal"}),
        "effort: a word outside the fused shape",
    ),
    "adaptive thinking with a budget (read as one)": (
        _body(thinking={"type": "adaptive", "budget_tokens": 2048}),
        "thinking: a setting outside the fused shape",
    ),
    "thinking disabled with a budget": (
        _body(thinking={"type": "disabled", "budget_tokens": 2048}),
        "thinking: a setting outside the fused shape",
    ),
    "a setting of thinking its schema does not name": (
        _body(thinking={"type": "later"}),
        "thinking: a setting outside the fused shape",
    ),
}


@pytest.mark.parametrize("name", sorted(OUTSIDE))
def test_settings_outside_the_shape_take_the_two_step_path_and_say_why(
    name: str, caplog: pytest.LogCaptureFixture
) -> None:
    takes_two_steps(*OUTSIDE[name], *_PAIR, caplog)


BAD: dict[str, Any] = {
    "a display of the wrong type": _body(thinking={"type": "adaptive", "display": 7}),
    "an effort of the wrong type": _body(output_config={"effort": 3}),
    "thinking that is not an object": _body(thinking="adaptive"),
    "output_config that is not an object": _body(output_config=["effort"]),
    "thinking enabled without a budget": _body(thinking={"type": "enabled", "display": "omitted"}),
    "a lone surrogate in a task budget": _body(output_config={"task_budget": {"t": "\udc00"}}),
    "a lone surrogate in a key of thinking": _body(thinking={"type": "adaptive", "\ud800": 1}),
    "a task budget nested past the depth limit": _body(output_config={"task_budget": deep(260)}),
}


@pytest.mark.parametrize("validate", [True, False])
@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_settings_get_the_two_step_paths_coded_error(name: str, validate: bool) -> None:
    refused_alike(BAD[name], *_PAIR, validate=validate)


@pytest.mark.parametrize(
    "thinking",
    [
        {"type": "adaptive", "display": "summarized"},
        {"type": "enabled", "budget_tokens": 2048, "display": "omitted"},
    ],
)
def test_every_mutant_of_a_body_with_settings_converts_the_same_both_ways(
    thinking: dict[str, Any],
) -> None:
    """Each value swapped for values of every JSON type, each key deleted, a key added to each
    object, of a body with an effort, a format, a task budget and a thinking setting: the
    same outcome whichever path converts it."""
    body = _body(
        thinking=thinking,
        output_config={"effort": "high", "format": _FORMAT, "task_budget": {"total": 9}},
    )
    assert _convert(body).fused
    assert mutants_taken(body, *_PAIR) > 100
