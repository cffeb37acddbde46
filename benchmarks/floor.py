"""The floor under the long dict → dict row: what any converter pays that writes its output as
Python objects, measured beside interlingua and LiteLLM in one process.

``convert.py`` times the long OpenAI Chat → Anthropic row on a slice of 50 conversations parsed
before the timing starts, right after LiteLLM's run on the same slice. There the bodies' objects
and the allocator's free blocks are out of the cache, and the row costs interlingua a third more
than on a body just parsed. This script asks how much of that any converter must pay. Its floor
rows do, in C (``floor_objects.c``, built here with the C compiler the wheel's build uses), only
what every converter's output requires and nothing a converter decides:

* **the output's objects**: new dicts and lists in the shape of the Anthropic body interlingua
  wrote, every string and number shared (``rebuild``), as a converter shares the input's texts;
* **and reading the input**: every object of the Chat body read once, a byte of each cache line
  of each string (``touch``);
* **and the arguments and image data**: each tool call's arguments parsed with msgspec (the
  quickest parser of short texts measured here) and each image's base64 data sliced out of its
  data URL: the two parts of the output that are new objects rather than shared ones.

No checks, no loss report, no id map, no Python between the steps but the last row's loop. The
floor rows and the row "interlingua, prepared as the floor" get the same preparation: the slice
converted once untimed (the floor needs the output's shape), LiteLLM's run on the slice, the
slice parsed again and dropped (as the benchmark's parse moves the caches), then timed. That
preparation is not the benchmark's (the bodies were parsed before LiteLLM's run, and read once
since), so compare the floor rows with "interlingua, prepared as the floor", not with the
"interlingua" row, which ``convert.py``'s way of timing gives (as the LiteLLM row's).

    python benchmarks/floor.py [--long 200] [--repeat 5]
"""

from __future__ import annotations

import argparse
import gc
import importlib
import statistics
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import msgspec
import orjson
from convert import ConvertResult, load_interlingua, load_litellm, seconds
from openai_corpus import long_corpus

Json = dict[str, Any]
HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SLICE = 50
TARGET = "anthropic"


def build_helper(into: Path) -> ModuleType | str:
    """``floor_objects`` compiled into ``into`` and imported, or why it cannot be."""
    sys.path.insert(0, str(ROOT))
    from build_support.compiled import compiler_missing  # noqa: PLC0415 (the repo's own rule)

    why = compiler_missing()
    if why is not None:
        return why
    from setuptools import Distribution, Extension  # noqa: PLC0415 (only to build the helper)

    extension = Extension(
        "floor_objects", [str(HERE / "floor_objects.c")], extra_compile_args=["-O3"]
    )
    command = Distribution({"ext_modules": [extension]}).get_command_obj("build_ext")
    command.build_lib = str(into)
    command.build_temp = str(into / "temp")
    command.ensure_finalized()
    command.run()
    sys.path.insert(0, str(into))
    return importlib.import_module("floor_objects")


def new_leaves(body: Json) -> tuple[list[str], list[tuple[str, int]]]:
    """A Chat body's call arguments, and its images' data URLs with where their data starts:
    what a converter to Anthropic must turn into new objects."""
    arguments: list[str] = []
    images: list[tuple[str, int]] = []
    for message in body["messages"]:
        for call in message.get("tool_calls") or ():
            arguments.append(call["function"]["arguments"])
        content = message.get("content")
        if isinstance(content, list):
            for part in content:
                if part["type"] == "image_url":
                    url = part["image_url"]["url"]
                    images.append((url, url.index(",") + 1))
    return arguments, images


def timed(fn: Callable[[Any], object], inputs: list[Any]) -> float:
    """Seconds a body: ``fn`` over ``inputs``, started collected (as `convert.py` times)."""
    gc.collect()
    return seconds(fn, inputs) / len(inputs)


def blocks_of(output: Json) -> list[Json]:
    """The blocks of a converted Anthropic body's messages (a shorthand string holds none)."""
    return [
        block
        for message in output["messages"]
        if isinstance(message["content"], list)
        for block in message["content"]
    ]


Timed = Callable[[Any], object]


def floor_rows(helper: ModuleType) -> list[tuple[str, Timed]]:
    """The floor's rows, each given (body, its converted output, its new leaves)."""
    rebuild, touch, decode = helper.rebuild, helper.touch, msgspec.json.decode

    def objects(given: tuple[Json, Json, Any]) -> object:
        return rebuild(given[1])

    def read_and_objects(given: tuple[Json, Json, Any]) -> object:
        touch(given[0])
        return rebuild(given[1])

    def everything(given: tuple[Json, Json, tuple[list[str], list[tuple[str, int]]]]) -> object:
        body, output, (arguments, images) = given
        touch(body)
        built = rebuild(output)
        for text in arguments:
            decode(text)
        for url, start in images:
            url[start:]
        return built

    return [
        ("floor: the output's objects", objects),
        ("floor: and reading the input", read_and_objects),
        ("floor: and the arguments and image data", everything),
    ]


def time_slices(
    lines: list[bytes],
    ours: Callable[[Json], ConvertResult],
    theirs: Callable[[Json], Json],
    floor: list[tuple[str, Timed]],
    repeat: int,
) -> dict[str, float]:
    """Median µs a body of every row, round robin over the slices."""
    prepared: list[tuple[str, Timed]] = [
        ("interlingua, prepared as the floor", lambda given: ours(given[0])),
        *floor,
    ]
    rows: dict[str, list[float]] = {}
    gc.collect()
    gc.freeze()
    for _ in range(repeat):
        for start in range(0, len(lines), SLICE):
            part = lines[start : start + SLICE]
            # as convert.py times its rows: the slice parsed, right after LiteLLM's run on it
            for name, fn in [("LiteLLM", theirs), ("interlingua", ours)]:
                rows.setdefault(name, []).append(timed(fn, [orjson.loads(x) for x in part]))
            for name, fn in prepared:
                bodies = [orjson.loads(x) for x in part]
                # the output's shape, from each body converted untimed; then LiteLLM's run
                # on the slice and a parse of it, as the benchmark's rows come after both
                inputs = [(b, ours(b).output, new_leaves(b)) for b in bodies]
                for fresh in [orjson.loads(x) for x in part]:
                    theirs(fresh)
                reparsed = [orjson.loads(x) for x in part]
                del reparsed
                rows.setdefault(name, []).append(timed(fn, inputs))
    return {name: statistics.median(times) * 1e6 for name, times in rows.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--long", type=int, default=200, help="long conversations")
    parser.add_argument("--repeat", type=int, default=5, help="passes over the slices")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    convert = load_interlingua()
    litellm = load_litellm()
    if isinstance(convert, str):
        sys.exit(convert)
    if isinstance(litellm, str):
        sys.exit(litellm)
    with tempfile.TemporaryDirectory() as scratch:
        helper = build_helper(Path(scratch))
    if isinstance(helper, str):
        sys.exit(f"the floor's C helper cannot be built here: {helper}")

    def ours(body: Json) -> ConvertResult:
        return convert(body, source="openai-chat", target=TARGET)

    lines = [orjson.dumps(body) for body in long_corpus(args.long, args.seed)]
    # What the floor rows do is what the output holds: checked once, untimed.
    for line in lines:
        body = orjson.loads(line)
        output = ours(body).output
        arguments, images = new_leaves(body)
        written = blocks_of(output)
        assert helper.rebuild(output) == output
        assert sum(block["type"] == "tool_use" for block in written) == len(arguments)
        assert sum(block["type"] == "image" for block in written) == len(images)

    median = time_slices(lines, ours, litellm[1][TARGET], floor_rows(helper), args.repeat)
    theirs = median["LiteLLM"]
    print(
        f"{len(lines)} long conversations, OpenAI Chat → Anthropic, dict → dict, slices of "
        f"{SLICE} parsed before the timing, {args.repeat} passes, medians\n"
    )
    print("| row | µs a body | LiteLLM ÷ row |")
    print("|---|---:|---:|")
    for name, spent in median.items():
        print(f"| {name} | {spent:.1f} | {theirs / spent:.2f}× |")
    floor = median["floor: and the arguments and image data"]
    print(
        f"\n10× LiteLLM needs {theirs / 10:.1f} µs a body; the floor with the arguments and "
        f"image data gives {theirs / floor:.2f}×; interlingua, prepared the same way, takes "
        f"{median['interlingua, prepared as the floor'] / floor:.2f}× the floor's time."
    )


if __name__ == "__main__":
    main()
