"""Times a format writes as seconds since the Unix epoch (OpenAI's `created`, `created_at`).

Canonically a time is an RFC 3339 timestamp (`Timestamp`: `CompletionExtension.created_at`,
`Response.created`), in UTC when read from seconds: `1731000000` reads as
`2024-11-07T17:20:00Z`, and a fraction of a second as its digits. Written, a timestamp is its
whole seconds; a fraction the format cannot hold is dropped, reported.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any, Final

from interlingua.conversion import Context, ConversionError
from interlingua.conversion.transforms.base import ABSENT, Transform

# A timestamp's fraction of a second (what `datetime` reads only to six digits).
_FRACTION: Final = re.compile(r"\.([0-9]+)")


def _decode(ctx: Context, wire: Any, at: str) -> str:
    kind = type(wire)
    if (kind is not int and kind is not float) or not math.isfinite(wire) or wire < 0:
        raise ConversionError("wrong_type", at, "a time is a count of seconds since 1970")
    whole = math.floor(wire)
    try:
        stamp = datetime.fromtimestamp(whole, tz=UTC).strftime("%Y-%m-%dT%H:%M:%S")
    except (OverflowError, OSError, ValueError):  # past the year 9999, or the platform's time_t
        raise ConversionError(
            "above_maximum", at, "a time past the year 9999 has no timestamp"
        ) from None
    if kind is float and wire != whole:
        stamp += f"{wire - whole:.6f}"[1:].rstrip("0")
    return stamp + "Z"


def _encode(ctx: Context, at: str, stamp: Any) -> Any:
    if stamp is ABSENT:
        return ABSENT
    found = _FRACTION.search(stamp)
    plain = stamp if found is None else stamp[: found.start()] + stamp[found.end() :]
    seconds = int(datetime.fromisoformat(plain).timestamp())
    if found is not None and found.group(1).strip("0"):
        ctx.loss(
            at,
            "field_dropped",
            f"{ctx.adapter} counts whole seconds: the fraction of {stamp!r} is dropped",
        )
    return seconds


UNIX_TIME = Transform(
    "unix_time",
    1,
    _encode,
    _decode,
    "A timestamp as whole seconds since the Unix epoch (a fraction dropped, reported); read, "
    "seconds as an RFC 3339 timestamp in UTC.",
)

TIME_TRANSFORMS: Mapping[str, Transform] = {UNIX_TIME.name: UNIX_TIME}
