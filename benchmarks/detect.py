"""Detection cost as the body grows: ``detect`` against ``json.loads`` of the same body, the
floor of anything that reads it.

Bodies are OpenAI Chat Completions requests of growing size (turns of text, tool calls and tool
results). For each size the report gives the time of one ``detect`` and its ratio to one
``json.loads`` of the body's text; the ratio stays flat when detection is linear in the body
(validity is decided by jsonschema-rs; it was pure-Python validation before, and a 100 KB body
took seconds). Run in one process, best of ``--repeat``.

    python benchmarks/detect.py [--sizes 10000 100000 1000000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from interlingua import detect


def body_of_size(size: int) -> dict[str, Any]:
    """An OpenAI Chat request of about ``size`` bytes of JSON."""
    messages: list[dict[str, Any]] = [{"role": "system", "content": "Be brief."}]
    written, i = 0, 0
    while written < size:
        call = f"call_{i}"
        turn: list[dict[str, Any]] = [
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
        ]
        written += len(json.dumps(turn))
        messages += turn
        i += 1
    return {"model": "gpt-4o", "messages": messages}


def best(run: Any, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    detect(body_of_size(1_000))  # schemas compiled once, outside the timing
    print(f"{'bytes':>10} {'detect s':>10} {'floor s':>10} {'ratio':>7}")
    for size in args.sizes:
        body = body_of_size(size)
        found = detect(body)
        assert (found.format, found.kind) == ("openai-chat", "request"), found.reason
        spent = best(lambda body=body: detect(body), args.repeat)
        text = json.dumps(body)
        base = best(lambda text=text: json.loads(text), args.repeat)
        print(f"{size:>10} {spent:>10.4f} {base:>10.4f} {spent / base:>7.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
