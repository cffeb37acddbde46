"""Web pages a response cites as grounding beside its message (Gemini's `groundingMetadata`).

The format lists the sources once (chunks) and, apart, which segment of the answer each set of
them supports (supports naming chunks by index). Canonically each cited page is a url
citation on the text part the segment lies in. The field names come from the mapping
(`response.grounding`); the layout of chunks and supports is this module's.

Offsets: a segment's start and end count UTF-8 bytes of the candidate's text parts joined with
nothing between them (recorded bodies name no part index even when the text is not the first
part); a canonical span counts code points of its part's text. Reading converts, and a segment
that does not fall on character boundaries within one text part is not read (reported; the
round-trip data keeps it). What canonical has no place for (search entry point, queries,
retrieved-context chunks) stays round-trip data and is reported when the body crosses.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from interlingua.conversion import Context
from interlingua.conversion.adapters.spans import whole_part_spans
from interlingua.conversion.leftovers import escape

if TYPE_CHECKING:
    from interlingua.conversion.adapters.runtime import Adapter

Part = dict[str, Any]
# What grounding writes of a url citation: the page's address and title, and the span.
_WRITTEN = frozenset({"type", "url", "title", "span"})


def _byte_starts(parts: list[Part]) -> list[int | None]:
    """Where each text part starts, in UTF-8 bytes of the joined text (None: not text)."""
    out: list[int | None] = []
    at = 0
    for part in parts:
        if part.get("type") != "text" or not isinstance(part.get("text"), str):
            out.append(None)
            continue
        out.append(at)
        at += len(part["text"].encode())
    return out


def _code_points(text: str, start: int, end: int) -> tuple[int, int] | None:
    """Byte offsets ``start``..``end`` of ``text`` as code point offsets, or None when they do
    not fall on character boundaries inside it."""
    data = text.encode()
    if not 0 <= start <= end <= len(data):
        return None
    try:
        return len(data[:start].decode()), len(data[:end].decode())
    except UnicodeDecodeError:
        return None


def holder(wire: Any, path: tuple[str | int, ...]) -> Any:
    """The object the message sits in (a candidate), or None."""
    node = wire
    for key in path[:-1]:
        if isinstance(node, list) and isinstance(key, int) and 0 <= key < len(node):
            node = node[key]
        elif isinstance(node, dict) and isinstance(key, str):
            node = node.get(key)
        else:
            return None
    return node if isinstance(node, dict) else None


def read_beside(ctx: Context, adapter: Adapter, wire: Any, message: dict[str, Any]) -> None:
    """Reads the grounding beside a response's message, where the format has one."""
    if adapter.grounding is None:
        return
    path = adapter.response_message
    at = "".join(f"/{key}" for key in path[:-1])
    read(ctx, adapter.grounding, holder(wire, path), message, at)


def write_beside(
    ctx: Context, adapter: Adapter, message: dict[str, Any], wire: Any
) -> dict[str, Any]:
    """The response's message without the citations written as grounding beside it, where the
    format has one."""
    if adapter.grounding is None:
        return message
    return write(
        ctx, adapter.grounding, message, holder(wire, adapter.response_message), "/message"
    )


def read(
    ctx: Context, names: Mapping[str, str], owner: Any, message: dict[str, Any], at: str
) -> None:
    """Puts the url citations the grounding beside ``message`` gives on its text parts."""
    if not isinstance(owner, dict):
        return
    meta = owner.get(names["field"])
    if not isinstance(meta, dict):
        return
    here = f"{at}/{names['field']}"
    chunks = meta.get(names["chunks"])
    supports = meta.get(names["supports"])
    if not isinstance(chunks, list) or not isinstance(supports, list):
        return
    if not ctx.fidelity:
        _report(ctx, names, meta, chunks, here)
    parts: list[Part] = list(message["content"])
    starts = _byte_starts(parts)
    found = False
    for k, support in enumerate(supports):
        where = f"{here}/{names['supports']}/{k}"
        placed = _place(names, support, parts, starts)
        if placed is None:
            if not ctx.fidelity:
                ctx.loss(
                    where, "field_dropped", f"{ctx.adapter}: this segment lies in no text part"
                )
            continue
        j, span, indices = placed
        cited = []
        for i in indices:
            chunk = chunks[i] if type(i) is int and 0 <= i < len(chunks) else None
            web = chunk.get(names["web"]) if isinstance(chunk, dict) else None
            if not isinstance(web, dict) or not isinstance(web.get(names["url"]), str):
                continue  # not a web page (a retrieved context): round-trip data
            citation: dict[str, Any] = {"type": "url", "url": web[names["url"]]}
            if isinstance(web.get(names["title"]), str):
                citation["title"] = web[names["title"]]
            citation["span"] = {"start": span[0], "end": span[1]}
            cited.append(citation)
        if cited:
            parts[j] = {**parts[j], "citations": [*parts[j].get("citations", []), *cited]}
            found = True
    if found:
        message["content"] = parts


def _report(
    ctx: Context, names: Mapping[str, str], meta: dict[str, Any], chunks: list[Any], here: str
) -> None:
    """Reports what of the grounding is not carried, in place of the whole field (which the
    envelope reported as unread): its other fields and the sources that are no web page."""
    ctx.losses[:] = [x for x in ctx.losses if x.pointer != here]
    for key in meta:
        if key not in (names["chunks"], names["supports"]):
            ctx.loss(f"{here}/{key}", "field_dropped", f"{ctx.adapter}: no canonical home")
    for i, chunk in enumerate(chunks):
        web = chunk.get(names["web"]) if isinstance(chunk, dict) else None
        if not isinstance(web, dict) or not isinstance(web.get(names["url"]), str):
            ctx.loss(
                f"{here}/{names['chunks']}/{i}",
                "field_dropped",
                f"{ctx.adapter}: a source that is no web page is not carried",
            )


def _place(
    names: Mapping[str, str], support: Any, parts: list[Part], starts: list[int | None]
) -> tuple[int, tuple[int, int], list[Any]] | None:
    """The text part a support's segment lies in, the span there, and the chunks it names."""
    if not isinstance(support, dict):
        return None
    segment = support.get(names["segment"])
    indices = support.get(names["indices"])
    if not isinstance(segment, dict) or not isinstance(indices, list):
        return None
    first, last = segment.get(names["start"], 0), segment.get(names["end"])
    if type(first) is not int or type(last) is not int or segment.get(names["part"], 0) != 0:
        return None
    for j, start in enumerate(starts):
        if start is None:
            continue
        span = _code_points(parts[j]["text"], first - start, last - start)
        if span is not None:
            return j, span, indices
    return None


def write(
    ctx: Context,
    names: Mapping[str, str],
    message: dict[str, Any],
    owner: Any,
    at: str,
) -> dict[str, Any]:
    """``message`` without citations, their url citations written as grounding in ``owner``;
    any other citation is reported."""
    parts = message.get("content")
    if not isinstance(parts, list) or not any(p.get("citations") for p in parts):
        return message
    parts = whole_part_spans(parts)  # a page cited by block supports the part's whole text
    starts = _byte_starts(parts)
    chunks: list[dict[str, Any]] = []
    supports: list[dict[str, Any]] = []
    out: list[Part] = []
    for j, part in enumerate(parts):
        citations = part.get("citations")
        start = starts[j]
        if not citations or start is None:
            out.append(part)
            continue
        out.append({k: v for k, v in part.items() if k != "citations"})
        text = part["text"]
        for k, citation in enumerate(citations):
            span = citation.get("span")
            if (
                citation.get("type") != "url"
                or type(span) is not dict
                or type(span.get("end")) is not int
            ):
                ctx.loss(
                    f"{at}/content/{j}/citations/{k}",
                    "parameter_dropped",
                    f"{ctx.adapter} cannot express this citation",
                )
                continue
            for key in sorted(citation.keys() - _WRITTEN):  # the passage cited, say
                ctx.loss(
                    f"{at}/content/{j}/citations/{k}/{escape(key)}",
                    "field_dropped",
                    f"{ctx.adapter}: grounding has no place for a citation's `{key}`",
                )
            web = {names["url"]: citation["url"]}
            if "title" in citation:
                web[names["title"]] = citation["title"]
            chunk = {names["web"]: web}
            if chunk not in chunks:
                chunks.append(chunk)
            first = start + len(text[: span["start"]].encode())
            last = start + len(text[: span["end"]].encode())
            segment: dict[str, Any] = {
                names["end"]: last,
                names["text"]: text[span["start"] : span["end"]],
            }
            if first:
                segment = {names["start"]: first, **segment}
            index = chunks.index(chunk)
            same = next((s for s in supports if s[names["segment"]] == segment), None)
            if same is None:
                supports.append({names["segment"]: segment, names["indices"]: [index]})
            elif index not in same[names["indices"]]:
                same[names["indices"]].append(index)
    if chunks and isinstance(owner, dict):
        owner[names["field"]] = {names["chunks"]: chunks, names["supports"]: supports}
    elif chunks:
        ctx.loss(f"{at}/content", "field_dropped", f"{ctx.adapter}: no place for the citations")
    return {**message, "content": out}
