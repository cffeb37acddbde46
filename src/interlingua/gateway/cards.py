"""Choice cards (seed 002 §2): building, tags and safety, the rendered form, token bounds, order.

A card is rendered for the prompt as one line, ``{id} ({meta})`` followed by
``: {description}`` when the description is not empty. ``meta`` joins with ``; `` the kind,
``tags: a, b`` (when there are tags), ``safety: …`` (when set), ``cost: %g`` (when above 0)
and ``side effects`` (when true). The score is never rendered (§2.1); neither are the name,
namespace and ``has_schema``, which the id and hydration already carry. The seed bounds the
rendered form in tokens but does not fix it; this is the form chosen, and the one the vectors
count.

Choices where the seed is silent or ambiguous:

- **Tags.** A tag is kept when it is a CardTag (1-24 characters, no whitespace, control
  characters, braces, brackets or quotes) and holds no ``://`` (a server URL). The safety tags
  ``destructive`` / ``read-only`` are added from the ``destructiveHint`` / ``readOnlyHint``
  annotations when those are true, and are reserved into the kept set first: the cap of 5
  counts them, but they are never the ones dropped. Kept tags are sorted by code point.
- **Name.** The annotation ``title`` when it is not blank, else the upstream name; one line,
  capped at 64 characters (a longer one ends in ``…``).
- **Description.** Made one line (control characters and line separators become spaces, runs
  of spaces collapse), then truncated by §2.4 to a budget of the 60-token target minus the
  tokens of the card rendered with an empty description (at least 1). The finished card must
  render within the 80-token hard cap or it is CARD_TOO_LARGE.
- **side_effects.** From the definition's ``side_effects`` (``write``, ``execute`` and
  ``network`` are true; ``none`` and ``read`` false); when undeclared, true unless the tool
  declares ``readOnlyHint``.
- **has_schema.** True unless the input schema is ``{}`` or the bare ``{"type": "object"}``.
- **Order.** Score descending, then id ascending; a card without a score sorts after every
  card with one.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any, Final, NamedTuple

from pydantic import TypeAdapter
from pydantic import ValidationError as PydanticError

from interlingua.gateway._text import cap, max_length, single_line
from interlingua.gateway.errors import GatewayError
from interlingua.gateway.tokens import count_tokens, truncate_description
from interlingua.gateway.tool_id import parse_tool_id, tool_id_of
from interlingua.generated.models import (
    CardSafety,
    CardTag,
    ChoiceCard,
    GatewayTool,
    SideEffects,
    ToolAnnotations,
)

CARD_TARGET_TOKENS: Final = 60
CARD_HARD_CAP_TOKENS: Final = 80
BROWSE_PREAMBLE_TOKENS: Final = 32
TAG_CAP: Final = max_length(ChoiceCard, "tags")
NAME_LIMIT: Final = max_length(ChoiceCard, "name")
#: Safety tag → the card's safety value; the first present wins (destructive over read-only).
SAFETY_TAGS: Final[dict[str, CardSafety]] = {"destructive": "destructive", "read-only": "read_only"}
_CARD_TAG: Final[TypeAdapter[str]] = TypeAdapter(CardTag)
_MUTATING: Final[frozenset[SideEffects]] = frozenset({"write", "execute", "network"})
_BARE_SCHEMAS: Final[tuple[dict[str, Any], ...]] = ({}, {"type": "object"})


def _is_card_tag(tag: object) -> bool:
    try:
        _CARD_TAG.validate_python(tag, strict=True)
    except PydanticError:
        return False
    return "://" not in str(tag)


def normalize_tags(tags: Iterable[object], annotations: ToolAnnotations | None = None) -> list[str]:
    """Card tags: valid ones only, safety tags from the hints added, deduplicated, at most
    5 with the safety tags reserved first, sorted."""
    kept = {tag for tag in tags if _is_card_tag(tag)}
    if annotations is not None and annotations.readOnlyHint:
        kept.add("read-only")
    if annotations is not None and annotations.destructiveHint:
        kept.add("destructive")
    safety = sorted(str(t) for t in kept if t in SAFETY_TAGS)
    others = sorted(str(t) for t in kept if t not in SAFETY_TAGS)
    return sorted(safety + others[: max(TAG_CAP - len(safety), 0)])


def safety_of(tags: Iterable[str]) -> CardSafety:
    """The card's safety class: ``destructive`` wins over ``read_only``; else empty."""
    present = set(tags)
    return next((safety for tag, safety in SAFETY_TAGS.items() if tag in present), "")


def _side_effects(declared: SideEffects | None, annotations: ToolAnnotations | None) -> bool:
    if declared is not None:
        return declared in _MUTATING
    return not (annotations is not None and annotations.readOnlyHint)


def render_card(card: ChoiceCard) -> str:
    """The prompt-facing line of ``card``, the form its token bounds apply to."""
    meta: list[str] = [card.kind]
    if card.tags:
        meta.append("tags: " + ", ".join(card.tags))
    if card.safety:
        meta.append("safety: " + card.safety)
    if card.cost_hint > 0:
        meta.append("cost: " + format(card.cost_hint, "g"))
    if card.side_effects:
        meta.append("side effects")
    head = f"{card.id} ({'; '.join(meta)})"
    return f"{head}: {card.description}" if card.description else head


def card_tokens(card: ChoiceCard) -> int:
    """Exact ``cl100k_base`` tokens of the rendered card."""
    return count_tokens(render_card(card))


def build_card(tool: GatewayTool, score: float | None = None) -> ChoiceCard:
    """The choice card of a catalogued tool, within its token bounds (§2.1-§2.4)."""
    if score is not None and not math.isfinite(score):
        raise GatewayError("ARGS_INVALID", f"a card score is a finite number, not {score}")
    definition, annotations = tool.definition, tool.annotations
    tool_id = tool_id_of(tool)
    parts = parse_tool_id(tool_id)
    title = single_line(annotations.title or "") if annotations is not None else ""
    tags = normalize_tags(tool.tags or [], annotations)
    fields: dict[str, Any] = {
        "id": tool_id,
        "name": cap(title or single_line(definition.name), NAME_LIMIT),
        "description": "",
        "tags": tags,
        "kind": "tool",
        "namespace": parts.namespace,
        "has_schema": definition.input_schema not in (None, *_BARE_SCHEMAS),
        "cost_hint": tool.cost_hint or 0.0,
        "side_effects": _side_effects(definition.side_effects, annotations),
        "safety": safety_of(tags),
    }
    if score is not None:
        fields["score"] = score
    overhead = card_tokens(ChoiceCard.model_validate(fields))
    budget = max(CARD_TARGET_TOKENS - overhead, 1)
    fields["description"] = truncate_description(single_line(definition.description or ""), budget)
    card = ChoiceCard.model_validate(fields)
    tokens = card_tokens(card)
    if tokens > CARD_HARD_CAP_TOKENS:
        raise GatewayError(
            "CARD_TOO_LARGE",
            f"the card of {tool_id} renders to {tokens} tokens after truncation; "
            f"the hard cap is {CARD_HARD_CAP_TOKENS}",
            details={"tool_id": tool_id, "tokens": tokens, "hard_cap": CARD_HARD_CAP_TOKENS},
        )
    return card


class CardKey(NamedTuple):
    """What §2.5 orders cards by."""

    unscored: bool
    negated_score: float
    id: str


def order_key(card_id: str, score: float | None) -> CardKey:
    """Sort key: score descending (unscored last), then id ascending."""
    return CardKey(score is None, -(score or 0.0), card_id)


def order_cards(cards: Sequence[ChoiceCard]) -> list[ChoiceCard]:
    """``cards`` in browse order (§2.5)."""
    return sorted(cards, key=lambda card: order_key(card.id, card.score))


class BrowseBudget(NamedTuple):
    """Token bounds of a tool_browse response of ``n`` cards (§2.3)."""

    target: int
    hard_cap: int


def browse_budget(n: int) -> BrowseBudget:
    """``60 × n`` target, ``80 × n + 32`` hard cap (the 32 tokens are the preamble's)."""
    if n < 0:
        raise GatewayError("ARGS_INVALID", f"a card count is at least 0, not {n}")
    return BrowseBudget(CARD_TARGET_TOKENS * n, CARD_HARD_CAP_TOKENS * n + BROWSE_PREAMBLE_TOKENS)
