"""Identity: ULIDs monotonic within a session (seed 001 §6.1, §6.2).

A ULID is 48 bits of milliseconds then 80 random bits. Two ids made in the same millisecond
would sort by chance, so a session's generator, like the ULID spec's monotonic mode, takes the
previous id plus one whenever the clock has not moved past it (or has gone back): ids always
sort in the order they were made. Seeded with a session's last id, a later import continues
the sequence instead of starting below it.
"""

from __future__ import annotations

import os
import re
import time

from ulid import ULID

ULID_PATTERN = re.compile(r"^[0-7][0-9A-HJKMNP-TV-Z]{25}$")
TOOL_CALL_PREFIX = "tu_"  # canonical tool-call ids are `tu_<ulid>` (seed 001 §6.2)
_RANDOM_BITS = 80
_MAX = (1 << 128) - 1
_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def _encode(value: int) -> str:
    """The 26-character Crockford base32 form of a 128-bit value (python-ulid's, without
    building a ULID object: ids are made by the hundred thousand on import)."""
    chars = [""] * 26
    for i in range(25, -1, -1):
        chars[i] = _CROCKFORD[value & 31]
        value >>= 5
    return "".join(chars)


def is_ulid(value: object) -> bool:
    """Whether ``value`` is a ULID in its canonical 26-character form."""
    return isinstance(value, str) and ULID_PATTERN.match(value) is not None


class MonotonicUlids:
    """Makes ULIDs that sort strictly after each other and after ``after`` (a ULID string).

    >>> ids = MonotonicUlids()
    >>> first, second = ids.next(1_700_000_000_000), ids.next(1_700_000_000_000)
    >>> first < second and first[:10] == second[:10]
    True
    """

    def __init__(self, after: str | None = None) -> None:
        self._last = int(ULID.from_str(after)) if after else -1

    def next(self, milliseconds: int | None = None) -> str:
        """The next id; ``milliseconds`` is its time (default: now), moved forward if needed."""
        if milliseconds is None:
            milliseconds = time.time_ns() // 1_000_000
        fresh = (milliseconds << _RANDOM_BITS) | int.from_bytes(os.urandom(10), "big")
        value = fresh if fresh > self._last else self._last + 1
        if value > _MAX:
            raise OverflowError("no ULID sorts after the last one")
        self._last = value
        return _encode(value)

    def observe(self, value: str) -> None:
        """Note an id made elsewhere (kept from a source), so later ids sort after it."""
        self._last = max(self._last, int(ULID.from_str(value)))

    def tool_call_id(self, milliseconds: int | None = None) -> str:
        """A canonical tool-call id, ``tu_<ulid>``."""
        return TOOL_CALL_PREFIX + self.next(milliseconds)
