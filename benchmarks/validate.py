"""Validation throughput: the generated validator against jsonschema and jsonschema-rs.

All three validate the same corpus of synthetic conversations (parsed JSON, already in
memory) against the same bundled schema, in one process, and the report gives ratios.
jsonschema is slow enough that it runs on a slice of the corpus; throughput is per document.

    python benchmarks/validate.py [--size 2000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import jsonschema_rs

from interlingua.generated.validators import VALIDATORS, check
from interlingua.synthetic import corpus

BUNDLE = Path(__file__).resolve().parent.parent / "generated" / "schemas" / "interlingua-v1.json"


def throughput(fn: Callable[[Any], object], docs: list[Any], repeat: int) -> float:
    """Best-of-``repeat`` documents per second."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for doc in docs:
            fn(doc)
        best = min(best, time.perf_counter() - start)
    return len(docs) / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=2000, help="conversations in the corpus")
    parser.add_argument("--repeat", type=int, default=5, help="best of this many passes")
    parser.add_argument("--slow-slice", type=int, default=100, help="documents given to jsonschema")
    args = parser.parse_args()

    docs = corpus(args.size)
    size_kb = sum(len(json.dumps(d)) for d in docs) / len(docs) / 1024
    bundle = json.loads(BUNDLE.read_text())
    schema = {**{k: v for k, v in bundle.items() if k != "oneOf"}, "$ref": "#/$defs/Conversation"}
    reference = jsonschema.Draft202012Validator(schema)
    rust = jsonschema_rs.validator_for(schema)
    fast, _ = VALIDATORS["Conversation"]

    # Same verdicts before any timing: a benchmark of validators that disagree means nothing.
    for doc in docs[: args.slow_slice]:
        assert reference.is_valid(doc) and rust.is_valid(doc) and fast(doc) and not check("Conversation", doc)

    rows = [
        ("interlingua generated, fast path (is clean?)", throughput(fast, docs, args.repeat)),
        ("interlingua generated, check() with findings", throughput(lambda d: check("Conversation", d), docs, args.repeat)),
        ("jsonschema-rs is_valid", throughput(rust.is_valid, docs, args.repeat)),
        ("jsonschema-rs iter_errors (all findings)", throughput(lambda d: list(rust.iter_errors(d)), docs, args.repeat)),
        ("jsonschema Draft 2020-12 is_valid", throughput(reference.is_valid, docs[: args.slow_slice], 1)),
    ]
    ours = rows[0][1]
    by_name = dict(rows)
    print(f"# Validation throughput ({platform.python_implementation()} {platform.python_version()}, {platform.machine()})")
    print(f"corpus: {len(docs)} conversations, mean {size_kb:.1f} KiB of JSON each; best of {args.repeat} passes\n")
    print(f"| validator | docs/s | interlingua fast path is ×|")
    print("|---|---:|---:|")
    for name, rate in rows:
        print(f"| {name} | {rate:,.0f} | {ours / rate:.2f} |")
    print()
    print(f"vs jsonschema:    {ours / by_name['jsonschema Draft 2020-12 is_valid']:.0f}× (target ≥ 100×)")
    print(f"vs jsonschema-rs: {ours / by_name['jsonschema-rs is_valid']:.2f}× (target ≥ 0.67×)")
    print("The generated validators also check the semantic invariants (tool pairing, unique ids, "
          "metadata); the other two check structure only.")


if __name__ == "__main__":
    main()
