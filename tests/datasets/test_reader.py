"""Reading JSON Lines in blocks finds the same lines as reading them one at a time: lines
across block ends, CR LF, blank lines, no final newline, and lines past the limit, which are
answered in place and never held."""

from __future__ import annotations

import io
import os

import pytest

from interlingua.datasets.lines import Chunk, RawLine, Unread, lines_of, too_long
from interlingua.datasets.reader import file_chunks, stream_lines

LIMIT = 20
TEXT = (
    b'{"a": 1}\n'
    b"\n"
    b'{"b": 22}\r\n'
    + b"x" * 45  # too long, across several small blocks
    + b"\n"
    + b"y" * LIMIT  # exactly the limit: kept
    + b"\n"
    + b"z" * (LIMIT + 1)  # one past the limit
    + b"\n   \n"
    b'{"c": 3}'  # no newline at the end
)


def _by_line(data: bytes, limit: int) -> list[RawLine]:
    """What the line-by-line reader reads, each line without its newline."""
    return [
        raw if isinstance(raw, Unread) else raw.removesuffix(b"\n")
        for raw in stream_lines(io.BytesIO(data), limit)
    ]


def _by_block(data: bytes, size: int, limit: int, block: int) -> list[RawLine]:
    chunks = list(file_chunks(io.BytesIO(data), size, limit, block))
    numbers = [chunk.first for chunk in chunks]
    lines = [line for chunk in chunks for line in lines_of(chunk, limit)]
    counts = [len(lines_of(chunk, limit)) for chunk in chunks]
    assert numbers == [1 + sum(counts[:n]) for n in range(len(chunks))]  # numbered in step
    assert max(counts) <= size
    return lines


@pytest.mark.parametrize("block", [1, 3, 8, 21, 64, 1 << 20])
@pytest.mark.parametrize("size", [1, 2, 256])
def test_blocks_hold_the_lines_a_line_reader_reads(block: int, size: int) -> None:
    expected = _by_line(TEXT, LIMIT)
    assert expected[3] == expected[5] == too_long(LIMIT)
    assert expected[4] == b"y" * LIMIT and expected[-1] == b'{"c": 3}'
    assert _by_block(TEXT, size, LIMIT, block) == expected
    assert _by_block(TEXT + b"\n", size, LIMIT, block) == expected  # a final newline: no more
    assert _by_block(TEXT + b"\n\n", size, LIMIT, block) == [*expected, b""]


def test_a_line_too_long_at_the_end_and_an_empty_input() -> None:
    assert _by_block(b"a\n" + b"x" * 50, 4, LIMIT, 8) == [b"a", too_long(LIMIT)]
    assert _by_line(b"a\n" + b"x" * 50, LIMIT) == [b"a", too_long(LIMIT)]
    assert list(file_chunks(io.BytesIO(b""), 4, LIMIT)) == []


def test_a_long_line_is_never_held_whole() -> None:
    """Past the limit, the reader keeps no more of the line than a block."""
    chunks = list(file_chunks(io.BytesIO(b"x" * 10_000 + b"\nok\n"), 4, 100, 64))
    assert chunks == [Chunk(1, [too_long(100)]), Chunk(2, b"ok\n")]


def test_a_chunk_of_text_lines_is_taken_as_it_is() -> None:
    assert lines_of(Chunk(1, ["a", b"b"]), 1) == ["a", b"b"]


def test_only_a_file_read_as_it_is_has_places() -> None:
    """A pipe, or a reader over bytes in memory, has no place a worker could read."""
    read, write = os.pipe()
    os.write(write, b"{}\n{}\n")
    os.close(write)
    with open(read, "rb") as pipe:
        assert [(c.lines, c.place) for c in file_chunks(pipe, 8, 100)] == [(b"{}\n{}\n", None)]
    in_memory = io.BufferedReader(io.BytesIO(b"{}\n"))
    assert [(c.lines, c.place) for c in file_chunks(in_memory, 8, 100)] == [(b"{}\n", None)]
