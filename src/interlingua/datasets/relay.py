"""A file of JSON Lines converted by every process, each writing its own blocks in turn.

For ``interlingua convert --jobs N`` on a file. The file is cut into blocks of bytes (a block
holds the lines that start in it); each of N processes (this one and N - 1 it forks) takes
the next block nobody has taken, reads and converts it, and writes it when its turn comes
(the block before it written), straight to the output's descriptor. No bytes travel
between processes and no process only hands out and gathers: every core converts.

A process converts a block before it knows the number of the block's first line (the lines
before it are still being counted by others): the writer of a block tells the next one where
it starts, and only error records and problem lines, which name their line, wait for that
(:meth:`interlingua.datasets.written.Part.finish`). A process may hold a few converted blocks
whose turn has not come (:data:`AHEAD`), so that no process waits for a slower one's block,
and memory stays a few blocks per process whatever the file's size.

The processes share a few counters (the next block to take, the next to write, its first
line's number, the bytes written) in a shared mapping. With ``jobs=1`` this process does it
all, with nothing shared: the same code, no pool.
"""

from __future__ import annotations

import gc
import mmap
import os
import pickle
import select
import signal
import struct
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from interlingua.datasets.body import Options, Status
from interlingua.datasets.lines import RawLine, split_lines, too_long
from interlingua.datasets.summary import Summary
from interlingua.datasets.written import Part, Render, convert_part

#: Bytes of the file a block holds at most (and the tail of its last line).
BLOCK = 1 << 20
#: At least this many blocks per process, for a file too small for full blocks.
BLOCKS_PER_JOB = 16
#: Converted blocks a process holds, waiting for their turn, before it waits too.
AHEAD = 4
#: Seconds between two looks at the turn, while a process waits for it.
POLL = 0.0002


class Sinks(NamedTuple):
    """Where the writing process writes: descriptors that take UTF-8."""

    output: int
    report: int | None  # the report lines, when asked for
    problems: int  # the rendered problem lines (standard error)


@dataclass
class Tally:
    """What a process (or the whole run) counted."""

    summary: Summary = field(default_factory=Summary)
    statuses: set[Status] = field(default_factory=set)

    def add(self, other: Tally) -> None:
        self.summary.merge(other.summary)
        self.statuses |= other.statuses


def can_fork() -> bool:
    """Whether this process may fork workers: Linux, and no other thread (a lock another
    thread holds would stay held in the child for ever)."""
    return sys.platform == "linux" and threading.active_count() == 1


def block_size(length: int, jobs: int) -> int:
    """The block size for ``length`` bytes on ``jobs`` processes: :data:`BLOCK`, or less for
    a small file, so that each process gets :data:`BLOCKS_PER_JOB` blocks."""
    return max(1 << 12, min(BLOCK, length // (jobs * BLOCKS_PER_JOB) or 1))


class Blocks:
    """The lines of the file open as ``fd`` from ``start`` to ``end``, in blocks of
    ``size`` bytes: block k holds every line that starts in its bytes."""

    def __init__(self, fd: int, start: int, end: int, size: int, max_bytes: int) -> None:
        self.fd, self.start, self.end, self.size, self.max_bytes = fd, start, end, size, max_bytes
        self.count = -(-(end - start) // size)

    def bounds(self, k: int) -> tuple[int, int]:
        begin = self.start + k * self.size
        return begin, min(begin + self.size, self.end)

    def lines(self, k: int) -> list[RawLine]:
        """Block ``k``'s lines (a line past the limit: :func:`too_long`, never held)."""
        begin, stop = self.bounds(k)
        low = begin - 1 if k else begin  # a line starts at begin if the byte before ends one
        data = os.pread(self.fd, stop - low, low)
        if k:
            newline = data.find(b"\n")
            if newline < 0 or low + newline + 1 >= stop:
                return []  # inside a line that started before
            data = data[newline + 1 :]
        if data.endswith(b"\n") or stop >= self.end:
            return split_lines(data, self.max_bytes)
        cut = data.rfind(b"\n") + 1  # the last line goes on past the block
        lines = split_lines(data[:cut], self.max_bytes)
        lines.append(self._tail(data[cut:], stop))
        return lines

    def _tail(self, start: bytes, at: int) -> RawLine:
        """The line that starts with ``start`` and goes on at byte ``at``, up to its newline."""
        pieces, length = [start], len(start)
        while length <= self.max_bytes and at < self.end:
            data = os.pread(self.fd, min(self.size, self.end - at), at)
            newline = data.find(b"\n")
            if newline >= 0:
                pieces.append(data[:newline])
                length += newline
                break
            pieces.append(data)
            length += len(data)
            at += len(data)
        return too_long(self.max_bytes) if length > self.max_bytes else b"".join(pieces)


class _Shared:
    """Counters every process sees (a shared anonymous mapping); ``take`` under a lock."""

    TAKEN, TURN, LINE, DONE, STOP = range(5)

    def __init__(self, forked: bool) -> None:
        self.map = mmap.mmap(-1, 8 * 5)
        self.lock: Any = None
        if forked:
            import multiprocessing  # noqa: PLC0415

            self.lock = multiprocessing.get_context("fork").Lock()
        self.set(self.LINE, 1)

    def get(self, slot: int) -> int:
        value: int = struct.unpack_from("q", self.map, 8 * slot)[0]
        return value

    def set(self, slot: int, value: int) -> None:
        struct.pack_into("q", self.map, 8 * slot, value)

    def take(self) -> int:
        """The next block nobody has taken."""
        if self.lock is None:
            taken = self.get(self.TAKEN)
            self.set(self.TAKEN, taken + 1)
            return taken
        with self.lock:
            taken = self.get(self.TAKEN)
            self.set(self.TAKEN, taken + 1)
        return taken

    # The turn passes under the lock too: its release and acquisition order the writes of the
    # process that had the turn (line, then turn) for every CPU, weakly ordered ones included.

    def first_line(self, k: int) -> int | None:
        """The number of block ``k``'s first line once its turn has come, else None."""
        if self.lock is None:
            return self.get(self.LINE) if self.get(self.TURN) == k else None
        with self.lock:
            return self.get(self.LINE) if self.get(self.TURN) == k else None

    def pass_turn(self, k: int, line: int, done: int) -> None:
        """Block ``k`` is written: the next block's first line, the bytes done, then the turn."""
        if self.lock is None:
            self._pass(k, line, done)
            return
        with self.lock:
            self._pass(k, line, done)

    def _pass(self, k: int, line: int, done: int) -> None:
        self.set(self.LINE, line)
        self.set(self.DONE, done)
        self.set(self.TURN, k + 1)


def _write(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


class _Stopped(Exception):
    """Another process failed: this one stops (the one that failed says why)."""


@dataclass
class _Process:
    """One converting process's side of the run."""

    blocks: Blocks
    shared: _Shared
    convert: Callable[[list[RawLine]], Part]
    sinks: Sinks
    reports: bool
    render: Render | None
    #: Called with the bytes written so far after each block this process writes (the
    #: progress bar: only the first process has one).
    progress: Callable[[int], None] | None = None
    #: Waits a moment while the turn has not come; raises if the run cannot go on.
    wait: Callable[[], None] = lambda: time.sleep(POLL)
    tally: Tally = field(default_factory=Tally)
    held: deque[tuple[int, Part]] = field(default_factory=deque)

    def run(self, first: int | None = None) -> Tally:
        """Take, convert and write blocks until none is left (``first``: take only that
        one, before the workers start)."""
        while True:
            self._write_ready()
            if len(self.held) >= AHEAD:
                self._wait(self.held[0][0])
                continue
            k = self.shared.take() if first is None else first
            if k >= self.blocks.count:
                break
            self.held.append((k, self.convert(self.blocks.lines(k))))
            if first is not None:
                break
        while self.held:
            self._wait(self.held[0][0])
            self._write_ready()
        return self.tally

    def _write_ready(self) -> None:
        shared = self.shared
        while self.held:
            first = shared.first_line(self.held[0][0])
            if first is None:
                return
            k, part = self.held.popleft()
            output, report, _, text = part.finish(first, self.reports, self.render)
            if text:
                _write(self.sinks.problems, text.encode("utf-8", "backslashreplace"))
            _write(self.sinks.output, output)
            if self.sinks.report is not None:
                _write(self.sinks.report, report)
            self.tally.summary.merge(part.summary)
            self.tally.statuses |= part.statuses
            done = self.blocks.bounds(k)[1] - self.blocks.start
            shared.pass_turn(k, first + part.line_count, done)
            if self.progress is not None:
                self.progress(done)

    def _wait(self, k: int) -> None:
        shared = self.shared
        while shared.get(shared.TURN) != k:
            self.wait()


class _Workers:
    """The forked processes, each with a pipe that brings back its tally, or its error."""

    def __init__(self) -> None:
        self.pipes: dict[int, int] = {}  # pid: read end
        self.received: dict[int, list[bytes]] = {}
        self.tallies: list[Tally] = []

    def start(self, process: _Process, count: int) -> None:
        parent = os.getpid()
        for _ in range(count):
            read, write = os.pipe()
            pid = os.fork()
            if pid == 0:  # pragma: no cover  # the child (coverage does not follow it)
                os.close(read)
                _child(process, write, parent)
            os.close(write)
            self.pipes[pid] = read
            self.received[pid] = []

    def check(self, timeout: float = 0.0) -> None:
        """Read what the workers sent (waiting ``timeout`` at most); keep the tally of each
        that ended, raise the error of one that failed."""
        ready, _, _ = select.select(list(self.pipes.values()), [], [], timeout)
        for pid, fd in list(self.pipes.items()):
            if fd not in ready:
                continue
            data = os.read(fd, 1 << 16)
            if data:
                self.received[pid].append(data)
                continue
            os.close(fd)
            del self.pipes[pid]
            _, status = os.waitpid(pid, 0)
            sent = b"".join(self.received.pop(pid))
            tally = _outcome(sent, status)
            if tally is not None:
                self.tallies.append(tally)

    def wait(self) -> None:
        """Wait a moment for the turn (what a worker sends ends it)."""
        self.check(POLL)

    def gather(self) -> list[Tally]:
        while self.pipes:
            self.check(timeout=0.05)
        return self.tallies

    def stop(self) -> None:
        """End every worker still running (the run failed or was interrupted)."""
        for pid, fd in self.pipes.items():
            os.close(fd)
            try:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            except (ProcessLookupError, ChildProcessError):  # pragma: no cover  # gone already
                pass
        self.pipes.clear()


#: What a worker that stopped because another failed sends (that one sends why).
_STOPPED = "stopped"


def _outcome(data: bytes, status: int) -> Tally | None:
    """A worker's tally from what it sent (None: it stopped for another's error), or its
    error raised here."""
    sent: Any = pickle.loads(data) if data else None
    if isinstance(sent, Tally) and status == 0:
        return sent
    if isinstance(sent, BaseException):
        raise sent
    if sent == _STOPPED:
        return None
    raise RuntimeError(f"a worker process ended with status {status} before it finished")


def _child(process: _Process, pipe: int, parent: int) -> None:  # pragma: no cover  # a child
    """A worker's life: convert and write its blocks, send its tally (or its error), exit."""
    shared, status = process.shared, 0

    def wait() -> None:
        if shared.get(shared.STOP) or os.getppid() != parent:
            raise _Stopped
        time.sleep(POLL)

    try:
        process.wait = wait
        process.progress = None
        process.tally = Tally()
        sent: Any = process.run()
    except _Stopped:
        sent, status = _STOPPED, 1
    except BaseException as exc:  # sent to the parent, raised there
        shared.set(shared.STOP, 1)
        sent, status = exc, 1
    try:
        data = pickle.dumps(sent)
    except Exception:  # an error that does not pickle: its text
        data = pickle.dumps(RuntimeError(repr(sent)))
    try:
        _write(pipe, data)
    finally:
        os._exit(status)


def first_lines(blocks: Blocks) -> Iterator[RawLine]:
    """The lines from the first block on (for the first body's kind); reads only as far as
    it is asked."""
    for k in range(blocks.count):
        yield from blocks.lines(k)


def convert_file(
    fd: int,
    start: int,
    options: Options,
    sinks: Sinks,
    *,
    jobs: int,
    max_bytes: int,
    reports: bool = False,
    render: Render | None = None,
    progress: Callable[[int], None] | None = None,
    block: int | None = None,
) -> Tally:
    """Convert the JSON Lines of the file open as ``fd`` from byte ``start`` to its end (its
    size now) on ``jobs`` processes, written to ``sinks`` in order: what :func:`convert_lines`
    gives, as the bytes ``interlingua convert`` writes. ``render`` turns a block's problems
    into the text written to ``sinks.problems``; ``progress`` gets the bytes done so far.
    Forks only when :func:`can_fork` (the caller asks)."""
    end = os.fstat(fd).st_size
    length = max(end - start, 0)
    blocks = Blocks(fd, start, start + length, block or block_size(length, jobs), max_bytes)
    workers = min(jobs, blocks.count) - 1
    shared = _Shared(forked=workers > 0)

    def convert(lines: list[RawLine]) -> Part:
        return convert_part(lines, options, max_bytes, reports)

    process = _Process(blocks, shared, convert, sinks, reports, render, progress)
    if workers <= 0:
        return process.run()
    process.run(first=shared.take())  # in this process first: the workers fork warm
    pool = _Workers()
    gc.freeze()  # the workers' collectors leave the pages they inherit shared
    try:
        pool.start(process, workers)
        process.wait = pool.wait
        total = process.run()
        for tally in pool.gather():
            total.add(tally)
    except BaseException:
        shared.set(shared.STOP, 1)
        pool.stop()
        raise
    finally:
        gc.unfreeze()
    return total
