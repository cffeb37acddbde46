"""What the generated adapters are made of besides their own functions.

An adapter module under ``interlingua.generated.adapters`` is compiled from a mapping file: it
holds one encoder and one decoder per variant of every part, codec and envelope, and two
records built from this module's types, a :class:`Layout` (how turns are laid out) and an
:class:`Adapter` (the whole format). The helpers here are the only code the compiled functions
call besides the named transforms.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from interlingua.conversion import Context, ConversionError
from interlingua.conversion.leftovers import carries, escape, unread, unread_counts
from interlingua.conversion.transforms.base import ABSENT, Mismatch


class _Miss:
    """Returned by a variant's encoder or decoder when the input is not of its shape."""

    def __repr__(self) -> str:
        return "MISS"


MISS: Final = _Miss()

Codec = Callable[[Context, Any, str], Any]
PartEncoder = Callable[[Context, Any, str], Any]  # -> (slot or None, wire value) | MISS


@dataclass(frozen=True, slots=True)
class Marker:
    """A canonical field that travels as a block of its own right after the block (or list
    item) of the part carrying it: the mapping's `layout.marker`, with its codec."""

    field: str  # the canonical field, and the codec of the same name
    key: str  # what tells a marker block: its member key, or its tag when blocks are tagged
    tag: str | None  # the key that tags blocks, or None when the member key does
    types: frozenset[str]  # canonical part types that have the field
    encode: Codec
    decode: Codec

    def matches(self, block: Any) -> bool:
        if type(block) is not dict:
            return False
        return block.get(self.tag) == self.key if self.tag else self.key in block

    def block(self, ctx: Context, value: Any, at: str) -> Any:
        """The marker block for ``value`` (the field's value, at ``at``), or MISS, reported."""
        wire = self.encode(ctx, value, at)
        if wire is MISS:
            ctx.loss(at, "field_dropped", f"{ctx.adapter} cannot express this `{self.field}`")
        return wire


@dataclass(frozen=True)
class Layout:
    """How a format lays turns out (the mapping file's `layout` section plus its compiled
    part codecs)."""

    format: str
    messages: str  # wire field of the turn list
    role: str  # wire field of a turn's role
    content: str  # wire field of a turn's blocks
    # a lone text part is a bare string (True, or "request" only); "always": content is one
    # string, the turn's text parts joined
    text_shorthand: bool | str
    empty_content: Any  # what a turn with no blocks has as content (ABSENT: no field)
    system: str  # inline | hoist
    system_field: str | None  # hoist: the top-level field
    system_form: str | None  # hoist: string_or_blocks | blocks | content | string
    tool_results: str  # own_message | user_blocks
    tool_result_parts: frozenset[str] | None  # part types a tool result may hold (None: any)
    alternate: bool  # consecutive turns of one wire role are merged
    roles_to_wire: Mapping[str, str]
    roles_from_wire: Mapping[str, str]
    encode_part: Mapping[str, PartEncoder]
    decode_tag: str | None  # the key that tags a block, or None when the member key does
    decode_tags: Mapping[str, Codec]
    decode_keyed: tuple[tuple[str, Codec], ...]
    slots: tuple[tuple[str, str, Codec], ...]  # (wire field, list | value, decoder)
    encode_tool_message: Codec | None
    decode_tool_message: Codec | None
    marker: Marker | None = None  # a field written as a block of its own after its part
    blank_text: str = "keep"  # keep | drop: whitespace-only text in the turns of a request
    # A tool result's structured value has a field of its own (False: it travels as JSON text)
    structured_results: bool = True
    tools_for_history: bool = False  # tool calls in the history need the tools declared
    choice_beside_tools: bool = False  # the tool choice goes in the object that needs the tools
    hosted_by_name: bool = False  # a hosted tool goes out under its name: a choice may name it
    turns_optional: bool = False  # a request may leave its turns out (a stored prompt's reference)
    turn_needed: bool = False  # a request must hold a turn (its schema's minItems)
    replay_from: frozenset[str] = frozenset()  # other formats whose reasoning replays here
    own_reasoning: bool = False  # reasoning naming no issuer is not written (a dialect)
    signature_field: str | None = None  # a block's field holding the signature of its reasoning
    result_pairing: str = "id"  # id | name: how a result names the call it answers
    role_optional: bool = False  # a turn may leave its role out (the user's, the model's)
    slots_first: frozenset[str] = frozenset()  # slots whose parts read back before the content
    lone_block: bool = False  # a turn's one block is written bare; a bare block reads as a list
    text_separator: str = "\n"  # what joins a turn's text parts where content is one string
    response_text: str = "blocks"  # "string": a response turn's text parts are one string
    # The message fields beside role and content a turn carries (the mapping's `turn`):
    # message -> wire turn fields, and wire turn -> message fields. None: a turn carries none.
    encode_turn: Codec | None = None
    decode_turn: Codec | None = None
    # An item layout (see items.py): wire block tag -> canonical role of the blocks that are
    # list items of their own; None: the list holds turns.
    items: Mapping[str, str] | None = None
    item_message: Mapping[str, Any] = field(default_factory=dict)  # a response's message items
    hoist_roles: frozenset[str] = frozenset({"system", "developer"})  # hoist: roles hoisted


@dataclass(frozen=True)
class ItemLayout:
    """The facts of an item layout (the mapping's `layout.items`: see adapters/items.py),
    fixed in the generated adapter of a format that has one."""

    fmt: str
    tag: str | None  # the key that tags blocks and items
    role: str  # a message item's role field
    content: str  # a message item's content field
    owners: Mapping[str, str]  # item tag -> the canonical role it belongs to
    message: Mapping[str, Any]  # a response's message items' constant fields
    roles_from_wire: Mapping[str, str]
    decode_tool: Codec | None  # a tool item (a call's output) as a tool result part


@dataclass(frozen=True)
class Turns:
    """A format's turn reader and writer, generated with its layout fixed in the code
    (`generator/templates/python/turns.py.j2`): what bodies, streams and round-trip data call."""

    # (ctx, messages, at, single) -> (wire turns, hoisted system value or ABSENT)
    encode_messages: Callable[[Context, list[dict[str, Any]], str, bool], tuple[Any, Any]]
    decode_messages: Callable[[Context, Any, str], list[dict[str, Any]]]
    # (ctx, turn, at, merged with the previous turn, seed, pairing reading) -> messages
    decode_turn: Callable[[Context, Any, str, bool, str, Any], list[dict[str, Any]]]
    decode_system: Callable[[Context, Any, str], dict[str, Any]]
    encode_part: PartEncoder
    decode_block: Callable[[Context, Any, str], dict[str, Any]]
    decode_content: Callable[[Context, Any, str], list[dict[str, Any]]]
    # (ctx, content, at, block kind to take out, pointers) -> (parts, the block taken)
    decode_content_taking: Callable[
        [Context, Any, str, str | None, list[str] | None], tuple[list[dict[str, Any]], Any]
    ]
    # (ctx, parts, at) -> (the parts replayable here, where each was read)
    replayable: Callable[[Context, list[dict[str, Any]], str], tuple[list[Any], list[str]]]
    items: ItemLayout | None = None  # an item layout's facts (None: the list holds turns)


@dataclass(frozen=True, slots=True)
class Adapter:
    """One format, as compiled from its mapping file."""

    format: str
    title: str
    layout: Layout
    turns: Turns
    encode_request_envelope: Codec
    decode_request_envelope: Codec
    encode_response_envelope: Codec | None  # None: the format has no response body
    decode_response_envelope: Codec | None
    response_message: tuple[str | int, ...]  # where the message sits in a response body
    infer_call: bool  # a natural stop with tool calls in the message means `call`
    id_rule: tuple[str, str, int] | None
    name_rule: tuple[str, str, int] | None
    capabilities: Mapping[str, Any]
    schemas: Mapping[str, str]  # request / response → wire schema under schemas/
    # Older names of top-level request fields, read as the current one (OpenAI `max_tokens`).
    request_aliases: Mapping[str, str] = field(default_factory=dict)
    # A request body in the wire schema's spelling, when the format takes its fields under
    # another spelling too (the mapping's `spellings`; adapters/spellings.py): (body, pointer,
    # the originals of the objects respelt, by id) -> the body, itself when nothing changed.
    respell_request: Callable[[Any, str, dict[int, Any]], Any] | None = None
    # A top-level response field seeding synthesized call ids when the body has no id.
    response_call_seed: str | None = None
    # The framing of a text format (src/interlingua/conversion/texts/), or None for JSON bodies.
    text: str | None = None
    # What a response body that gives no stop reason means (the mapping's stop_reasons.missing).
    missing_stop: str = "other"
    # A second wire field refining the stop reason (the mapping's stop_reasons.detail): its
    # path, wire value -> canonical reason, canonical reason -> wire value.
    stop_detail: tuple[tuple[str, ...], Mapping[str, str], Mapping[str, str]] | None = None
    # Web pages cited beside the response's message (the mapping's response.grounding: its
    # field names; see adapters/grounding.py). None: the format has none.
    grounding: Mapping[str, str] | None = None


def dropped(
    ctx: Context,
    value: Mapping[str, Any],
    known: frozenset[str],
    at: str,
    *,
    part_type: str | None,
    code: str,
    defaults: Mapping[str, Any] | None = None,
) -> None:
    """Report every field of a canonical object that the matched template does not take, but
    one whose value says what its absence says (``defaults``: the schema's `x-default`)."""
    for key in sorted(value.keys() - known):
        if key == "provider_raw":
            continue  # round-trip data: handled (and reported) by the layout
        if defaults is not None and key in defaults and value[key] == defaults[key]:
            continue
        ctx.loss(
            f"{at}/{escape(key)}",
            code,
            f"{ctx.adapter} has no place for `{key}`",
            part_type,
        )


def unmatched(ctx: Context, value: Any, at: str, *, part_type: str | None) -> None:
    """Report a wire value none of its codec's variants reads (a tool choice of a mode the
    mapping does not know), when no round-trip data keeps it, unless it `carries` nothing."""
    if not carries(value):
        return
    key = at.rsplit("/", 1)[-1].replace("~1", "/").replace("~0", "~")
    reason = f"{ctx.adapter}: no reading of `{key}` takes this value; not carried"
    ctx.loss(at, "field_dropped", reason, part_type)


def each_encode(
    ctx: Context,
    codec: Codec,
    values: list[Any],
    at: str,
    what: str,
    *,
    marker: Marker | None = None,
    apart: Mapping[str, str] | None = None,
) -> Any:
    """Each value through ``codec``; with a ``marker``, an item's marker field goes out as an
    item of its own right after it. A hosted tool of a kind in ``apart`` is passed over: the
    format offers it as a group of its own (`hosted_groups`)."""
    out = []
    for i, whole in enumerate(values):
        if apart is not None and type(whole) is dict and whole.get("hosted") in apart:
            continue
        # Typed Any: the hint is a wire value or ABSENT (compiled code checks the type).
        hint: Any = ABSENT
        value = whole
        if marker is not None and type(whole) is dict and marker.field in whole:
            hint = whole[marker.field]
            value = {k: v for k, v in whole.items() if k != marker.field}
        wire = codec(ctx, value, f"{at}/{i}")
        if wire is MISS:
            ctx.loss(f"{at}/{i}", "parameter_dropped", f"{ctx.adapter} cannot express this {what}")
            continue
        out.append(wire)
        if marker is not None and hint is not ABSENT:
            block = marker.block(ctx, hint, f"{at}/{i}/{escape(marker.field)}")
            if block is not MISS:
                out.append(block)
    return out if out else ABSENT


def hosted_in_group(
    ctx: Context, group: dict[str, Any], at: str, apart: Mapping[str, str], before: Any
) -> list[dict[str, Any]]:
    """The canonical hosted tools a group of a format's tool list offers, each under a key of
    its own (``apart``: wire key → hosted kind), in the group's order. What a tool's object
    holds (its options) has no canonical home: round-trip data, reported when crossing. A
    tool named as one already read (``before``: the tools so far, or ABSENT) is offered again:
    canonical tool names are unique, so it is round-trip data too."""
    found: list[dict[str, Any]] = []
    named = set() if before is ABSENT else {tool.get("name") for tool in before}
    for key, options in group.items():
        kind = apart.get(key)
        if kind is None:
            continue
        here = f"{at}/{escape(key)}"
        if type(options) is not dict:
            raise ConversionError("wrong_type", here, "expected an object")
        if kind in named:
            if not ctx.fidelity:
                ctx.loss(here, "field_dropped", f"{ctx.adapter}: a tool named {kind!r} again")
            continue
        named.add(kind)
        if options and not ctx.fidelity:
            unread(ctx, options, frozenset(), here, part_type=None)
        found.append({"name": kind, "hosted": kind})
    return found


def hosted_groups(tools: list[Any], apart: Mapping[str, str]) -> list[dict[str, Any]]:
    """The groups a format's tool list offers the hosted tools of ``tools`` in (``apart``:
    hosted kind → wire key), each an empty object under its key; `each_encode` passes over
    them."""
    return [
        {apart[tool["hosted"]]: {}}
        for tool in tools
        if type(tool) is dict and tool.get("hosted") in apart
    ]


def grouped(declared: Any, groups: Any) -> Any:
    """A tool list of groups: the group of declared tools first, then each hosted tool's."""
    out = [] if declared is ABSENT else [declared]
    if groups is not ABSENT:
        out.extend(groups)
    return out if out else ABSENT


def no_home(ctx: Context, at: str, value: dict[str, Any], what: str) -> None:
    """Report a wire ``what`` (an item, a citation) of a kind the format's codec has no
    variant for: left out, named by its `type` where it has one."""
    kind = value.get("type")
    ctx.loss(
        at,
        "field_dropped",
        f"{ctx.adapter}: no canonical home for this"
        + (f" {kind!r}" if isinstance(kind, str) else "")
        + f" {what}; not carried",
    )


def each_decode(
    ctx: Context, codec: Codec, values: Any, at: str, *, marker: Marker | None = None
) -> Any:
    """Each item through ``codec``; a ``marker`` item sets its field on the item before it.
    A marker with nothing before it to carry it is left to the round-trip data.

    An item of a kind the mapping does not read (a provider's server or custom tool: no
    variant matches, or it lacks a field every variant needs) is not a reason to refuse the
    body: it is left to the round-trip data, and reported when the body crosses to another
    format. An item that is not an object is still an error."""
    if values is ABSENT:
        return ABSENT
    if type(values) is not list:
        raise ConversionError("wrong_type", at, "expected a list")
    out: list[Any] = []
    for i, value in enumerate(values):
        here = f"{at}/{i}"
        if marker is not None and marker.matches(value):
            hint = marker.decode(ctx, value, here)
            if hint is not MISS and out and marker.field not in out[-1]:
                out[-1][marker.field] = hint
            continue
        try:
            canonical = codec(ctx, value, here)
        except ConversionError as exc:
            if exc.code != "missing_field" or exc.pointer.count("/") != here.count("/") + 1:
                raise
            canonical = MISS
        if canonical is MISS:
            if type(value) is not dict:
                raise ConversionError("unknown_variant", here, "matches no known shape")
            if not ctx.fidelity:
                no_home(ctx, here, value, "item")
            continue
        out.append(canonical)
    return out


def codec_encode(ctx: Context, codec: Codec, value: Any, at: str, what: str) -> Any:
    wire = codec(ctx, value, at)
    if wire is MISS:
        ctx.loss(at, "parameter_dropped", f"{ctx.adapter} cannot express this {what}")
        return ABSENT
    return wire


def table_encode(
    ctx: Context,
    table: Mapping[str, str],
    approximate: frozenset[str],
    value: str,
    at: str,
    *,
    what: str,
) -> str:
    if value in approximate:
        ctx.loss(
            at,
            "stop_reason_approximated",
            f"{ctx.adapter} has no {what} value for {value!r}; sent {table[value]!r}",
        )
    return table[value]


def merge_values(base: dict[str, Any] | None, first: Any, *rest: Any) -> Any:
    """Members of one wire object written by separate templates (`@merge`)."""
    present = [v for v in (first, *rest) if v is not ABSENT]
    if not present:
        return ABSENT
    out: dict[str, Any] = dict(base) if base is not None and first is ABSENT else {}
    for value in present:
        out.update(value)
    return out


def get(value: Any, path: tuple[str, ...]) -> Any:
    for key in path:
        if type(value) is not dict:
            return ABSENT
        value = value.get(key, ABSENT)
    return value


def put(target: dict[str, Any], path: tuple[str, ...], value: Any) -> None:
    for key in path[:-1]:
        target = target.setdefault(key, {})
    target[path[-1]] = value


def number_or_zero(value: Any, at: str) -> int:
    if value is ABSENT or value is None:
        return 0
    return check_count(value, at)


def remainder(whole: int, *parts: int) -> int:
    """A count written as ``whole`` less the ``parts`` counted on their own (Gemini's
    candidates beside its thoughts): ``whole`` itself when the parts exceed it, as from a
    provider whose output count leaves its reasoning out (xAI), never a negative count."""
    rest = whole - sum(parts)
    return rest if rest >= 0 else whole


def check_count(value: Any, at: str) -> int:
    if type(value) is not int or value < 0:
        raise ConversionError("wrong_type", at, "token counts are non-negative integers")
    return value


__all__ = [
    "ABSENT",
    "MISS",
    "Adapter",
    "ItemLayout",
    "Layout",
    "Marker",
    "Mismatch",
    "Turns",
    "carries",
    "check_count",
    "codec_encode",
    "dropped",
    "each_decode",
    "each_encode",
    "escape",
    "get",
    "merge_values",
    "number_or_zero",
    "put",
    "remainder",
    "table_encode",
    "unread",
    "unread_counts",
]
