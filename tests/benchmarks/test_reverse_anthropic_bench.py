"""benchmarks/reverse_anthropic.py: the anthropic → openai-chat section's rows carry
everything, take the fused pass, and its report names the pair (no timing asserted)."""

from __future__ import annotations

import argparse
import importlib

import orjson
import pytest

from interlingua import convert
from tests.benchmarks.test_convert_bench import bench_module, bodies


def _has_litellm() -> bool:
    try:
        importlib.import_module("litellm")
    except ImportError:
        return False
    return True


def test_the_reverse_rows_carry_everything_and_take_the_fused_pass() -> None:
    """The reverse section (anthropic → openai-chat): the corpus written in Anthropic's format,
    interlingua's rows and LiteLLM's Anthropic adapter (when installed) each carry every call,
    result and image; interlingua's give valid OpenAI Chat requests, its fused pass takes the
    bodies of its shape (all but the one asking for structured output here)."""
    bench = bench_module("reverse_anthropic")
    lines = [orjson.dumps(body) for body in bodies(12)]
    found, written = bench.rows(convert, [("short", bodies(12), lines)], 12)
    assert found.failed == []
    assert [bench.carried_in(b) for b in written[0][1]] == [
        bench_module("convert").carried(b) for b in bodies(12)
    ]
    expected = {"fused", "two-step"} | ({"litellm"} if _has_litellm() else set())
    assert set(found.names) == expected
    notes = "\n".join(found.notes)
    assert "openai-chat: 12/12 outputs valid OpenAI Chat requests, fused pass took 12" in notes
    rates = {("short", name): 1000.0 for name in found.names.values()}
    report = bench_module("reverse").section_report("anthropic → openai-chat", found, rates)
    assert report.startswith("## anthropic → openai-chat, dict → dict (the reverse direction)")
    assert "fused vs two-step 1.00x" in report


def test_the_section_is_skipped_without_a_fused_pass(capsys: pytest.CaptureFixture[str]) -> None:
    bench = bench_module("reverse_anthropic")
    args = argparse.Namespace(check_slice=1, chunk=1, repeat=1)
    assert bench.section("interlingua is not importable", [], args) == []
    assert "anthropic → openai-chat: skipped (no interlingua fused pass)" in capsys.readouterr().out
