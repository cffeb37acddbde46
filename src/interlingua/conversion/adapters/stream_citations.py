"""Citations in streams: which part a wire citation cites, how it reads, grounding's
citations, and whether a writer can put a citation event on its stream.

A citation event cites a text part by its canonical index. Reading, a wire citation names its
part by the wire's block key, or by nothing where the format cites the message's text (it
goes on the message's only text part). Gemini's grounding is read as a whole response's is
(`adapters/grounding.py`), over the text streamed so far: its web pages become citation
events. Writing, a citation goes on its part's open block, or where the format cites the
message's text, on the first text part only (its span in the content is its span there).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua.conversion import Context, ConversionError
from interlingua.conversion.adapters import grounding
from interlingua.conversion.adapters.runtime import MISS, Codec, no_home


def cited_part(
    kinds: list[str], keys: Mapping[tuple[str, Any], int], key: Any
) -> tuple[int | None, str]:
    """The index of the text part a wire citation at ``key`` cites (None: the message's
    text), among the parts read so far (``kinds``: each part's kind; ``keys``: the parts by
    wire key); or None and why it has none."""
    if key is None:
        texts = [i for i, kind in enumerate(kinds) if kind == "text"]
        problem = "no text yet" if not texts else "several text parts"
        return (texts[0] if len(texts) == 1 else None), f"a citation with {problem} to go on"
    index = keys.get(("block", key))
    if index is not None and kinds[index] != "text":
        index = None
    return index, f"a citation, but block {key!r} is no text part"


def decode_citation(ctx: Context, decode: Codec, value: Any, ptr: str) -> Any:
    """A wire citation as the codec reads it; one of a kind it has no variant for is left out
    and reported, as reading a whole body reports it (MISS)."""
    if type(value) is not dict:
        raise ConversionError("wrong_type", ptr, "a citation is an object")
    try:
        citation = decode(ctx, value, ptr)
    except ConversionError as exc:
        if exc.code != "missing_field":
            raise
        citation = MISS
    if citation is MISS:
        no_home(ctx, ptr, value, "citation")
    return citation


def grounding_citations(
    ctx: Context,
    fmt: str,
    *,
    names: Mapping[str, str],
    value: Any,
    kinds: list[str],
    texts: Mapping[int, list[str]],
    ptr: str,
) -> list[dict[str, Any]]:
    """The citation events of the grounding beside the message (in ``value``, the object
    holding it, its fields named by ``names``): its web pages cite the text read so far
    (``kinds``: each part's kind; ``texts``: each text part's text, in pieces), as reading a
    whole response places them; what it holds besides is reported (``fmt``: the format
    read, for the reports)."""
    meta = value.get(names["field"]) if type(value) is dict else None
    if not meta:
        return []  # none, or an empty one: nothing to carry
    here = f"{ptr}/{names['field']}"
    if type(meta) is not dict:
        raise ConversionError("wrong_type", here, "grounding metadata is an object")
    if type(meta.get(names["chunks"])) is not list or type(meta.get(names["supports"])) is not list:
        ctx.loss(
            here,
            "field_dropped",
            f"{fmt}: grounding with no sources and supports has no canonical home",
        )
        return []
    content = [
        {"type": kind, "text": "".join(texts.get(i, ()))} if kind == "text" else {"type": kind}
        for i, kind in enumerate(kinds)
    ]
    message: dict[str, Any] = {"content": content}
    grounding.read(ctx, names, value, message, ptr)
    return [
        {"type": "citation", "index": j, "citation": citation}
        for j, part in enumerate(message["content"])
        for citation in part.get("citations", ())
    ]


def unwritable_citation(
    *, writes: bool, content_citations: bool, index: int, first_text: int | None, open: int | None
) -> str | None:
    """Why a citation of part ``index`` cannot be written (None: it can). ``writes``: the
    format writes citations in its stream; ``content_citations``: they cite the message's
    text; ``first_text``: the first text part written; ``open``: the part whose block is
    open."""
    if not writes:
        return "no citations in its stream"
    if content_citations and index != first_text:
        return "cites the message's text: a citation of a text part after the first"
    if not content_citations and open != index:
        return f"a citation of part {index}, whose block is not open"
    return None
