"""benchmarks/detect.py times what it claims to: its bodies have the size asked, are valid
OpenAI Chat requests detected as such, the baseline asks every wire schema, and the report has
a row per size, detection and baseline. Nothing here times anything."""

from interlingua import detect
from interlingua.conversion.converter import check_wire

from .test_convert_bench import bench_module


def test_the_bodies_are_valid_chat_requests_of_the_size_asked() -> None:
    chat = bench_module("detect").chat
    for size in (1, 4, 10):
        body = chat(size)
        assert len(body["messages"]) == size
        check_wire(body, "openai-chat", "request")
    for size in (4, 10):  # with a tool call (a system line alone is Ollama's as much)
        found = detect(chat(size))
        assert (found.format, found.kind) == ("openai-chat", "request"), found.reason
    roles = [message["role"] for message in chat(5)["messages"]]
    assert roles == ["system", "user", "assistant", "tool", "user"]


def test_the_baseline_asks_every_wire_schema() -> None:
    answers = bench_module("detect").every_schema()(bench_module("detect").chat(7))
    assert len(answers) > 20
    assert 0 < sum(answers) < len(answers)  # openai-chat's takes it, Bedrock's does not


def test_the_report_has_a_row_per_size_detection_and_baseline() -> None:
    lines = bench_module("detect").rows([3, 6], 1)
    assert len(lines) == 2 + 2 * 2 * 2
    assert all(line.count("|") == 7 for line in lines)
    assert {line.split(" | ")[1] for line in lines[2:]} == {"detect", "detect, explain=False"}
    assert {line.split(" | ")[3] for line in lines[2:]} == {
        "jsonschema-rs, every schema",
        "json.loads",
    }
