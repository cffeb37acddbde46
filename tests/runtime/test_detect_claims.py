"""The walk that asks which of the winner's features another schema claims (what `detect`'s
reason needs of every other schema) finds, of the features it is told to look for, exactly
what the whole walk of that schema finds; and it passes over the turns of a long body once the
first ones have claimed what they can."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from generator.paths import ROOT
from interlingua.conversion.detector import (
    _ABSENT,
    _Claims,
    _Compiler,
    _evidence,
    _reaches,
    _schema,
    _scope,
    _shaped,
    _Walk,
    detect,
)

BODIES = sorted(
    [
        *(ROOT / "schemas" / "formats").glob("*/*/*.json"),
        *(ROOT / "conformance" / "real").glob("*/*/*.json"),
    ]
)
KINDS = {"request", "response", "messages"}


def _kind(path: Path) -> str:
    return path.parent.name


@pytest.mark.parametrize(
    "path",
    [p for p in BODIES if _kind(p) in KINDS],
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_what_another_schema_claims_of_the_wanted_features_is_what_its_whole_walk_finds(
    path: Path,
) -> None:
    payload = json.loads(path.read_text(encoding="utf-8"))
    pairs = [pair for pair in _scope(_kind(path), None) if _shaped(*pair, payload) is not _ABSENT]
    whole = {pair: _evidence(*pair, _shaped(*pair, payload)) for pair in pairs}
    # Wanted: what any schema of the kind finds (the winner's features are among them).
    every = set().union(*whole.values())
    for pair in pairs:
        claimed = _evidence(*pair, _shaped(*pair, payload), wanted=every)
        assert set(claimed) == set(whole[pair]), pair
    for pair, own in whole.items():
        for other in pairs:
            claimed = _evidence(*other, _shaped(*other, payload), wanted=own)
            assert set(claimed) == set(whole[other]) & set(own), (pair, other)


def _long_chat() -> dict[str, Any]:
    turns: list[dict[str, Any]] = [{"role": "system", "content": "Be brief."}]
    for n in range(300):
        turns.append({"role": "user", "content": [{"type": "text", "text": f"question {n}"}]})
        turns.append({"role": "assistant", "content": f"answer {n}"})
    return {"model": "m", "max_completion_tokens": 9, "messages": turns}


def test_another_schema_passes_over_the_turns_once_nothing_wanted_is_left_under_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    body = _long_chat()
    wanted = _evidence("openai-chat", "request", body)
    walked: list[str] = []
    walk = _Walk.walk

    def counted(self: _Walk, node: Any, value: Any, path: str, depth: int = 0) -> None:
        walked.append(path)
        walk(self, node, value, path, depth)

    monkeypatch.setattr(_Walk, "walk", counted)
    whole = _evidence("anthropic", "request", body)
    whole_walked = len(walked)
    walked.clear()
    claimed = _evidence("anthropic", "request", body, wanted=wanted)
    assert set(claimed) == set(whole) & set(wanted)
    assert claimed  # the turns' role and content, at least
    # The whole walk goes into each of the 601 turns; the other, into the first few only (a
    # turn passed over is not walked).
    assert walked.count("messages[]") < 10, walked.count("messages[]")
    assert whole_walked > 3 * 601


def test_the_reason_of_a_long_body_is_the_reason_of_its_first_turns() -> None:
    short = _long_chat()
    short["messages"] = short["messages"][:5]
    assert detect(_long_chat()).as_json() == detect(short).as_json()


def _node(schema: Any) -> Any:
    return _Compiler(schema).node(schema)


def test_a_path_is_reached_through_keys_items_other_keys_and_every_branch() -> None:
    root = _node(
        {
            "$defs": {
                "Part": {"properties": {"type": {"const": "x"}}},
                "Turn": {"type": "object"},
            },
            "properties": {
                "messages": {"items": {"$ref": "#/$defs/Turn"}},
                "meta": {"additionalProperties": {"enum": [1, 2]}},
                "a": {"properties": {"b": True}},
            },
            "oneOf": [{"properties": {"only": {"items": {"$ref": "#/$defs/Part"}}}}],
        }
    )
    assert _reaches(root, "messages", None)
    assert not _reaches(root, "messages[].role", None)  # a turn declares no key
    assert not _reaches(root, "meta.*", None)  # another key: no key feature, values only
    assert not _reaches(root, "meta.x", None)  # an undeclared key's path is `*`
    assert _reaches(root, "only[].type", None)  # through a branch and a reference
    assert _reaches(root, "only[].type", '"x"') and not _reaches(root, "only[].type", '"y"')
    assert _reaches(root, "meta.*", "2") and not _reaches(root, "meta.*", "3")
    assert not _reaches(root, "messages[]", None)  # an item is no key
    assert _reaches(root, "a.b", None)  # the key, whatever its schema (here: any value)
    assert (
        not _reaches(root, "a.c", None)
        and not _reaches(root, "b", None)
        and not _reaches(root, "[]", None)
    )


def test_a_schema_reached_at_its_root_by_a_list_reads_items() -> None:
    root = _node({"oneOf": [{"type": "array", "items": {"properties": {"role": {}}}}]})
    assert _reaches(root, "[].role", None) and not _reaches(root, "role", None)


def test_what_a_schema_reaches_is_kept_with_it() -> None:
    schema = _schema("anthropic", "request")
    assert schema.reaches(("messages[].role", '"user"'))
    assert schema.paths[("messages[].role", '"user"')] is True
    assert schema.reaches(("messages[].role", '"system"'))  # instructions in the conversation
    assert not schema.reaches(("messages[].role", '"developer"'))
    assert not schema.reaches(("contents[].parts", None))
    wanted = [("contents[].parts", None), ("messages", None), ("messages[].role", '"tool"')]
    assert _Claims(schema, wanted).wanted == {("messages", None)}
