"""Mapping options the Gemini mapping brought: `$name?` variables, transforms that read their
literal arguments back, counts a format leaves out when zero, and the layout keys for
signatures, result pairing and optional roles."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from generator.adapters import Mapping, load_mappings, plan_adapter
from generator.load import SchemaLoadError
from generator.templating import Var, parse, required, with_optional
from tests.generator.mappings import mapping_data, mappings

ROOT = Path(__file__).resolve().parents[2]
BUNDLE = json.loads((ROOT / "generated/schemas/interlingua-v1.json").read_text())


def _gemini() -> dict[str, Any]:
    return mapping_data("gemini")


def _source(data: dict[str, Any], name: str) -> str:
    plan = plan_adapter(Mapping(Path("mappings/gemini.yaml"), data), BUNDLE)
    return next(f.source for f in plan.functions if f.name == name)


def test_a_loose_variable_is_optional_on_both_sides() -> None:
    assert parse("$id?") == Var("id", False, False, True)
    assert parse("$id!") == Var("id", False, True, False)
    # the schema requires `id`, but `?` makes it optional all the same; `!` still wins
    assert with_optional(parse("$id?"), set()) == Var("id", True, False, True)
    assert with_optional(parse("$id"), {"id"}) == Var("id", True, False, False)
    assert with_optional(parse("$id!"), {"id"}) == Var("id", False, True, False)


def test_a_filling_transform_makes_its_wire_key_required() -> None:
    """A transform that writes a value for an absent variable (`arguments_schema`: a tool
    without a schema is written the empty object schema) makes the wire key always there:
    reading needs it, so an Anthropic server tool (no `input_schema`) is not a custom tool."""
    template = parse({"@arguments_schema": "$schema"})
    plain = with_optional(template, {"schema"})
    filling = with_optional(template, {"schema"}, frozenset({"arguments_schema"}))
    assert not required(plain)
    assert required(filling)
    assert required(
        with_optional(
            parse({"@object_schema": template}), {"schema"}, frozenset({"arguments_schema"})
        )
    )
    (mapping,) = [m for m in mappings() if m.format == "anthropic"]
    plan = plan_adapter(mapping, BUNDLE)
    sources = {f.name: f.source for f in plan.functions}
    assert "if v_schema is ABSENT" not in sources["enc_tool_0"]  # written without one too
    assert "input_schema is required here" in sources["dec_tool_0"]


def test_a_loose_call_id_is_written_when_there_and_read_when_there() -> None:
    encode = _source(_gemini(), "enc_tool_call_0").replace('"', "'")
    decode = _source(_gemini(), "dec_tool_call_0").replace('"', "'")
    assert "v_id = c.get('id', ABSENT)" in encode
    assert "if v_id is not ABSENT:" in encode  # no MISS when the canonical part has none
    assert "missing_field" not in decode.split("v_name")[0]  # an absent id is no error


def test_a_transform_that_reads_literals_gets_them_when_decoding() -> None:
    decode = _source(_gemini(), "dec_tool_result_0")
    assert "T_result_object.decode(" in decode
    assert "'output', 'error', 'result'" in decode.replace('"', "'")
    # a transform without the flag is called as before
    assert "T_tool_name.decode(ctx, _m" in decode


def _functions(fmt: str) -> dict[str, str]:
    (mapping,) = [m for m in mappings() if m.format == fmt]
    return {f.name: f.source for f in plan_adapter(mapping, BUNDLE).functions}


def test_a_transform_that_reads_absence_is_given_it() -> None:
    """OpenAI Responses' `strict` (`@explicit_default`): a tool that leaves it out is strict,
    so decoding is given ABSENT rather than skipped."""
    (decode,) = [
        source.replace('"', "'")
        for name, source in _functions("openai-responses").items()
        if name.startswith("dec_tool_") and "'strict'" in source.replace('"', "'")
    ]
    strict = decode.split(".get('strict', ABSENT)")[1].split("v_strict =")[0]
    assert "T_explicit_default.decode(ctx, _m" in strict
    assert "is ABSENT:" not in strict  # no branch that leaves it out


def test_a_literal_the_transform_reads_is_checked_not_reported() -> None:
    """Anthropic's optional tool tag `custom` (`@optional_tag`): another tag is another
    variant's (a miss); the tag itself is no loss, unlike a placeholder's literal."""
    decode = _functions("anthropic")["dec_tool_0"].replace('"', "'")
    tag = decode.split("w.get('type')")[1].split("w.get('name'")[0]
    assert "T_optional_tag.decode(ctx, _m" in tag and "'custom')" in tag
    assert "return MISS" in tag
    assert "ctx.loss" not in tag


def test_zero_counts_read_as_zero_and_are_left_out() -> None:
    decode = _source(_gemini(), "dec_usage")
    encode = _source(_gemini(), "enc_usage")
    assert "out['output_tokens'] = check_count(" in decode.replace('"', "'")
    assert "if n:" in encode
    data = _gemini()
    data["usage_omits_zero"] = False
    assert "if n:" not in _source(data, "enc_usage")


@pytest.mark.parametrize(
    ("key", "value"),
    [("result_pairing", "position"), ("role_optional", "yes"), ("signature_field", 3)],
)
def test_the_layout_keys_are_checked(
    key: str, value: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import yaml

    from generator import adapters

    data = _gemini()
    data["layout"][key] = value
    (tmp_path / "gemini.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
    monkeypatch.setattr(adapters, "MAPPINGS", tmp_path)
    with pytest.raises(SchemaLoadError, match=f"layout/{key}"):
        load_mappings()
