"""interlingua.datasets: the same output, in order, for any number of jobs; a bad body is a
coded record in its place, never an exception; the summary counts the whole run."""

from __future__ import annotations

import json
from collections.abc import Generator, Iterator
from typing import Any

import pytest

from interlingua import convert
from interlingua.datasets import Summary, Unread, convert_lines, convert_many
from interlingua.datasets.body import Options, convert_body
from interlingua.datasets.lines import Chunk, convert_chunk

GOOD = {"model": "m", "messages": [{"role": "user", "content": "hi"}], "max_completion_tokens": 9}
LOSSY = {"model": "m", "seed": 7, "max_tokens": 50, "messages": [{"role": "user", "content": "hi"}]}
BAD_ROLE = {"model": "m", "messages": [{"role": "wizard", "content": "x"}]}
GEMINI = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}


def _lines(count: int) -> list[str]:
    """A batch with every kind of line, cycled: good, lossy, blank, broken, invalid."""
    kinds = [json.dumps(GOOD), json.dumps(LOSSY), "", "{", json.dumps(BAD_ROLE)]
    return [kinds[n % len(kinds)] for n in range(count)]


def _seen(lines: Any) -> list[tuple[int, str, str, Any]]:
    return [(x.number, x.output, x.report, x.status) for x in lines]


def test_a_pool_of_two_gives_what_one_process_gives_in_the_same_order() -> None:
    lines = _lines(53)
    alone = _seen(convert_lines(lines, Options("openai-chat", "anthropic"), jobs=1, chunk=4))
    pooled = _seen(convert_lines(lines, Options("openai-chat", "anthropic"), jobs=2, chunk=4))
    assert pooled == alone
    assert [n for n, *_ in alone] == list(range(1, 54))
    assert alone[0][1] == json.dumps(convert(GOOD, "openai-chat", "anthropic").output)
    assert alone[2][1:] == ("", "", None)  # a blank line stays blank, uncounted
    assert json.loads(alone[3][1]) == {
        "error": {
            "code": "invalid_json",
            "path": "",
            "message": "Expecting property name enclosed in double quotes at line 1, column 2",
            "line": 4,
        }
    }
    assert alone[3][2] == alone[3][1]  # the report line is the same record
    assert json.loads(alone[4][1])["error"]["code"] == "not_in_enum"


def test_the_worker_function_in_this_process() -> None:
    options = Options("openai-chat", "anthropic", "request")
    done = convert_chunk(
        Chunk(10, [json.dumps(LOSSY).encode() + b"\r\n", Unread("input_too_large", "long")]),
        options,
        100,
    )
    assert [x.number for x in done] == [10, 11]
    assert done[0].losses == ("parameter_dropped",) and done[0].pair == ("openai-chat", "anthropic")
    assert done[0].problems[0].what == "loss"
    assert json.loads(done[1].output)["error"] == {
        "code": "input_too_large",
        "path": "",
        "message": "long",
        "line": 11,
    }
    assert done[1].size == 100


def test_a_named_source_tells_the_kind_once_from_the_first_readable_line() -> None:
    response = {
        "id": "r",
        "object": "chat.completion",
        "created": 1,
        "model": "m",
        "choices": [
            {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "hi"}}
        ],
    }
    lines = ["", "{", json.dumps(response), json.dumps(response)]
    done = list(convert_lines(lines, Options("openai-chat", "anthropic"), jobs=1))
    assert [x.status for x in done] == [None, "failed", "converted", "converted"]
    assert json.loads(done[2].report)["kind"] == "response"


def test_from_auto_detects_each_line() -> None:
    lines = [json.dumps(GOOD), json.dumps(GEMINI), json.dumps({"x": 1})]
    done = list(convert_lines(lines, Options("auto", "anthropic"), jobs=1))
    assert [x.pair for x in done] == [("openai-chat", "anthropic"), ("gemini", "anthropic"), None]
    assert done[2].problems[0].code == "unknown_format"
    assert done[2].problems[0].detail  # each schema's reason, for a person


def test_strict_refuses_a_lossy_body_with_its_losses() -> None:
    done = convert_body(LOSSY, Options("openai-chat", "anthropic", strict=True))
    assert done.status == "refused" and done.error is not None
    assert done.error["code"] == "lossy_conversion"
    assert [p.what for p in done.problems] == ["loss", "error"]
    assert done.report is not None and done.report["losses"][0]["code"] == "parameter_dropped"


def test_losses_are_left_to_the_report_when_asked() -> None:
    done = convert_body(LOSSY, Options("openai-chat", "anthropic", loss_problems=False))
    assert done.status == "converted" and done.problems == ()


def test_convert_many_keeps_order_and_never_raises() -> None:
    bodies = [GOOD, None, LOSSY] * 7
    alone = list(convert_many(bodies, Options("openai-chat", "gemini"), jobs=1, chunk=2))
    pooled = list(convert_many(bodies, Options("openai-chat", "gemini"), jobs=2, chunk=2))
    assert pooled == alone
    assert [x.status for x in alone[:3]] == ["converted", "failed", "converted"]
    assert alone[0].output == convert(GOOD, "openai-chat", "gemini").output
    assert alone[1].error is not None and alone[1].error["code"] == "wrong_type"
    assert list(convert_many([], Options("openai-chat", "gemini"))) == []


def test_the_summary_counts_lines_losses_and_pairs() -> None:
    summary = Summary()
    lines = [json.dumps(GOOD), json.dumps(LOSSY), "", "{", json.dumps(GEMINI)]
    for line in convert_lines(lines, Options("auto", "anthropic"), jobs=1):
        summary.add(line)
    text = summary.text()
    assert text.startswith("summary: 4 lines, 3 converted, 1 failed; losses: ")
    assert "; losses by pair: gemini → anthropic " in text
    record = json.loads(summary.line(as_json=True))["summary"]
    assert record["lines"] == 4 and record["failed"] == 1
    assert {(p["source"], p["converted"]) for p in record["pairs"]} == {
        ("gemini", 1),
        ("openai-chat", 2),
    }
    assert record["losses"] == {
        code: sum(p["losses"].get(code, 0) for p in record["pairs"]) for code in record["losses"]
    }


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_consumer_that_stops_early_leaves_no_work_behind(jobs: int) -> None:
    stream = convert_lines(_lines(200), Options("openai-chat", "anthropic"), jobs=jobs, chunk=8)
    assert next(stream).number == 1
    assert isinstance(stream, Generator)
    stream.close()  # the pool, if any, is shut down


def test_a_batch_where_no_line_reads_has_no_kind_to_tell() -> None:
    done = list(
        convert_lines(
            ["{", "", Unread("input_too_large", "long")], Options("openai-chat", "gemini")
        )
    )
    assert [x.status for x in done] == ["failed", None, "failed"]


def test_live_input_is_chunked_as_it_arrives_and_its_errors_reach_the_consumer() -> None:
    from interlingua.datasets.live import live_chunks

    assert list(live_chunks(iter(range(5)), 2))[-1] == ([4], True)
    assert [n for part, _ in live_chunks(iter(range(5)), 2) for n in part] == list(range(5))

    def broken() -> Iterator[int]:
        yield 1
        raise OSError("the pipe broke")

    with pytest.raises(OSError, match="the pipe broke"):
        list(live_chunks(broken(), 4))


def test_live_lines_through_a_pool() -> None:
    lines = _lines(40)
    alone = _seen(convert_lines(lines, Options("openai-chat", "anthropic"), jobs=1))
    assert (
        _seen(convert_lines(lines, Options("openai-chat", "anthropic"), jobs=2, chunk=4, live=True))
        == alone
    )


def test_a_pair_without_losses_is_counted_too() -> None:
    summary = Summary()
    bodies = [json.dumps(GOOD), json.dumps(GEMINI)]
    for line in convert_lines(bodies, Options("auto", "openai-chat")):
        summary.add(line)
    pairs = json.loads(summary.line(as_json=True))["summary"]["pairs"]
    assert [(p["source"], p["converted"], p["losses"]) for p in pairs] == [
        ("gemini", 1, {"placeholder_inserted": 1}),  # the model it does not name
        ("openai-chat", 1, {}),
    ]
    assert summary.text().endswith(
        "; losses by pair: gemini → openai-chat 1, openai-chat → openai-chat 0"
    )
