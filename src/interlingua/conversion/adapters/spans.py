"""The span a web page's citation supports, where the reader gave none.

Anthropic cites a web page on the text block the page supports, with no span: the block's
whole text is what it supports. A format that writes a web page's citation only with its span
(OpenAI's `url_citation`, Gemini's grounding) is given that span, counted in the part's text,
rather than leaving the citation out.
"""

from __future__ import annotations

from typing import Any

Part = dict[str, Any]


def _spanned(part: Part) -> Part:
    citations = part.get("citations")
    text = part.get("text")
    if type(citations) is not list or type(text) is not str:
        return part
    whole = {"start": 0, "end": len(text)}
    given = [
        {**c, "span": whole}
        if type(c) is dict and c.get("type") == "url" and "span" not in c
        else c
        for c in citations
    ]
    return {**part, "citations": given}


def whole_part_spans(parts: list[Part]) -> list[Part]:
    """``parts`` with each web page's citation that names no span given its part's whole text
    (the parts themselves when none lacks one)."""
    if not any(
        type(c) is dict and c.get("type") == "url" and "span" not in c
        for p in parts
        if p.get("type") == "text" and type(p.get("citations")) is list
        for c in p["citations"]
    ):
        return parts
    return [_spanned(p) if p.get("type") == "text" else p for p in parts]
