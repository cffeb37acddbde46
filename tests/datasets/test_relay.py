"""convert --jobs on a file: every process converts and writes its own blocks in turn, and
what it writes is what one process converting line by line writes."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from functools import partial
from pathlib import Path

import pytest

from interlingua.datasets.batch import convert_stream
from interlingua.datasets.body import Options, Problem
from interlingua.datasets.command import write_lines
from interlingua.datasets.reader import stream_lines
from interlingua.datasets.relay import Blocks, Sinks, block_size, convert_file

GOOD = {"model": "m", "messages": [{"role": "user", "content": "hi"}], "max_completion_tokens": 9}
LOSSY = {"model": "m", "seed": 7, "max_tokens": 50, "messages": [{"role": "user", "content": "hé"}]}
GEMINI = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}
KINDS = [json.dumps(GOOD), json.dumps(LOSSY), "", "{", json.dumps(GEMINI), "x" * 300]


def _text(lines: int) -> bytes:
    return "".join(KINDS[n % len(KINDS)] + "\n" for n in range(lines)).encode()


def _render(problems: tuple[tuple[int, tuple[Problem, ...]], ...]) -> str:
    return "".join(f"{n} {p.what} {p.code}\n" for n, found in problems for p in found)


@pytest.mark.parametrize("size", [1, 7, 64, 333, 4096])
@pytest.mark.parametrize(
    "data",
    [
        _text(40),
        _text(40).rstrip(b"\n"),  # the last line has no newline
        b"\n\n" + b"y" * 900 + b"\n\r\n{}\r\n" + b"z" * 201,  # long lines, CRLF, blank lines
        b"",
    ],
)
def test_the_blocks_hold_every_line_once_in_order(size: int, data: bytes, tmp_path: Path) -> None:
    """Each line belongs to the block it starts in; a line past the limit is its error,
    wherever it ends; from the middle of a file, its rest."""
    path = tmp_path / "in.jsonl"
    path.write_bytes(b"ignored\n" + data)
    expected = [  # as the line-by-line reader reads them, without their newlines
        line.removesuffix(b"\n") if isinstance(line, bytes) else line
        for line in stream_lines(io.BytesIO(data), 200)
    ]
    with path.open("rb") as stream:
        blocks = Blocks(stream.fileno(), 8, 8 + len(data), size, 200)
        found = [line for k in range(blocks.count) for line in blocks.lines(k)]
    assert found == expected


def test_a_small_file_is_cut_in_small_blocks() -> None:
    assert block_size(100 << 20, 2) == 1 << 20
    assert block_size(10 << 20, 2) == (10 << 20) // 32  # 16 blocks for each process
    assert block_size(1000, 2) == block_size(0, 2) == 4096


def _sinks(folder: Path) -> tuple[Sinks, list[Path]]:
    paths = [folder / name for name in ("out", "report", "problems")]
    fds = [os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC) for path in paths]
    return Sinks(fds[0], fds[1], fds[2]), paths


@pytest.mark.parametrize("block", [50, 4096])
def test_one_process_writes_what_convert_stream_gives(block: int, tmp_path: Path) -> None:
    """Blocks that start mid-line, lines numbered across blocks: the same bytes, the same
    problems and the same summary as the chunks of convert_stream."""
    data = _text(90)
    path = tmp_path / "in.jsonl"
    path.write_bytes(data)
    options = Options("auto", "anthropic", loss_problems=False)
    sinks, paths = _sinks(tmp_path)
    seen: list[int] = []
    with path.open("rb") as stream:
        tally = convert_file(
            stream.fileno(),
            0,
            options,
            sinks,
            jobs=1,
            max_bytes=200,
            reports=True,
            render=_render,
            progress=seen.append,
            block=block,
        )
    for fd in sinks:
        assert fd is not None
        os.close(fd)
    chunks = list(
        convert_stream(
            io.BytesIO(data), options, jobs=1, max_bytes=200, reports=True, render=_render
        )
    )
    out, report, problems = (path.read_bytes() for path in paths)
    assert out == b"".join(chunk.output for chunk in chunks)
    assert report == b"".join(chunk.report for chunk in chunks)
    assert problems.decode() == "".join(chunk.problem_text for chunk in chunks)
    assert b'"line": 90' in out  # the last line's error record: numbered across the blocks
    assert seen == sorted(seen) and seen[-1] == len(data)
    assert tally.summary.as_json() == _summary(chunks)
    assert tally.statuses == {"converted", "failed"}


def _summary(chunks: list) -> dict:  # type: ignore[type-arg]
    from interlingua.datasets import Summary

    total = Summary()
    for chunk in chunks:
        total.merge(chunk.summary)
    return total.as_json()


def test_the_command_writes_a_file_in_this_process_with_one_job(tmp_path: Path) -> None:
    """With text files that have descriptors, write_lines writes through them (the kind of
    a named source told once, from the first line that reads)."""
    path = tmp_path / "in.jsonl"
    path.write_bytes(b"{\n" + _text(30))
    written = {}
    for name in ("relay", "gathered"):
        out = (tmp_path / f"{name}.out").open("w", encoding="utf-8")
        err = (tmp_path / f"{name}.err").open("w", encoding="utf-8")
        with path.open("rb") as stream, out, err:
            tally = write_lines(
                stream if name == "relay" else io.BytesIO(stream.read()),
                Options("openai-chat", "anthropic"),
                out,
                report=None,
                problems=err,
                jobs=1,
                max_bytes=1000,
                live=False,
                render=partial(_render),
            )
        written[name] = (
            (tmp_path / f"{name}.out").read_bytes(),
            (tmp_path / f"{name}.err").read_bytes(),
            tally.summary.text(),
        )
    assert written["relay"] == written["gathered"]
    assert written["relay"][2].startswith("summary: 26 lines, 10 converted, 16 failed")


def _command(path: Path, jobs: int, *extra: str) -> tuple[bytes, bytes, int]:
    argv = [sys.executable, "-m", "interlingua", "convert", "--from", "openai-chat"]
    argv += ["--to", "anthropic", "--jobs", str(jobs), *extra, str(path)]
    out, err = path.with_suffix(f".{jobs}.out"), path.with_suffix(f".{jobs}.err")
    with out.open("wb") as stdout, err.open("wb") as stderr:
        code = subprocess.run(argv, stdout=stdout, stderr=stderr, check=False).returncode
    return out.read_bytes(), err.read_bytes(), code


@pytest.mark.parametrize("as_json", [False, True])
def test_forked_workers_write_what_one_process_writes(as_json: bool, tmp_path: Path) -> None:
    """The command as a user runs it, output to files (so the workers write to them): two
    processes write the same stdout, stderr (problems in order, then the summary) and
    report as one."""
    path = tmp_path / "in.jsonl"
    path.write_bytes(_text(1500))
    extra = ["--json"] if as_json else []
    one = _command(path, 1, *extra)
    report = tmp_path / "report.jsonl"
    two = _command(path, 3, *extra)
    assert one == two
    assert one[2] == 2 and len(one[0].splitlines()) == 1500
    assert one[1].count(b"\n") > 1000  # a problem or more for most lines
    with_report = _command(path, 2, "--report", str(report))
    reported = report.read_bytes()
    _command(path, 1, "--report", str(report))
    assert with_report[0] == one[0] and reported == report.read_bytes()
    assert len(reported.splitlines()) == 1500


def test_a_worker_that_fails_stops_the_run_with_its_error(tmp_path: Path) -> None:
    """An error in any process (here: writing a late block's problems) is raised in the
    command process, and no process is left behind."""
    path = tmp_path / "in.jsonl"
    path.write_bytes(_text(3000))
    script = f"""
import os, sys
from interlingua.datasets.body import Options
from interlingua.datasets.relay import Sinks, convert_file

def render(problems):
    if any(n > 2500 for n, _ in problems):
        raise ValueError(f"cannot render line {{problems[-1][0]}} in {{os.getpid()}}")
    return ""

null = os.open(os.devnull, os.O_WRONLY)
with open({str(path)!r}, "rb") as stream:
    try:
        convert_file(stream.fileno(), 0, Options("auto", "anthropic"), Sinks(null, None, null),
                     jobs=2, max_bytes=1000, render=render, block=4096)
    except ValueError as exc:
        print("raised:", exc)
try:
    print("a child left:", os.waitpid(-1, os.WNOHANG))
except ChildProcessError:
    print("no child left")
"""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "raised: cannot render line" in done.stdout
    assert "no child left" in done.stdout
