"""Mapping files: what the generator refuses, and what the compiled adapters guarantee."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from generator.adapters import Mapping, load_mappings, plan_adapter, unread_defaults
from generator.load import SchemaLoadError
from generator.pairs import without_free_form
from tests.generator.mappings import mapping_data, mappings

ROOT = Path(__file__).resolve().parents[2]
BUNDLE = json.loads((ROOT / "generated/schemas/interlingua-v1.json").read_text())


def _openai() -> dict[str, Any]:
    """OpenAI Chat's mapping without its free-form tools' variants: the tests below name its
    function variants by their place."""
    return without_free_form(mapping_data("openai-chat"))


def _plan(data: dict[str, Any]) -> None:
    plan_adapter(Mapping(Path("mappings/openai-chat.yaml"), data), BUNDLE)


def test_every_mapping_compiles_and_names_its_file() -> None:
    found = mappings()
    assert {"openai-chat", "anthropic"} <= {m.format for m in found}
    for mapping in found:
        plan = plan_adapter(mapping, BUNDLE)
        assert plan.functions
        assert mapping.path.stem == mapping.format


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d["parts"]["text"][0]["wire"].update(extra="$nope"), "not bound"),
        (lambda d: d["parts"]["text"][0]["canonical"].update(colour="$c"), "no such field"),
        (lambda d: d["parts"].update(sticker=d["parts"]["text"]), "not a canonical part type"),
        (
            lambda d: d["parts"]["tool_call"][0]["wire"]["function"].update(
                arguments={"@json_text": "$arguments"}
            ),
            "no such transform",
        ),
        (
            lambda d: d["parts"]["image"][0]["wire"]["image_url"].update(
                url={"@data_url": ["$media_type"]}
            ),
            "takes 2 argument",
        ),
        (lambda d: d["stop_reasons"]["from_canonical"].pop("pause"), "every stop reason"),
        (lambda d: d["stop_reasons"]["to_canonical"].update(odd="sideways"), "unknown"),
        (lambda d: d["roles"].pop("developer"), "every canonical role"),
        (lambda d: d["usage"].update(tokens="x"), "not a field of Usage"),
        (lambda d: d["usage"].update(total_tokens=["total", "missing"]), "must also map"),
        (lambda d: d.update(usage_repeats={"prompt_count": "prompt"}), "repeats no count read"),
        (lambda d: d["request"]["wire"].update(tools={"@each": ["gadget", "$tools"]}), "no codec"),
        (lambda d: d["codecs"].update(gadget=d["codecs"]["tool"]), "codecs are"),
        (
            lambda d: d["parts"]["text"][0]["canonical"].update(text={"@json_string": "$text"}),
            "calls belong in wire templates",
        ),
        (
            lambda d: d["parts"]["text"][0].update(slot="message"),
            "only tool_result variants are written as a message",
        ),
        # A written variant must write every canonical value it holds (OpenAI Chat's
        # `function_call` and `function` message, which have no id, are only read).
        (
            lambda d: d["parts"]["tool_call"][1].pop("reads_only"),
            r"\$id is not in the wire template",
        ),
        (
            lambda d: d["parts"]["tool_result"][0].update(slot="results"),
            "no result message is written",
        ),
        # A read-only spelling whose canonical value no written variant writes.
        (
            lambda d: d["codecs"]["tool"][1].update(reads_only=True),
            "no written variant holds a subset of its canonical template",
        ),
        (
            lambda d: d["parts"]["text"][1].update(reads_only=True),
            "no written variant holds a subset of its canonical template",
        ),
        # Written back from round-trip data alone: only a read-only spelling can be.
        (
            lambda d: d["codecs"]["tool"][1].update(needs_round_trip="an index"),
            "needs_round_trip goes with reads_only",
        ),
    ],
)
def test_mistakes_are_refused_with_their_place(edit: Any, message: str) -> None:
    data = _openai()
    edit(data)
    with pytest.raises(SchemaLoadError, match=message) as err:
        _plan(data)
    assert "schemas/mappings/openai-chat.yaml#/" in str(err.value)


def test_a_read_only_variant_gets_no_encoder() -> None:
    """OpenAI Chat's tool with a cache hint or without its `type`, and its text with a cache
    hint, are read, never written: their decoders are there, their encoders are not, and the
    encoders of the codec and of the part ask only the variant written."""
    plan = plan_adapter(Mapping(Path("mappings/openai-chat.yaml"), _openai()), BUNDLE)
    names = "\n".join(function.source for function in plan.functions)
    for read_only in ("tool_0", "tool_2", "text_0"):
        assert f"def dec_{read_only}(" in names and f"def enc_{read_only}(" not in names
    assert "enc_tool_1(ctx, c, at)" in names and "enc_text_1(ctx, c, at)" in names


def test_geminis_openapi_schema_field_is_read_never_written() -> None:
    plan = plan_adapter(Mapping(Path("mappings/gemini.yaml"), mapping_data("gemini")), BUNDLE)
    names = "\n".join(function.source for function in plan.functions)
    assert "def dec_response_format_1(" in names
    assert "def enc_response_format_1(" not in names


def test_a_read_only_variant_may_come_before_the_one_written() -> None:
    """A written variant holding a subset of the read-only one's canonical fields writes what
    it reads, wherever it stands; one holding a field the read-only lacks does not."""
    data = _openai()
    text = data["parts"]["text"]
    text[1]["canonical"] = {**text[1]["canonical"], "citations": "$citations"}
    text[1]["wire"] = {**text[1]["wire"], "annotations": "$citations"}
    with pytest.raises(SchemaLoadError, match="no written variant holds a subset") as err:
        _plan(data)
    assert "/parts/text/0/reads_only" in str(err.value)


def test_a_block_needs_its_tag() -> None:
    data = _openai()
    data["parts"]["text"][0]["wire"] = {"text": "$text"}
    with pytest.raises(SchemaLoadError, match="needs a literal `type`"):
        _plan(data)


def test_mapping_files_are_checked_against_the_meta_schema(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from generator import adapters

    data = _openai()
    monkeypatch.setattr(adapters, "MAPPINGS", tmp_path)
    (tmp_path / "odd.yaml").write_text("format: odd\n")
    with pytest.raises(SchemaLoadError, match=r"odd\.yaml"):
        load_mappings()
    import yaml

    (tmp_path / "odd.yaml").write_text(yaml.safe_dump(data))
    with pytest.raises(SchemaLoadError, match="must be the file name"):
        load_mappings()
    (tmp_path / "odd.yaml").write_text("{: bad")
    with pytest.raises(SchemaLoadError):
        load_mappings()
    (tmp_path / "odd.yaml").unlink()
    (tmp_path / "odd.yaml").mkdir()  # unreadable as a file
    with pytest.raises(SchemaLoadError, match=r"odd\.yaml"):
        load_mappings()


def test_the_mappings_are_checked_once_a_process_and_each_caller_gets_a_copy(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from jsonschema import Draft202012Validator

    first = load_mappings()
    monkeypatch.setattr(Draft202012Validator, "check_schema", None)  # not called again
    second = load_mappings()
    assert first == second and first[0].data is not second[0].data
    first[0].data["format"] = "changed"
    assert load_mappings()[0].data["format"] == second[0].data["format"] != "changed"


def test_a_table_value_the_wire_may_leave_out_is_written_only_when_there() -> None:
    plans = {m.format: plan_adapter(m, BUNDLE) for m in mappings()}

    def writer(fmt: str) -> str:
        return next(f.source for f in plans[fmt].functions if f.name == "enc_response_envelope")

    guard = "ABSENT if v_stop_reason is ABSENT else table_encode("
    assert guard in writer("mcp")  # `"$stop_reason?"`: MCP's result may leave it out
    assert "table_encode(" in writer("anthropic")
    assert guard not in writer("anthropic")  # required there: always written


def test_a_read_only_codec_spelling_is_tried_never_insisted_on() -> None:
    """OpenAI Chat's bare `{"name": …}` tool choice (the deprecated `function_call`) has no
    literal of its own: read only, an object without a name is not its error but the next
    variant's to judge (another shape, say `allowed_tools`, is then reported, not refused)."""
    plan = plan_adapter(Mapping(Path("mappings/openai-chat.yaml"), _openai()), BUNDLE)
    (bare,) = [
        f.source
        for f in plan.functions
        if f.source.startswith("def dec_tool_choice_") and "_m1 = w.get('name', ABSENT)" in f.source
    ]
    assert bare.count("raise ConversionError") == 1  # only the JSON type is insisted on
    assert "if _m1 is ABSENT:\n        return MISS" in bare


def test_request_defaults_become_one_literal_per_object() -> None:
    assert unread_defaults({"n": [1], "a.b": [["X"]], "a.c": [0, False]}) == {
        (): "{'n': (1,)}",
        ("a",): "{'b': (['X'],), 'c': (0, False)}",
    }


def test_a_usage_merged_into_a_wider_object_takes_no_repeats() -> None:
    """Ollama's counts share the response's top level: its reading reports the other fields,
    so a count repeated under another name has no usage object of its own to be passed over in."""
    data = mapping_data("ollama")
    data["usage_repeats"] = {"prompt_count": "prompt_eval_count"}
    with pytest.raises(SchemaLoadError, match="a merged usage has no repeats"):
        plan_adapter(Mapping(Path("mappings/ollama.yaml"), data), BUNDLE)
