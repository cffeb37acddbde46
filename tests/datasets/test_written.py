"""convert_stream: a stream of JSON Lines comes back a chunk at a time as the bytes to write,
the same as convert_lines gives line by line, for a file read in blocks or a pipe read line
by line, in one process or on a pool; the summaries of the chunks add up to the summary of
the lines."""

from __future__ import annotations

import gc
import gzip
import io
import json
import subprocess
import sys
import threading
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

from interlingua.datasets import Summary, convert_lines
from interlingua.datasets.batch import convert_stream
from interlingua.datasets.body import Options, Problem
from interlingua.datasets.lines import Chunk, by_place
from interlingua.datasets.place import Place, identity, read_place
from interlingua.datasets.pool import ordered_map
from interlingua.datasets.reader import file_chunks, stream_lines
from interlingua.datasets.written import Written, write_chunk, write_utf8

ROOT = Path(__file__).resolve().parents[2]

GOOD = {"model": "m", "messages": [{"role": "user", "content": "hé"}], "max_completion_tokens": 9}
LOSSY = {"model": "m", "seed": 7, "max_tokens": 50, "messages": [{"role": "user", "content": "hi"}]}
GEMINI = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}


def _text(count: int) -> bytes:
    kinds = [json.dumps(GOOD), json.dumps(LOSSY), "", "{", json.dumps(GEMINI), "x" * 300]
    return "".join(kinds[n % len(kinds)] + "\n" for n in range(count)).encode()


def render(problems: Iterable[tuple[int, Iterable[Problem]]]) -> str:
    """A renderer the workers can import (module level)."""
    return "".join(f"{n} {p.what} {p.code}\n" for n, found in problems for p in found)


def _joined(written: list[Written]) -> tuple[bytes, bytes, str, Summary]:
    summary = Summary()
    for done in written:
        summary.merge(done.summary)
    return (
        b"".join(done.output for done in written),
        b"".join(done.report for done in written),
        "".join(done.problem_text for done in written),
        summary,
    )


@pytest.mark.parametrize(("jobs", "live"), [(1, False), (2, False), (2, True)])
def test_a_stream_gives_what_convert_lines_gives(jobs: int, live: bool) -> None:
    data = _text(600)
    by_line = stream_lines(io.BytesIO(data), 200)  # what the command read before
    lines = list(convert_lines(by_line, Options("auto", "anthropic"), jobs=1, max_bytes=200))
    written = list(
        convert_stream(
            io.BytesIO(data),
            Options("auto", "anthropic"),
            jobs=jobs,
            max_bytes=200,
            reports=True,
            live=live,
            chunk=64,
            render=render,
        )
    )
    assert len(written) > 2  # the work was spread
    assert [done.first for done in written][:2] == [1, written[0].first + 64]
    output, report, problems, summary = _joined(written)
    assert output == "".join(f"{x.output}\n" for x in lines).encode()
    assert report == "".join(f"{x.report}\n" for x in lines).encode()
    assert problems == render((x.number, x.problems) for x in lines if x.problems)
    assert "6 error input_too_large\n" in problems  # the long line, found in a block
    alone = Summary()
    for line in lines:
        alone.add(line)
    assert summary.line(as_json=True) == alone.line(as_json=True)
    assert summary.text() == alone.text()
    assert all(done.problems == () for done in written)  # sent as text only
    assert {s for done in written for s in done.statuses} == {"converted", "failed"}
    assert sum(done.size for done in written) == (
        len(data) if not live else sum(x.size for x in lines)
    )


def test_without_a_renderer_the_problems_come_as_data_and_no_report_is_made() -> None:
    options = Options("openai-chat", "anthropic", "request")
    done = write_chunk(Chunk(5, json.dumps(LOSSY).encode() + b"\n\n{\n"), options, 1000, False)
    assert done.first == 5 and done.report == b"" and done.problem_text == ""
    assert [(n, [p.code for p in found]) for n, found in done.problems] == [
        (5, ["parameter_dropped"]),
        (7, ["invalid_json"]),
    ]
    assert done.output.count(b"\n") == 3 and done.output.split(b"\n")[1] == b""
    assert done.summary.lines == 2 and done.summary.failed == 1
    assert done.statuses == frozenset({"converted", "failed"})


def test_a_named_source_tells_the_kind_from_a_later_chunk() -> None:
    response = {
        "id": "r",
        "object": "chat.completion",
        "created": 1,
        "model": "m",
        "choices": [
            {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "hi"}}
        ],
    }
    data = ("{\n" * 5 + json.dumps(response) + "\n").encode()
    written = list(
        convert_stream(io.BytesIO(data), Options("openai-chat", "gemini"), chunk=2, reports=True)
    )
    assert [done.first for done in written] == [1, 3, 5]
    assert json.loads(written[-1].report.splitlines()[-1])["kind"] == "response"
    nothing = list(convert_stream(io.BytesIO(b"{\n\n"), Options("openai-chat", "gemini"), jobs=1))
    assert nothing[0].summary.failed == 1


def test_utf8_goes_to_a_stream_s_buffer_or_as_text() -> None:
    raw = io.BytesIO()
    text = io.TextIOWrapper(raw, encoding="utf-8")
    text.write("a\n")  # held text is written first
    write_utf8(text, "é\n".encode())
    text.flush()
    assert raw.getvalue() == "a\né\n".encode()
    plain = io.StringIO()
    write_utf8(plain, "é\n".encode())  # no buffer: text
    assert plain.getvalue() == "é\n"
    latin = io.BytesIO()
    other = io.TextIOWrapper(latin, encoding="latin-1")
    write_utf8(other, "é\n".encode())  # what the stream would write, in its own encoding
    other.flush()
    assert latin.getvalue() == "é\n".encode("latin-1")


def test_summaries_merge_into_the_whole() -> None:
    lines = list(convert_lines(_text(30).splitlines(), Options("auto", "openai-chat"), jobs=1))
    whole, halves = Summary(), [Summary(), Summary()]
    for number, line in enumerate(lines):
        whole.add(line)
        halves[number % 2].add(line)
    merged = Summary()
    for half in halves:
        merged.merge(half)
    assert merged.as_json() == whole.as_json()
    assert whole.pair_losses  # something to merge


def test_a_forked_worker_reads_its_chunk_in_the_file(tmp_path: Path) -> None:
    """From a file, a forked worker gets only the place of its chunk's bytes."""
    path = tmp_path / "in.jsonl"
    path.write_bytes(_text(300))
    with path.open("rb") as stream:
        chunks = list(file_chunks(stream, 64, 200))
    places = [chunk.place for chunk in chunks]
    assert all(place is not None for place in places)
    assert [place.offset for place in places if place] == [0] + [
        sum(len(c.lines) for c in chunks[:n] if isinstance(c.lines, bytes))
        for n in range(1, len(chunks))
    ]
    with path.open("rb") as stream:
        stream.readline()  # a stream part-read: places are in the file, not the stream
        written = list(convert_stream(stream, Options("auto", "anthropic"), jobs=2, chunk=64))
    with path.open("rb") as stream:
        stream.readline()
        alone = list(
            convert_stream(io.BytesIO(stream.read()), Options("auto", "anthropic"), jobs=1)
        )
    assert _joined(written)[0] == _joined(alone)[0]
    assert len(written) > 2


def test_a_place_that_is_not_the_file_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "in.jsonl"
    path.write_bytes(b"{}\n")
    with path.open("rb") as stream:
        fd = stream.fileno()
        assert read_place(Place(fd, 0, 3, identity(fd))) == b"{}\n"
        with pytest.raises(OSError, match="ends before byte 4"):
            read_place(Place(fd, 1, 3, identity(fd)))
        with pytest.raises(OSError, match="is not the input file"):
            read_place(Place(fd, 0, 3, (0, 0)))
    assert by_place(Chunk(1, [b"{}"])) == Chunk(1, [b"{}"])


def kind_of(chunk: Chunk) -> str:
    """What a worker was handed as the chunk's lines."""
    return type(chunk.lines).__name__


def _alone(check: Callable[[Path], None], tmp_path: Path) -> None:
    """Run ``check`` in an interpreter of its own. The pool forks only from a process with one
    thread, and a test run before this one in the same worker may have left one running (the
    docs site's server is shared by the session), which made these checks fail by the order
    the tests ran in."""
    code = (
        f"import sys; sys.path.insert(0, {str(ROOT)!r}); from pathlib import Path; "
        f"from tests.datasets.test_written import {check.__name__} as check; "
        f"check(Path({str(tmp_path)!r}))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], check=False, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr


def test_only_a_forked_worker_is_handed_places(tmp_path: Path) -> None:
    _alone(_only_a_forked_worker_is_handed_places, tmp_path)


def _only_a_forked_worker_is_handed_places(tmp_path: Path) -> None:
    assert threading.active_count() == 1
    path = tmp_path / "in.jsonl"
    path.write_bytes(b"{}\n" * 40)
    with path.open("rb") as stream:
        chunks = list(file_chunks(stream, 8, 100))
    handed = list(ordered_map(kind_of, chunks, 2, forked=by_place))
    assert handed == ["bytes"] + ["Place"] * 4  # the first chunk runs here, with its bytes
    assert list(ordered_map(kind_of, chunks, 1, forked=by_place)) == ["bytes"] * 5


def test_a_stream_that_is_not_the_file_as_it_is_sends_its_bytes(tmp_path: Path) -> None:
    """A decompressor has a descriptor (of the compressed file): no place in it is a line's."""
    path = tmp_path / "in.jsonl.gz"
    with gzip.open(path, "wb") as packed:
        packed.write(_text(200))
    with gzip.open(path, "rb") as stream:
        assert [chunk.place for chunk in file_chunks(stream, 64, 200)] == [None] * 4  # type: ignore[arg-type]
    with gzip.open(path, "rb") as stream:
        written = list(convert_stream(stream, Options("auto", "anthropic"), jobs=2, chunk=64))  # type: ignore[arg-type]
    alone = list(convert_stream(io.BytesIO(_text(200)), Options("auto", "anthropic"), jobs=1))
    assert _joined(written)[0] == _joined(alone)[0]


def test_a_chunk_by_place_in_this_process(tmp_path: Path) -> None:
    path = tmp_path / "in.jsonl"
    path.write_bytes(b"\n" + json.dumps(GOOD).encode() + b"\n")
    options = Options("openai-chat", "anthropic", "request")
    with path.open("rb") as stream:
        chunks = file_chunks(stream, 8, 1000)  # its descriptor stays open while it reads
        chunk = next(chunks)
        assert chunk.place is not None
        done = write_chunk(by_place(chunk), options, 1000, False)
    assert done.size == chunk.place.length == len(chunk.lines)
    assert done.output.startswith(b'\n{"') and done.summary.converted == 1


def test_the_workers_are_forked_from_a_frozen_heap_and_the_caller_gets_it_back(
    tmp_path: Path,
) -> None:
    """The collector is kept off the inherited pages while workers fork (they stay shared);
    once the map is done, the caller's objects are collected again."""
    _alone(_forked_from_a_frozen_heap, tmp_path)


def _forked_from_a_frozen_heap(tmp_path: Path) -> None:
    assert threading.active_count() == 1
    path = tmp_path / "in.jsonl"
    path.write_bytes(b"{}\n" * 40)
    with path.open("rb") as stream:
        chunks = list(file_chunks(stream, 8, 100))
    seen = []
    for answer in ordered_map(kind_of, chunks, 2, forked=by_place):
        seen.append((answer, gc.get_freeze_count() > 0))
    assert seen[1:] == [("Place", True)] * 4  # frozen while the pool runs
    assert gc.get_freeze_count() == 0
