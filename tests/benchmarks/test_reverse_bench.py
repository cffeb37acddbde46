"""benchmarks/reverse.py and the four reverse sections (``reverse_<source>.py``): each
section's rows carry every call, result and image of the corpus written in its source's
format, take the fused pass, and its report names the pair; a baseline that loses a part is
timed unchecked and said so, one that raises is reported and not timed (no timing asserted)."""

from __future__ import annotations

import argparse
from collections import Counter
from typing import Any

import orjson
import pytest

from interlingua import convert
from tests.benchmarks.test_convert_bench import bench_module, bodies, has_litellm

# Each section's module, its source, and how many of 12 short bodies its fused pass takes
# (Bedrock's: all but the one asking for structured output, which Converse carries otherwise).
SECTIONS = [
    ("reverse_anthropic", "anthropic", 12),
    ("reverse_responses", "openai-responses", 12),
    ("reverse_bedrock", "bedrock", 11),
    ("reverse_gemini", "gemini", 12),
]


def _short(size: int) -> list[tuple[str, list[dict[str, Any]], list[bytes]]]:
    return [("short", bodies(size), [orjson.dumps(body) for body in bodies(size)])]


@pytest.mark.parametrize(("module", "source", "taken"), SECTIONS)
def test_the_rows_carry_everything_and_take_the_fused_pass(
    module: str, source: str, taken: int
) -> None:
    bench = bench_module(module)
    found, written = bench.rows(convert, _short(12), 12)
    assert found.failed == []
    carried = bench_module("convert").carried
    assert [bench.carried_in(b) for b in written[0][1]] == [carried(b) for b in bodies(12)]
    baseline = has_litellm() and module != "reverse_bedrock"
    assert set(found.names) == {"fused", "two-step"} | ({"litellm"} if baseline else set())
    notes = "\n".join(found.notes)
    assert (
        f"openai-chat: 12/12 outputs valid OpenAI Chat requests, fused pass took {taken}" in notes
    )
    rates = {("short", name): 1000.0 for name in found.names.values()}
    report = bench_module("reverse").section_report(f"{source} → openai-chat", found, rates)
    assert report.startswith(f"## {source} → openai-chat, dict → dict (the reverse direction)")
    assert "fused vs two-step 1.00x" in report


@pytest.mark.parametrize(("module", "source", "taken"), SECTIONS)
def test_the_section_is_skipped_without_a_fused_pass(
    module: str, source: str, taken: int, capsys: pytest.CaptureFixture[str]
) -> None:
    args = argparse.Namespace(check_slice=1, chunk=1, repeat=1)
    assert bench_module(module).section("interlingua is not importable", [], args) == []
    assert f"{source} → openai-chat: skipped (no interlingua fused pass)" in capsys.readouterr().out


def test_bedrock_says_it_has_no_baseline() -> None:
    bench = bench_module("reverse_bedrock")
    found, _written = bench.rows(convert, _short(2), 2)
    assert bench.NO_BASELINE in found.notes


@pytest.mark.skipif(not has_litellm(), reason="LiteLLM is not installed")
def test_litellms_gemini_translation_loses_the_inline_images_and_is_timed_unchecked() -> None:
    bench = bench_module("reverse_gemini")
    loaded = bench.load_litellm()
    assert not isinstance(loaded, str)
    body = {
        "contents": [
            {
                "role": "user",
                "parts": [{"text": "x"}, {"inlineData": {"mimeType": "image/png", "data": "AA=="}}],
            }
        ]
    }
    out = loaded[1](body)
    assert out["messages"] == [{"role": "user", "content": "x"}]  # the image left out
    with_image = [b for b in bodies(40) if bench_module("convert").carried(b)["images"]][:1]
    found, _written = bench.rows(
        convert, [("short", with_image, [orjson.dumps(b) for b in with_image])], 1
    )
    assert found.failed == []
    assert found.names["litellm"].endswith("(unchecked)")
    assert any("drops a tool call, result or image" in note for note in found.notes)


def test_a_baseline_that_raises_is_reported_not_timed(monkeypatch: pytest.MonkeyPatch) -> None:
    bench = bench_module("reverse_gemini")

    def broken(_body: Any) -> Any:
        raise KeyError("contents")

    monkeypatch.setattr(bench, "load_litellm", lambda: ("0", broken))
    found, _written = bench.rows(convert, _short(2), 2)
    assert found.failed == [] and "litellm" not in found.names
    assert any("failed on short body 0: KeyError" in note for note in found.notes)


def test_without_litellm_the_section_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    bench = bench_module("reverse_anthropic")
    monkeypatch.setattr(bench, "load_litellm", lambda: "LiteLLM is not importable (x)")
    found, _written = bench.rows(convert, _short(2), 2)
    assert set(found.names) == {"fused", "two-step"}
    assert "LiteLLM is not importable (x)" in found.notes


def test_carried_in_counts_a_gemini_body() -> None:
    bench = bench_module("reverse_gemini")
    body = {
        "contents": [
            {"parts": [{"inlineData": {"mimeType": "image/png", "data": "AA=="}}]},
            {"role": "model", "parts": [{"functionCall": {"name": "f"}}]},
            {"parts": [{"functionResponse": {"name": "f", "response": {}}}]},
        ]
    }
    assert bench.carried_in(body) == Counter({"tool calls": 1, "tool results": 1, "images": 1})
