"""JSON Lines read from a stream: a file in large blocks, a pipe or a terminal line by line.

From a file the reading process only cuts the bytes into chunks of whole lines (finding one
newline in ``size``): it never splits, decodes or copies each line, so it stays out of the
way of the workers that do (:func:`interlingua.datasets.lines.lines_of`). A line longer than
the limit is never held: its start is dropped as it is read, and it is answered with
:func:`~interlingua.datasets.lines.too_long`, as the line-by-line reader does.
"""

from __future__ import annotations

import io
import os
import stat
from collections.abc import Iterator
from typing import BinaryIO

from interlingua.datasets.lines import Chunk, Unread, too_long
from interlingua.datasets.place import Place, identity

#: Bytes read at once from a file: a chunk is at most this much (and a line's end).
BLOCK = 1 << 20


def _runs(stream: BinaryIO, max_bytes: int, block: int) -> Iterator[tuple[int, bytes | Unread]]:
    """The stream in runs of whole lines (the last may lack its newline), each with how far
    into the stream it starts; in place of a line longer than ``max_bytes`` (not counting its
    newline), its error."""
    held: list[bytes] = []  # the start of a line whose end is not read yet
    length = 0
    skipping = False  # in a line already answered as too long
    base = 0  # how far into the stream ``data`` starts
    while data := stream.read(block):
        start = 0
        if skipping:
            start = data.find(b"\n") + 1
            skipping = not start
        end = data.rfind(b"\n", start) + 1 if not skipping else 0
        if end:
            run = b"".join([*held, data[start:end]]) if held else data[start:end]
            yield base + start - length, run
            held, length, start = [], 0, end
        if not skipping and start < len(data):
            length += len(data) - start
            if length > max_bytes:
                yield base + start, too_long(max_bytes)
                held, length, skipping = [], 0, True
            else:
                held.append(data[start:])
        base += len(data)
    if held:
        yield base - length, b"".join(held)


def file_of(stream: BinaryIO) -> tuple[int, int] | None:
    """A descriptor of the stream's own of its file and how far into the file the stream
    is, when it reads a file as it is (not a pipe, nor through a decompressor, say): a
    forked worker can read that file itself."""
    if not isinstance(stream, io.BufferedReader | io.FileIO):  # others' tell() is not a place
        return None
    try:
        fd = stream.fileno()
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        position = stream.tell()
    except (OSError, ValueError):  # no descriptor (an in-memory stream): the bytes travel
        return None
    return os.dup(fd), position  # its own: a worker's stdin is closed at its start


def file_chunks(stream: BinaryIO, size: int, max_bytes: int, block: int = BLOCK) -> Iterator[Chunk]:
    """Chunks of at most ``size`` lines and about ``block`` bytes, each line's bytes in one
    piece, and, when the stream reads a file, their place in it; a line too long is a chunk
    of its own."""
    found = file_of(stream)
    fd, position = found or (-1, 0)
    file = identity(fd) if found else (0, 0)
    number = 1
    try:
        for offset, run in _runs(stream, max_bytes, block):
            if isinstance(run, Unread):
                yield Chunk(number, [run])
                number += 1
                continue
            start = 0
            while start < len(run):
                end, count = start, 0
                while count < size and end < len(run):
                    end = (run.find(b"\n", end) + 1) or len(run)
                    count += 1
                place = Place(fd, position + offset + start, end - start, file) if found else None
                yield Chunk(number, run[start:end], place=place)
                number += count
                start = end
    finally:
        if found:
            os.close(fd)


def stream_lines(stream: BinaryIO, max_bytes: int) -> Iterator[bytes | Unread]:
    """Each line's bytes as it arrives (a pipe, a terminal); in place of a line longer than
    ``max_bytes``, its error, without holding it."""
    while data := stream.readline(max_bytes + 1):
        if len(data) > max_bytes and not data.endswith(b"\n"):
            while data and not data.endswith(b"\n"):
                data = stream.readline(max_bytes + 1)
            yield too_long(max_bytes)
            continue
        yield data
