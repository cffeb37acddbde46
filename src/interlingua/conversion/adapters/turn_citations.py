"""Citations a format keeps beside a turn's text rather than on a text block.

OpenAI Chat's message holds one `annotations` list for its whole content, each naming the span
it supports in that content. Canonically a citation belongs to the text part it cites, with
the span counted in that part's text. The mapping names the turn field
(`layout.text_citations`) and the `citation` codec gives each item's shape; this module moves
citations between the two places. The content's text is the turn's text parts joined by the
layout's `text_separator` (how a string content is written), so a span is shifted by where
its part starts in that text; both count Unicode code points.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from interlingua.conversion import Context
from interlingua.conversion.adapters.runtime import MISS, Codec, each_decode, escape

Part = dict[str, Any]


def _starts(parts: list[Part], separator: str) -> list[int | None]:
    """Where each text part starts in the turn's joined text (None: not a text part)."""
    out: list[int | None] = []
    at = 0
    seen = False
    for part in parts:
        if part.get("type") != "text" or not isinstance(part.get("text"), str):
            out.append(None)
            continue
        if seen:
            at += len(separator)
        out.append(at)
        at += len(part["text"])
        seen = True
    return out


def _shifted(citation: dict[str, Any], by: int) -> dict[str, Any]:
    span = citation.get("span")
    if not by or type(span) is not dict:
        return citation
    return {**citation, "span": {k: v + by if type(v) is int else v for k, v in span.items()}}


@dataclass(frozen=True)
class TurnCitations:
    """A format's turn field of citations, with the codec of its items."""

    field: str
    separator: str
    encode: Codec
    decode: Codec

    def take(
        self, ctx: Context, parts: list[Part], places: list[str]
    ) -> tuple[list[Part], list[Any]]:
        """The parts without their citations, and the wire items for the turn's field.

        A citation the codec cannot express (another kind, or one without the span) is left
        out and reported where it was."""
        starts = _starts(parts, self.separator)
        out: list[Part] = []
        wire: list[Any] = []
        for part, start, here in zip(parts, starts, places, strict=True):
            citations = part.get("citations")
            if start is None or not citations:
                out.append(part)
                continue
            out.append({k: v for k, v in part.items() if k != "citations"})
            for k, citation in enumerate(citations):
                where = f"{here}/citations/{k}"
                item = self.encode(ctx, _shifted(citation, start), where)
                if item is MISS:
                    ctx.loss(
                        where, "parameter_dropped", f"{ctx.adapter} cannot express this citation"
                    )
                    continue
                wire.append(item)
        return out, wire

    def give(self, ctx: Context, turn: dict[str, Any], parts: list[Part], at: str) -> list[Part]:
        """``parts`` with the citations of the turn's field on the text part each cites.

        A citation whose span lies in no single text part (or a turn with no text) has no
        part to go on: it is reported, and the round-trip data keeps it."""
        values = turn.get(self.field)
        if values is None:
            return parts
        here = f"{at}/{escape(self.field)}"
        citations = each_decode(ctx, self.decode, values, here)
        if not citations:
            return parts
        starts = _starts(parts, self.separator)
        texts = [j for j, start in enumerate(starts) if start is not None]
        out = list(parts)
        for k, citation in enumerate(citations):
            owner = self._owner(citation, parts, starts, texts)
            if owner is None:
                if not ctx.fidelity:
                    ctx.loss(
                        f"{here}/{k}",
                        "field_dropped",
                        f"{ctx.adapter}: this citation's span lies in no one text part",
                    )
                continue
            start = starts[owner] or 0
            part = out[owner]
            out[owner] = {
                **part,
                "citations": [*part.get("citations", []), _shifted(citation, -start)],
            }
        return out

    @staticmethod
    def _owner(
        citation: dict[str, Any], parts: list[Part], starts: list[int | None], texts: list[int]
    ) -> int | None:
        """The index of the text part a citation's span lies in."""
        if len(texts) == 1:
            return texts[0]
        span = citation.get("span")
        if type(span) is not dict:
            return None
        first, last = span.get("start"), span.get("end", span.get("start"))
        for j in texts:
            start = starts[j] or 0
            end = start + len(parts[j]["text"])
            if type(first) is int and type(last) is int and start <= first <= last <= end:
                return j
        return None
