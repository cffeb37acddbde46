"""Request and response bodies: the envelope codec of a format plus its turns.

A request body becomes a canonical Conversation (its turns, tools, choice, format and
generation parameters); a response body becomes a canonical Response (one assistant message,
the stop reason, usage). Which fields go where is the mapping file's `request` / `response`
section; where the message sits in a response body is its `message` path.
"""

from __future__ import annotations

from typing import Any

from interlingua.conversion import Context, ConversionError
from interlingua.conversion.adapters import fidelity, grounding, items, pairing
from interlingua.conversion.adapters.runtime import Adapter, Layout, escape, get
from interlingua.conversion.transforms.base import ABSENT

SCHEMA_VERSION = 1
UNKNOWN_MODEL = "unknown"  # a response read from a body that does not name its model


def _hoisted_system(ctx: Context, adapter: Adapter, wire: dict[str, Any]) -> list[dict[str, Any]]:
    """The system message a body or stored-messages object holds in its system field."""
    layout = adapter.layout
    if layout.system != "hoist":
        return []
    assert layout.system_field is not None
    value = wire.get(layout.system_field, ABSENT)
    if value is ABSENT or value is None or value in ("", []):
        # null, an empty text or no block is no prompt: nothing to carry (round-trip data
        # keeps it). A block of empty text is one, as any block is.
        return []
    system = adapter.turns.decode_system(ctx, value, "/" + layout.system_field)
    return [system] if system["content"] else []  # Gemini's {"role": "user", "parts": []}


def _object(value: Any, at: str = "") -> dict[str, Any]:
    if type(value) is not dict:
        raise ConversionError("wrong_type", at, "expected a JSON object")
    return value


def encode_request(ctx: Context, adapter: Adapter, conversation: dict[str, Any]) -> dict[str, Any]:
    layout = adapter.layout
    before = len(ctx.losses)
    envelope = adapter.encode_request_envelope(ctx, _choosable(ctx, adapter, conversation), "")
    _target_model(ctx, conversation, before)
    wire: dict[str, Any] = {} if envelope is ABSENT else envelope  # ABSENT: nothing but turns
    turns, system = adapter.turns.encode_messages(ctx, conversation["messages"], "/messages", False)
    if not turns and _turns_expected(layout, conversation["messages"]):
        # Every turn left out (audio to a text-only format, say): a request with no turns is
        # one no provider takes, so there is nothing valid to write.
        raise ConversionError(
            "too_few_items",
            "/messages",
            f"{ctx.adapter} can carry none of these messages; a request needs a turn",
        )
    if (
        not conversation["messages"]
        and layout.turn_needed
        and not _given_back(adapter, conversation)
    ):
        raise ConversionError(
            "too_few_items", "/messages", f"{ctx.adapter} requires a turn; there are no messages"
        )
    if layout.tools_for_history and not conversation.get("tools"):
        wire = _declare_called_tools(ctx, adapter, conversation["messages"], wire)
    if system is not ABSENT:
        assert layout.system_field is not None
        wire[layout.system_field] = system
    wire[layout.messages] = turns
    return fidelity.apply_envelope(ctx, adapter.format, conversation, wire, "messages")


def _without_turns(wire: dict[str, Any], layout: Layout) -> dict[str, Any]:
    """The envelope of a request: the body without its turns, but with whether it had them (a
    request of a stored prompt's reference alone has none, and gets none back)."""
    out = _without(wire, (layout.messages,), layout.role, layout.content)
    if layout.messages in wire:
        out[layout.messages] = []
    return out


def _given_back(adapter: Adapter, conversation: dict[str, Any]) -> bool:
    """Whether an empty request goes out as it came: round-trip data gives back the body
    read, one the provider refuses but reading tolerated (UMF's `messages: []`)."""
    return fidelity.envelope_fits(adapter.format, conversation, "messages")


def _turns_expected(layout: Layout, messages: list[dict[str, Any]]) -> bool:
    """Whether some of the messages were to be turns: any, or, where the format may leave its
    turns out, any but a system prompt it hoists (a Converse request of a system prompt alone)."""
    if not layout.turns_optional or layout.system != "hoist":
        return bool(messages)
    return any(message.get("role") not in layout.hoist_roles for message in messages)


def _choosable(ctx: Context, adapter: Adapter, conversation: dict[str, Any]) -> dict[str, Any]:
    """The envelope to write, without its tool choice when the tools it chooses among are
    given and none of them goes out (an empty list: server tools reading had no home for, or
    tools the target has no block for): a choice among no tools is refused by every format
    that takes one (Bedrock requires the tools beside it)."""
    envelope = _envelope(conversation, "messages")
    tools = envelope.get("tools")
    if "tool_choice" not in envelope:
        return envelope
    if fidelity.envelope_fits(adapter.format, conversation, "messages"):
        return envelope  # the body it was read from comes back, its tools with it
    if tools is None:
        # No tools at all: a format whose choice goes in the object holding the tools
        # (Converse's `toolConfig`) cannot write it, unless the history's calls declare some.
        layout = adapter.layout
        if not layout.choice_beside_tools or (
            layout.tools_for_history and _called_names(conversation["messages"])
        ):
            return envelope
        ctx.loss(
            "/tool_choice",
            "field_dropped",
            f"{ctx.adapter}: a tool choice goes beside the tools it chooses among; none is given",
        )
        return {k: v for k, v in envelope.items() if k != "tool_choice"}
    if _chooses_hosted(envelope["tool_choice"], tools) and not adapter.layout.hosted_by_name:
        # Written as a function's name it would name no function the body declares.
        ctx.loss(
            "/tool_choice",
            "parameter_dropped",
            f"{ctx.adapter} cannot require a tool the provider runs itself",
        )
        return {k: v for k, v in envelope.items() if k != "tool_choice"}
    scratch = ctx.scratch()
    encode = adapter.encode_request_envelope
    if encode(scratch, {"tools": tools}, "") != encode(scratch, {}, ""):
        return envelope
    no_choice(ctx)
    return {k: v for k, v in envelope.items() if k != "tool_choice"}


def _chooses_hosted(choice: Any, tools: Any) -> bool:
    """Whether a tool choice names a hosted tool of ``tools`` (a web search to be run)."""
    if type(choice) is not dict or choice.get("type") != "tool" or type(tools) is not list:
        return False
    name = choice.get("name")
    return any(type(t) is dict and t.get("name") == name and "hosted" in t for t in tools)


def no_choice(ctx: Context) -> None:
    """Report the tool choice left out with the tools it chose among (`_choosable`; the fused
    passes write this loss as asked of it at generation time)."""
    ctx.loss(
        "/tool_choice",
        "field_dropped",
        f"{ctx.adapter}: none of the tools offered goes out, so there is none to choose",
    )


def _target_model(ctx: Context, document: dict[str, Any], before: int) -> None:
    """Note the model ``document`` is for (reasoning is replayed only to the model that
    issued it) and whether the body names it: not when its envelope reported it dropped."""
    model = document.get("model")
    ctx.model = model if isinstance(model, str) else None
    ctx.model_written = ctx.model is not None and not any(
        loss.pointer == "/model" for loss in ctx.losses[before:]
    )


def decode_request(ctx: Context, adapter: Adapter, wire: Any) -> dict[str, Any]:
    layout = adapter.layout
    wire = original = _object(wire)
    for alias, name in adapter.request_aliases.items():
        if alias in wire and name not in wire:
            wire = {name if key == alias else key: value for key, value in wire.items()}
    envelope = adapter.decode_request_envelope(ctx, wire, "")
    if envelope is ABSENT:
        envelope = {}  # nothing but turns
    ctx.model = envelope.get("model") if isinstance(envelope.get("model"), str) else None
    messages = _hoisted_system(ctx, adapter, wire)
    if layout.messages in wire:
        messages += adapter.turns.decode_messages(ctx, wire[layout.messages], "/" + layout.messages)
    elif not layout.turns_optional:
        raise ConversionError("missing_field", "/" + layout.messages, "a request holds turns")
    conversation = {"schema_version": SCHEMA_VERSION, **envelope, "messages": messages}
    if ctx.fidelity:
        fidelity.envelope(
            ctx,
            adapter.format,
            conversation,
            original,
            encode=lambda c, doc: encode_request(c, adapter, doc),
            without_messages=lambda doc: _without_turns(doc, layout),
            canonical_key="messages",
        )
    return conversation


def encode_stored(ctx: Context, adapter: Adapter, document: Any) -> Any:
    """Stored messages in the format's own shape, the container kept: a list of Messages as a
    list of turns, one Message as one turn, a Conversation as an object holding the turns
    (with the hoisted system prompt, where the format hoists it). A list or Message whose
    system prompt must be hoisted is written as that object too."""
    layout = adapter.layout
    if type(document) is dict and "messages" in document:
        for key in sorted(set(document) - {"schema_version", "messages", "provider_raw"}):
            ctx.loss(
                "/" + escape(key),
                "field_dropped",
                f"{ctx.adapter}: stored messages keep only turns, not {key!r}",
            )
        messages, at, holder = document["messages"], "/messages", True
    elif type(document) is list:
        messages, at, holder = document, "", False
    else:
        messages, at, holder = [document], "", False
    single = type(document) is dict and not holder
    turns, system = adapter.turns.encode_messages(ctx, messages, at, single)
    if system is not ABSENT:
        assert layout.system_field is not None
        return {layout.system_field: system, layout.messages: turns}
    if holder:
        return {layout.messages: turns}
    if len(turns) == 1 and (type(document) is dict or _read_from_one_turn(adapter, messages)):
        return turns[0]
    return turns


def _read_from_one_turn(adapter: Adapter, messages: list[Any]) -> bool:
    """Whether ``messages`` were read from one turn of this format, not from a list."""
    raw = messages[0].get("provider_raw") if messages and type(messages[0]) is dict else None
    entry = raw.get(adapter.format) if type(raw) is dict else None
    return type(entry) is dict and entry.get("one_turn") is True


def decode_stored(ctx: Context, adapter: Adapter, wire: Any) -> Any:
    """Stored messages (an agent's memory, a transcript), the container kept: a list of turns
    reads as a list of Messages, one turn as one Message (or a list, when the turn holds more
    than one canonical message), an object holding the turns under the format's turn field as
    a Conversation with no envelope. Other fields of such an object are reported, not read."""
    layout = adapter.layout
    if type(wire) is list:
        return adapter.turns.decode_messages(ctx, wire, "")
    wire = _object(wire)
    if layout.messages not in wire and layout.items is not None:
        # One item: the message it belongs to (an item is not a turn).
        (message,) = items.decode(ctx, adapter, wire, "", single=True)
        return message
    if layout.messages not in wire:
        reading = pairing.reading(layout.format, layout.result_pairing)
        messages = adapter.turns.decode_turn(ctx, wire, "", False, "0", reading)
        if len(messages) == 1:
            return messages[0]
        if ctx.fidelity:
            # One turn read as several messages (results sharing a user turn): round-trip
            # data says it was one turn, not a list of them.
            fidelity.keep(messages[0], adapter.format, {"one_turn": True})
        return messages
    messages = []
    known = {layout.messages}
    if layout.system == "hoist":
        assert layout.system_field is not None
        known.add(layout.system_field)
    messages += _hoisted_system(ctx, adapter, wire)
    for key in wire:
        if key not in known:
            ctx.loss(
                "/" + escape(key),
                "field_dropped",
                f"{ctx.adapter}: stored messages keep no {key!r}",
            )
    messages += adapter.turns.decode_messages(ctx, wire[layout.messages], "/" + layout.messages)
    return {"schema_version": SCHEMA_VERSION, "messages": messages}


def encode_response(ctx: Context, adapter: Adapter, response: dict[str, Any]) -> dict[str, Any]:
    layout = adapter.layout
    envelope = _envelope(response, "message")
    message = response["message"]
    stop = response.get("stop_reason")
    if adapter.infer_call and stop == "call":
        envelope = {**envelope, "stop_reason": "end"}  # the tool calls in the message say it
    encode = adapter.encode_response_envelope
    if encode is None:
        raise ConversionError("unknown_document", "", f"{adapter.format} has no response body")
    before = len(ctx.losses)
    wire = encode(ctx, envelope, "")
    _target_model(ctx, response, before)
    _put_stop_detail(adapter, stop, wire)
    message = grounding.write_beside(ctx, adapter, message, wire)
    turns, _ = adapter.turns.encode_messages(ctx, [message], "/message", True)
    path = adapter.response_message
    if layout.items is not None:
        _put(wire, path, turns)  # the message is the item list
        return fidelity.apply_envelope(ctx, adapter.format, response, wire, "message")
    turn = turns[0] if turns else _empty_turn(layout)
    raw = response.get("provider_raw") or {}
    if raw.get(adapter.format, {}).get("no_message") and not message["content"]:
        # Read from a body holding no message (a blocked prompt or candidate): none again.
        return fidelity.apply_envelope(ctx, adapter.format, response, wire, "message")
    if not path:
        wire = {**turn, **wire}
    else:
        _put(wire, path, turn)
    patched = fidelity.apply_envelope(ctx, adapter.format, response, wire, "message")
    holder = path[:-1]
    if path and isinstance(path[-1], int) and _node(patched, holder) is not _node(wire, holder):
        # The patch rebuilt the list holding the turn (OpenTelemetry's further output
        # messages): the turn goes back into its item, beside what the patch put there.
        patched = _copied_along(patched, path[:-1])
        _put(patched, path, turn)
    return patched


def _empty_turn(layout: Any) -> dict[str, Any]:
    """The model's turn with nothing in it (a refusal, a blocked prompt): its role, and the
    format's empty content where the format has one (OpenAI's `content: null`)."""
    turn = {layout.role: layout.roles_to_wire["assistant"]}
    if layout.empty_content is not ABSENT:
        turn[layout.content] = layout.empty_content
    return turn


def _node(wire: Any, path: tuple[str | int, ...]) -> Any:
    for key in path:
        wire = wire[key]
    return wire


def _copied_along(wire: dict[str, Any], path: tuple[str | int, ...]) -> dict[str, Any]:
    """``wire`` with every container on ``path`` copied (so a put there leaves the round-trip
    data it came from untouched)."""
    out = dict(wire)
    node: Any = out
    for key in path:
        child = node[key]
        node[key] = list(child) if type(child) is list else dict(child)
        node = node[key]
    return out


def decode_response(ctx: Context, adapter: Adapter, wire: Any) -> dict[str, Any]:
    layout = adapter.layout
    wire = _object(wire)
    path = adapter.response_message
    absent = False
    try:
        turn, at = _at(wire, path)
    except ConversionError:
        if layout.items is not None or not path:
            raise
        # No message where the body keeps it (a Gemini candidate blocked for safety, or no
        # candidate at all for a blocked prompt): an assistant message with nothing in it.
        turn, at = {layout.role: layout.roles_to_wire["assistant"]}, ""
        if ctx.fidelity:
            absent = True  # written back without one (round-trip data says so below)
    decode = adapter.decode_response_envelope
    if decode is None:
        raise ConversionError("unknown_document", "", f"{adapter.format} has no response body")
    envelope = decode(ctx, _without(wire, path, layout.role, layout.content, layout), "")
    if envelope is ABSENT:
        envelope = {}
    _read_stop_detail(adapter, wire, envelope)
    ctx.model = envelope.get("model") if isinstance(envelope.get("model"), str) else None
    if "model" not in envelope:
        # A canonical response names its model; this body does not (the request said it).
        envelope["model"] = UNKNOWN_MODEL
        ctx.loss(
            "",
            "placeholder_inserted",
            f"{ctx.adapter}: the response body names no model; read as {UNKNOWN_MODEL!r}",
        )
    if "stop_reason" not in envelope:
        # A canonical response says why it stopped; this body does not: the mapping says what
        # such a body means (`stop_reasons.missing`: `end` where a turn just ends, as in
        # ChatML; `other` where the format may leave a known reason out).
        envelope["stop_reason"] = adapter.missing_stop
        ctx.loss(
            "",
            "placeholder_inserted",
            f"{ctx.adapter}: the response body gives no stop reason; read as "
            f"{adapter.missing_stop!r}",
        )
    if (not path or isinstance(path[-1], int)) and type(turn) is dict:
        # The turn shares its object with envelope fields (the body itself, or a list item
        # holding the turn and, say, its finish reason): the envelope reads the rest.
        keys = (layout.role, layout.content, *(field for field, _, _ in layout.slots))
        turn = {k: v for k, v in turn.items() if k in keys}
    # The keys the turn was read with: its round-trip data gives them back. Any other key the
    # envelope's template writes in the turn's object (OpenAI's `refusal: null`) is the
    # envelope's to keep or leave out.
    read = frozenset(turn) if type(turn) is dict else frozenset()
    seed = envelope.get("id")
    if seed is None and adapter.response_call_seed is not None:
        seed = wire.get(adapter.response_call_seed)  # the body has no id: another field seeds
    if layout.items is not None:
        messages = [items.decode_response(ctx, adapter, turn, at)]
    else:
        messages = adapter.turns.decode_turn(
            ctx, turn, at, False, pairing.response_seed(seed), None
        )
    if len(messages) != 1 or messages[0]["role"] != "assistant":
        raise ConversionError("wrong_role", at, "a response holds one assistant message")
    message = messages[0]
    grounding.read_beside(ctx, adapter, wire, message)
    if (
        adapter.infer_call
        and envelope.get("stop_reason") == "end"
        and any(p.get("type") == "tool_call" for p in message["content"])
    ):
        envelope["stop_reason"] = "call"
    response = {"schema_version": SCHEMA_VERSION, **envelope, "message": message}
    if absent and not message["content"]:
        fidelity.keep(response, adapter.format, {"no_message": True})
    if ctx.fidelity:
        fidelity.envelope(
            ctx,
            adapter.format,
            response,
            wire,
            encode=lambda c, doc: encode_response(c, adapter, doc),
            without_messages=lambda doc: _without(
                doc, path, layout.role, layout.content, layout, read=read
            ),
            canonical_key="message",
        )
    return response


def _read_stop_detail(adapter: Adapter, wire: dict[str, Any], envelope: dict[str, Any]) -> None:
    """The stop reason as the field refining it says, where it says one (stop_reasons.detail:
    Responses' `incomplete_details.reason` beside its `status`)."""
    if adapter.stop_detail is None:
        return
    path, to_canonical, _ = adapter.stop_detail
    value = get(wire, path)
    if isinstance(value, str) and value in to_canonical:
        envelope["stop_reason"] = to_canonical[value]


def _put_stop_detail(adapter: Adapter, stop: Any, wire: dict[str, Any]) -> None:
    """The refining field of a stop reason that has one, beside the table's value."""
    if adapter.stop_detail is None:
        return
    path, _, from_canonical = adapter.stop_detail
    if stop in from_canonical:
        node = wire
        for key in path[:-1]:
            child = node.get(key)
            node[key] = dict(child) if type(child) is dict else {}  # over the template's null
            node = node[key]
        node[path[-1]] = from_canonical[stop]


def called_tools_declared(adapter: str, names: list[str]) -> str:
    """The report of the tools declared for a history that calls them (the fused pair
    converters give it too)."""
    return (
        f"{adapter} needs the tools a history of tool calls uses declared; declared "
        f"{', '.join(names)} with an open input schema"
    )


def open_input_schema() -> dict[str, Any]:
    """The input schema of a tool declared only because the history calls it: any object."""
    return {"type": "object"}


def _declare_called_tools(
    ctx: Context, adapter: Adapter, messages: list[dict[str, Any]], wire: dict[str, Any]
) -> dict[str, Any]:
    """``wire`` with a declaration of every tool the history calls, for a format that refuses
    tool calls in the history of a request offering no tools: the name and an open input
    schema each, reported as placeholders."""
    names = _called_names(messages)
    if not names:
        return wire
    ctx.loss("/tools", "placeholder_inserted", called_tools_declared(ctx.adapter, names))
    tools = [{"name": name, "input_schema": open_input_schema()} for name in names]
    merged: dict[str, Any] = _deep_merge(
        wire, adapter.encode_request_envelope(ctx, {"tools": tools}, "")
    )
    return merged


def _called_names(messages: list[dict[str, Any]]) -> list[str]:
    """The names of the tools a history calls, each once, in order."""
    return list(
        dict.fromkeys(
            part["name"]
            for message in messages
            for part in message.get("content", ())
            if part.get("type") == "tool_call" and isinstance(part.get("name"), str)
        )
    )


def _deep_merge(base: Any, extra: Any) -> Any:
    if type(base) is not dict or type(extra) is not dict:
        return base if extra is ABSENT else extra
    out = dict(base)
    for key, value in extra.items():
        out[key] = _deep_merge(out[key], value) if key in out else value
    return out


def _envelope(document: dict[str, Any], turns_key: str) -> dict[str, Any]:
    """The document without its turns and the fields no envelope template maps."""
    return {
        k: v for k, v in document.items() if k not in (turns_key, "schema_version", "provider_raw")
    }


def _at(wire: dict[str, Any], path: tuple[str | int, ...]) -> tuple[Any, str]:
    node: Any = wire
    at = ""
    for key in path:
        at += f"/{key}"
        if isinstance(key, int):
            if type(node) is not list or len(node) <= key:
                raise ConversionError("missing_field", at, "the response holds no message here")
            node = node[key]
        else:
            if type(node) is not dict or key not in node:
                raise ConversionError("missing_field", at, "the response holds no message here")
            node = node[key]
    return node, at


def _without(
    wire: dict[str, Any],
    path: tuple[str | int, ...],
    role: str,
    content: str,
    layout: Any = None,
    *,
    read: frozenset[str] | None = None,
) -> dict[str, Any]:
    """A shallow copy of ``wire`` without the turn at ``path`` (without its role, content and,
    given the layout, slots when the turn is the body itself). ``read``: the keys of the
    turn's object that were read as the turn; its other keys stay (a turn object of its own
    is otherwise left out whole)."""
    if not path:
        slots = tuple(field for field, _, _ in layout.slots) if layout is not None else ()
        dropped = (role, content, *slots)  # named first: mypyc cannot compile it inline
        return {k: v for k, v in wire.items() if k not in dropped}
    out: dict[str, Any] = _without_any(wire, path, (role, content), read)
    return out


def _without_any(
    node: Any,
    path: tuple[str | int, ...],
    turn_keys: tuple[str, ...],
    read: frozenset[str] | None = None,
) -> Any:
    head, rest = path[0], path[1:]
    if isinstance(node, list):
        if not isinstance(head, int) or head >= len(node):
            return node
        out_list = list(node)
        if rest:
            out_list[head] = _without_any(node[head], rest, turn_keys, read)
        elif isinstance(node[head], dict):
            # The turn is an item of a list (OpenTelemetry's output messages): the item stays,
            # without the turn's own keys; its other members are the envelope's.
            out_list[head] = {k: v for k, v in node[head].items() if k not in turn_keys}
        return out_list
    if isinstance(node, dict):
        out = dict(node)
        turn = node.get(head)
        if not rest:
            if read is not None and type(turn) is dict:
                out[head] = {k: v for k, v in turn.items() if k not in read}
            else:
                out.pop(head, None)
        elif head in node:
            out[head] = _without_any(turn, rest, turn_keys, read)
        return out
    return node


def _put(wire: dict[str, Any], path: tuple[str | int, ...], turn: Any) -> None:
    """Put the turn at ``path``, over whatever defaults the template wrote there."""
    node: Any = wire
    for key in path[:-1]:
        node = node[key]
    last = path[-1]
    if isinstance(node, list):
        defaults = node[last] if isinstance(last, int) and last < len(node) else None
    else:
        defaults = node.get(last) if isinstance(node, dict) else None
    if isinstance(defaults, dict):
        turn = {**turn, **{k: v for k, v in defaults.items() if k not in turn}}
    node[path[-1]] = turn
