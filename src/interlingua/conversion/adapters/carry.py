"""Carrying what a format has no field for in a form it has, instead of losing it.

A loss is for what the target has no way to carry. A tool result's structured value (Gemini's
`functionResponse.response`, MCP's `structuredContent`) has no field of its own in most formats,
but every format takes a result's text: the value travels as its JSON text, reported as
`converted_to_text`, never dropped.
"""

from __future__ import annotations

import json
from typing import Any

from interlingua.conversion import Context

Part = dict[str, Any]


def _mirrors(part: Any, value: Any) -> bool:
    """Whether ``part`` is a text holding ``value`` written as JSON (MCP repeats it so)."""
    if type(part) is not dict or part.get("type") != "text":
        return False
    try:
        return bool(json.loads(part.get("text", "")) == value)
    except ValueError:
        return False


def structured_as_text(ctx: Context, part: Part, at: str) -> Part:
    """``part`` as a format with no field for a tool result's structured value can write it:
    the value as a text part (unless a text already holds it), reported. Generated writers
    call this only for such formats."""
    if part.get("type") != "tool_result":
        return part
    if "structured_content" not in part:
        return part
    value = part["structured_content"]
    content = part.get("content")
    parts = list(content) if isinstance(content, list) else []
    out = {k: v for k, v in part.items() if k != "structured_content"}
    if not any(_mirrors(p, value) for p in parts):
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        out["content"] = [*parts, {"type": "text", "text": text}]
    ctx.loss(
        f"{at}/structured_content",
        "converted_to_text",
        f"{ctx.adapter}: a tool result has no field for a structured value; sent as its JSON text",
        "tool_result",
    )
    return out


def as_text(part: Part) -> str | None:
    """The text a part holds that a format with no block for its kind can still carry: an
    embedded resource's text contents, a rendered prompt flattened to text (None: nothing)."""
    if part.get("type") in ("resource", "prompt_result"):
        text = part.get("content")
        if isinstance(text, str) and text:
            return text
    return None


def text_instead(ctx: Context, part: Part, at: str) -> Part | None:
    """``part`` as a text part, reported as `converted_to_text`, when the format has no block
    for its kind but it holds text; None when it holds none (the part is then dropped)."""
    text = as_text(part)
    if text is None:
        return None
    ctx.loss(
        at,
        "converted_to_text",
        f"{ctx.adapter} has no block for a {part.get('type')}; its text went out as text",
        part.get("type"),
    )
    return {"type": "text", "text": text}
