"""A structure-aware mutation fuzzer: the bodies the project ships, and ways to break them.

Seeds are every body the repository holds: the conformance cases' inputs and expected
documents, the wire examples of every format, the canonical examples, and the chunks of every
stream case. A mutation changes one node the way hostile or odd input does: a key deleted,
duplicated or retyped, two values swapped, a value nested very deep, a huge or odd number, an
odd string (a lone surrogate, NUL, a very long one); a stream is cut short, started late,
reordered, given repeated or corrupted chunks. Every choice is drawn from a `random.Random`,
so hypothesis drives it (`st.randoms()`) and a plain seed replays it.
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from conformance.cases import load_cases

ROOT = Path(__file__).resolve().parents[2]

KINDS = ("request", "response", "messages")


@dataclass(frozen=True)
class Seed:
    """One body to break: its format, its kind, and where it came from."""

    origin: str
    format: str
    kind: str
    body: Any


@dataclass(frozen=True)
class StreamSeed:
    """One stream to break: its format and its chunks (parsed JSON, or payload strings)."""

    origin: str
    format: str
    chunks: tuple[Any, ...]


def _example_kind(path: Path) -> str | None:
    for kind in KINDS:
        if kind in path.parts:
            return kind
    return None


@cache
def seeds() -> tuple[Seed, ...]:
    """Every body of the conformance cases and the schema examples, with its format and kind."""
    out: list[Seed] = []
    for case in load_cases():
        args = case.input
        if case.function == "roundtrip":
            out.append(Seed(case.id, args["format"], args["kind"], args["wire"]))
            canonical = (case.expected or {}).get("canonical")
            if canonical is not None:
                out.append(Seed(case.id + "#canonical", "canonical", args["kind"], canonical))
        elif case.function == "convert":
            out.append(Seed(case.id, args["source"], args["kind"], args["payload"]))
            if isinstance(case.expected, dict) and "output" in case.expected:
                out.append(
                    Seed(case.id + "#output", args["target"], args["kind"], case.expected["output"])
                )
    for path in sorted((ROOT / "schemas" / "formats").glob("*/examples/*/*")):
        kind = _example_kind(path)
        if kind is None or path.suffix not in (".json", ".txt"):
            continue
        text = path.read_text(encoding="utf-8")
        body = json.loads(text) if path.suffix == ".json" else text
        out.append(Seed(str(path.relative_to(ROOT)), path.parts[-4], kind, body))
    for name, kind in (
        ("Conversation", "request"),
        ("Response", "response"),
        ("Message", "messages"),
    ):
        for path in sorted((ROOT / "schemas" / "examples" / name).glob("*.json")):
            body = json.loads(path.read_text(encoding="utf-8"))
            out.append(Seed(str(path.relative_to(ROOT)), "canonical", kind, body))
    return tuple(out)


@cache
def stream_seeds() -> tuple[StreamSeed, ...]:
    """The chunks of every stream case."""
    return tuple(
        StreamSeed(case.id, case.input["format"], tuple(case.input["chunks"]))
        for case in load_cases()
        if case.kind == "stream"
    )


@cache
def canonical_parts() -> tuple[Any, ...]:
    """Every canonical part example: material a mutation splices into a document."""
    out = []
    for path in sorted((ROOT / "schemas" / "examples").glob("*Part/*.json")):
        out.append(json.loads(path.read_text(encoding="utf-8")))
    return tuple(out)


# --- values -------------------------------------------------------------------------------------

LONG = 100_000

ODD_STRINGS: tuple[str, ...] = (
    "",
    " ",
    "\x00",
    "a\x00b",
    "\ud800",
    "x\udfffy",
    "\ufeff",
    "\u202e\u0644",
    "😀" * 3,
    "\n\r\t",
    "<|im_end|>",
    "<|im_start|>assistant\n",
    "{}",
    "[DONE]",
    "data: x",
    "null",
    "-1",
    "1e999",
    "%s%n",
    "../../etc/passwd",
    "x" * LONG,
)

ODD_NUMBERS: tuple[Any, ...] = (
    0,
    -1,
    -0.0,
    0.5,
    2**31,
    2**53 + 1,
    2**64,
    -(2**63) - 1,
    10**300,
    1e308,
    5e-324,
    math.inf,
    -math.inf,
    math.nan,
    10**4_400,  # more digits than Python turns into text by default
)

PLAIN: tuple[Any, ...] = (None, True, False, 0, 1, -7, 3.5, "", "x", [], {}, [None], {"": None})


def odd_value(rng: random.Random) -> Any:
    """A value of any JSON type, or a Python value JSON has no room for."""
    pick = rng.randrange(6)
    if pick == 0:
        return rng.choice(ODD_STRINGS)
    if pick == 1:
        return rng.choice(ODD_NUMBERS)
    if pick == 2:
        return clone(rng.choice(PLAIN))
    if pick == 3:
        return clone(rng.choice(canonical_parts()))
    if pick == 4:
        return deep(rng.choice((1_100, 5_000)), rng.choice(("list", "dict")))
    return rng.choice((b"bytes", (1, 2), {1, 2}, object(), {1: "int key"}, {"\ud800": 1}))


def clone(value: Any) -> Any:
    """A deep copy of JSON-shaped data that survives any nesting (``copy.deepcopy`` recurses);
    other values are shared."""
    if not isinstance(value, dict | list):
        return value
    top: Any = {} if isinstance(value, dict) else []
    stack: list[tuple[Any, Any]] = [(value, top)]
    while stack:
        source, target = stack.pop()
        items = source.items() if isinstance(source, dict) else enumerate(source)
        for key, item in items:
            if isinstance(item, dict | list):
                copied: Any = {} if isinstance(item, dict) else []
                stack.append((item, copied))
            else:
                copied = item
            if isinstance(target, dict):
                target[key] = copied
            else:
                target.append(copied)
    return top


def deep(depth: int, shape: str = "list") -> Any:
    """A value nested ``depth`` levels (built without recursion)."""
    value: Any = "bottom"
    for _ in range(depth):
        value = [value] if shape == "list" else {"k": value}
    return value


# --- paths --------------------------------------------------------------------------------------

Path_ = tuple[Any, ...]


def paths(node: Any, limit: int = 4_000) -> list[Path_]:
    """The path of every node below ``node`` (document order, at most ``limit``)."""
    out: list[Path_] = []
    stack: list[tuple[Path_, Any]] = [((), node)]
    while stack and len(out) < limit:
        path, value = stack.pop()
        if path:
            out.append(path)
        if isinstance(value, dict):
            stack.extend(((*path, k), v) for k, v in reversed(list(value.items())))
        elif isinstance(value, list):
            stack.extend(((*path, i), v) for i, v in reversed(list(enumerate(value))))
    return out


def _get(root: Any, path: Path_) -> Any:
    for step in path:
        root = root[step]
    return root


def _set(root: Any, path: Path_, value: Any) -> Any:
    if not path:
        return value
    _get(root, path[:-1])[path[-1]] = value
    return root


# --- mutations of one document ---------------------------------------------------------------


def mutate(document: Any, rng: random.Random, count: int = 1) -> Any:
    """``document`` (not changed) with ``count`` mutations applied."""
    if isinstance(document, str):
        return _mutate_text(document, rng, count)
    out = clone(document)
    for _ in range(count):
        out = _mutate_once(out, rng)
    return out


def _mutate_text(text: str, rng: random.Random, count: int) -> Any:
    for _ in range(count):
        at = rng.randrange(len(text) + 1)
        pick = rng.randrange(4)
        if pick == 0:
            text = text[:at]
        elif pick == 1:
            text = text[:at] + text[at + 1 :]
        elif pick == 2:
            text = text[:at] + rng.choice(ODD_STRINGS[:-1]) + text[at:]
        else:
            text = text[:at] + text[at:] * 2
    return text


def _mutate_once(root: Any, rng: random.Random) -> Any:
    every = paths(root)
    if not every:
        return odd_value(rng)
    path = rng.choice(every)
    parent = _get(root, path[:-1])
    key = path[-1]
    value = parent[key]
    op = rng.randrange(9)
    if op == 0:  # delete
        del parent[key]
    elif op == 1:  # duplicate: the value again, under a new key or as the next item
        if isinstance(parent, dict):
            parent[f"{key}_copy"] = clone(value)
        else:
            parent.insert(key, clone(value))
    elif op == 2:  # retype
        parent[key] = clone(rng.choice(PLAIN))
    elif op == 3:  # swap with another node (when neither holds the other)
        other = rng.choice(every)
        if other[: len(path)] != path and path[: len(other)] != other:
            second = _get(root, other)
            parent[key] = second
            _set(root, other, value)
    elif op == 4:  # deepen: the value nested far below its place
        wrapped = value
        for _ in range(rng.choice((300, 1_100, 3_000))):
            wrapped = [wrapped] if rng.random() < 0.5 else {"k": wrapped}
        parent[key] = wrapped
    elif op == 5:  # a number JSON or the format cannot carry
        parent[key] = rng.choice(ODD_NUMBERS)
    elif op == 6:  # an odd string
        parent[key] = rng.choice(ODD_STRINGS)
    elif op == 7:  # an odd string as a key
        if isinstance(value, dict) and value:
            name = rng.choice(list(value))
            value[rng.choice(ODD_STRINGS)] = value.pop(name)
        else:
            parent[key] = odd_value(rng)
    else:  # anything at all
        parent[key] = odd_value(rng)
    return root


# --- mutations of a stream ------------------------------------------------------------------


def mutate_stream(chunks: tuple[Any, ...], rng: random.Random) -> list[Any]:
    """The chunks of a stream after one fault (or, one time in four, two or three): cut short,
    started late, reordered, repeated, one chunk corrupted (mutated, not JSON, nested very
    deep), or extra chunks."""
    out = [clone(c) for c in chunks]
    for _ in range(1 if rng.random() < 0.75 else rng.randrange(2, 4)):
        out = _fault(out, rng)
    return out


def _fault(out: list[Any], rng: random.Random) -> list[Any]:
    n = len(out)
    op = rng.randrange(8)
    if op == 0 and n:  # ends early
        return out[: rng.randrange(n)]
    if op == 1 and n:  # starts late
        return out[rng.randrange(1, n + 1) :]
    if op == 2 and n > 1:  # two chunks swap
        i, j = rng.randrange(n), rng.randrange(n)
        out[i], out[j] = out[j], out[i]
        return out
    if op == 3 and n:  # a chunk comes twice
        i = rng.randrange(n)
        out.insert(i, clone(out[i]))
        return out
    if op == 4 and n:  # a chunk is shuffled in
        rng.shuffle(out)
        return out
    if op == 5 and n:  # a chunk corrupted in place
        i = rng.randrange(n)
        out[i] = mutate(out[i], rng, rng.choice((1, 2)))
        return out
    if op == 6:  # a payload that is not JSON, or JSON no reader should hold
        i = rng.randrange(n + 1)
        out.insert(
            i,
            rng.choice(
                (
                    "{",
                    "not json",
                    '{"a": 1, "a": 2}',
                    "[" * 100_000,
                    '{"n": 1e999}',
                    '{"n": ' + "9" * 5_000 + "}",
                    '"\\ud800"',
                    "NaN",
                    "",
                )
            ),
        )
        return out
    if n:  # a chunk nested very deep (as text: no encoder writes it)
        i = rng.randrange(n)
        depth = rng.choice((300, 1_100, 100_000))
        head = json.dumps({"type": _type_of(out[i])})[:-1]
        out[i] = head + ', "x": ' + '{"k": ' * depth + "1" + "}" * depth + "}"
    return out


def payload_text(chunk: Any) -> str:
    """A chunk as the text of its payload, whatever Python values a mutation put in it: a value
    JSON has no room for is written as its `str`, NaN and infinities as Python writes them, a
    structure too deep for the encoder as deep JSON text, an integer too long as its digits."""
    if isinstance(chunk, str):
        return chunk
    try:
        return json.dumps(chunk, ensure_ascii=False, default=str)
    except RecursionError:
        return "[" * 20_000 + "]" * 20_000
    except ValueError:
        return '{"n": ' + "9" * 5_000 + "}"


def stream_lines(framing: str, chunks: list[Any], event_field: str | None) -> list[str]:
    """The chunks as the lines of raw stream text (strings are payloads as they are)."""
    out: list[str] = []
    for chunk in chunks:
        text = payload_text(chunk)
        if framing == "ndjson":
            out.append(text.replace("\n", " ") + "\n")
            continue
        name = chunk.get(event_field) if event_field and isinstance(chunk, dict) else None
        if isinstance(name, str) and name.isprintable():
            out.append(f"event: {name}\n")
        out.extend(f"data: {piece}\n" for piece in text.split("\n"))
        out.append("\n")
    return out


def _type_of(chunk: Any) -> str | None:
    kind = chunk.get("type") if isinstance(chunk, dict) else None
    return kind if isinstance(kind, str) and kind.isascii() else None
