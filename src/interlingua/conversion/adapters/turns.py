"""The small steps the generated turn readers and writers call, each with one job.

Every layout decision (where system prompts go, whether turns merge, the text shorthand, where
tool results go, markers, signatures, blank text) is fixed in each format's generated adapter
(`generator/templates/python/turns.py.j2`, from the mapping's `layout` section). What is left
here is what several formats share and none decides differently: a step takes the values it
needs as arguments (a format name, a wire key, a separator), never a layout record.
"""

from __future__ import annotations

from typing import Any

from interlingua.conversion import Context
from interlingua.conversion.adapters.runtime import escape
from interlingua.conversion.transforms.base import ABSENT
from interlingua.generated.parts import BOUND_PART_TYPES, PART_TYPES

Part = dict[str, Any]

_MESSAGE_KEYS = frozenset({"role", "content", "provider_raw"})


def is_result(part: Part) -> bool:
    return part.get("type") == "tool_result"


def several_results(parts: list[Part]) -> bool:
    """Whether more than one of ``parts`` is a tool result (a loop that stops at the second)."""
    seen = False
    for part in parts:
        if part.get("type") == "tool_result":
            if seen:
                return True
            seen = True
    return False


def plain_text(part: Part) -> bool:
    """A text part with nothing but its text."""
    return part.get("type") == "text" and len(part) == 2


def written_plain(part: Part, block: Any, tag: str | None) -> bool:
    """A text part whose block went out as plain text: what the format could not carry of it
    (citations, say) was left out and reported, so the text shorthand loses nothing more."""
    return plain_text(part) or (
        part.get("type") == "text"
        and tag is not None
        and block == {tag: "text", "text": part["text"]}
    )


def bind(ctx: Context, fmt: str, part: Part) -> Part:
    """A part just read, bound to the format (and model) that issued it when it is reasoning."""
    if part["type"] in BOUND_PART_TYPES:
        origin = {"format": fmt}
        if ctx.model:
            origin["model"] = ctx.model
        if ctx.endpoint:
            origin["endpoint"] = ctx.endpoint
        part["origin"] = origin
    return part


def unknown_part(fmt: str, block: dict[str, Any], tag: str) -> Part:
    """A block of a kind the format knows, in a variant its mapping does not read (a document
    from a text source, a custom tool call): kept verbatim as an unknown part whose type
    names the format and the kind, restored by the round-trip data on the way back and
    reported as dropped elsewhere."""
    return {**block, "type": f"{fmt}.{tag}"}


def blank(ctx: Context, part: Part, at: str) -> bool:
    """Whether the part is text with nothing but whitespace (left out, and reported): called
    where a format refuses blank text in a request's turns."""
    text = part.get("text")
    if part.get("type") not in ("text", "refusal") or not isinstance(text, str) or text.strip():
        return False
    ctx.loss(at, "part_dropped", f"{ctx.adapter} refuses blank text here", part.get("type"))
    return True


def signature_of(block: Any, part: Part, field: str) -> str | None:
    """The signature a block carries in ``field`` beside a part of its own (not a reasoning
    block, the bound kind, nor a block kept verbatim as an unknown part), if any."""
    kind = part.get("type")
    if kind in BOUND_PART_TYPES or kind not in PART_TYPES:
        return None
    value = block.get(field) if type(block) is dict else None
    return value if isinstance(value, str) else None


def signature_only(part: Part) -> bool:
    """A thinking part that is nothing but a signature: written on the next block."""
    return (
        part.get("type") == "thinking"
        and part.get("text") == ""
        and isinstance(part.get("signature"), str)
        and set(part) <= {"type", "text", "signature"}
    )


def marked(part: Part, field: str, types: frozenset[str]) -> tuple[Any, Part]:
    """The part's marker value in ``field`` (ABSENT when none) and the part without it."""
    if part.get("type") not in types or field not in part:
        return ABSENT, part
    return part[field], {k: v for k, v in part.items() if k != field}


def empty_turn(turn: dict[str, Any], content: str) -> bool:
    """Whether a turn holds nothing but its role and an empty content."""
    return len(turn) <= 2 and turn.get(content) in (None, "", [])


def joined(ctx: Context, texts: list[Any], at: str, separator: str) -> str:
    """Text blocks as the one string a format holding content as one string takes, joined by
    ``separator``; several are reported once at ``at`` (the boundaries are gone)."""
    if len(texts) > 1:
        ctx.loss(
            at,
            "parts_merged",
            f"{ctx.adapter} holds one string of text here; {len(texts)} text parts joined",
            "text",
        )
    return separator.join(str(t) for t in texts)


def one_text(
    ctx: Context, parts: list[Part], where: list[str], at: str, separator: str
) -> tuple[list[Part], list[str]]:
    """The parts with every text part joined into one, where the first stood (a format whose
    responses hold their text as one string): reported once at ``at`` when several were
    joined, with each field of theirs beyond the text that the join leaves behind."""
    texts = [(p, w) for p, w in zip(parts, where, strict=True) if p.get("type") == "text"]
    if len(texts) < 2:
        return parts, where
    ctx.loss(
        at,
        "parts_merged",
        f"{ctx.adapter} holds a response's text as one string; {len(texts)} text parts joined",
        "text",
    )
    for part, here in texts:
        for key in sorted(set(part) - {"type", "text"}):
            ctx.loss(f"{here}/{escape(key)}", "field_dropped", "lost in the join", "text")
    joined_part: Part | None = {
        "type": "text",
        "text": separator.join(p["text"] for p, _ in texts),
    }
    out: list[Part] = []
    places: list[str] = []
    for part, here in zip(parts, where, strict=True):
        if part.get("type") != "text":
            out.append(part)
            places.append(here)
        elif joined_part is not None:  # the first text: the joined one takes its place
            out.append(joined_part)
            places.append(here)
            joined_part = None
    return out, places


def _blocks(value: Any) -> list[Any]:
    """A turn's content as a list of blocks, whatever form it was written in."""
    if value is ABSENT or value is None:
        return []
    if isinstance(value, str):
        return [] if value == "" else [{"type": "text", "text": value}]
    if type(value) is dict:  # a lone block (`lone_block`)
        return [value]
    return list(value)


def merge_turn(
    into: dict[str, Any], turn: dict[str, Any], owned: set[int], role: str, content: str
) -> None:
    """Append ``turn``'s blocks (and list fields) to ``into``'s. ``owned`` holds the ids of the
    turns whose lists an earlier merge built: those grow in place, so merging N turns into one
    costs N, not N² (N tool results in one user turn)."""
    if id(into) not in owned:  # its lists may be shared: copied once, then grown in place
        into[content] = _blocks(into.get(content, ABSENT))
        for key, value in into.items():
            if type(value) is list and key != content:
                into[key] = list(value)
    into[content] += _blocks(turn.get(content, ABSENT))
    for key, value in turn.items():
        if key not in (role, content):
            if type(value) is list and type(into.get(key)) is list:
                into[key] += value
            else:
                into[key] = list(value) if type(value) is list else value
    owned.add(id(into))


def fields_dropped(ctx: Context, message: dict[str, Any], at: str) -> None:
    """Report each field of a message beside its role and content: this turn has no place
    for it."""
    if len(message) <= 2 or message.keys() <= _MESSAGE_KEYS:
        return
    for key in sorted(message.keys() - _MESSAGE_KEYS):
        ctx.loss(
            f"{at}/{escape(key)}",
            "field_dropped",
            f"{ctx.adapter}: a turn here has no place for the message's `{key}`",
        )


def split_results(parts: list[Part]) -> list[dict[str, Any]]:
    """A user turn's blocks as canonical messages: each result its own tool message."""
    out: list[dict[str, Any]] = []
    run: list[Part] = []
    for part in parts:
        if part.get("type") == "tool_result":
            if run:
                out.append({"role": "user", "content": run})
                run = []
            out.append({"role": "tool", "content": [part]})
        else:
            run.append(part)
    if run or not out:
        out.append({"role": "user", "content": run})
    return out


def without_empty_text(parts: list[Part]) -> list[Part]:
    """An empty text beside other parts says nothing (OpenAI's `content: ""` next to tool
    calls): the canonical form leaves it out, round-trip data restores it."""
    if len(parts) > 1 and any(p.get("type") == "text" and p.get("text") == "" for p in parts):
        return [p for p in parts if not (p.get("type") == "text" and p.get("text") == "")]
    return parts


def system_string(
    ctx: Context, parts: list[tuple[Part, str]], messages: list[str], *, drop_blank: bool
) -> Any:
    """The hoisted system prompt as one string (`system_form: string`): the texts joined by
    a blank line, each one after the first reported as merged; any other part, and any field
    of a text beyond its text, reported as dropped."""
    texts: list[str] = []
    carried: set[str] = set()
    for part, where in parts:
        if drop_blank and ctx.kind != "response" and blank(ctx, part, where):
            continue
        if part.get("type") != "text" or not isinstance(part.get("text"), str):
            ctx.loss(
                where,
                "part_dropped",
                f"{ctx.adapter} takes a system prompt as one string; this part has no place",
                part.get("type"),
            )
            continue
        for key in sorted(set(part) - {"type", "text"}):
            ctx.loss(
                f"{where}/{escape(key)}",
                "field_dropped",
                f"{ctx.adapter} takes a system prompt as one string",
                "text",
            )
        if texts:
            ctx.loss(
                where,
                "turns_merged",
                f"{ctx.adapter} takes one system prompt string; joined to the text before it",
                "text",
            )
        texts.append(part["text"])
        carried.add(where.rsplit("/content/", 1)[0])
    messages_dropped(ctx, messages, carried)
    return "\n\n".join(texts) if texts else ABSENT


def messages_dropped(ctx: Context, messages: list[str], carried: set[str]) -> None:
    """Report each hoisted system message (by pointer) nothing of which was carried."""
    for mat in messages:
        if mat not in carried:
            ctx.loss(mat, "message_dropped", f"{ctx.adapter}: nothing in it could be carried")
