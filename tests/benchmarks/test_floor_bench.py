"""The floor benchmark does what it claims: its C helper rebuilds a body's containers and shares
everything else, reads every object, and the new objects it asks of a converter are exactly the
calls' arguments and the images the converted body holds. Nothing here times anything."""

import json
from pathlib import Path
from typing import Any

import pytest

from build_support.compiled import compiler_missing
from interlingua import convert
from tests.benchmarks.test_convert_bench import bench_module

pytestmark = pytest.mark.skipif(compiler_missing() is not None, reason=f"{compiler_missing()}")


@pytest.fixture(scope="module")
def helper(tmp_path_factory: pytest.TempPathFactory) -> Any:
    built = bench_module("floor").build_helper(Path(tmp_path_factory.mktemp("floor")))
    assert not isinstance(built, str), built
    return built


def test_rebuild_makes_new_containers_and_shares_every_other_object(helper: Any) -> None:
    leaf = "a text of its own"
    number = 10**30  # not a cached small int: sharing is seen by identity
    body: dict[str, Any] = {"messages": [{"content": [{"text": leaf}], "n": number}], "flag": None}
    copy = helper.rebuild(body)
    assert copy == body
    assert copy is not body
    assert copy["messages"] is not body["messages"]
    assert copy["messages"][0] is not body["messages"][0]
    assert copy["messages"][0]["content"][0] is not body["messages"][0]["content"][0]
    assert copy["messages"][0]["content"][0]["text"] is leaf
    assert copy["messages"][0]["n"] is number


def test_touch_reads_every_key_and_value(helper: Any) -> None:
    # the dict and its two keys; the list and its two scalars; the inner dict, its key and value;
    # the long string
    objects, _ = helper.touch({"a": [1, "two", {"b": None}], "c": "x" * 1000})
    assert objects == 3 + 3 + 3 + 1


def test_the_new_leaves_are_the_calls_and_images_the_output_holds() -> None:
    floor = bench_module("floor")
    for body in bench_module("openai_corpus").long_corpus(5, seed=3):
        arguments, images = floor.new_leaves(body)
        output = convert(body, source="openai-chat", target="anthropic").output
        blocks = floor.blocks_of(output)
        assert [block["input"] for block in blocks if block["type"] == "tool_use"] == [
            json.loads(text) for text in arguments
        ]
        assert [block["source"]["data"] for block in blocks if block["type"] == "image"] == [
            url[start:] for url, start in images
        ]
