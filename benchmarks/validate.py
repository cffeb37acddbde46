"""Validation throughput: the generated validator against jsonschema and jsonschema-rs.

All three validate the same corpus of synthetic conversations (parsed JSON, already in
memory) against the same bundled schema, in one process, and the report gives ratios.
jsonschema is slow enough that it runs on a slice of the corpus; throughput is per document.

The generated validator runs as installed: pure Python from a checkout, compiled (mypyc) from a
compiled wheel; the report says which. Compiled, the "structure only" row is left out: the
invariants it switches off are called directly from C, where patching the module cannot
reach them.

    python benchmarks/validate.py [--size 2000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any

import jsonschema
import jsonschema_rs

from interlingua.documents.synthetic import corpus
from interlingua.generated.validators import VALIDATORS, check

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
        assert (
            reference.is_valid(doc)
            and rust.is_valid(doc)
            and fast(doc)
            and not check("Conversation", doc)
        )

    module = sys.modules[fast.__module__]
    compiled = not str(module.__file__).endswith(".py")
    candidates: list[tuple[str, Callable[[Any], object], list[Any], Callable[[], Any]]] = [
        ("interlingua, fast path: structure + invariants", fast, docs, nullcontext),
    ]
    if not compiled:
        candidates.append(
            ("interlingua, fast path: structure only", fast, docs, lambda: invariants_off(module))
        )
    candidates += [
        (
            "interlingua, check() (all findings)",
            lambda d: check("Conversation", d),
            docs,
            nullcontext,
        ),
        ("jsonschema-rs is_valid", rust.is_valid, docs, nullcontext),
        ("jsonschema-rs iter_errors", lambda d: list(rust.iter_errors(d)), docs, nullcontext),
        (
            "jsonschema Draft 2020-12 is_valid",
            reference.is_valid,
            docs[: args.slow_slice],
            nullcontext,
        ),
    ]
    # Round robin, best pass each: drift in machine load hits every validator alike.
    best: dict[str, float] = {}
    for _ in range(args.repeat):
        for name, fn, sample, context in candidates:
            with context():
                best[name] = max(best.get(name, 0.0), throughput(fn, sample, 1))
    rows = [(name, best[name]) for name, *_ in candidates]
    rates = dict(rows)
    whole = rates["interlingua, fast path: structure + invariants"]
    structural = rates.get("interlingua, fast path: structure only", whole)
    build = "compiled" if compiled else "pure Python"
    print(
        f"# Validation throughput, {platform.python_implementation()} {platform.python_version()}"
        f", interlingua {build}"
    )
    print(
        f"{len(docs)} conversations, mean {size_kb:.1f} KiB of JSON; best of {args.repeat} passes\n"
    )
    print("| validator | docs/s | interlingua structural is × |")
    print("|---|---:|---:|")
    for name, rate in rows:
        print(f"| {name} | {rate:,.0f} | {structural / rate:.2f} |")
    vs_py = structural / rates["jsonschema Draft 2020-12 is_valid"]
    vs_rs = structural / rates["jsonschema-rs is_valid"]
    whole_vs_rs = whole / rates["jsonschema-rs is_valid"]
    print(f"\nstructural vs jsonschema:    {vs_py:.0f}x (target >= 100x)")
    print(f"structural vs jsonschema-rs: {vs_rs:.2f}x (target >= 1x)")
    print(f"structure + invariants vs jsonschema-rs (no invariants): {whole_vs_rs:.2f}x")


@contextmanager
def invariants_off(module: Any) -> Iterator[None]:
    """Switch every invariant of the generated module off: what the other validators check."""
    originals = {name: fn for name, fn in vars(module).items() if name.startswith("_bad_")}
    for name in originals:
        setattr(module, name, _never)
    try:
        yield
    finally:
        for name, fn in originals.items():
            setattr(module, name, fn)


def _never(_document: Any) -> bool:
    return False


if __name__ == "__main__":
    main()
