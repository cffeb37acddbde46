"""Cache-stable browse ordering (seed 002 §5): a byte-stable prefix for prompt caching.

Within one session, ids already browsed or successfully hydrated come first (ascending id,
with the content frozen at first sighting), then the ``__cache_breakpoint__`` marker when both
parts are non-empty, then the newly seen cards (ascending id). Ranking stays readable from each
card's ``score``; position no longer says it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from interlingua.generated.models import ChoiceCard

CACHE_BREAKPOINT_ID: Final = "__cache_breakpoint__"


def cache_breakpoint_card() -> ChoiceCard:
    """The internal marker where a serialiser puts its cache breakpoint."""
    return ChoiceCard(
        id=CACHE_BREAKPOINT_ID,
        name=CACHE_BREAKPOINT_ID,
        description="",
        tags=[],
        kind="internal",
        namespace="",
        has_schema=False,
        cost_hint=0.0,
        side_effects=False,
        safety="",
    )


class CacheStableSession:
    """The seen-set of one session and the card content frozen for it."""

    def __init__(self) -> None:
        self._seen: set[str] = set()
        self._frozen: dict[str, ChoiceCard] = {}

    def record_hydration(self, tool_id: str) -> None:
        """A successful hydration puts the id in the seen-set (a failed one must not be
        recorded, §5.5); its content is frozen when it is first browsed."""
        self._seen.add(tool_id)

    def order(self, cards: Sequence[ChoiceCard]) -> list[ChoiceCard]:
        """The browse response for ``cards`` in cache-stable order; records the new ones.

        A card repeated within ``cards`` is emitted once (its first occurrence).
        """
        stable: dict[str, ChoiceCard] = {}
        fresh: dict[str, ChoiceCard] = {}
        for card in cards:
            if card.id in stable or card.id in fresh:
                continue
            if card.id in self._seen:
                stable[card.id] = self._frozen.setdefault(card.id, card)
            else:
                fresh[card.id] = card
        self._seen.update(fresh)
        self._frozen.update(fresh)
        marker = [cache_breakpoint_card()] if stable and fresh else []
        return [stable[i] for i in sorted(stable)] + marker + [fresh[i] for i in sorted(fresh)]

    def reset(self) -> None:
        """Forget everything (a catalog refresh invalidates the session's cache state)."""
        self._seen.clear()
        self._frozen.clear()
