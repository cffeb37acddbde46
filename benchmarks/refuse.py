"""The cost of refusing a bad body, as it grows: ``check_wire``'s coded error (code and pointer),
against locating it with python-jsonschema (``best_match`` over the whole walk) and with
jsonschema-rs (its errors over the whole body), on the same bodies, in one process.

Three bodies of each size (messages of text):

* ``last bad``: an OpenAI Chat request whose last message has a content of the wrong type,
  refused against its own schema (every message before it valid);
* ``all bad``: the same request asked of Bedrock's schema (its messages hold blocks, not text:
  every message is bad), what detection asks of every format it rules out;
* ``detect``: ``detect`` of the ``last bad`` body, which no format takes: a rejection for each
  of the 34 (format, kind) schemas. Its baseline is python-jsonschema's walk of every schema.

Each row gives the time per message and the ratio to each baseline; flat times per message
mean no path grows faster than the body. Best of ``--repeat``.

    python benchmarks/refuse.py [--sizes 10 1000 10000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import jsonschema_rs
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from interlingua import detect
from interlingua.conversion import ConversionError
from interlingua.conversion.converter import _wire_validator, adapter, check_wire, reading_schema
from interlingua.conversion.detector import _scope


def chat(messages: int) -> dict[str, Any]:
    """An OpenAI Chat request of ``messages`` text turns, the last one's content a number."""
    turns: list[dict[str, Any]] = [
        {"role": ("user", "assistant")[n % 2], "content": f"turn {n}: a line of text"}
        for n in range(messages - 1)
    ]
    return {"model": "m", "messages": [*turns, {"role": "user", "content": 5}]}


def schema_of(fmt: str, kind: str = "request") -> dict[str, Any]:
    """The reading schema ``check_wire`` asks of a body of ``fmt``."""
    found: dict[str, Any] = _wire_validator(reading_schema(adapter(fmt).schemas[kind])).schema
    return found


def python_walk(schema: dict[str, Any]) -> Callable[[Any], object]:
    """python-jsonschema's most relevant error, from its walk of the whole body."""
    registry: Registry[Any] = Registry().with_resource(
        schema["$id"], DRAFT202012.create_resource(schema)
    )
    validator = Draft202012Validator(schema, registry=registry)
    return lambda body: best_match(validator.iter_errors(body))


def rust_walk(schema: dict[str, Any]) -> Callable[[Any], object]:
    """jsonschema-rs's errors over the whole body."""
    validator = jsonschema_rs.validator_for(schema)
    return lambda body: list(validator.iter_errors(body))


def refused(fmt: str) -> Callable[[Any], object]:
    def run(body: Any) -> object:
        try:
            check_wire(body, fmt, "request")
        except ConversionError as error:
            return error.code, error.pointer
        raise AssertionError("a bad body was taken")

    return run


def every_schema(body: Any) -> object:
    """python-jsonschema's walk of the body through each schema detection rules out."""
    return [
        python_walk(schema_of(fmt, kind))(body)
        for fmt, kind in _scope(None, None)
        if fmt != "canonical" and kind in adapter(fmt).schemas
    ]


def best(run: Callable[[Any], object], body: Any, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run(body)
        times.append(time.perf_counter() - start)
    return min(times)


def rows(sizes: list[int], repeat: int) -> list[str]:
    """The report's lines: each body and size, ours and the baselines, per message."""
    cases: list[tuple[str, Callable[[Any], object], dict[str, Callable[[Any], object]]]] = [
        (
            "last bad",
            refused("openai-chat"),
            {
                "python-jsonschema": python_walk(schema_of("openai-chat")),
                "jsonschema-rs": rust_walk(schema_of("openai-chat")),
            },
        ),
        (
            "all bad",
            refused("bedrock"),
            {
                "python-jsonschema": python_walk(schema_of("bedrock")),
                "jsonschema-rs": rust_walk(schema_of("bedrock")),
            },
        ),
        ("detect", lambda body: detect(body).status, {"python-jsonschema": every_schema}),
    ]
    lines = ["| body | messages | ours µs/message | baseline | its µs/message | ours × faster |"]
    lines.append("|---|---:|---:|---|---:|---:|")
    for label, ours, baselines in cases:
        ours(chat(3))  # schemas compiled outside the timing
        for size in sizes:
            body = chat(size)
            spent = best(ours, body, repeat) / size * 1e6
            for name, baseline in baselines.items():
                theirs = best(baseline, body, repeat) / size * 1e6
                lines.append(
                    f"| {label} | {size:,} | {spent:.1f} | {name} | {theirs:.1f} | "
                    f"{theirs / spent:.1f}x |"
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
