"""A long fuzz campaign: mutated bodies and streams through every entry point until time is up,
then the counts (inputs, calls, coded errors, uncoded exceptions, hangs).

    python -m tests.fuzz.campaign --minutes 30 [--seed N] [--json FILE]

Exit status 1 when anything was uncoded or hung (the first few are printed with the seed of
the input, so `--replay SEED` runs that one input again).
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import sys
import time
from typing import Any

from tests.fuzz.harness import Tally, exercise_document, exercise_stream
from tests.fuzz.mutations import mutate, mutate_stream, seeds, stream_seeds


def one(input_seed: int) -> Tally:
    """The input numbered ``input_seed``: a body or a stream (one in three), mutated."""
    rng = random.Random(input_seed)
    if rng.random() < 1 / 3:
        stream = rng.choice(stream_seeds())
        return exercise_stream(stream.format, mutate_stream(stream.chunks, rng))
    seed = rng.choice(seeds())
    return exercise_document(seed, mutate(seed.body, rng, rng.choice((1, 1, 2, 3))))


def run(minutes: float, start: int) -> tuple[Tally, dict[str, int]]:
    total, first = Tally(), dict[str, int]()
    deadline = time.monotonic() + minutes * 60
    n = start
    while time.monotonic() < deadline:
        tally = one(n)
        for problem in tally.uncoded + tally.hangs:
            first.setdefault(problem.split(":")[0] + ":" + problem.split(":")[1], n)
        total.add(tally)
        n += 1
    return total, first


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz.campaign")
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=0, help="number of the first input")
    parser.add_argument("--replay", type=int, help="run one input again and print what it did")
    parser.add_argument("--json", help="write the counts to this file")
    args = parser.parse_args(argv)
    logging.disable(logging.WARNING)
    if args.replay is not None:
        tally = one(args.replay)
        print(*tally.uncoded, *tally.hangs, sep="\n")
        return 1 if tally.uncoded or tally.hangs else 0
    started = time.monotonic()
    total, first = run(args.minutes, args.seed)
    counts: dict[str, Any] = {
        "minutes": round((time.monotonic() - started) / 60, 1),
        "inputs": total.inputs,
        "calls": total.calls,
        "coded_errors": total.coded,
        "uncoded": len(total.uncoded),
        "hangs": len(total.hangs),
        "first_seeds": first,
    }
    print(json.dumps(counts, indent=2))
    for problem in (total.uncoded + total.hangs)[:20]:
        print(problem, file=sys.stderr)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(counts, out, indent=2)
    return 1 if total.uncoded or total.hangs else 0


if __name__ == "__main__":
    raise SystemExit(main())
