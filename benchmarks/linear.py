"""Hostile input in linear time: URI globs, patterns from upstream schemas, a stream line.

For each case, the input grows tenfold twice (1k, 10k, 100k characters by default) and the
time ratio is printed against the length ratio: a ratio near the length ratio (10x) is linear,
near its square (100x) quadratic. The inputs are the worst cases of the backtracking engines
they replace, a URI that almost matches ``tool://*a*a*a*b`` and ``a…ab`` against
``^(a+)+$``, and one line of a streamed body arriving in small pieces (the service's line
reader). The baselines, the former backtracking regexes, are timed on tiny inputs only (a
few dozen characters already take seconds): their ratios show the growth the linear engines
remove; the former line reader, which joined the line so far and searched it again at each
piece, is timed on the same sizes.

    python benchmarks/linear.py [--sizes 1000 10000 100000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import re
import time
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

import anyio

from interlingua.documents.globs import glob_match
from interlingua.gateway.arguments import ArgumentValidator
from interlingua.gateway.errors import GatewayError
from interlingua.gateway.patterns import search
from interlingua.service.streaming import _lines

Lines = Callable[[Any, int], AsyncIterator[bytes]]

GLOB = "tool://*a*a*a*b"
EVIL = "^(a+)+$"
SCHEMA = {"type": "object", "properties": {"s": {"type": "string", "pattern": EVIL}}}


def timed(fn: Callable[[], object], repeat: int) -> float:
    """Best CPU time of this process over ``repeat`` runs: CPU time, not wall time, so that
    other load on a shared machine (which preempts long runs more often than short ones) does
    not bend the ratios."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    return best


def report(name: str, sizes: Sequence[int], run: Callable[[int], object], repeat: int) -> None:
    """One line per size: its time and the time and length ratios to the previous size."""
    print(name)
    previous: tuple[int, float] | None = None
    for size in sizes:
        seconds = timed(lambda size=size: run(size), repeat)  # type: ignore[misc]
        line = f"  {size:>9,} chars  {seconds * 1e3:10.3f} ms"
        if previous is not None:
            length_ratio = size / previous[0]
            time_ratio = seconds / previous[1] if previous[1] else float("inf")
            line += f"   length x{length_ratio:<6g} time x{time_ratio:.1f}"
        print(line)
        previous = (size, seconds)


def backtracking_glob(pattern: str) -> re.Pattern[str]:
    """The former glob compiler (a regex with `[^/]*` per star): the baseline."""
    pieces = re.split(r"(\*\*|\*)", pattern)
    regex = "".join(".*" if p == "**" else "[^/]*" if p == "*" else re.escape(p) for p in pieces)
    return re.compile(regex, re.DOTALL)


#: The bytes a streamed body arrives in, an ASGI message each (small, so the sizes stay small).
PIECE = 64


async def joining_lines(receive: Any, limit: int) -> AsyncIterator[bytes]:
    """The former line reader of `POST /v1/stream`: the baseline."""
    pending = b""
    more = True
    while more and len(pending) <= limit:
        message = await receive()
        pending += message.get("body", b"")
        more = message.get("more_body", False)
        while True:
            end = pending.find(b"\n")
            if end < 0:
                break
            yield pending[: end + 1]
            pending = pending[end + 1 :]
    if pending:
        yield pending


def read_line(reader: Lines, size: int) -> list[bytes]:
    """The lines ``reader`` makes of a body of one ``size``-byte line, in `PIECE`-byte
    messages."""
    data = b"x" * (size - 1) + b"\n"
    messages = iter(
        [
            {"type": "http.request", "body": data[at : at + PIECE], "more_body": True}
            for at in range(0, size, PIECE)
        ]
    )

    async def receive() -> dict[str, Any]:
        return next(messages, {"type": "http.request", "body": b"", "more_body": False})

    async def collect() -> list[bytes]:
        return [line async for line in reader(receive, size + 1)]

    return anyio.run(collect)


def validate(validator: ArgumentValidator, text: str) -> bool:
    try:
        validator.validate("bench:evil@1", {"s": text})
    except GatewayError:
        return False
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    sizes, repeat = args.sizes, args.repeat
    validator = ArgumentValidator()
    validator.register("bench:evil@1", "evil", SCHEMA)

    report(
        f"glob {GLOB!r}, URI of n 'a'",
        sizes,
        lambda n: glob_match(GLOB, "tool://" + "a" * n),
        repeat,
    )
    report(
        f"RE2 search {EVIL!r}, n 'a' then 'b'", sizes, lambda n: search(EVIL, "a" * n + "b"), repeat
    )
    report(
        f"ArgumentValidator.validate, pattern {EVIL!r}, n 'a' then 'b'",
        sizes,
        lambda n: validate(validator, "a" * n + "b"),
        repeat,
    )
    report(
        f"the stream reader, one line of n bytes in {PIECE}-byte pieces",
        sizes,
        lambda n: read_line(_lines, n),
        repeat,
    )
    report(
        f"baseline: the former stream reader, one line of n bytes in {PIECE}-byte pieces",
        sizes,
        lambda n: read_line(joining_lines, n),
        repeat,
    )
    old_glob = backtracking_glob(GLOB)
    report(
        "baseline: the former glob regex (backtracking), URI of n 'a'",
        [50, 100, 200],
        lambda n: old_glob.fullmatch("tool://" + "a" * n),
        1,
    )
    evil = re.compile(EVIL)
    report(
        f"baseline: Python re {EVIL!r}, n 'a' then 'b' (n grows by 2, not tenfold)",
        [16, 18, 20],
        lambda n: evil.search("a" * n + "b"),
        1,
    )


if __name__ == "__main__":
    main()
