"""benchmarks/linear.py times what it claims: worst cases that do not match, on the engines
the runtime uses, against the former backtracking regexes. Nothing here times anything."""

import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from .test_convert_bench import bench_module


def _in_a_thread(work: Callable[..., Any], *args: Any) -> Any:
    """``work(*args)`` in a thread of its own: the stream cases start an event loop, and a test
    before this one in the same worker may leave one running in this thread."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(work, *args).result()


def test_the_cases_are_the_worst_cases_and_fail_to_match() -> None:
    linear = bench_module("linear")
    from interlingua.documents.globs import glob_match
    from interlingua.gateway.arguments import ArgumentValidator

    uri = "tool://" + "a" * 40
    assert not glob_match(linear.GLOB, uri)
    assert linear.backtracking_glob(linear.GLOB).fullmatch(uri) is None  # same answer
    assert linear.backtracking_glob("tool://*/x").fullmatch("tool://a/x") is not None
    validator = ArgumentValidator()
    validator.register("bench:evil@1", "evil", linear.SCHEMA)
    assert not linear.validate(validator, "a" * 40 + "b")
    assert linear.validate(validator, "a" * 40)


def test_the_script_prints_a_ratio_per_size(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    linear = bench_module("linear")
    monkeypatch.setattr(sys, "argv", ["linear.py", "--sizes", "10", "100", "--repeat", "1"])
    _in_a_thread(linear.main)
    lines = capsys.readouterr().out.splitlines()
    assert sum("length x10 " in line for line in lines) == 5
    assert sum("baseline" in line for line in lines) == 3


def test_the_stream_readers_read_the_same_line() -> None:
    linear = bench_module("linear")
    from interlingua.service.streaming import _lines

    for size in (1, linear.PIECE, 3 * linear.PIECE + 5):
        line = b"x" * (size - 1) + b"\n"
        read = _in_a_thread(linear.read_line, _lines, size)
        assert read == _in_a_thread(linear.read_line, linear.joining_lines, size) == [line]
