"""Every public entry point on one mutated input, and what counts as surviving it.

An entry point survives an input when it returns or raises one of the coded errors the package
documents — `ConversionError` (and `LossyConversionError`), `InputError`, `DocumentError` — whose
code is in the `ErrorCode` enum. What it returns must be JSON again: encodable as UTF-8 with no
NaN or infinity. Anything else is *uncoded*; a call that takes longer than `HANG_SECONDS` is a
*hang*. The hypothesis tests (`test_fuzz.py`) fail on either; the long campaign
(`python -m tests.fuzz.campaign`) counts them.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from interlingua import (
    ConversionError,
    DocumentError,
    InputError,
    convert,
    detect,
    load,
    tool_exchanges,
    validate,
    views,
)
from interlingua.conversion.converter import formats, kinds, text_format
from interlingua.generated.codes import DESCRIPTION
from interlingua.generated.streams import STREAMS
from interlingua.streams.engine import StreamTranslator, read_stream, stream_formats
from tests.fuzz.mutations import Seed, stream_lines

HANG_SECONDS = 10.0
CODED = (ConversionError, InputError, DocumentError)


@dataclass
class Tally:
    """What a run of entry points on mutated inputs saw."""

    inputs: int = 0
    calls: int = 0
    coded: int = 0
    uncoded: list[str] = field(default_factory=list)
    hangs: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.inputs += other.inputs
        self.calls += other.calls
        self.coded += other.coded
        self.uncoded += other.uncoded
        self.hangs += other.hangs


def _codes(exc: BaseException) -> list[str]:
    if isinstance(exc, DocumentError):
        return [e.code for e in exc.errors]
    return [getattr(exc, "code", "")]


def check_json(value: Any) -> None:
    """Raise unless ``value`` is JSON that encodes: no NaN, no infinity, no lone surrogate."""
    if isinstance(value, str):
        value.encode("utf-8")
        return
    json.dumps(value, ensure_ascii=False, allow_nan=False).encode("utf-8")


def call(tally: Tally, label: str, function: Callable[[], Any]) -> Any:
    """Run one entry point, counting what it did; its result, or None."""
    tally.calls += 1
    started = time.perf_counter()
    result = None
    try:
        result = function()
    except CODED as exc:
        tally.coded += 1
        bad = [c for c in _codes(exc) if c not in DESCRIPTION]
        if bad:
            tally.uncoded.append(f"{label}: code {bad[0]!r} is not an ErrorCode")
    except Exception as exc:  # what the fuzzer is here to find
        tally.uncoded.append(f"{label}: {type(exc).__name__}: {str(exc)[:200]}")
    elapsed = time.perf_counter() - started
    if elapsed > HANG_SECONDS:
        tally.hangs.append(f"{label}: {elapsed:.1f} s")
    return result


def _converted(tally: Tally, label: str, function: Callable[[], Any]) -> None:
    def checked() -> None:
        result = function()
        check_json(result.output)
        for loss in result.losses:
            if not loss.code or not isinstance(loss.pointer, str):
                raise AssertionError(f"a loss without a code or a pointer: {loss}")

    call(tally, label, checked)


def exercise_document(seed: Seed, mutant: Any, targets: Iterable[str] | None = None) -> Tally:
    """``convert`` from the seed's format to each target (every format of its kind by
    default), then `detect`; for canonical documents `validate`, `load`, `tool_exchanges`,
    and `views` of every message that validates."""
    tally = Tally(inputs=1)
    every = [t for t in formats() if seed.kind in kinds(t)] if targets is None else targets
    for target in every:
        if seed.kind not in kinds(target) or seed.kind not in kinds(seed.format):
            continue
        label = f"convert {seed.origin} {seed.format}->{target} {seed.kind}"

        def converted(target: str = target) -> Any:
            return convert(mutant, seed.format, target, seed.kind)

        _converted(tally, label, converted)
    if seed.format != "canonical" and not text_format(seed.format):
        label = f"convert(validate_input=False) {seed.origin}"
        _converted(
            tally,
            label,
            lambda: convert(mutant, seed.format, "canonical", seed.kind, validate_input=False),
        )
    call(tally, f"detect {seed.origin}", lambda: detect(mutant))
    if seed.format == "canonical":
        call(tally, f"validate {seed.origin}", lambda: validate(mutant))
        call(tally, f"load {seed.origin}", lambda: load(mutant))
        call(tally, f"tool_exchanges {seed.origin}", lambda: tool_exchanges(mutant))
        for message in _messages(mutant):

            def viewed(message: Any = message) -> None:
                _views(message)

            call(tally, f"views {seed.origin}", viewed)
    return tally


def _messages(document: Any) -> list[Any]:
    if isinstance(document, dict) and isinstance(document.get("messages"), list):
        return list(document["messages"])
    if isinstance(document, dict) and isinstance(document.get("message"), dict):
        return [document["message"]]
    return [document]


def _views(message: Any) -> None:
    """Views take a valid Message: an invalid one is refused as `load` refuses it."""
    errors = [f for f in validate(message, "Message") if f.severity != "warning"]
    if errors:
        raise DocumentError(errors)
    for view in views(message, capabilities=["read_roles", "read_headers"]):
        _ = (view.kind, view.action, view.uri, view.content, view.roles)
        check_json(view.to_opa_input())


def exercise_stream(source: str, chunks: list[Any], targets: Iterable[str] | None = None) -> Tally:
    """The mutated chunks as raw stream text through `StreamTranslator` to each target (every
    streaming format and canonical by default), and as Python chunks through `read_stream`.
    A translation must end: completed, or failed with the error written last. (The raw
    stream is text: a value JSON has no room for is written as its `str`.)"""
    tally = Tally(inputs=1)
    spec = STREAMS[source]
    text_lines = stream_lines(spec.framing, chunks, spec.event_field)
    for target in stream_formats() if targets is None else targets:
        label = f"stream {source}->{target}"

        def translate(target: str = target) -> None:
            translator = StreamTranslator(source, target)
            out = "".join(translator.feed(line) for line in text_lines) + translator.close()
            out.encode("utf-8")
            if target == "canonical":  # it ends: completed, or with the error last
                last = json.loads(out.splitlines()[-1])
                if last["type"] not in ("message_complete", "error"):
                    raise AssertionError(f"the stream ended on {last['type']!r}")
                if (last["type"] == "error") != translator.failed:
                    raise AssertionError("failed, and no error written last")

        call(tally, label, translate)

    def read() -> None:
        events = list(read_stream(chunks, source))
        check_json(events)

    call(tally, f"read_stream {source}", read)
    return tally
