"""Stream sections of mapping files: what the generator refuses, and what it compiles."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from generator.adapters import Mapping
from generator.load import SchemaLoadError
from generator.streams import plan_stream
from tests.generator.mappings import mapping_data


def _anthropic() -> dict[str, Any]:
    return mapping_data("anthropic")


def _plan(data: dict[str, Any]) -> Any:
    return plan_stream(Mapping(Path("mappings/anthropic.yaml"), data))


def test_a_format_without_a_stream_section_has_no_stream_module() -> None:
    data = _anthropic()
    del data["stream"]
    assert _plan(data) is None


def test_every_template_list_becomes_one_writer() -> None:
    plan = _plan(_anthropic())
    assert {"start", "text.open", "text.delta", "text.close", "thinking.signature", "part"} <= set(
        plan.writers
    )
    assert all(f"def {name}(" in "\n".join(plan.functions) for name in plan.writers.values())


def test_a_template_may_only_use_the_variables_its_event_has() -> None:
    data = _anthropic()
    data["stream"]["write"]["text"]["delta"] = [{"type": "x", "text": "$stop_reason"}]
    with pytest.raises(SchemaLoadError, match=r"/stream/write/text/delta/0/text: .\$stop_reason."):
        _plan(data)


def test_only_thinking_has_signatures() -> None:
    data = _anthropic()
    data["stream"]["write"]["text"]["signature"] = [{"type": "x"}]
    with pytest.raises(SchemaLoadError, match="only thinking has signatures"):
        _plan(data)


def test_whole_calls_need_the_part_template_to_write_them() -> None:
    data = _anthropic()
    data["stream"]["write"]["tool_call"] = {"whole": True}
    with pytest.raises(SchemaLoadError, match="whole calls are written as parts"):
        _plan(data)


def test_optional_variables_leave_their_key_out() -> None:
    data = _anthropic()
    data["stream"]["write"]["start"] = [
        {"type": "message_start", "id": "$id?", "note": "$$literal"}
    ]
    source = "\n".join(_plan(data).functions)
    assert "if 'id' in v:" in source
    assert "'note': '$literal'" in source


def test_nested_each_rules_compile_to_their_own_function() -> None:
    data = _anthropic()
    data["stream"]["read"].insert(
        0,
        {
            "has": ["batch"],
            "do": [
                {
                    "each": {
                        "list": "batch",
                        "rules": [{"when": {"kind": "t"}, "do": [{"text": {"text": "@"}}]}],
                    }
                }
            ],
        },
    )
    source = "\n".join(_plan(data).functions)
    assert "def _each1(s: StreamReader, c: Any, ptr: str) -> bool:" in source
    assert "a_text = c\n" in source  # `@`: the list item itself


def _text_rule(*actions: Any) -> dict[str, Any]:
    return {"has": ["batch"], "do": list(actions)}


_EACH = {"each": {"list": "body", "rules": [{"do": [{"text": {"text": "text"}}]}]}}


def test_a_list_where_a_text_action_reads_is_left_to_the_rules_each() -> None:
    """Mistral's content: a string for `text`, a list of typed chunks for the `each` over the
    same path; the `each` takes the value the text action read."""
    data = _anthropic()
    data["stream"]["read"].insert(0, _text_rule({"text": {"text": "body"}}, _EACH))
    source = "\n".join(_plan(data).functions)
    assert "if a_text is not None and type(a_text) is not list:" in source
    assert "x = a_text\n" in source


@pytest.mark.parametrize(
    "actions",
    [
        ({"text": {"text": "body"}},),  # no each: a list is the text action's to refuse
        ({"text": {"text": "other"}}, _EACH),  # an each over another path
        ({"text": {"text": "body"}}, {"usage": "usage"}, _EACH),  # not just before the each
    ],
)
def test_the_text_action_is_guarded_only_for_an_each_over_its_path(actions: Any) -> None:
    data = _anthropic()
    data["stream"]["read"].insert(0, _text_rule(*actions))
    source = "\n".join(_plan(data).functions)
    guarded = "type(a_text) is not list" in source
    assert guarded == (len(actions) == 3)
    assert "x = a_text\n" not in source


def test_a_value_read_in_one_rule_is_not_taken_by_the_next() -> None:
    data = _anthropic()
    data["stream"]["read"][:0] = [
        _text_rule({"text": {"text": "body"}}),
        {"has": ["other"], "do": [_EACH]},
    ]
    source = "\n".join(_plan(data).functions)
    assert "x = a_text\n" not in source


def test_an_explicit_start_needs_a_rule_that_starts() -> None:
    data = _anthropic()
    data["stream"]["read"] = [r for r in data["stream"]["read"] if "start" not in str(r["do"])]
    with pytest.raises(SchemaLoadError, match="start"):
        _plan(data)
    del data["stream"]["explicit_start"]
    assert _plan(data) is not None


def test_argument_pieces_pass_their_field_names_as_a_table() -> None:
    data = _anthropic()
    piece = {
        "path": "p",
        "more": "m",
        "string": "s",
        "number": "n",
        "boolean": "b",
        "null": "z",
    }
    data["stream"]["read"].insert(
        0, {"has": ["pieces"], "do": [{"call_pieces": {"pieces": "pieces", "piece": piece}}]}
    )
    source = "\n".join(_plan(data).functions)
    assert "keys={'boolean': 'b', 'more': 'm'," in source.replace("\n", "").replace("    ", "")
    assert "if a_pieces is not None:" in source


def test_read_paths_of_keys_are_spelled_out_and_index_paths_go_through_at() -> None:
    data = _anthropic()
    data["stream"]["read"].insert(
        0, {"when": {"kind": "x"}, "do": [{"text": {"text": "items.0.text", "part": "index"}}]}
    )
    source = "\n".join(_plan(data).functions)
    assert "d: dict[str, Any] = c if type(c) is dict else EMPTY" in source
    assert "= d.get('type')\n" in source  # tested by several rules: read once, up front
    assert "a_part = d.get('index')\n" in source
    assert "a_text = at(c, ('items', 0, 'text'))\n" in source  # a list index: through `at`
    assert "get(d.get('delta'), 'type')" in source


# --- the fused paths' halves: text around a delta, and the read rules a fused path takes ----


def _delta_template(data: dict[str, Any], templates: list[Any]) -> Any:
    data["stream"]["write"]["text"]["delta"] = templates
    return _plan(data)


def test_a_delta_chunk_is_spelled_as_the_text_around_the_delta() -> None:
    plan = _plan(_anthropic())
    assert set(plan.arounds) == {"text.delta", "thinking.delta", "tool_call.delta"}
    source = "\n".join(plan.functions)
    assert "def a_text_delta(v: dict[str, Any]) -> tuple[str, str] | None:" in source
    assert '\'event: content_block_delta\\ndata: {"type":"content_block_delta","index":\'' in source


@pytest.mark.parametrize(
    "templates",
    [
        [{"type": "a", "text": "$text"}, {"type": "b"}],  # two chunks
        [{"type": "a", "text": "$text", "again": "$text"}],  # the delta twice
        [{"type": "a", "inner": {"text": "$text?"}}],  # the delta optional, alone in an object
        [{"type": "$code", "text": "$text"}],  # the `event:` name from a variable
        [{"@spread": "$usage", "type": "a", "text": "$text"}],
        [{"type": "a", "text": ["$usage?", "$text"]}],  # an optional value in a list
        [{"type": "a", "usage": "$usage"}],  # no delta at all
    ],
)
def test_a_delta_chunk_the_text_cannot_spell_has_no_text(templates: list[Any]) -> None:
    data = _anthropic()
    data["stream"]["write"]["text"]["delta"] = templates
    for n, template in enumerate(templates):
        if template.get("type") == "$code":  # `code` is no delta variable: allow it here
            templates[n] = {**template, "type": "$index"}
    assert "text.delta" not in _delta_template(data, templates).arounds


def test_the_text_around_a_delta_is_the_framed_chunk() -> None:
    """Every generated `a_*`, for values of every JSON type, gives the text `frame(dumps(w_*))`
    gives (the general path's), the delta's text in between."""
    import importlib

    from interlingua.generated.streams import STREAMS
    from interlingua.streams.framing import dumps, frame, json_text

    values: list[Any] = ['msg \u2028 "é" \\', 0, -7, 2.5, True, None, {"a": [1, {"b": "c"}]}, []]
    checked = 0
    for fmt, spec in STREAMS.items():
        module = importlib.import_module(f"interlingua.generated.streams.{fmt.replace('-', '_')}")
        for key, writer in spec.writers.items():
            around = getattr(module, "a_" + key.replace(".", "_"), None)
            if around is None:
                continue
            delta = "arguments" if key == "tool_call.delta" else "text"
            for value in values:
                v = dict.fromkeys(
                    ("id", "model", "created", "created_at", "index", "call", "block_id"), value
                )
                v |= {"usage": {"n": value}, delta: 'a delta \u00e9 "quoted"'}
                chunks = writer(v)
                parts = around(v)
                if not chunks:
                    assert parts is None
                    continue
                (chunk,) = chunks
                name = chunk.get(spec.event_field) if spec.event_field else None
                assert parts is not None
                assert parts[0] + json_text(v[delta]) + parts[1] == frame(
                    spec.framing, dumps(chunk), name
                ), (fmt, key, value)
                checked += 1
    assert checked > 20


def test_a_read_rule_a_chunk_could_reach_only_after_another_says_so() -> None:
    from generator.streams import hot_rules

    rules: list[dict[str, Any]] = [
        {"has": ["start"], "do": [{"start": {}}]},
        {"when": {"type": "other"}, "do": [{"end": {"part": "index"}}]},
        {"when": {"type": "delta"}, "do": [{"text": {"part": "index", "text": "text"}}]},
        {"do": []},
        {"when": {"type": "late"}, "do": [{"text": {"part": "index", "text": "text"}}]},
        {"when": {"type": "delta"}, "do": [{"thinking": {"text": "text"}}]},  # no part
    ]
    (hot,) = hot_rules(rules)
    assert hot.action == "text"
    # The first rule may take the same chunk: not it; the second wants another type.
    assert hot.conditions == ("k0 == 'delta'", "not (d.get('start') is not None)")
    assert hot.reads == (("k0", "d.get('type')"),)
