"""interlingua.datasets.ray on a local Ray runtime (2 CPUs, no dashboard), started once for
this module and shut down after it: 10,000 rows converted with the same output as one
process, failed rows with their coded errors, losses per code."""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pyarrow as pa  # type: ignore[import-untyped]
import pytest

from interlingua.datasets.arrow import convert_table
from interlingua.datasets.body import Options
from interlingua.datasets.ray import annotate_batch, convert_dataset, rows_where

ray = pytest.importorskip("ray")

GOOD = {"model": "m", "messages": [{"role": "user", "content": "hi"}], "max_completion_tokens": 9}
LOSSY = {"model": "m", "seed": 7, "max_tokens": 50, "messages": [{"role": "user", "content": "hi"}]}
DEVELOPER = {
    "model": "m",
    "messages": [{"role": "developer", "content": "be brief"}, {"role": "user", "content": "hi"}],
}
BODIES = [json.dumps(GOOD), json.dumps(LOSSY), "{", json.dumps(DEVELOPER)]
ROWS = 10_000


def _table(rows: int) -> Any:
    return pa.table(
        {
            "id": list(range(rows)),
            "body": [BODIES[n % len(BODIES)] for n in range(rows)],
            "source_file": [f"shard-{n % 7}" for n in range(rows)],
        }
    )


@pytest.fixture(scope="module")
def runtime(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # nothing leaves the machine
    ray.init(
        _temp_dir=str(tmp_path_factory.mktemp("ray")),  # its logs and sockets go with the run
        num_cpus=2,
        include_dashboard=False,
        object_store_memory=256 * 1024 * 1024,
        _node_ip_address="127.0.0.1",
        log_to_driver=False,
    )
    try:
        yield
    finally:
        ray.shutdown()


def test_the_batch_function_in_this_process() -> None:
    table = _table(8)
    options = Options("openai-chat", "anthropic", "request")
    annotated = annotate_batch(table.to_batches()[0], "body", options, "losses", "error")
    good = rows_where(annotated, "error", failed=False)
    bad = rows_where(annotated, "error", failed=True)
    assert good.num_rows == 6 and bad.num_rows == 2
    assert bad.column("__interlingua_input").to_pylist() == ["{", "{"]


def test_a_dataset_converts_as_in_one_process(runtime: None) -> None:
    table = _table(ROWS)
    alone = convert_table(table, "body", Options("openai-chat", "anthropic")).to_pylist()
    # Four blocks, so both CPUs take batches.
    dataset = ray.data.from_arrow([table.slice(n, ROWS // 4) for n in range(0, ROWS, ROWS // 4)])
    split = convert_dataset(dataset, "body", Options("openai-chat", "anthropic"), batch_size=500)
    converted = sorted(split.converted.take_all(), key=lambda row: row["id"])
    failed = sorted(split.failed.take_all(), key=lambda row: row["id"])
    assert len(converted) + len(failed) == ROWS
    expected = [
        {k: row[k] for k in ("id", "body", "source_file", "losses")}
        for row in alone
        if row["error"] is None
    ]
    assert converted == expected
    assert [row["id"] for row in failed] == [r["id"] for r in alone if r["error"] is not None]
    assert {row["body"] for row in failed} == {"{"}  # the body as it came
    assert all(row["error"]["code"] == "invalid_json" for row in failed)
    losses = Counter(loss["code"] for row in converted for loss in row["losses"])
    print(f"\nlosses per code over {len(converted)} converted rows: {dict(sorted(losses.items()))}")
    assert losses == Counter(loss["code"] for row in alone for loss in row["losses"])
    assert losses["role_changed"] == ROWS // 4  # every developer turn


def test_the_kind_is_told_once_on_the_driver(runtime: None) -> None:
    from interlingua.datasets.body import Options
    from interlingua.datasets.ray import _first_kind

    named = Options("openai-chat", "anthropic")
    assert _first_kind(ray.data.from_items([{"body": "{"}]), "body", named) is None
    assert _first_kind(ray.data.from_items([{"body": GOOD}]), "body", named) == "request"
    assert (
        _first_kind(ray.data.from_items([{"b": "{"}]).filter(lambda r: False), "b", named) is None
    )
    assert _first_kind(ray.data.from_items([{"b": "{"}]), "b", Options("auto", "gemini")) is None


def test_the_endpoints_reach_the_batch_function() -> None:
    """What each Ray task runs converts with the endpoints of the options it is handed."""
    signed = {
        "contents": [
            {"role": "user", "parts": [{"text": "hi"}]},
            {"role": "model", "parts": [{"text": "p", "thought": True, "thoughtSignature": "Cq"}]},
            {"role": "user", "parts": [{"text": "go"}]},
        ]
    }
    table = pa.table({"body": [json.dumps(signed)]})
    codes = {}
    for target in ("vertex", "gemini-api"):
        options = Options(
            "gemini", "gemini", "request", source_endpoint="vertex", target_endpoint=target
        )
        annotated = annotate_batch(table.to_batches()[0], "body", options, "lost", "why")
        codes[target] = [x["code"] for x in annotated.column("lost").to_pylist()[0]]
    assert codes["vertex"] == [] and "thinking_not_replayable" in codes["gemini-api"]
