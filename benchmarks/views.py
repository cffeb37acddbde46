"""MessageView throughput: views + to_opa_input per second, and where the time goes.

Over a corpus of synthetic conversations (parsed JSON), every message is decomposed into views
with every capability granted, each view's attributes are read, and each view is serialised
for OPA. The floor is `json.dumps` of the same messages: serialising the data once, with no
decomposition at all.

    python benchmarks/views.py [--size 500] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from typing import Any

from interlingua.documents.synthetic import corpus
from interlingua.documents.view import MessageView, views
from interlingua.generated.view_tables import ACCESSORS

GRANTED = sorted({capability for capability, _ in ACCESSORS.values() if capability})


def timed(fn: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    messages = [m for c in corpus(args.size) for m in c["messages"]]

    def build() -> list[MessageView]:
        return [v for m in messages for v in views(m, GRANTED)]

    built = build()

    def attributes() -> list[tuple[object, ...]]:
        return [
            (
                v.kind,
                v.action,
                v.is_pre,
                v.uri,
                v.name,
                v.content,
                v.size_bytes,
                v.properties,
                v.roles,
            )
            for v in built
        ]

    def serialise() -> list[dict[str, Any]]:
        return [v.to_opa_input() for v in build()]

    stages = {
        "build views": timed(build, args.repeat),
        "read attributes": timed(attributes, args.repeat),
        "build + to_opa_input": timed(serialise, args.repeat),
    }
    floor = timed(lambda: [json.dumps(m) for m in messages], args.repeat)
    count = len(built)
    total = stages["build + to_opa_input"]
    print(
        f"# MessageView throughput: {len(messages)} messages, {count} views, best of {args.repeat}"
    )
    print()
    print("| stage | seconds | views/s | share of build + to_opa_input |")
    print("|---|---:|---:|---:|")
    for name, seconds in stages.items():
        print(f"| {name} | {seconds:.3f} | {count / seconds:,.0f} | {seconds / total:.0%} |")
    share = f"{floor / total:.0%}"
    print(f"| floor: json.dumps of the messages | {floor:.3f} | {count / floor:,.0f} | {share} |")
    print(f"\nviews + to_opa_input: {count / total:,.0f} views/s ({total / floor:.1f}x the floor)")


if __name__ == "__main__":
    main()
