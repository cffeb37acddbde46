"""URI globs matched in time linear in the URI, whatever the pattern.

A glob is literal text with two wildcards: ``*`` matches any run of characters within one
``/``-separated segment, ``**`` any run at all (``/`` included); the pattern must match the
whole URI. ``***`` reads as ``**`` then ``*``, left to right.

A backtracking regex (``*a*a*a*b`` as ``[^/]*a[^/]*a…``) takes time exponential in the number of
stars on a URI that almost matches. Here the glob is a nondeterministic automaton whose states
are the positions between its tokens, and every state is tracked at once as one bit of an
integer (the shift-and method): each URI character costs a few integer operations on a number
of one bit per token, so a match is O(len(uri) × len(pattern) / word size) and never backtracks.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True)
class Glob:
    """A compiled glob. Bit ``i`` of a state means "the first ``i`` tokens have matched"."""

    #: For each literal character, the bits of the tokens that are that character.
    literals: dict[str, int]
    #: Bits of ``*`` tokens (loop on any character but ``/``).
    segment_stars: int
    #: Bits of ``**`` tokens (loop on any character).
    any_stars: int
    #: Bit of the state after the last token: reaching it means the whole pattern matched.
    accept: int

    def _skip_stars(self, state: int) -> int:
        """Add every state reachable by letting stars match nothing.

        A run of star bits ``S`` with an active bit ``k`` must also activate ``k+1 … end of run``
        and the bit after the run; adding ``k`` to ``S`` carries through exactly those bits, and
        XOR with ``S`` keeps only the bits that changed (one integer addition per character,
        however many stars follow each other).
        """
        stars = self.segment_stars | self.any_stars
        return state | ((stars + (state & stars)) ^ stars)

    def fullmatch(self, text: str) -> bool:
        state = self._skip_stars(1)
        looping_off_slash = self.segment_stars | self.any_stars
        for char in text:
            looping = self.any_stars if char == "/" else looping_off_slash
            advanced = (state & self.literals.get(char, 0)) << 1
            state = self._skip_stars(advanced | (state & looping))
            if not state:
                return False
        return bool(state & self.accept)


@lru_cache(maxsize=1024)
def compile_glob(pattern: str) -> Glob:
    """The automaton of ``pattern`` (cached: policies match the same few patterns often)."""
    literals: dict[str, int] = {}
    segment_stars = any_stars = 0
    position = index = 0
    while index < len(pattern):
        bit = 1 << position
        if pattern.startswith("**", index):
            any_stars |= bit
            index += 2
        elif pattern[index] == "*":
            segment_stars |= bit
            index += 1
        else:
            literals[pattern[index]] = literals.get(pattern[index], 0) | bit
            index += 1
        position += 1
    return Glob(literals, segment_stars, any_stars, 1 << position)


def glob_match(pattern: str, text: str) -> bool:
    """Whether ``text`` matches the glob ``pattern`` as a whole."""
    return compile_glob(pattern).fullmatch(text)


__all__ = ["Glob", "compile_glob", "glob_match"]
