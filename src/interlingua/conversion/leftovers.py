"""What reading leaves of a wire object: whether a dropped value holds anything to lose, and
the report of the fields no reading took. The readers, the stream reader, the fused pair
converters and the transforms that read a wire object themselves all ask these; they sit
below both the transforms and the adapters, which import them from here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua.conversion import Context


def escape(key: str) -> str:
    """A key as an RFC 6901 pointer token."""
    return key.replace("~", "~0").replace("/", "~1")


def carries(value: Any) -> bool:
    """Whether a wire value a reader drops holds anything to lose: a null or an empty string
    does not, nor a list none of whose items does, nor an object with members none of which
    does. Servers fill fields they do not use with such placeholders (Snowflake's
    `service_tier: ""`, `function_call: {"name": "", "arguments": ""}`, `logprobs:
    {"content": null, "refusal": null}` on every chunk), so dropping one loses nothing and
    nothing is reported. An empty object carries: its presence is the value (Gemini's
    `googleSearch: {}` turns the tool on); so does any other scalar (a 0, a false). The
    readers, the stream reader and the fused pair converters all ask this."""
    kind = type(value)
    if kind is dict:
        members: dict[Any, Any] = value
        if not members:
            return True
        for member in members.values():  # noqa: SIM110  (a loop: compiled, no generator)
            if carries(member):
                return True
        return False
    if kind is list:
        items: list[Any] = value
        for item in items:  # noqa: SIM110
            if carries(item):
                return True
        return False
    return value is not None and not (kind is str and value == "")


def unread(
    ctx: Context,
    value: Mapping[str, Any],
    known: frozenset[str],
    at: str,
    *,
    part_type: str | None,
) -> None:
    """Report every field of a wire object that reading did not take (when no round-trip
    data keeps it: the conversion goes to another format), unless it `carries` nothing."""
    for key in sorted(value.keys() - known):
        if not carries(value[key]):
            continue
        ctx.loss(
            f"{at}/{escape(key)}",
            "field_dropped",
            f"{ctx.adapter}: `{key}` has no canonical home; not carried",
            part_type,
        )
