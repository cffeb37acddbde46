"""Choice cards (seed 002 §2, §5): building, bounds, tags, tokens, ordering, cache stability."""

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interlingua.documents.validation import validate
from interlingua.gateway import tokens
from interlingua.gateway.cache_stable import (
    CACHE_BREAKPOINT_ID,
    CacheStableSession,
    cache_breakpoint_card,
)
from interlingua.gateway.cards import (
    CARD_HARD_CAP_TOKENS,
    CARD_TARGET_TOKENS,
    browse_budget,
    build_card,
    card_tokens,
    normalize_tags,
    order_cards,
    render_card,
)
from interlingua.gateway.errors import GatewayError
from interlingua.gateway.tokens import count_tokens, encode, truncate_description
from interlingua.generated.models import ChoiceCard, GatewayTool


def tool(description: str = "Does a thing.", **extra: Any) -> GatewayTool:
    definition = {
        "name": "svc.do_thing",
        "description": description,
        "input_schema": {"type": "object", "properties": {"x": {"type": "string"}}},
        **extra.pop("definition", {}),
    }
    return GatewayTool.model_validate({"definition": definition, **extra})


def card(card_id: str, score: float | None = None, **extra: Any) -> ChoiceCard:
    fields: dict[str, Any] = {
        "id": card_id,
        "name": card_id,
        "description": "",
        "tags": [],
        "kind": "tool",
        "namespace": card_id.partition(":")[0],
        "has_schema": False,
        "cost_hint": 0.0,
        "side_effects": False,
        "safety": "",
        **extra,
    }
    if score is not None:
        fields["score"] = score
    return ChoiceCard.model_validate(fields)


def test_cl100k_counts_are_exact_and_offline() -> None:
    assert encode("hello world") == [15339, 1917]
    assert count_tokens("") == 0
    assert tokens.max_token_bytes() == 128


def test_texts_past_the_encoder_limits_are_args_invalid() -> None:
    with pytest.raises(GatewayError) as raised:
        count_tokens("x" * 1_000_000)
    assert raised.value.code == "ARGS_INVALID"
    with pytest.raises(GatewayError) as raised:
        count_tokens("\U0001f600" * 120_000)  # under the character limit, over 200,000 tokens
    assert raised.value.code == "ARGS_INVALID"


def test_only_a_space_or_the_end_closes_a_sentence() -> None:
    assert truncate_description("Done. More words follow here.", 2) == "Done."
    assert truncate_description("Done.\nMore words follow here.", 2) == "Done…"


def test_a_huge_description_is_truncated_from_its_start() -> None:
    text = "Short first sentence. " + "word " * 400_000
    assert truncate_description(text, 8) == "Short first sentence."
    assert truncate_description("ab " * 30_000, 3) == "ab ab…"


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=400), st.integers(min_value=1, max_value=40))
def test_truncation_fits_or_ends_in_an_ellipsis(text: str, budget: int) -> None:
    out = truncate_description(text, budget)
    assert out == truncate_description(text, budget)  # deterministic
    if out != text:
        assert text.startswith(out.removesuffix("…"))
        assert out.endswith("…") or count_tokens(out) <= budget
        assert out.endswith(("…", ".", "!", "?"))


def test_cards_validate_and_stay_within_the_hard_cap() -> None:
    long = "First sentence is here. " + "More words without any end " * 40
    for case in (tool(), tool(long), tool("", annotations={"title": "  "})):
        built = build_card(case, 0.5)
        assert validate(built.model_dump(mode="json", exclude_none=True), "ChoiceCard") == []
        assert card_tokens(built) <= CARD_HARD_CAP_TOKENS
    assert card_tokens(build_card(tool(long))) <= CARD_TARGET_TOKENS + 2
    assert build_card(tool("", annotations={"title": "  "})).name == "svc.do_thing"


def test_description_is_one_line() -> None:
    built = build_card(tool("Line one.\r\n\tLine\u2028two.\x00"))
    assert built.description == "Line one. Line two."


@pytest.mark.parametrize(
    ("declared", "hints", "expected"),
    [
        ("none", {"readOnlyHint": False}, False),
        ("read", None, False),
        ("write", {"readOnlyHint": True}, True),
        ("execute", None, True),
        ("network", None, True),
        (None, None, True),
        (None, {"readOnlyHint": True}, False),
        (None, {"destructiveHint": True}, True),
    ],
)
def test_side_effects(declared: str | None, hints: dict[str, bool] | None, expected: bool) -> None:
    definition = {} if declared is None else {"side_effects": declared}
    extra: dict[str, Any] = {} if hints is None else {"annotations": hints}
    assert build_card(tool(definition=definition, **extra)).side_effects is expected


def test_has_schema_ignores_the_bare_object() -> None:
    for schema, expected in (
        ({}, False),
        ({"type": "object"}, False),
        ({"type": "object", "required": []}, True),
    ):
        assert build_card(tool(definition={"input_schema": schema})).has_schema is expected


def test_a_tool_without_an_input_schema_has_none() -> None:
    """A definition may leave its input schema out (the tool takes no arguments)."""
    definition = tool().definition.model_dump(exclude_none=True)
    del definition["input_schema"]
    assert build_card(GatewayTool.model_validate({"definition": definition})).has_schema is False


def test_the_schema_never_reaches_the_card() -> None:
    built = build_card(tool(definition={"output_schema": {"type": "object"}}))
    dumped = built.model_dump(mode="json")
    assert set(dumped) == set(ChoiceCard.model_fields)
    for banned in ("args_schema", "inputSchema", "input_schema", "output_schema", "annotations"):
        document = {**built.model_dump(mode="json", exclude_none=True), banned: {}}
        assert [f.code for f in validate(document, "ChoiceCard")] == ["unknown_field"]


def test_non_finite_scores_are_refused() -> None:
    for score in (float("nan"), float("inf")):
        with pytest.raises(GatewayError) as raised:
            build_card(tool(), score)
        assert raised.value.code == "ARGS_INVALID"


def test_too_large_card_reports_its_size() -> None:
    tags = [
        "Hvd2HqKXKFmvB1qvZ0Wavj1Z",
        "L4gj3HpWXmWp3pZd80mLnZWg",
        "X9K1HW2Lj1jdvv9dFddnXWv5",
        "aj10BW49S1235qF96937aHHH",
    ]
    with pytest.raises(GatewayError) as raised:
        build_card(tool(tags=tags))
    assert raised.value.code == "CARD_TOO_LARGE"
    assert raised.value.details is not None
    assert raised.value.details["tokens"] > CARD_HARD_CAP_TOKENS


@given(st.lists(st.text(max_size=30), max_size=12), st.booleans(), st.booleans())
def test_tags_are_bounded_and_safety_survives(
    raw: list[str], read_only: bool, destructive: bool
) -> None:
    hints = {"readOnlyHint": read_only, "destructiveHint": destructive}
    tags = normalize_tags(
        raw,
        GatewayTool.model_validate(
            {"definition": {"name": "a", "input_schema": {}}, "annotations": hints}
        ).annotations,
    )
    assert tags == sorted(set(tags))
    assert len(tags) <= 5
    assert ("read-only" in tags) is (read_only or "read-only" in raw)
    assert ("destructive" in tags) is (destructive or "destructive" in raw)
    assert all(1 <= len(t) <= 24 and "://" not in t for t in tags)


def test_non_string_tags_are_dropped() -> None:
    assert normalize_tags([1, None, "ok", b"x"]) == ["ok"]


def test_rendering_omits_the_score_and_zero_costs() -> None:
    assert render_card(card("a:b@1", 0.9)) == "a:b@1 (tool)"
    rich = card(
        "a:b@1", description="Hi.", tags=["x"], safety="read_only", cost_hint=2.0, side_effects=True
    )
    assert (
        render_card(rich) == "a:b@1 (tool; tags: x; safety: read_only; cost: 2; side effects): Hi."
    )


def test_order_is_score_then_id_with_unscored_last() -> None:
    cards = [card("c:x@1"), card("b:x@1", 0.5), card("a:x@1", 0.5), card("d:x@1", 0.7)]
    assert [c.id for c in order_cards(cards)] == ["d:x@1", "a:x@1", "b:x@1", "c:x@1"]


def test_browse_budget() -> None:
    assert browse_budget(3) == (180, 272)
    with pytest.raises(GatewayError):
        browse_budget(-1)


def test_cache_stable_session() -> None:
    session = CacheStableSession()
    assert [c.id for c in session.order([card("b:x@1", 0.9), card("a:x@1", 0.1)])] == [
        "a:x@1",
        "b:x@1",
    ]
    second = session.order([card("c:x@1"), card("a:x@1", 0.8), card("c:x@1")])
    assert [c.id for c in second] == ["a:x@1", CACHE_BREAKPOINT_ID, "c:x@1"]
    assert second[0].score == 0.1  # frozen at first sighting
    session.record_hydration("z:x@1")
    assert [c.id for c in session.order([card("z:x@1"), card("a:x@1")])] == ["a:x@1", "z:x@1"]
    session.reset()
    assert [c.id for c in session.order([card("a:x@1"), card("z:x@1")])] == ["a:x@1", "z:x@1"]


def test_the_marker_is_a_valid_internal_card() -> None:
    marker = cache_breakpoint_card()
    assert marker.kind == "internal"
    assert validate(marker.model_dump(mode="json", exclude_none=True), "ChoiceCard") == []
