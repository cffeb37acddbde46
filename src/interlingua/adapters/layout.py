"""Laying canonical messages out as a format's turns, and reading them back.

Every format differs in the same few ways, each a field of :class:`Layout`: where system
prompts go (kept in the list, or hoisted to a top-level field), where tool results go (a
message each, or blocks of one user turn), whether consecutive turns of one role merge,
whether a lone text part may be a bare string, and which parts travel outside the content
list (OpenAI's `tool_calls`). This module is that one strategy, parameterised; the parts
themselves are encoded by the compiled codecs the layout points to.

Reasoning is bound to the provider and model that issued it: a thinking part decoded here
gets an `origin`, and is replayed only to that format and model; elsewhere the context's
thinking policy drops it or turns it into text, and the loss is reported.
"""

from __future__ import annotations

from typing import Any

from interlingua.adapters import fidelity, items, pairing
from interlingua.adapters.carry import as_text, structured_as_text, text_instead
from interlingua.adapters.models import same_model
from interlingua.adapters.runtime import MISS, Adapter, Layout, escape, unread
from interlingua.conversion import Context, ConversionError
from interlingua.generated.parts import BOUND_PART_TYPES, PART_TYPES
from interlingua.transforms.base import ABSENT

Part = dict[str, Any]


def _is_result(part: Part) -> bool:
    return part.get("type") == "tool_result"


def _plain_text(part: Part) -> bool:
    return part.get("type") == "text" and len(part) == 2


def _written_plain(layout: Layout, part: Part, block: Any) -> bool:
    """A text part whose block went out as plain text: what the format could not carry of it
    (citations, say) was left out and reported, so the text shorthand loses nothing more."""
    return _plain_text(part) or (
        part.get("type") == "text"
        and type(block) is dict
        and block == {layout.decode_tag: "text", "text": part["text"]}
    )


def replayable(
    ctx: Context, layout: Layout, parts: list[Part], at: str
) -> tuple[list[Part], list[str]]:
    """Parts with provider-bound ones settled: replayed (without `origin`) when they came from
    this format, otherwise dropped or turned into text, and reported; with where each part
    kept was read (a dropped part moves the ones after it up, not their pointers)."""
    out: list[Part] = []
    places: list[str] = []
    for j, part in enumerate(parts):
        if part.get("type") not in BOUND_PART_TYPES:
            out.append(part)
            places.append(f"{at}/{j}")
            continue
        origin = part.get("origin")
        if (origin is None and not layout.own_reasoning) or (
            origin is not None
            and origin.get("format") in (layout.format, *layout.replay_from)
            and same_model(origin.get("model"), ctx.model)
        ):
            out.append({k: v for k, v in part.items() if k != "origin"} if origin else part)
            carried = part["type"] in layout.encode_part  # else reported as dropped anyway
            if origin is not None and origin.get("format") != layout.format and carried:
                # Replayed where it is accepted, but read back it is this format's reasoning.
                ctx.loss(
                    f"{at}/{j}/origin",
                    "field_dropped",
                    f"{ctx.adapter}: reasoning issued by {origin.get('format')} is replayed; "
                    "read back, it is bound to this format",
                    part["type"],
                )
            elif origin is not None and "model" in origin and carried and not ctx.model_written:
                # The body names no model (Gemini's is in the URL): read back, the reasoning
                # no longer says which model it is bound to.
                ctx.loss(
                    f"{at}/{j}/origin/model",
                    "field_dropped",
                    f"{ctx.adapter}: this body names no model; read back, the reasoning's "
                    f"model ({origin['model']!r}) is unknown",
                    part["type"],
                )
            places.append(f"{at}/{j}")
            continue
        # No origin where only this format's own reasoning is written: no known issuer.
        issuer = "no known provider" if origin is None else origin.get("format")
        if origin is not None and issuer in (layout.format, *layout.replay_from):
            # another model of this provider
            issuer = f"{issuer} model {origin.get('model')!r}, not {ctx.model!r},"
        text = part.get("text")
        if ctx.thinking == "text" and text:
            out.append({"type": "text", "text": text})
            places.append(f"{at}/{j}")
            reason = f"{ctx.adapter}: reasoning issued by {issuer} sent as plain text"
        else:
            reason = f"{ctx.adapter}: reasoning issued by {issuer} cannot be replayed; dropped"
        ctx.loss(f"{at}/{j}", "thinking_not_replayable", reason, part["type"])
    return out, places


def encode_part(ctx: Context, layout: Layout, part: Part, at: str) -> Any:
    encoder = layout.encode_part.get(part.get("type", ""))
    if encoder is None and _own_unknown(layout, part):
        # A block of this format's own that its mapping does not know: back as it came.
        return None, {k: v for k, v in part.items() if k != "type"}
    result = MISS if encoder is None else encoder(ctx, part, at)
    if result is MISS and as_text(part) is not None and "text" in layout.encode_part:
        text = text_instead(ctx, part, at)  # a resource's text, say: carried as text
        return encode_part(ctx, layout, text, at) if text is not None else MISS
    if result is MISS:
        ctx.loss(at, "part_dropped", f"{ctx.adapter} cannot carry this part", part.get("type"))
    return result


def encode_content(
    ctx: Context, layout: Layout, parts: list[Part], at: str, extra: Any = ABSENT
) -> Any:
    """A tool result's content: the parts the format allows there; the others are set aside
    for a user turn right after the results (``ctx.displaced``). ``extra``, when present, is
    one more wire block after them (a result's structured value)."""
    allowed = layout.tool_result_parts
    blocks = []
    for j, given in enumerate(parts):
        part = given
        if allowed is not None and given.get("type") not in allowed:
            text = text_instead(ctx, given, f"{at}/{j}") if "text" in allowed else None
            if text is None:
                ctx.displaced.append((given, f"{at}/{j}"))
                continue
            part = text  # the text it holds stays in the result
        result = encode_part(ctx, layout, part, f"{at}/{j}")
        if result is not MISS:
            blocks.append(result[1])
    if extra is not ABSENT:
        return [*blocks, extra]
    if layout.text_shorthand == "always":
        return _joined(ctx, layout, blocks, at)
    if _shorthand(ctx, layout):
        if len(parts) == 1 and len(blocks) == 1 and _written_plain(layout, parts[0], blocks[0]):
            return parts[0]["text"]
        if not blocks:
            return ""
    return blocks


def decode_block(ctx: Context, layout: Layout, block: Any, at: str) -> Part:
    if type(block) is not dict:
        raise ConversionError("wrong_type", at, "a content block is an object")
    if layout.decode_tag is not None:
        tag = block.get(layout.decode_tag)
        decoder = layout.decode_tags.get(tag) if isinstance(tag, str) else None
        if decoder is not None:
            part = decoder(ctx, block, at)
            if part is not MISS:
                return _bind(ctx, layout, part)
            return unknown_part(layout, block, str(tag))
    else:
        missed = None  # the first known key whose decoders all missed
        for key, decoder in layout.decode_keyed:
            if key in block:
                part = decoder(ctx, block, at)
                if part is not MISS:
                    return _bind(ctx, layout, part)
                missed = missed or key
        if missed is not None:
            return unknown_part(layout, block, missed)
        tag = next(iter(block), None)
    if not isinstance(tag, str) or not tag or tag in PART_TYPES:
        raise ConversionError("unknown_variant", at, "the block matches no known shape")
    # A block this format's mapping does not know: kept verbatim as an unknown part.
    if layout.decode_tag == "type":
        return dict(block)
    return {"type": tag, **block}


def unknown_part(layout: Layout, block: dict[str, Any], tag: str) -> Part:
    """A block of a kind the format knows, in a variant its mapping does not read (a document
    from a text source, a custom tool call): kept verbatim as an unknown part whose type
    names the format and the kind, restored by the round-trip data on the way back and
    reported as dropped elsewhere."""
    return {**block, "type": f"{layout.format}.{tag}"}


def _own_unknown(layout: Layout, part: Part) -> bool:
    """Whether ``part`` is an unknown block read from a format tagged by a field other than
    `type` (kept as ``{type: <tag>, **block}``) that this layout tags the same way."""
    tag = layout.decode_tag
    return (
        tag is not None
        and tag != "type"
        and part.get("type") not in PART_TYPES
        and part.get(tag) == part.get("type")
    )


def _bind(ctx: Context, layout: Layout, part: Part) -> Part:
    if part["type"] in BOUND_PART_TYPES:
        origin = {"format": layout.format}
        if ctx.model:
            origin["model"] = ctx.model
        part["origin"] = origin
    return part


def decode_content(ctx: Context, layout: Layout, value: Any, at: str) -> list[Part]:
    return decode_content_taking(ctx, layout, value, at, None)[0]


def decode_content_taking(
    ctx: Context,
    layout: Layout,
    value: Any,
    at: str,
    key: str | None,
    *,
    pointers: list[str] | None = None,
) -> tuple[list[Part], Any]:
    """The parts of a content value, and the first block of kind ``key`` taken out of it
    (ABSENT when there is none, or no key): a tool result's structured value, say.

    A marker block (`layout.marker`) sets its field on the part right before it; one that
    has no such part is kept as an unknown part, like any block the mapping does not know.
    A block carrying a signature (`layout.signature_field`) reads as a thinking part with
    that signature and no text, then the block's own part. ``pointers``, when given, gets
    where each part was read.
    """
    if value is ABSENT or value is None:
        return [], ABSENT
    if isinstance(value, str):
        if not layout.text_shorthand:
            raise ConversionError("wrong_type", at, "content is a list of blocks here")
        return [{"type": "text", "text": value}], ABSENT
    if type(value) is not list:
        raise ConversionError("wrong_type", at, "content is a string or a list of blocks")
    if layout.text_shorthand == "always":
        raise ConversionError("wrong_type", at, "content is one string here")
    parts: list[Part] = []
    taken: Any = ABSENT
    marker = layout.marker
    for i, block in enumerate(value):
        if key is not None and taken is ABSENT and _is_kind(layout, block, key):
            taken = block
            continue
        if marker is not None and marker.matches(block) and parts:
            before = parts[-1]
            if before.get("type") in marker.types and marker.field not in before:
                hint = marker.decode(ctx, block, f"{at}/{i}")
                if hint is not MISS:
                    before[marker.field] = hint
                    continue
        part = decode_block(ctx, layout, block, f"{at}/{i}")
        signature = _signature(layout, block, part)
        if signature is not None:
            parts.append(
                _bind(ctx, layout, {"type": "thinking", "text": "", "signature": signature})
            )
            if pointers is not None:
                pointers.append(f"{at}/{i}/{layout.signature_field}")
        parts.append(part)
        if pointers is not None:
            pointers.append(f"{at}/{i}")
    return parts, taken


def _signature(layout: Layout, block: Any, part: Part) -> str | None:
    """The signature a block carries beside a part of its own (not a reasoning block, nor a
    block kept verbatim as an unknown part), if any."""
    field = layout.signature_field
    if field is None or part.get("type") in ("thinking", "redacted_thinking"):
        return None
    if part.get("type") not in PART_TYPES:
        return None
    value = block.get(field) if type(block) is dict else None
    return value if isinstance(value, str) else None


def _signature_only(layout: Layout, part: Part) -> bool:
    """A thinking part that is nothing but a signature: written on the next block."""
    return (
        layout.signature_field is not None
        and part.get("type") == "thinking"
        and part.get("text") == ""
        and isinstance(part.get("signature"), str)
        and set(part) <= {"type", "text", "signature"}
    )


def _is_kind(layout: Layout, block: Any, key: str) -> bool:
    if type(block) is not dict:
        return False
    return block.get(layout.decode_tag) == key if layout.decode_tag else key in block


def _marked(layout: Layout, part: Part) -> tuple[Any, Part]:
    """The part's marker value (ABSENT when none) and the part without it."""
    marker = layout.marker
    if marker is None or part.get("type") not in marker.types or marker.field not in part:
        return ABSENT, part
    return part[marker.field], {k: v for k, v in part.items() if k != marker.field}


def _blank(ctx: Context, layout: Layout, part: Part, at: str) -> bool:
    """Whether the part is text with nothing but whitespace that this format refuses in a
    request's turns (left out, and reported)."""
    if layout.blank_text != "drop" or ctx.kind == "response":
        return False
    text = part.get("text")
    if part.get("type") not in ("text", "refusal") or not isinstance(text, str) or text.strip():
        return False
    ctx.loss(at, "part_dropped", f"{ctx.adapter} refuses blank text here", part.get("type"))
    return True


# --- turns -----------------------------------------------------------------------------------


def _turn(
    ctx: Context,
    layout: Layout,
    role: str,
    parts: list[Part],
    at: str,
    *,
    where: list[str] | None = None,
) -> dict[str, Any]:
    """One wire turn of ``parts`` (read from ``at``, or each from ``where``)."""
    if layout.response_text == "string" and ctx.kind == "response":
        places = where if where is not None else [f"{at}/{j}" for j in range(len(parts))]
        parts, where = _one_text(ctx, layout, parts, places, at)
    blocks: list[Any] = []
    turn: dict[str, Any] = {layout.role: role}
    first: Part | None = None  # the part of the first content block: the shorthand's
    signature: str | None = None  # of a signature-only thinking part, for the next block
    order = _read_order(layout)
    latest = -1  # the read-back rank of the parts written so far (see _read_order)
    for j, whole in enumerate(parts):
        here = where[j] if where is not None else f"{at}/{j}"
        if _blank(ctx, layout, whole, here):
            continue
        if _signature_only(layout, whole):
            if signature is not None:  # two in a row: the first keeps its own block
                held = encode_part(
                    ctx, layout, {"type": "thinking", "text": "", "signature": signature}, at
                )
                if held is not MISS and held[0] is None:
                    blocks.append(held[1])
            signature = whole["signature"]
            continue
        hint, part = _marked(layout, whole)
        result = encode_part(ctx, layout, part, here)
        if result is MISS:
            continue
        slot, wire = result
        if signature is not None and slot is None and _takes_signature(layout, wire):
            wire = {**wire, str(layout.signature_field): signature}
            signature = None
        rank = order.get(slot, len(order))
        if rank < latest:
            ctx.loss(
                here,
                "moved",
                f"{ctx.adapter} keeps this kind of part in a field of its own; it reads back "
                "in another order",
                part.get("type"),
            )
        latest = max(latest, rank)
        if slot is None:
            first = whole if first is None else first
            blocks.append(wire)
        elif slot in turn:
            if type(turn[slot]) is list:
                turn[slot].append(wire)
            else:
                ctx.loss(here, "part_dropped", "only one fits here", part.get("type"))
        else:
            turn[slot] = [wire] if _slot_is_list(layout, slot, wire) else wire
        if hint is not ABSENT:
            assert layout.marker is not None
            field_at = f"{here}/{layout.marker.field}"
            if slot is not None:
                ctx.loss(field_at, "field_dropped", f"{ctx.adapter}: no block can follow this part")
                continue
            marker = layout.marker.block(ctx, hint, field_at)
            if marker is not MISS:
                blocks.append(marker)
    if signature is not None:
        # No block after it to carry the signature: an empty text block does.
        result = encode_part(ctx, layout, {"type": "text", "text": ""}, at)
        if result is not MISS and _takes_signature(layout, result[1]):
            blocks.append({**result[1], str(layout.signature_field): signature})
        else:
            ctx.loss(at, "part_dropped", f"{ctx.adapter}: no block can carry this signature")
    if blocks and layout.text_shorthand == "always":
        turn[layout.content] = _joined(ctx, layout, blocks, at)
    elif blocks:
        if (
            _shorthand(ctx, layout)
            and len(blocks) == 1
            and first
            and _written_plain(layout, first, blocks[0])
        ):
            turn[layout.content] = first["text"]
        elif layout.lone_block and len(blocks) == 1:
            turn[layout.content] = blocks[0]
        else:
            turn[layout.content] = blocks
    elif layout.empty_content is None and len(turn) == 1 and _empty_text(ctx, layout):
        turn[layout.content] = ""  # null stands beside tool calls; alone, it is refused
    elif layout.empty_content is not ABSENT:
        turn[layout.content] = layout.empty_content
    # The content field first, then the slots, the way people write turns.
    if layout.content in turn:
        turn = {layout.role: role, layout.content: turn[layout.content], **turn}
    return turn


def _empty_text(ctx: Context, layout: Layout) -> bool:
    """Whether a request turn with nothing in it is written as an empty text (a format whose
    content may be one string), not as the format's empty content."""
    return ctx.kind != "response" and _shorthand(ctx, layout)


def _one_text(
    ctx: Context, layout: Layout, parts: list[Part], where: list[str], at: str
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
    joined: Part | None = {
        "type": "text",
        "text": layout.text_separator.join(p["text"] for p, _ in texts),
    }
    out: list[Part] = []
    places: list[str] = []
    for part, here in zip(parts, where, strict=True):
        if part.get("type") != "text":
            out.append(part)
            places.append(here)
        elif joined is not None:  # the first text: the joined one takes its place
            out.append(joined)
            places.append(here)
            joined = None
    return out, places


def _read_order(layout: Layout) -> dict[str | None, int]:
    """The rank at which the parts of each slot read back (None: the content): the slots
    read first, the content, then the other slots in the order the mapping lists them."""
    others = [f for f, _, _ in layout.slots if f not in layout.slots_first]
    first = [f for f, _, _ in layout.slots if f in layout.slots_first]
    return {name: rank for rank, name in enumerate([*first, None, *others])}


def _slot_is_list(layout: Layout, slot: str, wire: Any) -> bool:
    """Whether a slot holds a list of values (as the mapping declares) or a single one."""
    for name, kind, _ in layout.slots:
        if name == slot:
            return kind == "list"
    return type(wire) is dict


def _joined(ctx: Context, layout: Layout, texts: list[Any], at: str) -> str:
    """Text parts as the one string a `text_shorthand: always` format holds, joined by the
    layout's separator; several are reported once at ``at`` (the boundaries are gone)."""
    if len(texts) > 1:
        ctx.loss(
            at,
            "parts_merged",
            f"{ctx.adapter} holds one string of text here; {len(texts)} text parts joined",
            "text",
        )
    return layout.text_separator.join(str(t) for t in texts)


def _takes_signature(layout: Layout, wire: Any) -> bool:
    return type(wire) is dict and layout.signature_field not in wire


def _shorthand(ctx: Context, layout: Layout) -> bool:
    """Whether a lone text part is written as a bare string here (`request`: in requests only,
    as in Anthropic's, whose responses always hold blocks; stored messages are turns of a
    request)."""
    return layout.text_shorthand in (True, "always") or (
        layout.text_shorthand == "request" and ctx.kind != "response"
    )


def _merge(layout: Layout, into: dict[str, Any], turn: dict[str, Any], owned: set[int]) -> None:
    """Append ``turn``'s blocks (and list fields) to ``into``'s. ``owned`` holds the ids of the
    turns whose lists an earlier merge built: those grow in place, so merging N turns into one
    costs N, not N² (N tool results in one user turn)."""

    def blocks(value: Any) -> list[Any]:
        if value is ABSENT or value is None:
            return []
        if isinstance(value, str):
            return [] if value == "" else [{"type": "text", "text": value}]
        if type(value) is dict:  # a lone block (`lone_block`)
            return [value]
        return list(value)

    if id(into) not in owned:  # its lists may be shared: copied once, then grown in place
        into[layout.content] = blocks(into.get(layout.content, ABSENT))
        for key, value in into.items():
            if type(value) is list and key != layout.content:
                into[key] = list(value)
    into[layout.content] += blocks(turn.get(layout.content, ABSENT))
    for key, value in turn.items():
        if key not in (layout.role, layout.content):
            if type(value) is list and type(into.get(key)) is list:
                into[key] += value
            else:
                into[key] = list(value) if type(value) is list else value
    owned.add(id(into))


def _system(
    ctx: Context, layout: Layout, parts: list[tuple[Part, str]], messages: list[str]
) -> Any:
    if layout.system_form == "string":
        return _system_string(ctx, layout, parts, messages)
    blocks = []
    carried: set[str] = set()  # the hoisted messages something of which goes out
    kept = [(p, where) for p, where in parts if not _blank(ctx, layout, p, where)]
    for whole, where in kept:
        hint, part = _marked(layout, whole)
        result = encode_part(ctx, layout, part, where)
        if result is not MISS:
            carried.add(where.rsplit("/content/", 1)[0])
            blocks.append(result[1])
            if hint is not ABSENT:
                assert layout.marker is not None
                marker = layout.marker.block(ctx, hint, f"{where}/{layout.marker.field}")
                if marker is not MISS:
                    blocks.append(marker)
    for mat in messages:
        if mat not in carried:
            ctx.loss(mat, "message_dropped", f"{ctx.adapter}: nothing in it could be carried")
    if not blocks:
        return ABSENT
    if layout.system_form == "string_or_blocks" and len(kept) == 1 and _plain_text(kept[0][0]):
        return kept[0][0]["text"]
    if layout.system_form == "content":
        return {layout.content: blocks}
    return blocks


def _system_string(
    ctx: Context, layout: Layout, parts: list[tuple[Part, str]], messages: list[str]
) -> Any:
    """The hoisted system prompt as one string (`system_form: string`): the texts joined by
    a blank line, each one after the first reported as merged; any other part, and any field
    of a text beyond its text, reported as dropped."""
    texts: list[str] = []
    carried: set[str] = set()
    for part, where in parts:
        if _blank(ctx, layout, part, where):
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
    for mat in messages:
        if mat not in carried:
            ctx.loss(mat, "message_dropped", f"{ctx.adapter}: nothing in it could be carried")
    return "\n\n".join(texts) if texts else ABSENT


def encode_messages(
    ctx: Context,
    adapter: Adapter,
    messages: list[dict[str, Any]],
    at: str,
    single: bool = False,
) -> tuple[list[dict[str, Any]], Any]:
    """The wire turns for canonical messages, and the hoisted system value (or ABSENT).

    ``single``: ``at`` points at the one message itself (a response's), not at a list.
    """
    layout = adapter.layout
    out: list[dict[str, Any]] = []
    groups: list[list[int]] = []  # canonical message indices [start, end) of each wire turn
    system: list[tuple[Part, str]] = []
    hoisted: list[str] = []  # pointers of the system messages hoisted
    previous_role = None
    owned: set[int] = set()  # ids of the turns whose lists a merge built (see `_merge`)
    writing = (
        pairing.Writing(layout.format, by_name=layout.result_pairing == "name")
        if layout.result_pairing in ("name", "call_name")
        else None
    )
    for i, message in enumerate(messages):
        mat = at if single else f"{at}/{i}"
        role = ctx.role = message["role"]
        raw = message.get("provider_raw")
        if raw:
            fidelity.note_foreign(ctx, raw, layout.format, mat)
        parts, places = replayable(ctx, layout, message["content"], f"{mat}/content")
        parts = [structured_as_text(ctx, layout, p, h) for p, h in zip(parts, places, strict=True)]
        if writing is not None:
            parts = writing.parts(ctx, parts, f"{mat}/content")  # one for one: same places
        if layout.tool_results == "own_message" and role != "tool" and not single:
            # Results in another role's message: each goes out as a tool message of its own,
            # before the rest of the turn (reported: read back, they are messages apart).
            results = [(p, h) for p, h in zip(parts, places, strict=True) if _is_result(p)]
            encode_result = layout.encode_tool_message
            if results and encode_result is not None:
                for part, here in results:
                    ctx.loss(
                        here,
                        "moved",
                        f"{ctx.adapter} holds a tool result in a tool message of its own; "
                        "sent as one before the rest of the turn",
                        "tool_result",
                    )
                    wire = encode_result(ctx, part, here)
                    out.append({layout.role: layout.roles_to_wire["tool"], **wire})
                    groups.append([i, i + 1])
                kept = [(p, h) for p, h in zip(parts, places, strict=True) if not _is_result(p)]
                parts, places = [p for p, _ in kept], [h for _, h in kept]
                if not parts:
                    previous_role = "tool"
                    continue
        wire_role = layout.roles_to_wire[role]
        if layout.roles_from_wire.get(wire_role) != role and not (
            (role == "tool" and layout.tool_results == "user_blocks")
            or (role == "system" and layout.system == "hoist")  # hoisted: no wire role
        ):
            ctx.loss(mat, "role_changed", f"{ctx.adapter} has no {role} role; sent as {wire_role}")
        # A system message read from a turn of this very format (OpenTelemetry allows one in
        # the list) goes back there: its round-trip data rebuilds that turn.
        inline = fidelity.restores(layout.format, message)
        if layout.system == "hoist" and role in layout.hoist_roles and not inline:
            if out:
                ctx.loss(mat, "moved", f"{ctx.adapter} takes system prompts only at the top")
            elif hoisted and role == "system":  # (a developer prompt says role_changed)
                ctx.loss(mat, "turns_merged", f"{ctx.adapter} has one system prompt; joined")
            system += list(zip(parts, places, strict=True))
            if message["content"]:
                hoisted.append(mat)
            else:  # (round-trip data of the envelope may put it back: see fidelity)
                ctx.loss(mat, "message_dropped", f"{ctx.adapter}: an empty system prompt is none")
            fields_dropped(ctx, message, mat)
            continue
        if role == "tool" and layout.tool_results == "own_message":
            encode = layout.encode_tool_message
            assert encode is not None
            if sum(1 for p in parts if p.get("type") == "tool_result") > 1:
                ctx.loss(mat, "turn_split", f"{ctx.adapter} holds one tool result per message")
            fields_dropped(ctx, message, mat)
            written = 0
            for part, here in zip(parts, places, strict=True):
                if part.get("type") != "tool_result":
                    # A tool message holds results only: the part goes in the user turn
                    # right after the results (reported moved there), not dropped.
                    ctx.displaced.append((part, here))
                    continue
                wire = encode(ctx, part, here)
                out.append({layout.role: wire_role, **wire})
                groups.append([i, i + 1])
                written += 1
            if not written:  # no result in it: the message is gone (the later ones move up)
                ctx.loss(mat, "message_dropped", f"{ctx.adapter}: a tool message holds results")
            following = messages[i + 1]["role"] if i + 1 < len(messages) else None
            if ctx.displaced and following != "tool":
                moved = ctx.displaced
                ctx.displaced = []
                for part, where in moved:
                    ctx.loss(
                        where,
                        "moved",
                        "a tool result holds text only here; sent in a "
                        "user turn right after the results",
                        part.get("type"),
                    )
                turn = _turn(
                    ctx,
                    layout,
                    layout.roles_to_wire["user"],
                    [p for p, _ in moved],
                    mat,
                    where=[w for _, w in moved],
                )
                if not _empty(layout, turn):  # all of it dropped (and reported): no turn
                    out.append(turn)
                    groups.append([i + 1, i + 1])
            previous_role = role
            continue
        if (
            role == "tool"
            and layout.tool_results == "user_blocks"
            and wire_role == layout.roles_to_wire["user"]
            and sum(1 for p in parts if p.get("type") == "tool_result") > 1
        ):
            # Results are blocks of a user turn, each read back as a tool message of its own.
            ctx.loss(mat, "turn_split", f"{ctx.adapter} reads each tool result as its own turn")
        if (
            role == "tool"
            and layout.tool_results == "user_blocks"
            and wire_role == layout.roles_to_wire["user"]
        ):
            for part, here in zip(parts, places, strict=True):
                if not _is_result(part):
                    # Beside the results in the user turn: read back, it is the user's.
                    ctx.loss(
                        here,
                        "role_changed",
                        f"{ctx.adapter} has no tool turn; a tool message's {part.get('type')} "
                        "goes in the user turn of the results and reads back as the user's",
                        part.get("type"),
                    )
        turn = _turn(ctx, layout, wire_role, parts, f"{mat}/content", where=places)
        empty = turn.get(layout.content) in (None, "", [])
        if not message["content"] and not fidelity.restores(layout.format, message):
            # An empty prompt (the one message the canonical form lets be empty).
            if turn.get(layout.content) is None:  # no content is no prompt
                ctx.loss(mat, "message_dropped", f"{ctx.adapter}: an empty prompt has no turn")
                continue
            if turn[layout.content] == "":  # read back, "" is one empty text
                ctx.loss(
                    f"{mat}/content",
                    "placeholder_inserted",
                    f"{ctx.adapter}: an empty prompt is written as an empty string",
                )
        # Text with no characters, where blank text is kept, is carried: an empty turn.
        blank = (
            layout.blank_text == "keep"
            and bool(parts)
            and all(_plain_text(p) and p["text"] == "" for p in parts)
        )
        if (
            len(turn) <= 2
            and empty
            and message["content"]
            and not blank
            and not single
            and not fidelity.restores(layout.format, message)
        ):
            # Everything in it was dropped (and reported): no empty turn goes out.
            ctx.loss(mat, "message_dropped", f"{ctx.adapter}: nothing in it could be carried")
            continue
        turn.update(turn_fields(ctx, layout, message, mat))
        entry = raw.get(layout.format) if raw else None
        boundary = bool(entry and entry.get("boundary"))
        # Results are blocks of one user turn: consecutive results share it, alternation or not.
        # (Where results have a turn role of their own, each tool message is a turn of it.)
        joins = layout.alternate or (
            role == "tool"
            and previous_role == "tool"
            and layout.tool_results == "user_blocks"
            and layout.roles_to_wire["tool"] == layout.roles_to_wire["user"]
        )
        if joins and out and out[-1][layout.role] == wire_role and not boundary:
            if previous_role == role and role != "tool":
                ctx.loss(
                    mat,
                    "turns_merged",
                    f"{ctx.adapter} needs alternating turns; merged with the previous message",
                )
            _merge(layout, out[-1], turn, owned)
            groups[-1][1] = i + 1
        else:
            out.append(turn)
            groups.append([i, i + 1])
        following = messages[i + 1]["role"] if i + 1 < len(messages) else None
        if role == "tool" and ctx.displaced and following != "tool":
            # What the results could not hold goes in the user turn right after them.
            after = _displaced_turn(ctx, layout, mat)
            if _empty(layout, after):
                pass  # all of it dropped (and reported): no turn
            elif layout.alternate and out[-1][layout.role] == after[layout.role]:
                _merge(layout, out[-1], after, owned)
            else:
                out.append(after)
                groups.append([i + 1, i + 1])
        previous_role = role
    ctx.role = "system"
    hoist = _system(ctx, layout, system, hoisted) if system or hoisted else ABSENT
    for k, (start, end) in enumerate(groups):
        if layout.items is not None:
            out[k] = items.spread(ctx, layout, out[k])  # type: ignore[call-overload]
        if start < end:
            where = at if single else f"{at}/{start}"
            out[k] = fidelity.apply(ctx, layout.format, messages[start:end], out[k], where)
    if layout.items is not None:
        return items.flatten(ctx, layout, messages, out), hoist
    return out, hoist


_MESSAGE_KEYS = frozenset({"role", "content", "provider_raw"})


def turn_fields(ctx: Context, layout: Layout, message: dict[str, Any], at: str) -> dict[str, Any]:
    """The wire fields a turn carries for the message's fields beside its role and content
    (the mapping's `turn`, which reports what it cannot carry); without a `turn`, every such
    field (a channel, extensions, an id) is reported as dropped."""
    if layout.encode_turn is None:
        fields_dropped(ctx, message, at)
        return {}
    fields = layout.encode_turn(ctx, message, at)
    return fields if type(fields) is dict else {}


def fields_dropped(ctx: Context, message: dict[str, Any], at: str) -> None:
    """Report each field of a message beside its role and content: this turn has no place
    for it."""
    for key in sorted(message.keys() - _MESSAGE_KEYS):
        ctx.loss(
            f"{at}/{escape(key)}",
            "field_dropped",
            f"{ctx.adapter}: a turn here has no place for the message's `{key}`",
        )


def encode_nested(ctx: Context, adapter: Adapter, messages: Any, at: str) -> Any:
    """Messages nested in a value (a rendered prompt's), as this format's own turns, laid
    out as the top-level ones are; losses point into the nested messages."""
    turns, system = encode_messages(ctx, adapter, messages, at)
    if system is not ABSENT:
        ctx.loss(at, "field_dropped", f"{ctx.adapter}: nested turns have no system field")
    return turns


def decode_nested(ctx: Context, adapter: Adapter, turns: Any, at: str) -> list[dict[str, Any]]:
    """Turns nested in a wire value, read as the top-level turns are."""
    return decode_messages(ctx, adapter, turns, at)


def _empty(layout: Layout, turn: dict[str, Any]) -> bool:
    """Whether a turn holds nothing but its role and an empty content."""
    return len(turn) <= 2 and turn.get(layout.content) in (None, "", [])


def _displaced_turn(ctx: Context, layout: Layout, at: str) -> dict[str, Any]:
    """A user turn of the parts tool results set aside (``ctx.displaced``), reported."""
    moved, ctx.displaced = ctx.displaced, []
    for part, where in moved:
        ctx.loss(
            where,
            "moved",
            f"{ctx.adapter}: a tool result cannot hold this part; sent in the user turn right "
            "after the results",
            part.get("type"),
        )
    parts = [p for p, _ in moved]
    return _turn(ctx, layout, layout.roles_to_wire["user"], parts, at, where=[w for _, w in moved])


def decode_system(ctx: Context, layout: Layout, value: Any, at: str) -> dict[str, Any]:
    if layout.system_form == "content":
        if type(value) is not dict:
            raise ConversionError("wrong_type", at, "expected an object")
        parts = decode_content(ctx, layout, value.get(layout.content), f"{at}/{layout.content}")
    elif layout.system_form == "blocks" and isinstance(value, str):
        raise ConversionError("wrong_type", at, "expected a list of blocks")
    elif layout.system_form == "string":
        if not isinstance(value, str):
            raise ConversionError("wrong_type", at, "expected a string")
        parts = [{"type": "text", "text": value}]
    else:
        parts = decode_content(ctx, layout, value, at)
    return {"role": "system", "content": parts}


def decode_turn(
    ctx: Context,
    adapter: Adapter,
    turn: Any,
    at: str,
    merged_with_previous: bool,
    *,
    seed: str = "0",
    reading: pairing.Reading | None = None,
) -> list[dict[str, Any]]:
    """The canonical messages of one wire turn (several when results share a user turn).

    ``reading`` holds the calls read so far when results pair with calls by name; ``seed``
    is what the ids synthesized for the turn's calls are derived from.
    """
    layout = adapter.layout
    if type(turn) is not dict:
        raise ConversionError("wrong_type", at, "a turn is an object")
    wire_role = turn.get(layout.role, ABSENT)
    if wire_role is ABSENT and layout.role_optional:
        wire_role = _default_role(ctx, layout)
    role = layout.roles_from_wire.get(wire_role) if isinstance(wire_role, str) else None
    if role is None:
        if wire_role is ABSENT:
            raise ConversionError("missing_field", f"{at}/{layout.role}", "a turn needs a role")
        raise ConversionError("not_in_enum", f"{at}/{layout.role}", f"unknown role {wire_role!r}")
    out: list[dict[str, Any]]
    results = _result_blocks(ctx, layout, turn, at, wire_role)
    if results is not None:
        # A tool turn holding result blocks rather than being one result: each its own message.
        reading = reading or pairing.reading(layout.format, layout.result_pairing)
        if reading is not None:
            reading.complete(ctx, results[0], seed, results[1])
        out = [{"role": "tool", "content": [part]} for part in results[0]]
    elif layout.tool_results == "own_message" and wire_role == layout.roles_to_wire["tool"]:
        decode = layout.decode_tool_message
        assert decode is not None
        part = decode(ctx, turn, at)
        if part is MISS:
            raise ConversionError("unknown_variant", at, "not a tool result this format knows")
        reading = reading or pairing.reading(layout.format, layout.result_pairing)
        if reading is not None:
            reading.complete(ctx, [part], seed, [at])
        out = [{"role": "tool", "content": [part]}]
    else:
        pointers: list[str] = []
        content = turn.get(layout.content, ABSENT)
        where = f"{at}/{layout.content}"
        if layout.lone_block and type(content) is dict:
            # One block, read as a list of one; it sits at the content field itself.
            parts = [decode_block(ctx, layout, content, where)]
            pointers.append(where)
        else:
            parts, _ = decode_content_taking(ctx, layout, content, where, None, pointers=pointers)
        before: list[Part] = []  # the parts of the slots read before the content
        ahead: list[str] = []
        singles: list[Part] = []  # the parts read from the value slots
        for field, kind, decode in layout.slots:
            value = turn.get(field)
            if value is None:
                continue
            first = field in layout.slots_first
            into, marks = (before, ahead) if first else (parts, pointers)
            where = f"{at}/{field}"
            if kind == "list":
                if type(value) is not list:
                    raise ConversionError("wrong_type", where, "expected a list")
                for k, item in enumerate(value):
                    part = decode(ctx, item, f"{where}/{k}")
                    if part is MISS:
                        if type(item) is not dict:
                            raise ConversionError(
                                "unknown_variant", f"{where}/{k}", "unknown shape"
                            )
                        part = unknown_part(layout, item, field)
                    into.append(_bind(ctx, layout, part))
                    marks.append(f"{where}/{k}")
            else:
                part = decode(ctx, value, where)
                if part is MISS:
                    raise ConversionError("unknown_variant", where, "unknown shape")
                part = _bind(ctx, layout, part)
                if part in singles:
                    # Two spellings of one field (a server sending both `reasoning_content`
                    # and `reasoning`) holding the same value: one part; the round-trip data
                    # keeps the second field.
                    continue
                singles.append(part)
                into.append(part)
                marks.append(where)
        if before:
            parts, pointers = before + parts, ahead + pointers
        if layout.tool_results == "own_message":
            # Results are tool turns here: a result block is read in a tool turn only.
            for k, part in enumerate(parts):
                if _is_result(part):
                    here = pointers[k] if k < len(pointers) else at
                    raise ConversionError(
                        "unknown_variant", here, "a result belongs in a tool turn"
                    )
        reading = reading or pairing.reading(layout.format, layout.result_pairing)
        if reading is not None:
            reading.complete(ctx, parts, seed, pointers)
        if len(parts) > 1 and any(p.get("type") == "text" and p.get("text") == "" for p in parts):
            # An empty text beside other parts says nothing (OpenAI's `content: ""` next to
            # tool calls); the canonical form leaves it out, round-trip data restores it.
            parts = [p for p in parts if not (p.get("type") == "text" and p.get("text") == "")]
        if layout.tool_results == "user_blocks" and role == "user":
            out = _split_results(parts)
        else:
            out = [{"role": role, "content": parts}]
    own_result = layout.tool_results == "own_message" and role == "tool"
    if layout.decode_turn is not None and not own_result:
        # The message fields the turn carries (its decoder reports the turn's unread fields).
        fields = layout.decode_turn(ctx, turn, at)
        for message in out if type(fields) is dict else ():
            message.update(fields)
    if ctx.fidelity:
        fidelity.attach(ctx, adapter, out, turn, merged_with_previous)
    elif layout.decode_turn is None and not own_result:
        known = {layout.role, layout.content, *(field for field, _, _ in layout.slots)}
        if not known.issuperset(turn):
            unread(ctx, turn, frozenset(known), at, part_type=None)
    return out


def _result_blocks(
    ctx: Context, layout: Layout, turn: dict[str, Any], at: str, wire_role: Any
) -> tuple[list[Part], list[str]] | None:
    """The results of a tool turn whose content is a list of result blocks (as memories keep
    them where a format also has a result block, UMF's), with where each was read; None for
    a turn that is itself one result. Other blocks beside result blocks are an error."""
    content = turn.get(layout.content)
    if (
        layout.tool_results != "own_message"
        or wire_role != layout.roles_to_wire["tool"]
        or type(content) is not list
        or not content
    ):
        return None
    where = f"{at}/{layout.content}"
    pointers: list[str] = []
    parts, _ = decode_content_taking(ctx, layout, content, where, None, pointers=pointers)
    if not any(_is_result(p) for p in parts):
        return None  # the content of a tool turn that is itself one result
    for part, here in zip(parts, pointers, strict=True):
        if not _is_result(part):
            raise ConversionError(
                "unknown_variant", here, "a turn of result blocks holds results only"
            )
    return parts, pointers


def _default_role(ctx: Context, layout: Layout) -> str:
    """The wire role of a turn that gives none: the user's in a request, the model's in a
    response."""
    return layout.roles_to_wire["user" if ctx.kind != "response" else "assistant"]


def _split_results(parts: list[Part]) -> list[dict[str, Any]]:
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


def decode_messages(ctx: Context, adapter: Adapter, turns: Any, at: str) -> list[dict[str, Any]]:
    layout = adapter.layout
    if layout.items is not None:
        return items.decode(ctx, adapter, turns, at)
    if type(turns) is not list:
        raise ConversionError("wrong_type", at, "expected a list of turns")
    out: list[dict[str, Any]] = []
    previous = None
    reading = pairing.reading(layout.format, layout.result_pairing)
    for j, turn in enumerate(turns):
        role = turn.get(layout.role) if type(turn) is dict else None
        if role is None and layout.role_optional and type(turn) is dict:
            role = _default_role(ctx, layout)
        merged = layout.alternate and role is not None and role == previous
        out += decode_turn(ctx, adapter, turn, f"{at}/{j}", merged, seed=str(j), reading=reading)
        previous = role
    return out
