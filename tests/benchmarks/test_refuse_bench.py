"""benchmarks/refuse.py refuses what it claims to: each body is bad where it says, ours and
the baselines find an error, and the report has a row per body, size and baseline. Nothing
here times anything."""

import pytest

from interlingua.conversion import ConversionError
from interlingua.conversion.converter import check_wire

from .test_convert_bench import bench_module


def test_the_bodies_are_bad_where_the_rows_say() -> None:
    refuse = bench_module("refuse")
    body = refuse.chat(5)
    with pytest.raises(ConversionError) as last:
        check_wire(body, "openai-chat", "request")
    assert last.value.pointer == "/messages/4/content"
    with pytest.raises(ConversionError) as first:
        check_wire(body, "bedrock", "request")
    assert first.value.pointer == "/messages/0/content"  # every message is bad there
    assert refuse.refused("bedrock")(body) == ("wrong_type", "/messages/0/content")
    assert refuse.python_walk(refuse.schema_of("openai-chat"))(body) is not None
    assert refuse.rust_walk(refuse.schema_of("bedrock"))(body)
    assert len(refuse.every_schema(body)) > 20


def test_the_report_has_a_row_per_body_size_and_baseline() -> None:
    lines = bench_module("refuse").rows([3, 6], 1)
    assert len(lines) == 2 + 2 * (2 + 2 + 1)
    assert all(line.count("|") == 7 for line in lines)
    assert {line.split(" | ")[0] for line in lines[2:]} == {"| last bad", "| all bad", "| detect"}
