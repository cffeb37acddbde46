"""Stream translation throughput and memory: interlingua against LiteLLM's stream iterator and
the orjson floor.

One long Anthropic Messages stream (SSE text, ``--chunks`` events: a text block of many small
deltas, then a tool call whose arguments arrive in fragments) is translated to an OpenAI Chat
Completions stream, in one process:

* interlingua: ``StreamTranslator("anthropic", "openai-chat")`` fed the raw lines, which parses
  each SSE event, reads it into canonical events, writes OpenAI chunks and frames them as SSE
  text (parse + translate + serialise);
* LiteLLM (if installed, ``pip install -e '.[bench]'``): ``orjson.loads`` of each payload, its
  Anthropic ``ModelResponseIterator.chunk_parser`` (what ``litellm.completion(stream=True)``
  runs per chunk) and ``model_dump_json`` of the OpenAI-shaped chunk it returns;
* the floor: ``orjson.loads`` of every payload (the SSE framing already split off), no
  translation at all; and ``orjson.loads`` + ``orjson.dumps``.

Before timing, both translations are checked: the OpenAI text interlingua writes is read back
and must hold the whole text and the call's arguments; LiteLLM's chunks must too. Each
measurement is the best of ``--repeat`` runs, the pipelines run in turns. Peak memory is the
tracemalloc peak of the interlingua translation, at the full length and at a tenth of it: flat
memory means the two are close.

    python benchmarks/stream.py [--chunks 100000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import gc
import importlib.metadata
import json
import os
import platform
import sys
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

import orjson

from interlingua.streams.engine import StreamTranslator

WORDS = ["stream ", "of ", "small ", "deltas, ", "as ", "models ", "send ", "them. "]


def anthropic_stream(chunks: int) -> tuple[list[str], list[bytes]]:
    """The raw SSE lines of one long Anthropic stream, and its payloads."""
    calls = chunks // 5
    texts = chunks - calls - 7
    events: list[dict[str, Any]] = [
        {
            "type": "message_start",
            "message": {
                "id": "msg_bench",
                "type": "message",
                "role": "assistant",
                "model": "claude-sonnet-4-5",
                "content": [],
                "stop_reason": None,
                "stop_sequence": None,
                "usage": {"input_tokens": 900, "output_tokens": 1},
            },
        },
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
    ]
    events += [
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": w}}
        for w in (WORDS[i % len(WORDS)] for i in range(texts))
    ]
    events += [
        {"type": "content_block_stop", "index": 0},
        {
            "type": "content_block_start",
            "index": 1,
            "content_block": {"type": "tool_use", "id": "toolu_b", "name": "record", "input": {}},
        },
    ]
    fragments = ['{"items": ['] + ["1, "] * (calls - 2) + ["1]}"]
    events += [
        {
            "type": "content_block_delta",
            "index": 1,
            "delta": {"type": "input_json_delta", "partial_json": f},
        }
        for f in fragments
    ]
    events += [
        {"type": "content_block_stop", "index": 1},
        {
            "type": "message_delta",
            "delta": {"stop_reason": "tool_use", "stop_sequence": None},
            "usage": {"output_tokens": chunks},
        },
        {"type": "message_stop"},
    ]
    payloads = [orjson.dumps(e) for e in events]
    lines: list[str] = []
    for event, payload in zip(events, payloads, strict=True):
        lines += [f"event: {event['type']}\n", f"data: {payload.decode()}\n", "\n"]
    return lines, payloads


def interlingua_translate(lines: list[str]) -> str:
    translator = StreamTranslator("anthropic", "openai-chat")
    out = [translator.feed(line) for line in lines]
    out.append(translator.close())
    return "".join(out)


def litellm_translator() -> Callable[[list[bytes]], list[str]] | None:
    try:
        os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
        from litellm.llms.anthropic.chat.handler import ModelResponseIterator  # noqa: PLC0415
    except ImportError:
        return None

    def translate(payloads: list[bytes]) -> list[str]:
        iterator = ModelResponseIterator(streaming_response=None, sync_stream=True)
        return [
            iterator.chunk_parser(orjson.loads(p)).model_dump_json(exclude_none=True)
            for p in payloads
        ]

    return translate


def _read_back_openai(payloads: list[str]) -> tuple[str, str]:
    text, arguments = [], []
    for payload in payloads:
        chunk = json.loads(payload)
        for choice in chunk.get("choices") or []:
            delta = choice.get("delta") or {}
            text.append(delta.get("content") or "")
            for call in delta.get("tool_calls") or []:
                arguments.append((call.get("function") or {}).get("arguments") or "")
    return "".join(text), "".join(arguments)


def _check(name: str, payloads: list[str], lines: list[str]) -> None:
    expected_text = "".join(
        json.loads(line[6:])["delta"]["text"]
        for line in lines
        if line.startswith("data: ") and '"text_delta"' in line
    )
    text, arguments = _read_back_openai(payloads)
    assert text == expected_text, f"{name}: the text does not survive"
    assert json.loads(arguments)["items"][:3] == [1, 1, 1], f"{name}: the call's arguments do not"


def interleaved(
    pipelines: list[tuple[str, Callable[[], Any]]], repeat: int
) -> list[tuple[str, float]]:
    """The best of ``repeat`` runs of each pipeline, the runs taken in turns (one of each, then
    again), so a change of load on the machine weighs on all of them alike."""
    times: dict[str, list[float]] = {name: [] for name, _ in pipelines}
    for _ in range(repeat):
        for name, function in pipelines:
            gc.collect()
            start = time.perf_counter()
            function()
            times[name].append(time.perf_counter() - start)
    return [(name, min(times[name])) for name, _ in pipelines]


def peak_memory(lines: list[str]) -> int:
    tracemalloc.start()
    try:
        translator = StreamTranslator("anthropic", "openai-chat")
        for line in lines:
            translator.feed(line)  # written text is dropped, as a pipe would
        translator.close()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chunks", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    lines, payloads = anthropic_stream(args.chunks)
    n = len(payloads)

    written = interlingua_translate(lines)
    ours = [line[6:] for line in written.splitlines() if line.startswith("data: {")]
    _check("interlingua", ours, lines)
    events = StreamTranslator("anthropic", "canonical")
    event_count = sum(events.feed(line).count("\n") for line in lines) + events.close().count("\n")
    litellm = litellm_translator()
    if litellm is not None:
        _check("litellm", litellm(payloads), lines)

    pipelines: list[tuple[str, Callable[[], Any]]] = [
        ("orjson.loads (floor)", lambda: [orjson.loads(p) for p in payloads]),
        ("orjson.loads + dumps", lambda: [orjson.dumps(orjson.loads(p)) for p in payloads]),
        ("interlingua anthropic → openai-chat", lambda: interlingua_translate(lines)),
    ]
    if litellm is not None:
        pipelines.append(("LiteLLM anthropic → openai-chat", lambda: litellm(payloads)))
    rows = interleaved(pipelines, args.repeat)
    floor = rows[0][1]
    ours_time = rows[2][1]
    print(f"# Stream translation: {n:,} Anthropic SSE events ({len(''.join(lines)) / 1e6:.1f} MB)")
    print(
        f"python {platform.python_version()}, {platform.machine()}, orjson "
        f"{importlib.metadata.version('orjson')}"
        + (f", litellm {importlib.metadata.version('litellm')}" if litellm else "")
    )
    print()
    print("| pipeline | chunks/s | µs/chunk | vs floor | vs interlingua |")
    print("|---|---:|---:|---:|---:|")
    for name, seconds in rows:
        print(
            f"| {name} | {n / seconds:,.0f} | {seconds / n * 1e6:.2f} | "
            f"{floor / seconds:.2f}× | {ours_time / seconds:.2f}× |"
        )
    if litellm is not None:
        print()
        print(f"interlingua is {rows[3][1] / ours_time:.2f}× LiteLLM's stream iterator")
    print()
    print(f"interlingua: {event_count:,} canonical events, {event_count / ours_time:,.0f} events/s")
    full, tenth = peak_memory(lines), peak_memory(lines[: len(lines) // 10])
    print(
        f"peak memory (tracemalloc), interlingua: {full / 1024:,.0f} KiB for {n:,} chunks, "
        f"{tenth / 1024:,.0f} KiB for a tenth of them"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
