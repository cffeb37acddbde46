"""Many bodies converted on every core: iterators that keep the input's order.

>>> from interlingua.datasets import Options, convert_lines
>>> body = '{"model": "m", "messages": [{"role": "user", "content": "hi"}]}'
>>> for line in convert_lines([body, "", "[1,"], Options("openai-chat", "gemini"), jobs=1):
...     print(line.number, line.status, line.output[:44] or "(blank)")
1 converted {"contents": [{"role": "user", "parts": [{"t
2 None (blank)
3 failed {"error": {"code": "invalid_json", "path": "

The work goes to a process pool in chunks of consecutive lines (:mod:`interlingua.datasets.pool`),
so the results are the same, in the same order, for any number of jobs. With a named source
and no kind, the first body's kind holds for every body (told once, here, before any work
is sent), so no body goes through format detection.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import replace
from functools import partial
from itertools import chain
from typing import Any, BinaryIO

from interlingua.conversion.reading import DEFAULT_MAX_BYTES, InputError, read_json
from interlingua.datasets.body import AUTO, Converted, Options, convert_body
from interlingua.datasets.lines import (
    Chunk,
    Line,
    RawLine,
    Unread,
    by_place,
    convert_chunk,
    lines_of,
)
from interlingua.datasets.live import live_chunks
from interlingua.datasets.pool import chunks, default_jobs, ordered_map
from interlingua.datasets.reader import file_chunks, stream_lines
from interlingua.datasets.written import Render, Written, write_chunk

#: What a worker imports before its first chunk.
PRELOAD = [
    "interlingua.datasets.body",
    "interlingua.datasets.written",
    "interlingua.conversion.converter",
    "interlingua.conversion.detector",
]

#: Lines (or bodies) a worker takes at once: enough to make the hand-off cheap, few enough
#: that a batch's memory does not grow with it.
CHUNK = 256


def batch_kind(options: Options, first: Any) -> Options:
    """``options`` (a named source, no kind) with the kind of the batch's first body, for
    every body."""
    from interlingua.conversion.detector import detect  # noqa: PLC0415

    found = detect(first, among=[options.source])
    return replace(options, kind=found.kind or "request")


def first_body(lines: Iterator[RawLine], max_bytes: int) -> tuple[list[RawLine], Any]:
    """The lines up to the first that reads as JSON, and its body (None when none does)."""
    seen: list[RawLine] = []
    for raw in lines:
        seen.append(raw)
        if isinstance(raw, Unread) or not raw.strip():
            continue
        try:
            return seen, read_json(raw, max_bytes=max_bytes)
        except InputError:
            continue
    return seen, None


def convert_lines(
    lines: Iterable[RawLine],
    options: Options,
    *,
    jobs: int | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    chunk: int = CHUNK,
    live: bool = False,
) -> Iterator[Line]:
    """Convert JSON Lines (each line's bytes or text) as ``options`` say (their source a
    format or ``auto``) on ``jobs`` processes (default: every core): one :class:`Line` per
    input line, in order, each with its output line, its report line and its problems.

    ``live``: the lines come from a pipe or a terminal, maybe one at a time, each waiting for
    its answer: every line that has arrived is answered before the next is awaited."""
    for done in convert_chunks(
        lines, options, jobs=jobs, max_bytes=max_bytes, chunk=chunk, live=live
    ):
        yield from done


def convert_chunks(
    lines: Iterable[RawLine],
    options: Options,
    *,
    jobs: int | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    chunk: int = CHUNK,
    live: bool = False,
) -> Iterator[list[Line]]:
    """:func:`convert_lines`, a chunk of consecutive lines at a time (a writer then writes a
    chunk at once)."""
    lines = iter(lines)
    if options.source != AUTO and options.kind is None:
        head, first = first_body(lines, max_bytes)
        if first is not None:
            options = batch_kind(options, first)
        lines = chain(head, lines)
    grouped = (
        live_chunks(lines, chunk) if live else ((part, False) for part in chunks(lines, chunk))
    )
    work = partial(convert_chunk, options=options, max_bytes=max_bytes)
    tasks = _numbered(grouped)
    yield from ordered_map(work, tasks, jobs or default_jobs(), settle=_idle, preload=PRELOAD)


def convert_stream(
    stream: BinaryIO,
    options: Options,
    *,
    jobs: int | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    reports: bool = False,
    chunk: int = CHUNK,
    live: bool = False,
    render: Render | None = None,
) -> Iterator[Written]:
    """JSON Lines read from ``stream`` and converted as :func:`convert_lines` does, a chunk at a
    time, ready to write: the output lines (and with ``reports`` the report lines) as UTF-8
    bytes, the problems of the lines that have some, and the chunk's :class:`Summary`.

    A file is read in large blocks and each chunk travels as one piece of bytes, both ways
    (to a forked worker, only its place in the file: the worker reads it there);
    ``live`` (a pipe, a terminal): line by line, every line that has arrived answered before
    the next is awaited. ``render`` (picklable) turns a chunk's problems into the text to
    write, in the workers. (``interlingua convert`` writes a file with
    :mod:`interlingua.datasets.relay` instead: its workers write, nothing comes back.)"""
    tasks: Iterator[Chunk] = (
        _numbered(live_chunks(stream_lines(stream, max_bytes), chunk))
        if live
        else file_chunks(stream, chunk, max_bytes)
    )
    if options.source != AUTO and options.kind is None:
        head, first = _first_chunks(tasks, max_bytes)
        if first is not None:
            options = batch_kind(options, first)
        tasks = chain(head, tasks)
    work = partial(
        write_chunk, options=options, max_bytes=max_bytes, reports=reports, render=render
    )
    yield from ordered_map(
        work, tasks, jobs or default_jobs(), settle=_idle, preload=PRELOAD, forked=by_place
    )


def _first_chunks(tasks: Iterator[Chunk], max_bytes: int) -> tuple[list[Chunk], Any]:
    """The chunks up to the one holding the first line that reads as JSON, and its body."""
    seen: list[Chunk] = []
    for task in tasks:
        seen.append(task)
        _, first = first_body(iter(lines_of(task, max_bytes)), max_bytes)
        if first is not None:
            return seen, first
    return seen, None


def _numbered(grouped: Iterable[tuple[list[RawLine], bool]]) -> Iterator[Chunk]:
    number = 1
    for part, idle in grouped:
        yield Chunk(number, part, idle)
        number += len(part)


def _idle(chunk: Chunk) -> bool:
    return chunk.idle


def convert_bodies(bodies: list[Any], options: Options) -> list[Converted]:
    """Convert a chunk of parsed bodies (what a worker runs for :func:`convert_many`)."""
    return [convert_body(body, options) for body in bodies]


def convert_many(
    bodies: Iterable[Any],
    options: Options,
    *,
    jobs: int | None = None,
    chunk: int = CHUNK,
) -> Iterator[Converted]:
    """Convert parsed bodies as ``options`` say on ``jobs`` processes (default: every core):
    one :class:`Converted` per body, in order, never raising for a bad body (its coded error
    is in :attr:`Converted.error`)."""
    bodies = iter(bodies)
    if options.source != AUTO and options.kind is None:
        first = next(bodies, None)
        if first is not None:
            options = batch_kind(options, first)
            bodies = chain([first], bodies)
    work = partial(convert_bodies, options=options)
    for done in ordered_map(work, chunks(bodies, chunk), jobs or default_jobs(), preload=PRELOAD):
        yield from done
