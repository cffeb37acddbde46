"""A conversation a provider holds, named by the id its format gives it (OpenAI Responses'
`previous_response_id`): canonical `continues`, `{"format", "id"}`.

Only the format that holds it can go on from it. Written to that format it is the id; written
to any other, it is left out and reported, since what it holds (the earlier turns, the calls
the first results answer) is not in the document.
"""

from __future__ import annotations

from typing import Any

from interlingua.conversion import Context
from interlingua.conversion.transforms.base import ABSENT, Transform


def _continuation_encode(ctx: Context, at: str, held: Any) -> Any:
    if held is ABSENT:
        return ABSENT
    if type(held) is dict and held.get("format") == ctx.adapter:
        return held.get("id", ABSENT)
    holder = held.get("format") if type(held) is dict else None
    ctx.loss(
        at,
        "parameter_dropped",
        f"{ctx.adapter} cannot go on from a conversation {holder} holds; its earlier turns "
        "are not in the document",
    )
    return ABSENT


def _continuation_decode(ctx: Context, wire: Any, at: str) -> Any:
    return {"format": ctx.adapter, "id": wire}


CONTINUATION = Transform(
    "continuation",
    1,
    _continuation_encode,
    _continuation_decode,
    "The id of a conversation the provider holds, which this request goes on from "
    "(`previous_response_id`): canonical `continues` names the format with the id. Another "
    "format's is left out, reported.",
)

CONTINUATION_TRANSFORMS = {CONTINUATION.name: CONTINUATION}
