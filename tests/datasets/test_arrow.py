"""interlingua.datasets.arrow: a column of bodies converted in place; every other column and
the row order kept; Parquet in, Parquet out."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa  # type: ignore[import-untyped]
import pyarrow.parquet as pq  # type: ignore[import-untyped]
import pytest

from interlingua import convert
from interlingua.datasets.arrow import convert_parquet, convert_table
from interlingua.datasets.body import Options
from interlingua.datasets.cells import convert_cells, without_nulls

GOOD = {"model": "m", "messages": [{"role": "user", "content": "hi"}], "max_completion_tokens": 9}
LOSSY = {"model": "m", "seed": 7, "max_tokens": 50, "messages": [{"role": "user", "content": "hi"}]}
BODIES = [json.dumps(GOOD), "{", json.dumps(LOSSY), None]


def _table(rows: int) -> pa.Table:
    return pa.table(
        {
            "id": list(range(rows)),
            "body": [BODIES[n % len(BODIES)] for n in range(rows)],
            "split": ["train" if n % 3 else "test" for n in range(rows)],
        }
    )


def test_text_bodies_are_converted_in_place_with_losses_and_errors() -> None:
    out = convert_table(_table(8), "body", Options("openai-chat", "anthropic"))
    assert out.column_names == ["id", "body", "split", "losses", "error"]
    assert out["id"].to_pylist() == list(range(8))
    assert out["split"].to_pylist() == _table(8)["split"].to_pylist()
    assert out.schema.field("body").type == pa.string()
    rows = out.to_pylist()
    expected = convert(GOOD, "openai-chat", "anthropic").output
    assert json.loads(rows[0]["body"]) == expected and rows[0]["error"] is None
    assert rows[1]["body"] is None and rows[1]["error"]["code"] == "invalid_json"
    assert [x["code"] for x in rows[2]["losses"]] == ["parameter_dropped"]
    assert rows[3]["error"]["code"] == "wrong_type"  # a null cell


def test_a_pool_gives_the_same_table() -> None:
    table = _table(600)
    one = convert_table(table, "body", Options("openai-chat", "gemini"), jobs=1)
    assert convert_table(table, "body", Options("openai-chat", "gemini"), jobs=2).equals(one)


def test_struct_bodies_and_message_lists() -> None:
    table = pa.table({"n": [1, 2], "body": [GOOD, {"model": "m", "messages": [{"role": "x"}]}]})
    out = convert_table(table, "body", Options("openai-chat", "gemini")).to_pylist()
    assert out[0]["body"] == convert(GOOD, "openai-chat", "gemini").output
    assert out[1]["error"] is not None and out[1]["body"] is None
    turns = pa.table({"messages": [GOOD["messages"], [{"role": "assistant", "content": "yo"}]]})
    done = convert_table(turns, "messages", Options("openai-chat", "anthropic", kind="messages"))
    assert done["error"].null_count == 2
    turn = [{"role": "assistant", "content": "yo"}]
    expected = convert(turn, "openai-chat", "anthropic", "messages").output
    assert done["messages"].to_pylist()[1] == expected


def test_nulls_of_a_struct_column_are_absent_keys() -> None:
    assert without_nulls({"a": None, "b": [{"c": None, "d": 1}, None]}) == {"b": [{"d": 1}, None]}


def test_the_worker_function_in_this_process() -> None:
    options = Options("openai-chat", "anthropic", "request", loss_problems=False)
    cells = convert_cells([json.dumps(LOSSY), b"{", GOOD], options, text=True)
    assert cells[0].error is None and cells[0].losses[0]["code"] == "parameter_dropped"
    assert cells[1].error is not None and cells[1].error["code"] == "invalid_json"
    assert cells[2].output is not None  # a value that is not text is taken as a body


def test_a_taken_column_name_is_refused() -> None:
    with pytest.raises(ValueError, match="losses"):
        convert_table(
            _table(2).append_column("losses", pa.array([1, 2])), "body", Options("auto", "gemini")
        )


def test_parquet_in_parquet_out_keeps_every_column_and_the_order(tmp_path: Path) -> None:
    table = _table(2_500)
    source, target = tmp_path / "in.parquet", tmp_path / "out.parquet"
    pq.write_table(table, source, row_group_size=700)
    convert_parquet(
        str(source), str(target), "body", Options("openai-chat", "anthropic"), rows=1_000
    )
    out = pq.read_table(target)
    assert out.num_rows == 2_500
    for name in ("id", "split"):
        assert out[name].to_pylist() == table[name].to_pylist()
    assert out.equals(convert_table(table, "body", Options("openai-chat", "anthropic")))


def test_an_empty_parquet_file(tmp_path: Path) -> None:
    source, target = tmp_path / "in.parquet", tmp_path / "out.parquet"
    pq.write_table(_table(0), source)
    convert_parquet(str(source), str(target), "body", Options("openai-chat", "anthropic"))
    assert pq.read_table(target).column_names == ["id", "body", "split", "losses", "error"]


def test_the_kind_is_told_by_the_first_readable_cell() -> None:
    response = {
        "id": "r",
        "object": "chat.completion",
        "created": 1,
        "model": "m",
        "choices": [
            {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "hi"}}
        ],
    }
    table = pa.table({"body": [None, "{", json.dumps(response)]})
    out = convert_table(table, "body", Options("openai-chat", "anthropic"))
    assert out["error"].to_pylist()[2] is None
    assert json.loads(out["body"][2].as_py())["type"] == "message"  # an Anthropic response


SIGNED = {
    "contents": [
        {"role": "user", "parts": [{"text": "hi"}]},
        {"role": "model", "parts": [{"text": "plan", "thought": True, "thoughtSignature": "Cq"}]},
        {"role": "user", "parts": [{"text": "go"}]},
    ]
}


@pytest.mark.parametrize("target", ["vertex", "gemini-api"])
def test_the_endpoints_travel_in_the_options(target: str, tmp_path: Path) -> None:
    """Reasoning read from Vertex is replayed to Vertex only: the endpoints reach each cell,
    in a table, a Parquet file and a worker process, as `convert`'s keywords."""
    table = pa.table({"body": [json.dumps(SIGNED)] * 3})
    options = Options("gemini", "gemini", source_endpoint="vertex", target_endpoint=target)
    expected = convert(SIGNED, "gemini", "gemini", source_endpoint="vertex", target_endpoint=target)
    codes = [x.code for x in expected.losses]
    assert ("thinking_not_replayable" in codes) == (target == "gemini-api")
    for jobs in (1, 2):
        out = convert_table(table, "body", options, jobs=jobs).to_pylist()
        assert [[x["code"] for x in row["losses"]] for row in out] == [codes] * 3
        assert json.loads(out[0]["body"]) == expected.output
    source, written = tmp_path / "in.parquet", tmp_path / "out.parquet"
    pq.write_table(table, source)
    convert_parquet(str(source), str(written), "body", options)
    assert [[x["code"] for x in row["losses"]] for row in pq.read_table(written).to_pylist()] == [
        codes
    ] * 3
