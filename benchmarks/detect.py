"""Detection of a valid body as it grows: ``detect`` with its reason and without
(``explain=False``, what a batch and ``convert`` from ``auto`` ask), against jsonschema-rs
asked of every schema detection weighs (which of them take the body: the verdict a detector
built on a validator gives, without a reason) and ``json.loads`` of the body's text (the floor
of anything that reads it), in one process.

Bodies are OpenAI Chat Completions requests of turns of text, tool calls and tool results.
Each row gives µs per message and ours ÷ the baseline; flat times per message mean no path
grows faster than the body. Best of ``--repeat``.

    python benchmarks/detect.py [--sizes 10 1000 10000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import Any

import jsonschema_rs
from refuse import best

from interlingua import detect
from interlingua.conversion.converter import _wire_validator, adapter
from interlingua.conversion.detector import _scope


def chat(messages: int) -> dict[str, Any]:
    """An OpenAI Chat request of ``messages`` messages: a system line, then turns of a question,
    a tool call and its result."""
    turns: list[dict[str, Any]] = [{"role": "system", "content": "Be brief."}]
    for i in range(messages):
        call = f"call_{i // 3}"
        turns.append(
            (
                {"role": "user", "content": f"question {i} " + "lorem ipsum " * 20},
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": call,
                            "type": "function",
                            "function": {"name": "lookup", "arguments": json.dumps({"n": i})},
                        }
                    ],
                },
                {"role": "tool", "tool_call_id": call, "content": "result " * 30},
            )[i % 3]
        )
    return {"model": "gpt-4o", "messages": turns[:messages]}


def every_schema() -> Callable[[Any], list[bool]]:
    """jsonschema-rs's yes or no from each wire schema detection weighs."""
    validators = [
        jsonschema_rs.validator_for(_wire_validator(adapter(fmt).schemas[kind]).schema)
        for fmt, kind in _scope(None, None)
        if fmt != "canonical" and kind in adapter(fmt).schemas
    ]
    return lambda body: [validator.is_valid(body) for validator in validators]


def rows(sizes: list[int], repeat: int) -> list[str]:
    """The report's lines: each size, each of ours against each baseline, per message."""
    ours: dict[str, Callable[[Any], object]] = {
        "detect": lambda body: detect(body).status,
        "detect, explain=False": lambda body: detect(body, explain=False).status,
    }
    validators = every_schema()
    lines = ["| messages | ours | µs/message | baseline | its µs/message | ours ÷ baseline |"]
    lines.append("|---:|---|---:|---|---:|---:|")
    for run in ours.values():
        run(chat(3))  # schemas compiled outside the timing
    for size in sizes:
        body = chat(size)
        found = detect(body)
        assert (found.format, found.kind) == ("openai-chat", "request"), found.reason
        text = json.dumps(body)
        theirs = {
            "jsonschema-rs, every schema": best(validators, body, repeat) / size * 1e6,
            "json.loads": best(json.loads, text, repeat) / size * 1e6,
        }
        for label, run in ours.items():
            spent = best(run, body, repeat) / size * 1e6
            for name, their in theirs.items():
                lines.append(
                    f"| {size:,} | {label} | {spent:.1f} | {name} | {their:.2f} | "
                    f"{spent / their:.1f} |"
                )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 1_000, 10_000])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    print("\n".join(rows(args.sizes, args.repeat)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
