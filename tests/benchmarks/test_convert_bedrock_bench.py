"""The Bedrock row of ``benchmarks/convert.py``: interlingua's fused and two-step paths and
LiteLLM's Converse translation, each checked before it is timed (it must take every body, keep
every tool call, result and image, and write requests the Converse wire schema accepts), and
a report of the ratios. Nothing here times anything."""

import json
from typing import Any

import orjson
import pytest

from tests.benchmarks.test_convert_bench import bench_module


def _corpora() -> list[tuple[str, list[dict[str, Any]], list[bytes]]]:
    corpus = bench_module("openai_corpus")
    return [
        (label, bodies, [orjson.dumps(body) for body in bodies])
        for label, bodies in (("short", corpus.corpus(30)), ("long", corpus.long_corpus(3)))
    ]


def test_the_bedrock_rows_pass_their_check_and_report_ratios() -> None:
    bench = bench_module("convert")
    found = bench.bedrock_rows(bench.load_interlingua(), _corpora(), 10)
    assert found.failed == []
    assert {"fused", "two-step"} <= set(found.names)
    assert any("fused pass took 33" in note for note in found.notes)
    # 10 of the short corpus and the 3 long conversations go to the wire schema
    assert all("13/13 outputs valid" in note for note in found.notes if "outputs" in note)
    rates = {(label, name): 100.0 for label in ("short", "long") for name in found.names.values()}
    report = found.report(rates)
    assert "short: fused vs two-step 1.00x" in report and "long:" in report


def test_the_litellm_converse_baseline_carries_every_call_result_and_image() -> None:
    pytest.importorskip("litellm")
    bench = bench_module("convert")
    loaded = bench.load_litellm_bedrock()
    assert not isinstance(loaded, str), loaded
    _version, to_bedrock = loaded
    for _label, bodies, _lines in _corpora():
        for body in bodies:
            output = to_bedrock(json.loads(json.dumps(body)))
            assert bench.carried_out_bedrock(output) == bench.carried(body)


def test_a_row_that_drops_content_is_left_out_and_reported() -> None:
    bench = bench_module("convert")

    def dropping(body: Any, *, source: str, target: str, fused: bool = True) -> Any:
        return {"messages": []}

    found = bench.bedrock_rows(dropping, _corpora(), 10)
    assert "fused" not in found.names
    assert any("drops a tool call, result or image" in problem for problem in found.failed)
