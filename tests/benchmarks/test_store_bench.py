"""The store benchmarks run and check what they claim (same rows, same calls found) at a
tiny size. Nothing here times anything."""

from __future__ import annotations

import pytest

from .test_convert_bench import bench_module


def test_store_import_benchmark(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        bench_module("store_import").main(
            ["--messages", "200", "--per-session", "20", "--reading", "40"]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "200 messages in 10 sessions" in out and "ratio (store / executemany)" in out


def test_store_query_benchmark(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_module("store_query").main(["--messages", "400", "--sessions", "2"]) == 0
    assert "(8 calls)" in capsys.readouterr().out  # one call in twenty of 4 x 50
