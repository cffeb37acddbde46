"""The scaling benchmark runs and checks what it times (exact round trips, every id mapped).

Nothing here times anything: the ratio limit is set out of reach."""

from __future__ import annotations

import gc

import pytest

from tests.benchmarks.test_convert_bench import bench_module


def test_the_scaling_report_runs_on_small_sizes(capsys: pytest.CaptureFixture[str]) -> None:
    scaling = bench_module("scaling")
    argv = ["--sizes", "5", "10", "--repeat", "1", "--formats", "openai-chat", "gemini"]
    assert scaling.main([*argv, "--limit", "1e9"]) == 0
    out = capsys.readouterr().out.splitlines()
    rows = [line for line in out if line.startswith(("| round trip", "| rewritten"))]
    assert len(rows) == 3 * 2  # three workloads at two sizes
    assert all(row.count("|") == 8 for row in rows)  # paused and running, each with its ratio
    assert not [line for line in out if line.startswith("NOT LINEAR")]


def test_a_workload_checks_its_result() -> None:
    scaling = bench_module("scaling")
    document = scaling.conversation(3, lambda n: f"call.{n}")
    assert [m["role"] for m in document["messages"]] == ["user", "assistant"] + ["tool"] * 3 + [
        "user"
    ]
    scaling.rewritten_ids(3)()  # asserts every id was rewritten and mapped
    scaling.round_trip("anthropic", 3)()  # asserts the round trip is exact


def test_the_long_conversations_take_the_fused_path_at_every_length() -> None:
    """Regression: a cut between two results left a call unanswered, which sent every long
    conversation the two-step way, so the per-message cost measured was not the fused pass's."""
    from interlingua import convert

    scaling = bench_module("scaling")
    for messages in range(2, 40):
        body = scaling.chat(messages)
        for target in ("anthropic", "gemini"):
            assert convert(body, "openai-chat", target).fused, (messages, target)


@pytest.mark.parametrize("collector", [False, True])
def test_each_run_is_timed_with_the_collector_as_asked_and_left_running(collector: bool) -> None:
    scaling = bench_module("scaling")
    seen: list[bool] = []
    scaling._best(lambda: seen.append(gc.isenabled()), 2, collector=collector)
    assert seen == [collector, collector]
    assert gc.isenabled()
