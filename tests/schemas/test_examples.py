"""Every example in schemas/examples/<Type>/ is a valid <Type>, by three judges, and round-trips."""

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from pydantic import TypeAdapter

import interlingua
from generator.examples import check_examples, check_with_runtime, iter_examples
from generator.paths import EXAMPLES, ROOT
from interlingua.generated import models

BUNDLE = json.loads((ROOT / "generated/schemas/interlingua-v1.json").read_text())
EXAMPLE_FILES = list(iter_examples())


def test_there_are_enough_examples() -> None:
    assert len(EXAMPLE_FILES) >= 40
    seeds = {
        "Message/cmf_four_part_assistant.json",
        "Conversation/seed001_simple_turn.json",
        "Conversation/seed001_tool_use_turn.json",
        "Conversation/seed001_model_swap.json",
    }
    assert seeds <= {f"{t}/{p.name}" for t, p in EXAMPLE_FILES}


@pytest.mark.parametrize(
    ("type_name", "path"), EXAMPLE_FILES, ids=[f"{t}/{p.stem}" for t, p in EXAMPLE_FILES]
)
def test_example(type_name: str, path: Path) -> None:
    instance: Any = json.loads(path.read_text())
    reference = Draft202012Validator({**BUNDLE, "oneOf": [{"$ref": f"#/$defs/{type_name}"}]})
    assert list(reference.iter_errors(instance)) == []
    findings = interlingua.validate(instance, type_name)
    assert [f for f in findings if f.severity == "error"] == []
    adapter: TypeAdapter[Any] = TypeAdapter(getattr(models, type_name))
    assert (
        adapter.dump_python(adapter.validate_python(instance), mode="json", exclude_none=True)
        == instance
    )


def test_the_cmf_four_part_message_yields_four_parts() -> None:
    message = interlingua.load((EXAMPLES / "Message/cmf_four_part_assistant.json").read_bytes())
    assert isinstance(message, models.Message)
    assert [type(p).__name__ for p in message.content] == [
        "ThinkingPart",
        "TextPart",
        "ToolCallPart",
        "ToolCallPart",
    ]


def test_example_checks_report_problems(tmp_path: Path) -> None:
    bad = tmp_path / "examples"
    (bad / "Usage").mkdir(parents=True)
    (bad / "Usage" / "negative.json").write_text('{"input_tokens": -1, "output_tokens": 0}')
    (bad / "NoSuchType").mkdir()
    (bad / "NoSuchType" / "x.json").write_text("{}")
    (bad / "Role").mkdir()
    (bad / "Role" / "broken.json").write_text("{")
    found = check_examples(BUNDLE, bad)
    assert sorted(f.location.split("#")[0] for f in found) == [
        "examples/NoSuchType/x.json",
        "examples/Role/broken.json",
        "examples/Usage/negative.json",
    ]
    (bad / "NoSuchType" / "x.json").unlink()
    (bad / "Role" / "broken.json").unlink()
    assert check_with_runtime(bad) == [
        "examples/Usage/negative.json: below_minimum at /input_tokens: must be at least 0, got -1"
    ]
