"""A chunk of JSON Lines converted into what a writer writes: bytes, counts and problems.

What the workers hand back to ``interlingua convert --jobs``: the chunk's output lines as one
piece of UTF-8, its report lines the same way, its problems (few: only the lines that have
some), and its :class:`Summary`. The process that reads and writes then does next to nothing
per line, so it does not compete with the workers for the cores.
"""

from __future__ import annotations

import codecs
import os
from collections.abc import Callable
from typing import IO, NamedTuple

from interlingua.datasets.body import Converted, Options, Problem, Status
from interlingua.datasets.lines import Chunk, RawLine, Unread, line_outcome, lines_of, numbered
from interlingua.datasets.place import Place
from interlingua.datasets.summary import Summary


class Written(NamedTuple):
    """What became of a chunk of lines, ready to write."""

    first: int  # the number of its first line
    #: Its output lines, each ending in a newline, in UTF-8.
    output: bytes
    #: Its report lines in step (empty unless reports were asked for).
    report: bytes
    #: (line number, problems) of each line that has any, in order (none once rendered).
    problems: tuple[tuple[int, tuple[Problem, ...]], ...]
    #: Those problems as the text a writer writes, when a renderer was given.
    problem_text: str
    summary: Summary
    #: What became of its bodies (blank lines aside).
    statuses: frozenset[Status]
    #: Bytes it took in the input (for a progress bar).
    size: int


def _size(chunk: Chunk, max_bytes: int) -> int:
    if isinstance(chunk.lines, bytes):
        return len(chunk.lines)
    if isinstance(chunk.lines, Place):
        return chunk.lines.length
    return sum(max_bytes if isinstance(raw, Unread) else len(raw) for raw in chunk.lines)


#: Writes a chunk's (line number, problems) as text (a module-level function or a partial
#: of one: it travels to the workers).
Render = Callable[[tuple[tuple[int, tuple[Problem, ...]], ...]], str]


class Part(NamedTuple):
    """A chunk's lines converted, their numbers not told yet: only an error record and a
    problem name its line, so a process converts a chunk before it knows where it starts
    (:mod:`interlingua.datasets.relay`) and :meth:`finish` numbers it."""

    #: Each line's output line and report line (those of failed lines numbered later).
    outputs: list[str]
    reports: list[str]
    #: (offset in the chunk, outcome, size) of each failed or refused line.
    failed: list[tuple[int, Converted, int]]
    #: (offset, problems) of each line that has any.
    problems: list[tuple[int, tuple[Problem, ...]]]
    summary: Summary
    statuses: frozenset[Status]

    @property
    def line_count(self) -> int:
        """Its lines (blank ones too)."""
        return len(self.outputs)

    def finish(
        self, first: int, reports: bool, render: Render | None = None
    ) -> tuple[bytes, bytes, tuple[tuple[int, tuple[Problem, ...]], ...], str]:
        """Its output and report bytes, problems and problem text, its first line numbered
        ``first``."""
        outputs, written = self.outputs, self.reports
        if self.failed:
            outputs, written = list(outputs), list(written)
            for offset, done, size in self.failed:
                line = numbered(first + offset, done, size, reports)
                outputs[offset] = line.output
                if reports:
                    written[offset] = line.report
        problems = tuple((first + offset, found) for offset, found in self.problems)
        text = render(problems) if render and problems else ""
        return _joined(outputs), _joined(written), problems, text


def convert_part(lines: list[RawLine], options: Options, max_bytes: int, reports: bool) -> Part:
    """Convert every line of a chunk, its numbers left to :meth:`Part.finish`."""
    summary = Summary()
    outputs: list[str] = []
    written: list[str] = []
    failures: list[tuple[int, Converted, int]] = []
    problems: list[tuple[int, tuple[Problem, ...]]] = []
    statuses: set[Status] = set()
    for offset, raw in enumerate(lines):
        done, took = line_outcome(raw, options, max_bytes)
        line = numbered(0, done, took, reports)
        summary.add(line)
        outputs.append(line.output)
        if reports:
            written.append(line.report)
        if done is not None and done.status != "converted":
            failures.append((offset, done, took))
        if line.problems:
            problems.append((offset, line.problems))
        if line.status is not None:
            statuses.add(line.status)
    return Part(outputs, written, failures, problems, summary, frozenset(statuses))


def write_chunk(
    chunk: Chunk, options: Options, max_bytes: int, reports: bool, render: Render | None = None
) -> Written:
    """Convert every line of ``chunk`` into a :class:`Written` (what the workers run); with
    ``render``, its problems arrive rendered, as text."""
    part = convert_part(lines_of(chunk, max_bytes), options, max_bytes, reports)
    output, report, problems, text = part.finish(chunk.first, reports, render)
    return Written(
        chunk.first,
        output,
        report,
        () if render else problems,
        text,
        part.summary,
        part.statuses,
        _size(chunk, max_bytes),
    )


def _joined(lines: list[str]) -> bytes:
    """The lines, each ending in a newline, in UTF-8 (copied once before the encoding)."""
    return "\n".join([*lines, ""]).encode() if lines else b""


def write_utf8(stream: IO[str], data: bytes) -> None:
    """Write UTF-8 text to a text stream: its bytes straight to the stream's own buffer when
    that is what the stream would write (UTF-8, no newline translation), else decoded."""
    buffer = getattr(stream, "buffer", None)
    if buffer is not None and os.linesep == "\n" and _utf8(getattr(stream, "encoding", None)):
        stream.flush()  # whatever text it holds goes first
        buffer.write(data)
    else:
        stream.write(data.decode())


def _utf8(encoding: str | None) -> bool:
    try:
        return encoding is not None and codecs.lookup(encoding).name == "utf-8"
    except LookupError:  # pragma: no cover  # a text stream's encoding is one Python knows
        return False
