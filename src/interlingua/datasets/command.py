"""What ``interlingua convert`` runs on JSON Lines: the lines read, converted and written.

A file (read as it is, not a pipe or a decompressor's stream) goes to
:mod:`interlingua.datasets.relay`: every process converts and writes its own blocks to the
output's descriptor, nothing travels between them. Anything else (a pipe, a terminal, a
stream without a descriptor, or a process that may not fork) goes through
:func:`interlingua.datasets.batch.convert_stream`, and this process writes what the workers
send back.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import IO, BinaryIO

from interlingua.datasets.batch import batch_kind, convert_stream, first_body
from interlingua.datasets.body import AUTO, Options
from interlingua.datasets.pool import default_jobs
from interlingua.datasets.reader import file_of
from interlingua.datasets.relay import Blocks, Sinks, Tally, can_fork, convert_file, first_lines
from interlingua.datasets.written import Render, _utf8, write_utf8


def _descriptor(stream: IO[str] | None) -> int | None:
    """The descriptor a UTF-8 text stream writes to, once its buffers are flushed (None: it
    has none, or writes another encoding or other line ends)."""
    if stream is None or os.linesep != "\n" or not _utf8(getattr(stream, "encoding", None)):
        return None
    try:
        fd = stream.fileno()
    except (OSError, ValueError, AttributeError):  # a stream in memory (a test's capture)
        return None
    stream.flush()
    return fd


def _sinks(out: IO[str], report: IO[str] | None, problems: IO[str]) -> Sinks | None:
    output, errors, written = _descriptor(out), _descriptor(problems), _descriptor(report)
    if output is None or errors is None or (report is not None and written is None):
        return None
    return Sinks(output, written, errors)


def write_lines(
    stream: BinaryIO,
    options: Options,
    out: IO[str],
    *,
    report: IO[str] | None,
    problems: IO[str],
    jobs: int | None,
    max_bytes: int,
    live: bool,
    render: Render,
    progress: Callable[[int], None] | None = None,
) -> Tally:
    """Convert the JSON Lines of ``stream`` on ``jobs`` processes (None: every core) and write
    the output lines to ``out``, the report lines to ``report``, the problems (as ``render``
    writes them) to ``problems``, in order; ``progress`` gets the input bytes done so far."""
    jobs = jobs or default_jobs()
    sinks = None if live else _sinks(out, report, problems)
    found = file_of(stream) if sinks is not None and (jobs == 1 or can_fork()) else None
    if sinks is not None and found is not None:
        fd, start = found
        try:
            if options.source != AUTO and options.kind is None:
                size = os.fstat(fd).st_size
                head = Blocks(fd, start, size, 1 << 16, max_bytes)
                _, first = first_body(first_lines(head), max_bytes)
                if first is not None:
                    options = batch_kind(options, first)
            return convert_file(
                fd,
                start,
                options,
                sinks,
                jobs=jobs,
                max_bytes=max_bytes,
                reports=report is not None,
                render=render,
                progress=progress,
            )
        finally:
            os.close(fd)
    return _gathered(
        stream,
        options,
        out,
        report=report,
        problems=problems,
        jobs=jobs,
        max_bytes=max_bytes,
        live=live,
        render=render,
        progress=progress,
    )


def _gathered(
    stream: BinaryIO,
    options: Options,
    out: IO[str],
    *,
    report: IO[str] | None,
    problems: IO[str],
    jobs: int,
    max_bytes: int,
    live: bool,
    render: Render,
    progress: Callable[[int], None] | None,
) -> Tally:
    """The workers send each chunk back; this process writes it."""
    tally, done = Tally(), 0
    for chunk in convert_stream(
        stream,
        options,
        jobs=jobs,
        max_bytes=max_bytes,
        reports=report is not None,
        live=live,
        render=render,
    ):
        # A chunk arrives as text and bytes to write: a few writes, nothing per line.
        if chunk.problem_text:
            problems.write(chunk.problem_text)
        tally.summary.merge(chunk.summary)
        tally.statuses |= chunk.statuses
        write_utf8(out, chunk.output)
        out.flush()
        if report is not None:
            write_utf8(report, chunk.report)
            report.flush()
        done += chunk.size
        if progress is not None:
            progress(done)
    return tally
