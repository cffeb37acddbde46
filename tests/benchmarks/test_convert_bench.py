"""The conversion benchmark's corpus and baselines: valid, reproducible, and what they claim.

``benchmarks/openai_corpus.py`` must produce OpenAI Chat request bodies the wire schema
accepts, with tool calls that their results answer, the same for the same seed. The LiteLLM
baseline of ``benchmarks/convert.py`` must carry every tool call, result and image (else the
ratios compare unequal work); it is skipped when LiteLLM is not installed. Nothing here times
anything.
"""

import base64
import functools
import importlib.util
import json
import re
import sys
from collections import Counter
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from interlingua.generated.pairs import PAIRS

ROOT = Path(__file__).resolve().parents[2]
BENCHMARKS = ROOT / "benchmarks"
WIRE = ROOT / "schemas" / "formats" / "openai-chat" / "request.json"


def bench_module(name: str) -> ModuleType:
    """A module of ``benchmarks/``, imported the way ``python benchmarks/<script>.py`` does."""
    if str(BENCHMARKS) not in sys.path:
        sys.path.insert(0, str(BENCHMARKS))
    return importlib.import_module(name)


@cache
def bodies(size: int, seed: int = 0) -> list[dict[str, Any]]:
    generated: list[dict[str, Any]] = bench_module("openai_corpus").corpus(size, seed)
    return generated


def test_every_body_is_valid_against_the_openai_chat_wire_schema() -> None:
    validator = Draft202012Validator(json.loads(WIRE.read_text(encoding="utf-8")))
    problems = [
        f"body {index}: {error.json_path}: {error.message[:200]}"
        for index, body in enumerate(bodies(50))
        for error in validator.iter_errors(body)
    ]
    assert problems == []


def test_the_corpus_is_reproducible_and_prefix_stable() -> None:
    module = bench_module("openai_corpus")
    assert module.corpus(50) == bodies(50)
    assert module.corpus(20) == bodies(50)[:20]
    assert module.corpus(20, seed=1) != bodies(50)[:20]


def test_tool_calls_are_answered_once_in_order_and_name_declared_tools() -> None:
    for index, body in enumerate(bodies(200)):
        declared = {tool["function"]["name"] for tool in body.get("tools", ())}
        seen: set[str] = set()
        pending: list[str] = []
        for message in body["messages"]:
            if message["role"] == "tool":
                assert pending and message["tool_call_id"] == pending.pop(0), index
                continue
            assert pending == [], f"body {index}: unanswered calls {pending}"
            for call in message.get("tool_calls", ()):
                assert call["id"] not in seen, index
                assert call["function"]["name"] in declared, index
                assert isinstance(json.loads(call["function"]["arguments"]), dict), index
                seen.add(call["id"])
                pending.append(call["id"])
        choice = body.get("tool_choice")
        if isinstance(choice, dict):
            assert choice["function"]["name"] in declared, index
        assert "tool_choice" not in body or declared, index


def test_images_are_small_base64_data_urls() -> None:
    urls = [
        part["image_url"]["url"]
        for body in bodies(200)
        for message in body["messages"]
        if isinstance(message.get("content"), list)
        for part in message["content"]
        if part["type"] == "image_url"
    ]
    assert urls
    for url in urls:
        header, data = url.split(",", 1)
        assert header in {f"data:image/{kind};base64" for kind in ("png", "jpeg", "webp", "gif")}
        assert 96 < len(base64.b64decode(data, validate=True)) < 2048


def test_the_mix_has_what_a_gateway_sees() -> None:
    counts: Counter[str] = Counter()
    for body in bodies(200):
        counts.update(key for key in body if key not in ("model", "messages"))
        roles = [message["role"] for message in body["messages"]]
        counts.update(f"role {role}" for role in set(roles))
        counts["multi-turn"] += roles.count("user") > 1
        counts["parallel calls"] += any(
            len(message.get("tool_calls", ())) > 1 for message in body["messages"]
        )
        counts["images"] += any(
            isinstance(message.get("content"), list)
            and any(part["type"] == "image_url" for part in message["content"])
            for message in body["messages"]
        )
    for feature in (
        "tools",
        "tool_choice",
        "parallel_tool_calls",
        "response_format",
        "max_tokens",
        "max_completion_tokens",
        "temperature",
        "role system",
        "role developer",
        "role tool",
        "multi-turn",
        "parallel calls",
        "images",
    ):
        assert counts[feature] >= 5, (feature, counts)
    sizes = [len(json.dumps(body)) for body in bodies(200)]
    assert 2048 < sum(sizes) / len(sizes) < 16384


def test_long_conversations_are_long_valid_and_hold_images_and_parallel_calls() -> None:
    module = bench_module("openai_corpus")
    validator = Draft202012Validator(json.loads(WIRE.read_text(encoding="utf-8")))
    long = module.long_corpus(20)
    assert long == module.long_corpus(20)
    for body in long:
        assert len(body["messages"]) >= 30
        assert list(validator.iter_errors(body)) == []
        messages = body["messages"]
        assert any(len(m.get("tool_calls") or ()) > 1 for m in messages)
        assert any(
            isinstance(m.get("content"), list)
            and any(p["type"] == "image_url" for p in m["content"])
            for m in messages
        )


def test_the_litellm_baseline_carries_every_call_result_and_image() -> None:
    pytest.importorskip("litellm")
    bench = bench_module("convert")
    loaded = bench.load_litellm()
    assert not isinstance(loaded, str), loaded
    _version, translators = loaded
    for target in bench.TARGETS:
        for body in bodies(30):
            output = translators[target](json.loads(json.dumps(body)))
            assert bench.carried_out(target, output) == bench.carried(body)


def test_the_benchmark_names_the_interlingua_api_it_needs() -> None:
    bench = bench_module("convert")
    loaded = bench.load_interlingua()
    if isinstance(loaded, str):
        assert "interlingua.conversion.converter" in loaded
    else:
        assert callable(loaded)


def test_the_report_with_a_stand_in_convert(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The interlingua rows, ratios and loss counts, with LiteLLM standing in for convert."""
    pytest.importorskip("litellm")
    import interlingua

    bench = bench_module("convert")
    loaded = bench.load_litellm()
    assert not isinstance(loaded, str), loaded
    translators = loaded[1]

    class Result:
        def __init__(self, output: dict[str, Any]) -> None:
            self.output = output
            self.losses = ({"code": "stand_in", "pointer": ""},)

    def stand_in(
        payload: dict[str, Any], *, source: str, target: str, _data_checked: bool = False
    ) -> Result:
        assert source == "openai-chat"
        return Result(translators[target](payload))

    monkeypatch.setattr(interlingua, "convert", stand_in, raising=False)
    monkeypatch.setattr(
        sys,
        "argv",
        ["convert.py", "--size", "12", "--long", "2", "--repeat", "1", "--check-slice", "4"],
    )
    bench.main()
    report = capsys.readouterr().out
    for target in bench.TARGETS:
        assert f"| interlingua {target}, dict → dict |" in report
        assert f"| interlingua {target}, bytes → bytes |" in report
        assert f"{target}: interlingua vs LiteLLM, dict → dict: " in report
        assert f"{target}: interlingua bytes → bytes vs the orjson floor: " in report
        assert f"{target}: interlingua vs LiteLLM, dict → dict (long conversations): " in report
        assert f"| interlingua {target}, dict → dict, just parsed |" in report
        assert f"{target}: the same, each body converted just parsed: " in report
        assert (
            f"{target}: the same, each body converted just parsed (long conversations): " in report
        )
    assert "dict → dict: 12 losses over the corpus (stand_in 12)" in report
    assert "dict → dict: 2 losses over the long corpus (stand_in 2)" in report
    assert "2 long OpenAI Chat conversations (images, parallel tool calls), 3" in report
    assert "drops" not in report


def test_a_small_corpus_is_timed_in_four_slices_at_least() -> None:
    bench = bench_module("convert")
    assert bench.slice_size(2000, 250) == 250
    assert bench.slice_size(200, 250) == 50  # the long corpus: interleaved with the short one
    assert bench.slice_size(2, 250) == 1


def test_the_just_parsed_rows_time_the_conversion_of_a_freshly_parsed_body(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each body is parsed right before the function gets it, and only the function's time
    counts: with a clock only the function moves, the time is one tick a body."""
    bench = bench_module("convert")
    ticks = [0.0]
    monkeypatch.setattr(bench.time, "perf_counter", lambda: ticks[0])
    given: list[Any] = []

    def convert(body: Any) -> None:
        given.append(body)
        ticks[0] += 1.0

    lines = [json.dumps(body).encode() for body in bodies(3)]
    assert bench.seconds_just_parsed(convert, lines) == 3.0
    assert given == bodies(3) and all(a is not b for a, b in zip(given, bodies(3), strict=True))


def test_a_converter_that_raises_is_reported_and_fails_the_run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import interlingua

    bench = bench_module("convert")

    def broken(payload: dict[str, Any], *, source: str, target: str) -> Any:
        raise ValueError(f"no format {target!r}")

    monkeypatch.setattr(interlingua, "convert", broken, raising=False)
    monkeypatch.setattr(bench, "load_litellm", lambda: "LiteLLM left out")
    monkeypatch.setattr(sys, "argv", ["convert.py", "--size", "5", "--long", "1", "--repeat", "1"])
    with pytest.raises(SystemExit) as exit_info:
        bench.main()
    assert exit_info.value.code == 1
    report = capsys.readouterr().out
    assert (
        "interlingua gemini, dict → dict failed on short body 0: ValueError: no format 'gemini'"
        in report
    )
    assert "| interlingua gemini" not in report
    assert "| floor: orjson loads + dumps |" in report


def test_the_responses_rows_carry_everything_and_take_the_fused_pass() -> None:
    """The Responses section: interlingua's rows (fused and two-step) and LiteLLM's bridge,
    when it is installed, each carry every call, result and image of a small corpus and give
    valid Responses requests; the fused pass takes every body; the report names the pair."""
    import orjson

    from interlingua import convert

    bench = bench_module("convert")
    lines = [orjson.dumps(body) for body in bodies(12)]
    found = bench.responses_rows(convert, [("short", bodies(12), lines)], 12)
    assert found.failed == []
    expected = {"fused", "two-step"} | ({"litellm"} if has_litellm() else set())
    assert set(found.names) == expected
    assert (
        f"{bench.RESPONSES}, dict → dict: 12/12 outputs valid Responses requests, fused pass took 12"
        in "\n".join(found.notes)
    )
    rates = {("short", name): 1000.0 for name in found.names.values()}
    report = found.report(rates)
    assert report.startswith("## openai-chat → openai-responses, dict → dict")
    assert "fused vs two-step 1.00x" in report


def has_litellm() -> bool:
    """Whether LiteLLM (the baselines) is installed: found, not imported (a skip mark asks at
    collection, and importing it takes seconds)."""
    return importlib.util.find_spec("litellm") is not None


def test_the_recorded_share_names_every_fused_pair_and_counts_its_sources_bodies() -> None:
    bench = bench_module("convert")
    convert = bench.load_interlingua()
    assert not isinstance(convert, str), convert
    line = bench.recorded_share(convert)
    counts = re.findall(r"([\w-]+) → ([\w-]+) (\d+)/(\d+)", line)
    assert {(source, target) for source, target, _, _ in counts} == set(PAIRS)
    for source, _target, taken, total in counts:
        # Each source has recorded bodies, and each pair takes some of them, not all.
        assert 0 < int(taken) < int(total), (source, taken, total)
    # Without the fused passes, none is taken.
    unfused = functools.partial(convert, fused=False)
    assert set(re.findall(r" (\d+)/", bench.recorded_share(unfused))) == {"0"}
