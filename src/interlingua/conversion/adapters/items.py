"""Item layouts: a conversation held as a flat list of items rather than role turns.

Where a mapping declares `layout.items` (OpenAI Responses' `input` and `output`), the list
holds message items `{role, content}` and, standing on their own, items of the tags the
mapping names, each belonging to a canonical role (a function call and reasoning to the
model's message, a call's output to a tool message).

Writing lays turns out as usual (item-tagged parts are encoded as blocks), then *spreads* each
turn: an item-tagged block becomes a list item of its own, in place; each run of the other
blocks becomes a message item; a tool result written as a message of its own is an item
already, and loses its role. Reading *groups* consecutive list items back into messages: a
message item with the owned items of its role around it (a second message item of that role
starts a new message), each tool item a tool message of its own, an item of an unknown tag an
unknown part of the model's message. Positions, and so a reasoning item's place right
before the item that followed it, are kept because spreading and grouping keep order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interlingua.conversion import Context, ConversionError
from interlingua.conversion.adapters import fidelity
from interlingua.conversion.adapters.runtime import MISS, ItemLayout, unread
from interlingua.conversion.transforms.base import ABSENT

if TYPE_CHECKING:
    from interlingua.conversion.adapters.runtime import Adapter

Part = dict[str, Any]


def _shape(adapter: Adapter) -> ItemLayout:
    shape = adapter.turns.items
    assert shape is not None, adapter.format  # only an item layout's reader calls here
    return shape


def _tag(shape: ItemLayout, value: dict[str, Any]) -> Any:
    return value.get(shape.tag) if shape.tag is not None else None


def _is_message(shape: ItemLayout, value: dict[str, Any]) -> bool:
    """A message item: the tag message items carry, or a role and no other tag (an item of
    another kind may have a role too: Responses' `additional_tools`, a developer's)."""
    tag = shape.tag
    if tag is None or tag not in shape.message:
        return shape.role in value
    if tag in value:
        return bool(value[tag] == shape.message[tag])
    return shape.role in value


# --- writing -----------------------------------------------------------------------------------


def spread(ctx: Context, shape: ItemLayout, turn: Any) -> list[Any]:
    """The list items of one wire turn, in order."""
    if _tag(shape, turn) in shape.owners:
        # A turn that is an item itself (a tool result written as a message of its own).
        return [{k: v for k, v in turn.items() if k != shape.role}]
    content = turn.get(shape.content)
    if not isinstance(content, list):
        # A bare string is one message item; no content at all is no message item.
        return [] if content is None else [_message(ctx, shape, turn, content)]
    out: list[Any] = []
    run: list[Any] = []
    for block in content:
        if type(block) is dict and _tag(shape, block) in shape.owners:
            if run:
                out.append(_message(ctx, shape, turn, run))
                run = []
            out.append(block)
        else:
            run.append(block)
    if run:
        out.append(_message(ctx, shape, turn, run))
    return out


def _message(ctx: Context, shape: ItemLayout, turn: dict[str, Any], content: Any) -> dict[str, Any]:
    constants = shape.message if ctx.kind == "response" else {}
    others = {k: v for k, v in turn.items() if k not in (shape.role, shape.content)}
    return {**constants, shape.role: turn[shape.role], shape.content: content, **others}


def flatten(
    ctx: Context, shape: ItemLayout, messages: list[dict[str, Any]], groups: list[Any]
) -> Any:
    """The item list of the spread turns; a conversation read from a bare string, still one
    user message of that text, is written back as the string."""
    out = [item for group in groups for item in group]
    if len(messages) == 1 and len(out) == 1:
        raw = messages[0].get("provider_raw") or {}
        entry = raw.get(shape.fmt) or {}
        text = out[0].get(shape.content)
        if (
            entry.get("bare")
            and entry.get("digest") == fidelity.digest(messages)
            and isinstance(text, str)
        ):
            return text
    return out


# --- reading -----------------------------------------------------------------------------------


def decode(
    ctx: Context, adapter: Adapter, value: Any, at: str, *, single: bool = False
) -> list[dict[str, Any]]:
    """The canonical messages of an item list (or of a bare string: one user message);
    ``single``: ``value`` is one item, at ``at`` itself."""
    shape = _shape(adapter)
    if isinstance(value, str):
        message: dict[str, Any] = {"role": "user", "content": [{"type": "text", "text": value}]}
        if ctx.fidelity:
            fidelity.keep(message, shape.fmt, {"bare": True, "digest": fidelity.digest([message])})
        return [message]
    if single:
        value = [value]
    elif type(value) is not list:
        raise ConversionError("wrong_type", at, "expected a string or a list of items")
    out: list[dict[str, Any]] = []
    places = [at] if single else [f"{at}/{j}" for j in range(len(value))]
    for role, members in _groups(ctx, shape, list(zip(places, value, strict=True))):
        out += decode_group(ctx, adapter, role, members)
    return out


def decode_response(ctx: Context, adapter: Adapter, value: Any, at: str) -> dict[str, Any]:
    """The one assistant message of a response's item list."""
    shape = _shape(adapter)
    if type(value) is not list:
        raise ConversionError("wrong_type", at, "expected a list of items")
    members = []
    messages = 0  # message items so far
    for j, item in enumerate(value):
        where = f"{at}/{j}"
        _check_object(item, where)
        if _is_message(shape, item):
            if shape.roles_from_wire.get(item.get(shape.role)) != "assistant":
                raise ConversionError(
                    "wrong_role", f"{where}/{shape.role}", "a response holds the model's items"
                )
            messages += 1
            if messages > 1 and not ctx.fidelity:
                # Round-trip data keeps the boundary for this format; elsewhere it is gone.
                ctx.loss(
                    where,
                    "turns_merged",
                    f"{ctx.adapter}: a response is one message; joined to the message before it",
                )
        if shape.owners.get(_tag(shape, item)) == "tool":
            raise ConversionError("wrong_role", where, "a response holds the model's items")
        members.append((where, item))
    return decode_group(ctx, adapter, "assistant", members)[0]


def _check_object(item: Any, at: str) -> None:
    if type(item) is not dict:
        raise ConversionError("wrong_type", at, "an item is an object")


Members = list[tuple[str, dict[str, Any]]]  # items, each with where it was read


def _groups(
    ctx: Context, shape: ItemLayout, value: list[tuple[str, Any]]
) -> list[tuple[str, Members]]:
    """Consecutive items grouped by the message they belong to, each with its canonical role."""
    groups: list[tuple[str, Members]] = []
    has_message = False  # the last group holds a message item already
    for where, item in value:
        _check_object(item, where)
        if _is_message(shape, item):
            role = _role(shape, item, where)
            joins = bool(groups) and groups[-1][0] == role and not has_message
            has_message = True
        else:
            owner = shape.owners.get(_tag(shape, item))
            if owner == "tool":
                groups.append(("tool", [(where, item)]))
                has_message = False
                continue
            # An item of an unknown kind is kept verbatim as an unknown part of the message of
            # the role it names, or else of the model's (a built-in tool's call, say).
            wire_role = item.get(shape.role)
            named = shape.roles_from_wire.get(wire_role) if isinstance(wire_role, str) else None
            role = owner or named or "assistant"
            joins = bool(groups) and groups[-1][0] == role
            if not joins:
                has_message = False
        if joins:
            groups[-1][1].append((where, item))
        else:
            groups.append((role, [(where, item)]))
    return groups


def _role(shape: ItemLayout, item: dict[str, Any], at: str) -> str:
    wire = item.get(shape.role, ABSENT)
    role = shape.roles_from_wire.get(wire) if isinstance(wire, str) else None
    if role is None:
        if wire is ABSENT:
            raise ConversionError("missing_field", f"{at}/{shape.role}", "a message needs a role")
        raise ConversionError("not_in_enum", f"{at}/{shape.role}", f"unknown role {wire!r}")
    return role


def decode_group(
    ctx: Context,
    adapter: Adapter,
    role: str,
    members: Members,
) -> list[dict[str, Any]]:
    """One canonical message of a group of items (each with where it was read)."""
    shape = _shape(adapter)
    parts: list[Part] = []
    if role == "tool":
        ((where, item),) = members
        decode_tool = shape.decode_tool
        assert decode_tool is not None
        part = decode_tool(ctx, item, where)
        if part is MISS:
            raise ConversionError("unknown_variant", where, "not a tool result this format knows")
        parts.append(part)
    for where, item in members if role != "tool" else ():
        if _is_message(shape, item):
            content = item.get(shape.content, ABSENT)
            found, _ = adapter.turns.decode_content_taking(
                ctx, content, f"{where}/{shape.content}", None, None
            )
            parts += found
            if not ctx.fidelity:
                # A field holding the value every message item of a response has says nothing.
                constant = {k for k, v in shape.message.items() if item.get(k) == v}
                known = frozenset({shape.role, shape.content, *constant})
                unread(ctx, item, known, where, part_type=None)
        else:
            parts.append(adapter.turns.decode_block(ctx, item, where))
    if len(parts) > 1 and any(p.get("type") == "text" and p.get("text") == "" for p in parts):
        # An empty text beside other parts says nothing; round-trip data restores it.
        parts = [p for p in parts if not (p.get("type") == "text" and p.get("text") == "")]
    out = [{"role": role, "content": parts}]
    if ctx.fidelity:
        fidelity.attach(ctx, adapter, out, {}, False, whole=[item for _, item in members])
    return out


__all__ = ["decode", "decode_group", "decode_response", "flatten", "spread"]
