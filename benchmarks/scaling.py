"""Scaling: conversion cost per tool call as the number of calls grows (flat = linear).

Two workloads, each at 1,000, 10,000 and 40,000 tool calls (one assistant turn making every
call, then one tool message per result):

* **round trip**: a body in its own format read into canonical form and written back (the
  round-trip patches kept on the way in and applied on the way out), for each format named;
  `openai-chat+spaced` writes every call's arguments with spaces, so the assistant turn's
  patch holds one operation per call;
* **rewritten ids**: a canonical conversation whose call ids break Anthropic's id rules
  (`call.N/x`), so every id is rewritten and looked up again for its result.

A third workload grows a conversation instead, at 10, 100, 1,000 and 10,000 messages: an
OpenAI Chat body of user turns with images, assistant turns making two parallel calls, their
results and the model's answers, written as Anthropic and as Gemini (the cost per message).

The report gives, per workload, the time per call at each size and its ratio to the time per
call at the smallest size: ≈ 1 means linear; a quadratic path shows as a ratio near the size
ratio (10, 40). Each size is timed ``--repeat`` times and the best kept (one process; other
load on the machine moves single numbers, not the shape).

Each run is timed twice: with the garbage collector paused (the ratio judged against
``--limit``: our code's growth) and with it running, as a process has it (shown beside).
CPython's collector makes a full pass whenever the objects that survived grow by a quarter,
and each pass visits every live object: the round trips of 40,000 calls, whose objects
outgrow the processor's cache, cost 1.8–2.5× a call what those of 1,000 cost with it running,
against 1.2–1.5× paused (2026-12-01, compiled). That is the collector's cost, the same for any
code that builds that many objects, and not a path of ours.

    python benchmarks/scaling.py [--sizes 1000 10000 40000] [--formats openai-chat gemini]
                                 [--repeat 3]
"""

from __future__ import annotations

import argparse
import functools
import gc
import json
import logging
import sys
import time
from collections.abc import Callable
from typing import Any

from interlingua.conversion.converter import convert

Json = dict[str, Any]


def conversation(calls: int, call_id: Callable[[int], str]) -> Json:
    """A canonical conversation of one turn making ``calls`` calls, and their results."""
    ids = [call_id(i) for i in range(calls)]
    messages: list[Json] = [
        {"role": "user", "content": [{"type": "text", "text": "go"}]},
        {
            "role": "assistant",
            "content": [
                {"type": "tool_call", "id": i, "name": "lookup", "arguments": {"n": n}}
                for n, i in enumerate(ids)
            ],
        },
    ]
    messages += [
        {
            "role": "tool",
            "content": [
                {
                    "type": "tool_result",
                    "tool_call_id": i,
                    "content": [{"type": "text", "text": f"result {n}"}],
                }
            ],
        }
        for n, i in enumerate(ids)
    ]
    messages.append({"role": "user", "content": [{"type": "text", "text": "thanks"}]})
    return {
        "schema_version": 1,
        "model": "m",
        "parameters": {"max_output_tokens": 64},
        "messages": messages,
    }


_IMAGE = "data:image/png;base64," + "iVBORw0KGgo" * 40
_CYCLE = 6  # messages in one exchange: user, calls, two results, answer, user


def chat(messages: int) -> Json:
    """An OpenAI Chat body of ``messages`` messages (at least 2): exchanges of a user turn
    with an image, two parallel calls, their results and the answer, ending on the user."""
    out: list[Json] = [{"role": "system", "content": "You are terse."}]
    n = 0
    while len(out) < messages - 1:
        out.append(
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": f"question {n}"},
                    {"type": "image_url", "image_url": {"url": _IMAGE}},
                ],
            }
        )
        calls = [
            {
                "id": f"call_{n}_{k}",
                "type": "function",
                "function": {"name": "lookup", "arguments": json.dumps({"n": n, "k": k})},
            }
            for k in range(2)
        ]
        out.append({"role": "assistant", "content": None, "tool_calls": calls})
        out += [
            {"role": "tool", "tool_call_id": call["id"], "content": f"result {call['id']}"}
            for call in calls
        ]
        out.append({"role": "assistant", "content": f"answer {n}"})
        n += 1
    out = out[: messages - 1]
    # No call left unanswered: a cut between two results drops the first result and the
    # calls too (an unanswered call sends the body the two-step way, not the one measured).
    while out[-1]["role"] == "tool" and len(out) > 1:
        out.pop()
    if out[-1]["role"] == "assistant" and out[-1].get("tool_calls"):
        out.pop()
    out.append({"role": "user", "content": "thanks"})
    tools = [{"type": "function", "function": {"name": "lookup", "parameters": {}}}]
    return {"model": "gpt-4o", "messages": out, "tools": tools}


def long_conversation(target: str, messages: int) -> Callable[[], object]:
    body = chat(messages)

    def work() -> object:
        return convert(body, "openai-chat", target).output

    return work


def _best(work: Callable[[], object], repeat: int, *, collector: bool) -> float:
    """The best of ``repeat`` runs, each started collected, the collector running or paused."""
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        if not collector:
            gc.disable()
        try:
            start = time.perf_counter()
            work()
            best = min(best, time.perf_counter() - start)
        finally:
            gc.enable()
    return best


def spaced(body: Json) -> Json:
    """An OpenAI Chat body whose call arguments are JSON written with spaces (as most clients
    write it): each differs from what writing produces, so each call needs a patch op."""
    for message in body["messages"]:
        for call in message.get("tool_calls") or ():
            function = call["function"]
            function["arguments"] = json.dumps(json.loads(function["arguments"]))
    return body


def round_trip(fmt: str, calls: int) -> Callable[[], object]:
    name, _, variant = fmt.partition("+")
    body = convert(conversation(calls, lambda n: f"call_{n}"), "canonical", name).output
    if variant == "spaced":
        body = spaced(body)
    fmt = name

    def work() -> object:
        canonical = convert(body, fmt, "canonical").output
        again = convert(canonical, "canonical", fmt).output
        assert again == body, f"{fmt}: the round trip of {calls} calls is not exact"
        return again

    return work


def rewritten_ids(calls: int) -> Callable[[], object]:
    document = conversation(calls, lambda n: f"call.{n}/x")

    def work() -> object:
        out = convert(document, "canonical", "anthropic")
        assert len(out.id_map) == calls
        return out

    return work


def report(
    name: str, sizes: list[int], make: Callable[[int], Callable[[], object]], repeat: int
) -> float:
    """Print one workload's rows; return its largest per-call ratio, the collector paused."""
    paused: list[float] = []
    running: list[float] = []
    for size in sizes:
        work = make(size)
        seconds = _best(work, repeat, collector=False)
        paused.append(seconds / size)
        running.append(_best(work, repeat, collector=True) / size)
        print(
            f"| {name} | {size:,} | {seconds:.3f} s | {paused[-1] * 1e6:.1f} µs "
            f"| {paused[-1] / paused[0]:.2f} | {running[-1] * 1e6:.1f} µs "
            f"| {running[-1] / running[0]:.2f} |",
            flush=True,
        )
    return max(p / paused[0] for p in paused)


# The columns after a row's size: the collector paused (judged), then running (shown).
PAUSED = "time | per call | per-call ratio (× smallest) | per call, collector running | its ratio"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 40_000])
    parser.add_argument(
        "--formats",
        nargs="+",
        default=["openai-chat", "openai-chat+spaced", "anthropic", "gemini", "openai-responses"],
        help="formats to round-trip (openai-chat+spaced: arguments written with spaces)",
    )
    parser.add_argument(
        "--messages",
        type=int,
        nargs="+",
        default=[10, 100, 1_000, 10_000],
        help="conversation lengths of the per-message workload",
    )
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--limit", type=float, default=2.0, help="largest per-call ratio that counts as linear"
    )
    args = parser.parse_args(argv)
    logging.disable(logging.WARNING)  # time the conversion, never a handler someone configured
    print(f"python {sys.version.split()[0]}; best of {args.repeat}\n")
    print(f"| workload | tool calls | {PAUSED} |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    worst: dict[str, float] = {}
    for fmt in args.formats:
        worst[f"round trip {fmt}"] = report(
            f"round trip {fmt}", args.sizes, functools.partial(round_trip, fmt), args.repeat
        )
    worst["rewritten ids (anthropic)"] = report(
        "rewritten ids (anthropic)", args.sizes, rewritten_ids, args.repeat
    )
    print(f"\n| workload | messages | {PAUSED.replace('call', 'message')} |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for target in ("anthropic", "gemini"):
        name = f"openai-chat → {target}, long conversation"
        worst[name] = report(
            name, args.messages, functools.partial(long_conversation, target), args.repeat
        )
    bad = {name: ratio for name, ratio in worst.items() if ratio > args.limit}
    print()
    for name, ratio in bad.items():
        print(f"NOT LINEAR: {name}: per-call cost grew {ratio:.1f}×")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
