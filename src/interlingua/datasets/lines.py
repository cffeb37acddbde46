"""JSON Lines: one line of text in, the line to write (and its report line) out.

:func:`convert_chunk` is what a worker process runs: thin, so the same code runs in-process
for ``jobs=1`` and is tested there (coverage does not see the workers).
"""

from __future__ import annotations

import json
from typing import NamedTuple

from interlingua.conversion.reading import DEFAULT_MAX_BYTES, InputError, read_json
from interlingua.datasets.body import Converted, Options, Problem, Status, convert_body, failed
from interlingua.datasets.place import Place, read_place


class Unread(NamedTuple):
    """A line the reader could not take (too long, say): its coded error, in its place."""

    code: str
    message: str


#: One line as it is read: its bytes (or text), or why it could not be read.
RawLine = bytes | str | Unread


def too_long(limit: int) -> Unread:
    """A line past ``limit`` bytes (not counting its newline): skipped, never held."""
    return Unread("input_too_large", f"line is longer than {limit} bytes")


class Line(NamedTuple):
    """What becomes of one input line; output line N always answers input line N."""

    number: int
    #: The output line (no newline): the converted body as JSON, an error record, or "" for
    #: a blank input line.
    output: str
    #: The report line in step: the ConversionReport as JSON, the same error record, or "".
    report: str
    #: None for a blank line (not counted); else what became of the body.
    status: Status | None
    #: Bytes the line took in the input (for a progress bar).
    size: int
    problems: tuple[Problem, ...] = ()
    pair: tuple[str, str] | None = None
    #: The code of each loss of a converted body.
    losses: tuple[str, ...] = ()


def _line(number: int, done: Converted, size: int, report: bool) -> Line:
    if done.status == "converted":
        output = json.dumps(done.output, ensure_ascii=False)
        written = json.dumps(done.report, ensure_ascii=False) if report else ""
    else:
        assert done.error is not None
        output = json.dumps({"error": {**done.error, "line": number}})
        written = output if report else ""
    kept = done.report if done.status == "converted" else None
    codes = tuple(loss["code"] for loss in kept["losses"]) if kept else ()
    return Line(number, output, written, done.status, size, done.problems, done.pair, codes)


def line_outcome(raw: RawLine, options: Options, max_bytes: int) -> tuple[Converted | None, int]:
    """What became of one input line (None: a blank line) and the bytes it took: all that
    does not depend on its number."""
    if isinstance(raw, Unread):
        return failed(raw.code, "", raw.message), max_bytes
    if not raw.strip():
        return None, len(raw)
    try:
        text = raw.rstrip("\r\n") if isinstance(raw, str) else raw.rstrip(b"\r\n")
        payload = read_json(text, max_bytes=max_bytes)
    except InputError as exc:
        return failed(exc.code, exc.path, exc.message), len(raw)
    return convert_body(payload, options), len(raw)


def numbered(number: int, done: Converted | None, size: int, report: bool = True) -> Line:
    """Input line ``number``'s :class:`Line`, from its :func:`line_outcome`."""
    if done is None:
        return Line(number, "", "", None, size)
    return _line(number, done, size, report)


def convert_line(
    number: int, raw: RawLine, options: Options, max_bytes: int, report: bool = True
) -> Line:
    """Convert input line ``number`` (its report line left empty unless ``report``)."""
    return numbered(number, *line_outcome(raw, options, max_bytes), report)


class Chunk(NamedTuple):
    """Consecutive lines, the unit of work a worker takes."""

    first: int  # the number of the first line
    #: The lines; or, read from a file, their bytes in one piece (the worker splits them, so
    #: the reading process does not touch each line), or where in the file they are.
    lines: list[RawLine] | bytes | Place
    #: Nothing followed it yet (a live input): its answers are wanted before more is read.
    idle: bool = False
    #: Where the bytes are, when they are in a file a forked worker can read.
    place: Place | None = None


def by_place(chunk: Chunk) -> Chunk:
    """``chunk`` as a forked worker takes it: its bytes' place, if it has one, for the bytes."""
    return chunk if chunk.place is None else Chunk(chunk.first, chunk.place, chunk.idle)


def lines_of(chunk: Chunk, max_bytes: int) -> list[RawLine]:
    """The lines of ``chunk``; in a piece of bytes, each past ``max_bytes`` is :func:`too_long`
    (as a line-by-line reader would have found)."""
    if isinstance(chunk.lines, list):
        return chunk.lines
    data = chunk.lines if isinstance(chunk.lines, bytes) else read_place(chunk.lines)
    return split_lines(data, max_bytes)


def split_lines(data: bytes, max_bytes: int) -> list[RawLine]:
    """The lines of a piece of whole lines; each past ``max_bytes`` is :func:`too_long`."""
    pieces = data.split(b"\n")
    if not pieces[-1]:  # the newline that ends the last line starts no line
        pieces.pop()
    lines: list[RawLine] = [
        too_long(max_bytes) if len(piece) > max_bytes else piece for piece in pieces
    ]
    return lines


def convert_chunk(chunk: Chunk, options: Options, max_bytes: int = DEFAULT_MAX_BYTES) -> list[Line]:
    """Convert every line of ``chunk`` (the function the worker processes run)."""
    return [
        convert_line(chunk.first + offset, raw, options, max_bytes)
        for offset, raw in enumerate(lines_of(chunk, max_bytes))
    ]
