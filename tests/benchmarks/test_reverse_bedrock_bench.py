"""benchmarks/reverse_bedrock.py: the bedrock → openai-chat section's rows carry every call,
result and image of the corpus written in Bedrock's format, and its report gives the fused
pass's ratio to the two-step path's (there is no third-party row, and it says so)."""

from __future__ import annotations

import argparse

import orjson
import pytest

from tests.benchmarks.test_convert_bench import bench_module, bodies


def test_the_bedrock_rows_carry_everything_and_take_the_fused_pass() -> None:
    from interlingua import convert

    bench = bench_module("reverse_bedrock")
    lines = [orjson.dumps(body) for body in bodies(12)]
    found, written = bench.rows(convert, [("short", bodies(12), lines)], 12)
    assert found.failed == []
    convert_bench = bench_module("convert")
    assert [bench_module("convert").carried_out_bedrock(b) for b in written[0][1]] == [
        convert_bench.carried(b) for b in bodies(12)
    ]
    assert set(found.names) == {"fused", "two-step"}
    notes = "\n".join(found.notes)
    assert "openai-chat: 12/12 outputs valid OpenAI Chat requests, fused pass took 11" in notes
    assert bench.NO_BASELINE in notes
    rates = {("short", name): 1000.0 for name in found.names.values()}
    report = bench_module("reverse").section_report("bedrock → openai-chat", found, rates)
    assert report.startswith("## bedrock → openai-chat, dict → dict (the reverse direction)")
    assert "fused vs two-step 1.00x" in report


def test_the_section_is_skipped_without_a_fused_pass(capsys: pytest.CaptureFixture[str]) -> None:
    bench = bench_module("reverse_bedrock")
    args = argparse.Namespace(check_slice=1, chunk=1, repeat=1)
    assert bench.section("interlingua is not importable", [], args) == []
    assert "bedrock → openai-chat: skipped (no interlingua fused pass)" in capsys.readouterr().out
