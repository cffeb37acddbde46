"""The stream engine: wire chunks ↔ canonical stream events, for any format with a `stream`
section in its mapping file.

What the mapping declares compiles to a `StreamSpec` (`generated/python/streams/<format>.py`):
a `read` function that looks at one chunk and calls the `StreamReader` methods below, and the
`w_*` functions that write one canonical event as wire chunks. The engine keeps what lives
between chunks:

- **Part indices.** A wire block index (Anthropic, Bedrock) or tool-call index (OpenAI) is
  the wire's key for a part; the canonical index is the order in which parts first appear, so
  text at block 0 and a call at block 1 are parts 0 and 1 whatever the wire numbered them
  (hard case 49). Text without a key continues the last part when it is of the same kind.
- **Calls.** An id is synthesised (`<format>_call_<seed>_<n>`, as reading a whole response
  does) when the wire gives none; every call still open when the stop reason arrives is
  complete; arguments that never came are `{}` (hard case 51).
- **Usage.** Wire usage objects are merged as they come (Anthropic's input counts at the
  start and output counts at the end; Gemini's cumulative counts on every chunk), and each
  `usage` event carries the canonical totals so far.
- **Signatures on blocks.** Where a signature rides on the block after the reasoning
  (`layout.signature_field`), a thinking part that is nothing but a signature is held back
  when writing and put on the next block written (a whole part, or the first delta of a
  text block); with nothing after it, it goes out on an empty text block of its own.
- **The end.** `message_complete` carries the stop reason (a natural stop with calls is
  `call` where the format infers it) and the final usage. An error chunk ends the stream
  with an `error` event, not a stop reason (hard case 52). A stream that ends before its
  stop reason is reported as `stream_truncated`.

Nothing is dropped silently: a chunk no rule reads, an event the target cannot write, a
placeholder written for a field the stream never carried are all losses on the context.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from json.encoder import encode_basestring
from typing import Any, Final

from interlingua.conversion import Context, ConversionError
from interlingua.conversion.adapters import pairing
from interlingua.conversion.adapters.documents import encode_response
from interlingua.conversion.adapters.held_blocks import HeldBlocks
from interlingua.conversion.adapters.models import same_endpoint
from interlingua.conversion.adapters.pieces import ArgumentPieces
from interlingua.conversion.adapters.runtime import MISS, Adapter, Codec
from interlingua.conversion.adapters.stream_citations import (
    cited_part,
    decode_citation,
    grounding_citations,
    unwritable_citation,
)
from interlingua.conversion.reading import InputError, read_json
from interlingua.conversion.transforms import TRANSFORMS
from interlingua.generated.models import Usage
from interlingua.generated.parts import BOUND_PART_TYPES
from interlingua.streams.accumulate import Accumulator, StreamError

Event = dict[str, Any]
Writer = Callable[[dict[str, Any]], list[Any]]
# A target's delta text around the delta itself (`a_*`), or None when it writes nothing.
Around = Callable[[dict[str, Any]], "tuple[str, str] | None"]

# The counts a canonical Usage always has.
USAGE_REQUIRED = tuple(name for name, f in Usage.model_fields.items() if f.is_required())


def at(value: Any, path: tuple[str | int, ...]) -> Any:
    """The value at ``path`` (keys and list indices), or None when it is absent or null."""
    for step in path:
        if type(step) is int:
            if type(value) is not list or step >= len(value):
                return None
            value = value[step]
        elif type(value) is dict:
            value = value.get(step)
        else:
            return None
    return value


# A delta event's part kind, and the writer of a delta of each kind (built once, not a chunk).
_DELTA_KINDS: Final = {
    "text_delta": "text",
    "thinking_delta": "thinking",
    "refusal_delta": "refusal",
}
_DELTA_KEYS: Final = {kind: f"{kind}.delta" for kind in _DELTA_KINDS.values()}
_DELTA_EVENTS: Final = {kind: event for event, kind in _DELTA_KINDS.items()}

# What a chunk that is not an object reads as in the generated `read` functions: nothing is
# ever written to it.
EMPTY: Final[dict[str, Any]] = {}


def get(value: Any, key: str) -> Any:
    """One step of ``at``: ``value[key]`` when ``value`` is an object, else None (the
    generated `read` functions spell paths of keys out in these)."""
    return value.get(key) if type(value) is dict else None


@dataclass(frozen=True)
class StreamSpec:
    """One format's stream translation, as compiled from its mapping file."""

    adapter: Adapter
    framing: str  # sse | ndjson
    done: str | None  # the data that ends a stream ([DONE]), if the format has one
    event_field: str | None  # sse: the chunk field repeated as the `event:` line
    schema: str | None  # wire schema of one chunk, under schemas/
    loss_notes: str  # comment | member: where a translated stream tells its losses
    read: Callable[[StreamReader, Any, str], bool]
    writers: Mapping[str, Writer]
    whole_calls: bool  # calls are written whole once complete (Gemini, Ollama)
    part_types: frozenset[str]  # canonical parts written whole
    defaults: Mapping[str, Any]
    encode_usage: Callable[[Context, Any, str], Any]
    decode_usage: Callable[[Context, Any, str], Any]
    stop_to_canonical: Mapping[str, str]
    stop_from_canonical: Mapping[str, str]
    stop_approximate: frozenset[str]
    explicit_start: bool = False  # the stream opens with a start chunk of its own
    sequence: str | None = None  # the chunk field numbering every chunk written
    whole_response: bool = False  # the last chunk holds the whole response (`$response`)
    # A block's end repeats its whole text or arguments (`$text` in `close`): kept as it grows
    # (only then: other formats stream in constant memory).
    whole_blocks: bool = False
    # The format's `citation` codec (None: it has none; a `cite` rule or `citation` template
    # needs it), and whether it cites the message's text as a whole (OpenAI Chat's
    # `annotations`: spans count from the start of the content, not of a text part).
    decode_citation: Codec | None = None
    encode_citation: Codec | None = None
    content_citations: bool = False
    # The stream carries grounding beside the message (a `ground` rule, Gemini): its reader
    # keeps the text parts' text, which the grounding's byte offsets count in.
    grounding: bool = False

    @property
    def format(self) -> str:
        return self.adapter.format


def _merge(base: dict[str, Any], extra: dict[str, Any]) -> None:
    for key, value in extra.items():
        if type(value) is dict and type(base.get(key)) is dict:
            _merge(base[key], value)
        else:
            base[key] = value


def _text(value: Any, ptr: str) -> str:
    if type(value) is not str:
        raise ConversionError("wrong_type", ptr, "expected a string")
    return value


def _check_key(key: Any, ptr: str) -> None:
    """A wire part key (a block or call index) is a number or a string, or absent."""
    if key is not None and type(key) not in (int, str):
        raise ConversionError("wrong_type", ptr, "a part's index is a number or a string")


class StreamReader:
    """Wire chunks in, canonical events out: `feed` each chunk, then `finish` at the end."""

    def __init__(self, spec: StreamSpec, ctx: Context | None = None) -> None:
        self.spec = spec
        self.ctx = ctx or Context(spec.format, kind="response", fidelity=False)
        self.events: list[Event] = []
        self.done = False
        self._chunks = 0
        self._keys: dict[tuple[str, Any], int] = {}
        self._kinds: list[str] = []  # kind of each canonical part, by index
        self._last: int | None = None  # the part text without a key continues
        self._open_calls: dict[int, None] = {}  # insertion-ordered set
        self._calls = 0
        self._started = False
        self._id: str | None = None
        self._wire_usage: dict[str, Any] = {}
        self._usage: Any = None
        self._placeholders: set[str] = set()
        self._pieces: tuple[int, ArgumentPieces] | None = None  # a call streamed in pieces
        self._stop: str | None = None
        self._held = HeldBlocks()  # blocks held until their end (`block` with `json`)
        # The text of each text part, in pieces, where grounding may cite it (else None).
        self._texts: dict[int, list[str]] | None = {} if spec.grounding else None

    # --- driving ------------------------------------------------------------------------

    def feed(self, chunk: Any) -> list[Event]:
        """The canonical events one wire chunk yields."""
        ptr = f"/{self._chunks}"
        self._chunks += 1
        if self.done:
            self._fail("stream_out_of_order", ptr, "a chunk after the end of the stream")
        else:
            try:
                if not self.spec.read(self, chunk, ptr):
                    self.unread(ptr)
            except ConversionError as exc:
                self._fail(exc.code, exc.pointer, exc.message)
        return self._drain()

    def fail(self, code: str, message: str) -> list[Event]:
        """A chunk that could not even be parsed: the stream ends with an error event."""
        ptr = f"/{self._chunks}"
        self._chunks += 1
        if not self.done:
            self._fail(code, ptr, message)
        return self._drain()

    def finish(self) -> list[Event]:
        """The events the end of the input implies (a completion, or a truncation error)."""
        if not self.done:
            if self._stop is not None:
                self.complete()
            else:
                self._fail(
                    "stream_truncated",
                    f"/{self._chunks}",
                    "the stream ended before the message was complete",
                )
        return self._drain()

    def _drain(self) -> list[Event]:
        out, self.events = self.events, []
        return out

    def _fail(self, code: str, ptr: str, message: str) -> None:
        self.events.append(
            {"type": "error", "error": {"code": code, "path": ptr, "message": message}}
        )
        self.done = True

    # --- actions the compiled rules call ----------------------------------------------------

    def unread(self, ptr: str) -> None:
        self.ctx.loss(
            ptr, "field_dropped", f"{self.spec.format}: no stream rule reads this; skipped"
        )

    def start(self, *, id: Any, model: Any, ptr: str) -> None:
        if self._started:
            return
        event: Event = {"type": "message_start"}
        if isinstance(id, str) and id:
            event["id"] = self._id = id
        if isinstance(model, str) and model:
            event["model"] = self.ctx.model = model
        self._started = True
        self.events.append(event)

    def _ensure_started(self) -> None:
        if not self._started:
            if self.spec.explicit_start:
                raise ConversionError(
                    "stream_out_of_order",
                    f"/{self._chunks - 1}",  # the chunk at hand
                    "the stream did not open with its start chunk (it started late)",
                )
            self.start(id=None, model=None, ptr="")

    def _index(self, family: str, key: Any, kind: str, ptr: str) -> int:
        _check_key(key, ptr)
        if key is None:
            if self._last is not None and self._kinds[self._last] == kind:
                return self._last
            index = self._new(kind)
        else:
            found = self._keys.get((family, key))
            if found is None:
                index = self._keys[(family, key)] = self._new(kind)
            elif self._kinds[found] != kind:
                raise ConversionError(
                    "stream_out_of_order", ptr, f"part {found} is {self._kinds[found]}, not {kind}"
                )
            else:
                index = found
        self._last = index
        return index

    def _new(self, kind: str) -> int:
        self._ensure_started()
        self._kinds.append(kind)
        return len(self._kinds) - 1

    def text(self, *, part: Any, text: Any, ptr: str) -> None:
        self._delta("text", part, _text(text, ptr), ptr)

    def thinking(self, *, part: Any, text: Any, ptr: str) -> None:
        self._delta("thinking", part, _text(text, ptr), ptr)

    def refusal(self, *, part: Any, text: Any, ptr: str) -> None:
        self._delta("refusal", part, _text(text, ptr), ptr)

    def drop(self, ptr: str, reason: str) -> None:
        self.ctx.loss(ptr, "field_dropped", f"{self.spec.format}: {reason}")

    def _delta(self, kind: str, key: Any, text: str, ptr: str) -> None:
        _check_key(key, ptr)
        if not text and (key is None or ("block", key) in self._keys):
            return  # an empty delta adds nothing (it only opens a keyed part, at its start)
        index = self._index("block", key, kind, ptr)
        self.events.append({"type": _DELTA_EVENTS[kind], "index": index, "text": text})
        if self._texts is not None and kind == "text":
            self._texts.setdefault(index, []).append(text)

    def signature(self, *, part: Any, signature: Any, ptr: str) -> None:
        index = self._index("block", part, "thinking", ptr)
        self.events.append(
            {"type": "signature", "index": index, "signature": _text(signature, ptr)}
        )

    def call_start(self, *, part: Any, name: Any, id: Any = None, ptr: str) -> None:
        index = self._index("call", part, "tool_call", ptr)
        if index in self._open_calls:
            raise ConversionError("stream_out_of_order", ptr, f"call {index} started twice")
        self._open(index, id, _text(name, ptr), ptr)

    def _open(self, index: int, id: Any, name: str, ptr: str) -> None:
        if id is None:
            id = pairing.synthesized_id(
                self.spec.format, pairing.response_seed(self._id), self._calls
            )
        self._calls += 1
        self._open_calls[index] = None
        self.events.append(
            {"type": "tool_call_start", "index": index, "id": _text(id, ptr), "name": name}
        )

    def call(
        self,
        *,
        name: Any,
        arguments: Any,
        part: Any = None,
        id: Any = None,
        ptr: str,
    ) -> None:
        """A whole call, its arguments an object: start, arguments and end at once."""
        if type(arguments) is not dict:
            raise ConversionError("wrong_type", ptr, "the arguments are an object")
        if part is None:
            index = self._last = self._new("tool_call")
        else:
            index = self._index("call", part, "tool_call", ptr)
        self._whole(
            index,
            {"type": "tool_call", "id": id, "name": _text(name, ptr), "arguments": arguments},
            ptr,
        )

    def call_delta(self, *, part: Any, arguments: Any, ptr: str) -> None:
        _check_key(part, ptr)
        if part in self._held:  # the input of a block held until its end (a server tool's)
            self._held.add_input(part, _text(arguments, ptr))
            return
        index = self._keys.get(("call", part))
        if index is None and ("block", part) in self._keys:
            # Input for a part that arrived whole (a server tool block): the part keeps the
            # input it came with.
            self.ctx.loss(ptr, "field_dropped", "input fragments for a part that arrived whole")
            return
        if index is None or index not in self._open_calls:
            raise ConversionError("stream_out_of_order", ptr, f"no open tool call at {part!r}")
        fragment = _text(arguments, ptr)
        if fragment:
            self.events.append(
                {"type": "tool_call_delta", "index": index, "arguments_delta": fragment}
            )

    def call_pieces(
        self,
        *,
        keys: Mapping[str, str],
        name: Any = None,
        id: Any = None,
        pieces: Any = None,
        more: Any = None,
        ptr: str,
    ) -> None:
        """A call whose arguments stream as typed pieces at JSON paths: ``name`` opens it (a
        part of its own), each chunk's ``pieces`` build its arguments, and it is complete at
        the first chunk whose ``more`` is not true; the arguments go out whole then."""
        if self._pieces is None:
            if name is None:
                raise ConversionError("stream_out_of_order", ptr, "argument pieces, no call open")
            index = self._last = self._new("tool_call")
            self._open(index, id, _text(name, ptr), ptr)
            self._pieces = (index, ArgumentPieces(keys))
        elif name is not None:
            raise ConversionError(
                "stream_out_of_order", ptr, "a call begins before the last one is complete"
            )
        if pieces is not None:
            if type(pieces) is not list:
                raise ConversionError("wrong_type", ptr, "the argument pieces are a list")
            for k, piece in enumerate(pieces):
                self._pieces[1].add(piece, f"{ptr}/{k}")
        if more is not True:
            self._flush_pieces()

    def _flush_pieces(self) -> None:
        if self._pieces is None:
            return
        index, built = self._pieces
        self._pieces = None
        if built.arguments:
            self.events.append(
                {
                    "type": "tool_call_delta",
                    "index": index,
                    "arguments_delta": json.dumps(built.arguments, ensure_ascii=False),
                }
            )
        self._open_calls.pop(index, None)
        self.events.append({"type": "tool_call_end", "index": index})

    def end(self, *, part: Any, ptr: str) -> None:
        _check_key(part, ptr)
        released = self._held.release(part, ptr)
        if released is not None:
            self._read_block(part, *released)
            return
        index = self._keys.get(("call", part))
        if index is not None and index in self._open_calls:
            del self._open_calls[index]
            self.events.append({"type": "tool_call_end", "index": index})

    def block(self, *, part: Any, value: Any, ptr: str, json: str | None = None) -> None:
        """A whole wire block: read by the format's part codecs, then sent as events. With
        ``json``, the block is held until its end: fragments of JSON text for its part build
        that field of it, `fill` adds text to its fields, and it is read whole at its end."""
        if json is not None and part is not None:
            _check_key(part, ptr)
            self._held.hold(part, value, json, ptr, seen=("block", part) in self._keys)
            self._ensure_started()
            return
        self._read_block(part, value, ptr)

    def fill(self, *, part: Any, field: str, text: Any, ptr: str) -> None:
        """Text to append to field ``field`` of the block held at ``part``."""
        _check_key(part, ptr)
        if part not in self._held:
            self.ctx.loss(
                ptr, "field_dropped", f"{self.spec.format}: text for a block not held open; skipped"
            )
            return
        self._held.fill(part, field, _text(text, ptr))

    def cite(self, *, part: Any, value: Any, ptr: str) -> None:
        """A wire citation, onto the text part at ``part`` (None: the message's text)."""
        decode = self.spec.decode_citation
        assert decode is not None  # the generator refuses a `cite` without the codec
        _check_key(part, ptr)
        index, problem = cited_part(self._kinds, self._keys, part)
        if index is None:
            self.ctx.loss(ptr, "field_dropped", f"{self.spec.format}: {problem}; not carried")
            return
        citation = decode_citation(self.ctx, decode, value, ptr)
        if citation is not MISS:
            self.events.append({"type": "citation", "index": index, "citation": citation})

    def ground(self, value: Any, ptr: str) -> None:
        """The grounding beside the message (in ``value``, the object holding it): its web
        pages cite the text read so far, as reading a whole response places them
        (`adapters/stream_citations.py`); what it holds besides is reported there."""
        names = self.spec.adapter.grounding
        assert names is not None and self._texts is not None  # a `ground` rule sets both
        self.events.extend(
            grounding_citations(
                self.ctx,
                self.spec.format,
                names=names,
                value=value,
                kinds=self._kinds,
                texts=self._texts,
                ptr=ptr,
            )
        )

    def _read_block(self, part: Any, value: Any, ptr: str) -> None:
        parts = self.spec.adapter.turns.decode_content(self.ctx, [value], ptr)
        for k, whole in enumerate(parts):
            if set(whole) == {"type", "text"} and whole["type"] == "text" and not whole["text"]:
                continue  # an empty text carries nothing (it only carried a signature)
            if k == 0 and part is not None:
                index = self._index("block", part, whole["type"], ptr)
            else:
                index = self._last = self._new(whole["type"])  # whole parts continue nothing
            self._whole(index, whole, ptr)
            if whole["type"] == "thinking" and not whole.get("text"):
                self._last = None  # a part that is only a signature: later reasoning is new

    def _whole(self, index: int, part: dict[str, Any], ptr: str) -> None:
        kind = part["type"]
        if kind in ("text", "thinking", "refusal") and set(part) <= {
            "type",
            "text",
            "signature",
            "origin",
        }:
            if part["text"]:
                self.events.append({"type": f"{kind}_delta", "index": index, "text": part["text"]})
                if self._texts is not None and kind == "text":
                    self._texts.setdefault(index, []).append(part["text"])
            if "signature" in part:
                self.events.append(
                    {"type": "signature", "index": index, "signature": part["signature"]}
                )
            return
        if kind == "tool_call" and set(part) <= {"type", "id", "name", "arguments"}:
            self._open(index, part.get("id"), part["name"], ptr)
            if part.get("arguments"):
                self.events.append(
                    {
                        "type": "tool_call_delta",
                        "index": index,
                        "arguments_delta": json.dumps(part["arguments"], ensure_ascii=False),
                    }
                )
            del self._open_calls[index]
            self.events.append({"type": "tool_call_end", "index": index})
            return
        self.events.append({"type": "part", "index": index, "part": part})

    def usage(self, value: Any, ptr: str) -> None:
        if type(value) is not dict:
            raise ConversionError("wrong_type", ptr, "usage is an object")
        if self.spec.explicit_start:
            self._ensure_started()  # before anything is read of it
        _merge(self._wire_usage, value)
        usage = self.spec.decode_usage(self.ctx, self._wire_usage, ptr)
        if type(usage) is not dict:
            return  # no count the format maps: nothing to say yet
        missing = [k for k in USAGE_REQUIRED if k not in usage]
        if missing:
            # A stream that started late (its first usage chunk lost): a count the canonical
            # Usage requires and the stream never gave is a reported zero, never a crash.
            usage = {**usage, **dict.fromkeys(missing, 0)}
            if not self._placeholders.issuperset(missing):
                self._placeholders.update(missing)
                self.ctx.loss(
                    ptr,
                    "placeholder_inserted",
                    f"{self.spec.format}: the stream has given no {', '.join(missing)}; "
                    "0 until it does",
                )
        if usage != self._usage:
            self._usage = usage
            self._ensure_started()
            self.events.append({"type": "usage", "usage": usage})

    def stop(self, value: Any, ptr: str) -> None:
        reason = self.spec.stop_to_canonical.get(value) if isinstance(value, str) else None
        if reason is None:
            reason = "other"
            self.ctx.loss(
                ptr,
                "stop_reason_approximated",
                f"{self.spec.format}: stop reason {value!r} is not in the table; read as other",
            )
        self._stop = reason
        self._close_calls()

    def stop_detail(self, value: Any, ptr: str) -> None:
        """A refinement of the stop reason (`stop_reasons.detail`), where its table knows it."""
        detail = self.spec.adapter.stop_detail
        if detail is not None and isinstance(value, str) and value in detail[1]:
            self._stop = detail[1][value]

    def _close_calls(self) -> None:
        self._flush_pieces()
        for part in self._held.open_keys():  # blocks the stop ends
            released = self._held.release(part, f"/{self._chunks - 1}")
            assert released is not None  # held: it is released
            self._read_block(part, *released)
        for index in list(self._open_calls):
            self.events.append({"type": "tool_call_end", "index": index})
        self._open_calls.clear()

    def complete(self) -> None:
        self._ensure_started()
        self._close_calls()
        stop = self._stop or "end"
        if stop == "end" and self.spec.adapter.infer_call and self._calls:
            stop = "call"  # the calls in the message say it
        event: Event = {"type": "message_complete", "stop_reason": stop}
        if self._usage is not None:
            event["usage"] = self._usage
        self.events.append(event)
        self.done = True

    def error(self, *, message: Any, code: Any = None, ptr: str) -> None:
        event: Event = {
            "type": "error",
            "error": {
                "code": "provider_error",
                "path": ptr,
                "message": message if isinstance(message, str) else json.dumps(message),
            },
        }
        if code is not None:
            event["provider_code"] = str(code)
        self.events.append(event)
        self.done = True


class StreamWriter:
    """Canonical events in, wire chunks out: `feed` each event."""

    def __init__(
        self,
        spec: StreamSpec,
        ctx: Context | None = None,
        origin: str | None = None,
        *,
        origin_endpoint: str | None = None,
        endpoint: str | None = None,
    ) -> None:
        """``origin`` names the format the events were read from: its reasoning is replayed
        here only where a whole response's would be (the format itself, or one its mapping
        names in `replay_from`); elsewhere it is dropped and reported. ``origin_endpoint`` and
        ``endpoint`` name where the stream came from and where this output goes (`vertex`,
        `gemini-api` …): reasoning signed at one endpoint is not replayed at another, as a
        whole response's is not (an unknown side counts as the same)."""
        self.spec = spec
        self.origin = origin
        self.origin_endpoint = origin_endpoint
        self.endpoint = endpoint
        adapter = spec.adapter
        # The layout facts the writer needs, read once a stream (not a block or an event).
        layout = adapter.layout
        self._format = layout.format
        self._own_reasoning = layout.own_reasoning
        self._replay_from = layout.replay_from
        self._by_name = layout.result_pairing == "name"
        self._signature_field = layout.signature_field
        self.ctx = ctx or Context(spec.format, kind="response")
        self.ctx.id_rule, self.ctx.name_rule = adapter.id_rule, adapter.name_rule
        self.done = False
        self._v: dict[str, Any] = {}
        self._started = False
        self._open: tuple[int, str, dict[str, Any]] | None = None  # index, kind, block vars
        self._closed: set[int] = set()
        self._dropped: set[int] = set()
        self._blocks = 0
        self._calls = 0
        self._pending: dict[int, list[Any]] = {}  # whole calls: [id, name, arguments text]
        self._defaulted: set[str] = set()
        self._events = 0
        self._usage: Any = None  # the canonical usage last written
        # Where signatures ride on the next block (`layout.signature_field`): the signature of
        # a signature-only thinking part, held back until that block is written.
        self._held: str | None = None
        self._first_text: int | None = None  # the first text part written (its index)
        self._cited: dict[int, int] = {}  # the citations written, by part
        self._sequence = 0
        # Bumped whenever the writer's vars or its open block change: a fused path's text
        # cache (`delta_text`) holds while it stays the same.
        self._version = 0
        self._cache: tuple[int, Around, tuple[str, str] | None] | None = None
        # Formats whose last chunk repeats the whole response fold the events as they pass.
        self._whole = Accumulator() if spec.whole_response else None

    def feed(self, event: Mapping[str, Any]) -> list[Any]:  # noqa: C901 - one branch per event type
        """The wire chunks one canonical event becomes."""
        ptr = f"/{self._events}"
        self._events += 1
        out: list[Any] = []
        kind = event.get("type")
        if kind == "loss":  # an earlier translation's: reported again, wherever it comes
            loss = event["loss"]
            self.ctx.loss(loss["pointer"], loss["code"], loss["reason"], loss.get("part_type"))
            return out
        if self.done:
            self.ctx.loss(ptr, "field_dropped", "an event after the end of the stream")
            return out
        if self._whole is not None and kind != "error":
            try:
                self._whole.feed(event)
            except StreamError as exc:
                raise ConversionError(exc.error.code, ptr, exc.error.message) from None
        if kind == "message_start":
            for key in ("id", "model"):
                if key in event:
                    self._v[key] = event[key]
                    self._version += 1
        elif kind == "usage":
            self._usage = event["usage"]
            self._v["usage"] = self.spec.encode_usage(self.ctx, event["usage"], ptr + "/usage")
            self._version += 1
            self._write("usage", {}, out)
        elif kind in ("text_delta", "thinking_delta", "refusal_delta"):
            block = self._block(event["index"], _DELTA_KINDS[kind], ptr, out)
            if block is not None and event["text"]:
                # The writer's vars in one merge (the stream's, the block's, the delta's).
                v = {**self._v, **block[1], "text": event["text"]}
                if self._held is not None and block[0] != "thinking":
                    v["signature"], self._held = self._held, None
                writer = self.spec.writers.get(_DELTA_KEYS[block[0]])
                if writer is not None:
                    self._emit(writer(v), out)
                if self.spec.whole_blocks:
                    block[1]["text"] += event["text"]
                    self._version += 1
        elif kind == "signature":
            self._signature(event, ptr, out)
        elif kind == "tool_call_start":
            self._call_start(event, ptr, out)
        elif kind == "tool_call_delta":
            self._call_delta(event, ptr, out)
        elif kind == "tool_call_end":
            self._call_end(event["index"], ptr, out)
        elif kind == "part":
            self._part(event["index"], dict(event["part"]), ptr, out)
        elif kind == "citation":
            self._citation(event, ptr, out)
        elif kind == "message_complete":
            self._complete(event, ptr, out)
        elif kind == "error":
            self._error(event, out)
        else:
            self.ctx.loss(ptr, "field_dropped", f"unknown stream event {kind!r}; skipped")
        return out

    # --- helpers ---------------------------------------------------------------------------

    def _write(self, key: str, extra: dict[str, Any], out: list[Any]) -> None:
        writer = self.spec.writers.get(key)
        if writer is not None:
            self._emit(writer({**self._v, **extra}), out)

    def _emit(self, chunks: list[Any], out: list[Any]) -> None:
        field = self.spec.sequence
        if field is not None:
            for chunk in chunks:
                chunk[field] = self._sequence
                self._sequence += 1
        out.extend(chunks)

    def _default(self, key: str, ptr: str) -> None:
        if key in self._v or key not in self.spec.defaults:
            return
        self._v[key] = self.spec.defaults[key]
        self._version += 1
        if key not in self._defaulted:
            self._defaulted.add(key)
            self.ctx.loss(
                ptr,
                "placeholder_inserted",
                f"{self.spec.format}: the stream carries no {key}; wrote {self._v[key]!r}",
            )

    def _ensure_started(self, ptr: str, out: list[Any]) -> None:
        if self._started:
            return
        self._started = True
        for key in self.spec.defaults:
            if key != "usage":
                self._default(key, ptr)
        writer = self.spec.writers.get("start")
        if writer is None:
            return
        chunks = writer(dict(self._v))
        if "usage" not in self._v and "usage" in self.spec.defaults:
            filled = writer({**self._v, "usage": self.spec.defaults["usage"]})
            if filled != chunks:  # the start needs a usage the stream has not given yet
                self._report_default("usage", ptr)
                chunks = filled
        self._emit(chunks, out)

    def _report_default(self, key: str, ptr: str) -> None:
        if key not in self._defaulted:
            self._defaulted.add(key)
            self.ctx.loss(
                ptr,
                "placeholder_inserted",
                f"{self.spec.format}: no {key} yet where the format needs one; "
                f"wrote {self.spec.defaults[key]!r}",
            )

    def _close(self, out: list[Any]) -> None:
        if self._open is not None:
            index, kind, block = self._open
            self._write(f"{kind}.close", block, out)
            self._closed.add(index)
            self._open = None
            self._version += 1

    def _block(
        self, index: int, kind: str, ptr: str, out: list[Any], extra: dict[str, Any] | None = None
    ) -> tuple[str, dict[str, Any]] | None:
        """The vars of the open wire block of part ``index``, opening it if needed."""
        if self._open is not None and self._open[0] == index:
            return kind, self._open[2]
        if index in self._dropped:
            return None
        if kind == "thinking" and not self._replayable(index, ptr):
            return None
        if f"{kind}.delta" not in self.spec.writers:
            self._dropped.add(index)
            self.ctx.loss(
                ptr, "part_dropped", f"{self.spec.format} cannot stream {kind} parts", kind
            )
            return None
        if index in self._closed:
            self._dropped.add(index)
            self.ctx.loss(
                ptr, "part_dropped", f"part {index} continues after its block closed; dropped"
            )
            return None
        self._ensure_started(ptr, out)
        self._close(out)
        if kind in ("thinking", "tool_call"):
            self._unhold(out)  # it cannot ride on these: its own block first
        block = {"index": self._blocks, "block_id": self._block_id(), **(extra or {})}
        if self.spec.whole_blocks:
            block["arguments" if kind == "tool_call" else "text"] = ""
            if kind == "text":
                block["citations"] = []  # the citations written on it, repeated at its end
        self._blocks += 1
        self._open = (index, kind, block)
        self._version += 1
        if kind == "text" and self._first_text is None:
            self._first_text = index
        self._write(f"{kind}.open", block, out)
        return kind, block

    def _citation(self, event: Mapping[str, Any], ptr: str, out: list[Any]) -> None:
        """A citation of a text part: written on its open block (or, where the format cites
        the message's text, as long as the part is the first text written, so its span in the
        content is its span in the part); reported where it cannot be."""
        index = event["index"]
        if index in self._dropped:
            return  # the part itself was reported
        encode = self.spec.encode_citation
        spec = self.spec
        problem = unwritable_citation(
            writes=encode is not None and "citation" in spec.writers,
            content_citations=spec.content_citations,
            index=index,
            first_text=self._first_text,
            open=None if self._open is None else self._open[0],
        )
        if problem is not None or encode is None:
            self.ctx.loss(ptr, "field_dropped", f"{spec.format}: {problem}; not carried")
            return
        wire = encode(self.ctx, event["citation"], ptr + "/citation")
        if wire is MISS:
            self.ctx.loss(
                ptr + "/citation",
                "parameter_dropped",
                f"{spec.format} cannot express this citation",
            )
            return
        block = self._open[2] if self._open is not None and self._open[0] == index else {}
        self._ensure_started(ptr, out)
        written = self._cited.get(index, 0)
        self._cited[index] = written + 1
        if "citations" in block:
            block["citations"].append(wire)
            self._version += 1
        self._write("citation", {**block, "citation": wire, "citation_index": written}, out)

    def _replayable(self, index: int, ptr: str) -> bool:
        """Whether streamed reasoning from ``origin`` may be written here (reported if not)."""
        if self.origin == self._format and same_endpoint(self.origin_endpoint, self.endpoint):
            return True
        if self.origin is None and not self._own_reasoning:
            return True
        if self.origin in self._replay_from and self.origin != self._format:
            self.ctx.loss(
                ptr,
                "field_dropped",
                f"{self.spec.format}: reasoning issued by {self.origin} is replayed; "
                "read back, it is bound to this format",
                "thinking",
            )
            return True
        self._dropped.add(index)
        issuer = self.origin or "no known provider"
        if self.origin == self._format:  # another endpoint of it
            issuer = f"{issuer} at {self.origin_endpoint!r}, not {self.endpoint!r},"
        self.ctx.loss(
            ptr,
            "thinking_not_replayable",
            f"{self.spec.format}: reasoning issued by {issuer} cannot be replayed; dropped",
            "thinking",
        )
        return False

    def _signature(self, event: Mapping[str, Any], ptr: str, out: list[Any]) -> None:
        index = event["index"]
        if index in self._dropped:
            return  # the part itself was reported
        unwritten = index not in self._closed and not (self._open and self._open[0] == index)
        if "thinking.signature" not in self.spec.writers:
            if unwritten:  # a thinking part that is nothing but its signature: all of it goes
                self._dropped.add(index)
                self.ctx.loss(
                    ptr,
                    "part_dropped",
                    f"{self.spec.format} cannot stream reasoning signatures",
                    "thinking",
                )
                return
            self.ctx.loss(
                ptr, "field_dropped", f"{self.spec.format} cannot stream reasoning signatures"
            )
            return
        field = self._signature_field
        if field is not None and unwritten:
            # A signature-only thinking part: the signature rides on the next block written.
            self._ensure_started(ptr, out)
            self._close(out)
            self._unhold(out)
            self._held = event["signature"]
            self._closed.add(index)
            return
        block = self._block(index, "thinking", ptr, out)
        if block is not None:
            self._write("thinking.signature", {**block[1], "signature": event["signature"]}, out)
            block[1]["signature"] = event["signature"]
            self._version += 1

    def _unhold(self, out: list[Any]) -> None:
        """A held signature with no block to ride on: on an empty text block of its own."""
        if self._held is None:
            return
        block = {
            "index": self._blocks,
            "block_id": self._block_id(),
            "text": "",
            "signature": self._held,
            "citations": [],
        }
        self._blocks += 1
        self._held = None
        for role in ("open", "delta", "close"):
            self._write(f"text.{role}", block, out)

    def _call_start(self, event: Mapping[str, Any], ptr: str, out: list[Any]) -> None:
        index = event["index"]
        if self.spec.whole_calls:
            self._pending[index] = [event["id"], event["name"], ""]
            return
        tool_id = TRANSFORMS["tool_id"].encode(self.ctx, ptr + "/id", event["id"])
        name = TRANSFORMS["tool_name"].encode(self.ctx, ptr + "/name", event["name"])
        extra = {"call": self._calls, "tool_id": tool_id, "name": name}
        if self._block(index, "tool_call", ptr, out, extra) is not None:
            self._calls += 1

    def _call_delta(self, event: Mapping[str, Any], ptr: str, out: list[Any]) -> None:
        index = event["index"]
        if index in self._pending:
            self._pending[index][2] += event["arguments_delta"]
            return
        if self._open is not None and self._open[0] == index:
            block = self._open[2]
            self._write("tool_call.delta", {**block, "arguments": event["arguments_delta"]}, out)
            if self.spec.whole_blocks:
                block["arguments"] += event["arguments_delta"]
                self._version += 1
        elif index not in self._dropped:
            self.ctx.loss(ptr, "field_dropped", f"arguments for call {index}, which is not open")

    def _call_end(self, index: int, ptr: str, out: list[Any]) -> None:
        pending = self._pending.pop(index, None)
        if pending is None:
            if self._open is not None and self._open[0] == index:
                self._close(out)
            return
        tool_id, name, text = pending
        try:
            arguments = read_json(text) if text.strip() else {}
        except InputError as exc:
            raise ConversionError(
                exc.code, ptr, f"the call's arguments are not JSON: {exc.message}"
            ) from None
        part = {"type": "tool_call", "id": tool_id, "name": name, "arguments": arguments}
        self._part(index, part, ptr, out)

    def _part(self, index: int, part: dict[str, Any], ptr: str, out: list[Any]) -> None:
        if part.get("type") not in self.spec.part_types:
            self.ctx.loss(
                ptr,
                "part_dropped",
                f"{self.spec.format} cannot stream {part.get('type')} parts",
                part.get("type"),
            )
            return
        origin = part.get("origin")
        if part.get("type") in BOUND_PART_TYPES and self.origin and not isinstance(origin, dict):
            bound_to = {"format": self.origin}
            if self.origin_endpoint is not None:
                bound_to["endpoint"] = self.origin_endpoint
            part = {**part, "origin": bound_to}
        origin = part.get("origin")
        bound = part.get("type") in BOUND_PART_TYPES  # else bound by the mapping (hosted tools)
        if (
            bound
            and isinstance(origin, dict)
            and origin.get("format") == self._format
            and same_endpoint(origin.get("endpoint"), self.endpoint)
        ):
            part = {k: v for k, v in part.items() if k != "origin"}  # it goes home: no loss
        else:  # replayed, as text, or dropped, as a whole response's would be (reported)
            settled = self._settle(part, ptr)
            if not settled or settled[0].get("type") not in self.spec.part_types:
                return
            part = settled[0]
        self._ensure_started(ptr, out)
        self._close(out)
        made_up = pairing.synthesized(self.spec.format, part.get("id"))
        if made_up and self._by_name:
            part = {k: v for k, v in part.items() if k != "id"}  # made up by reading: not sent
        result = self.spec.adapter.turns.encode_part(self.ctx, part, ptr + "/part")
        if result is MISS:
            return
        wire = result[1]
        field = self._signature_field
        if self._held is not None and type(wire) is dict and field not in wire:
            wire, self._held = {**wire, str(field): self._held}, None
        self._unhold(out)
        block = {"index": self._blocks, "block_id": self._block_id(), "block": wire}
        self._blocks += 1
        self._closed.add(index)
        self._write("part", block, out)

    def _settle(self, part: dict[str, Any], ptr: str) -> list[Any]:
        """The part as the format's replay rules settle it, for this output's endpoint (the
        context, shared with the reader, names the one the stream came from)."""
        ctx = self.ctx
        came_from, ctx.endpoint = ctx.endpoint, self.endpoint
        try:
            settled, _ = self.spec.adapter.turns.replayable(ctx, [part], ptr + "/part")
        finally:
            ctx.endpoint = came_from
        return settled

    def _block_id(self) -> str:
        return f"{self._v.get('id', self.spec.format)}_{self._blocks}"

    def _complete(self, event: Mapping[str, Any], ptr: str, out: list[Any]) -> None:
        self._ensure_started(ptr, out)
        for index in list(self._pending):
            self._call_end(index, ptr, out)
        self._close(out)
        self._unhold(out)
        stop = event["stop_reason"]
        if stop in self.spec.stop_approximate and not (
            stop == "call" and self.spec.adapter.infer_call
        ):
            self.ctx.loss(
                ptr + "/stop_reason",
                "stop_reason_approximated",
                f"{self.spec.format} has no stop reason {stop!r}; "
                f"wrote {self.spec.stop_from_canonical[stop]!r}",
            )
        if "usage" in event and event["usage"] != self._usage:
            self._v["usage"] = self.spec.encode_usage(self.ctx, event["usage"], ptr + "/usage")
            self._version += 1
        elif "usage" in event:
            pass  # the last usage event said it (and reported what it could not carry)
        elif "usage" in self.spec.defaults and "usage" not in self._v:
            self._report_default("usage", ptr)
            self._v["usage"] = self.spec.defaults["usage"]
            self._version += 1
        wire_stop = self.spec.stop_from_canonical[stop]
        extra: dict[str, Any] = {"stop_reason": wire_stop}
        if self._whole is not None:
            extra["response"] = self._response()
        key = f"complete.{wire_stop}"
        self._write(key if key in self.spec.writers else "complete", extra, out)
        self.done = True

    def _response(self) -> Any:
        """The whole response the stream carried, as this format's response body.

        Its parts went out in the stream's own chunks, which reported what could not be
        carried; writing them again here reports the same losses, so this context is not kept.
        """
        assert self._whole is not None
        response = self._whole.response(self.origin, self.origin_endpoint)
        if "id" in self._v:
            response["id"] = self._v["id"]
        if "model" in self._v:
            response["model"] = self._v["model"]
        ctx = Context(
            self.spec.format, kind="response", thinking=self.ctx.thinking, endpoint=self.endpoint
        )
        return encode_response(ctx, self.spec.adapter, response)

    def _error(self, event: Mapping[str, Any], out: list[Any]) -> None:
        if self._held is not None:
            self._close(out)
            self._unhold(out)
        code = event.get("provider_code") or event["error"]["code"]
        self._write("error", {"code": code, "message": event["error"]["message"]}, out)
        self.done = True


# --- fused paths ----------------------------------------------------------------------------
# A generated fused path (`generated/python/streams/fused.py`) reads a chunk of one format and
# writes the framed text of another at once, for a chunk that only continues a part. These say
# whether the state allows it and, when it does, make the moves the general path would make
# (the reader's and the writer's counters, the part text continues) and write the target's
# delta; None leaves the chunk, untouched, to the general path.


def delta_text(
    r: StreamReader, w: StreamWriter, kind: str, key: Any, text: Any, *, around: Around
) -> str | None:
    """A text, thinking or refusal delta (`StreamReader.text` then `StreamWriter.feed`) that
    continues keyed part ``key``, already of ``kind``, whose block is open in the target."""
    if type(text) is not str or not text or r.done or w.done or w._held is not None:
        return None
    if type(key) is not int and type(key) is not str:
        return None
    index = r._keys.get(("block", key))
    if index is None or r._kinds[index] != kind:
        return None
    block = w._open
    if block is None or block[0] != index or block[1] != kind:
        return None
    r._chunks += 1
    r._last = index
    w._events += 1
    return _delta_text(w, block[2], "text", text, around)


def call_text(
    r: StreamReader, w: StreamWriter, key: Any, fragment: Any, *, around: Around
) -> str | None:
    """A fragment of a call's arguments (`StreamReader.call_delta` then the writer) for open
    call ``key``, whose block is open in the target."""
    if type(fragment) is not str or not fragment or r.done or w.done:
        return None
    if type(key) is not int and type(key) is not str:
        return None
    index = r._keys.get(("call", key))
    if index is None or index not in r._open_calls or index in w._pending:
        return None
    block = w._open
    if block is None or block[0] != index:
        return None
    r._chunks += 1
    w._events += 1
    return _delta_text(w, block[2], "arguments", fragment, around)


def _delta_text(
    w: StreamWriter, block: dict[str, Any], name: str, delta: str, around: Around
) -> str:
    """The target's text of one delta: the text around it is the same while the writer's vars
    and open block are (`_version`), so it is computed once for them."""
    cache = w._cache
    if cache is None or cache[0] != w._version or cache[1] is not around:
        cache = w._cache = (w._version, around, around({**w._v, **block, name: delta}))
    parts = cache[2]
    return "" if parts is None else parts[0] + encode_basestring(delta) + parts[1]
