"""Reading a format's stream: wire chunks in, canonical stream events out (`StreamReader`),
the state between chunks kept as `stream_spec.py` describes."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

from interlingua.conversion import Context, ConversionError
from interlingua.conversion.adapters import pairing
from interlingua.conversion.adapters.held_blocks import HeldBlocks
from interlingua.conversion.adapters.pieces import ArgumentPieces
from interlingua.conversion.adapters.runtime import MISS, carries
from interlingua.conversion.adapters.stream_citations import (
    cited_part,
    decode_citation,
    grounding_citations,
)
from interlingua.conversion.adapters.stream_spec import (
    DELTA_EVENTS,
    Event,
    StreamSpec,
)
from interlingua.conversion.transforms.times import UNIX_TIME
from interlingua.generated.models import Usage
from interlingua.generated.validators import VALIDATORS

# Whether a string is a canonical Timestamp (RFC 3339 with an offset), as the schema says.
_IS_TIMESTAMP: Final = VALIDATORS["Timestamp"][0]


# The counts a canonical Usage always has.
USAGE_REQUIRED = tuple(name for name, f in Usage.model_fields.items() if f.is_required())


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


def once_per_field(ctx: Context, before: int, ptr: str, seen: set[str]) -> None:
    """Keep, of the losses reported since ``before`` under ``ptr`` (a stream's usage, read or
    written again on each chunk that repeats it), only those of a field not reported yet
    (``seen``, by the pointer below ``ptr``): each is reported at the chunk that first held it."""
    losses = ctx.losses
    if len(losses) <= before:
        return
    fresh = losses[before:]
    del losses[before:]
    for loss in fresh:
        field = loss.pointer[len(ptr) :]
        if field not in seen:
            seen.add(field)
            losses.append(loss)


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
        # The open calls in the order they opened, each with the id and name it opened with.
        self._open_calls: dict[int, tuple[str, str]] = {}
        self._calls = 0
        self._started = False
        self._id: str | None = None
        self._wire_usage: dict[str, Any] = {}
        self._usage: Any = None
        self._usage_unread: set[str] = set()  # usage fields reported as not carried
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

    def finish(self, marked: bool = False) -> list[Event]:
        """The events the end of the input implies (a completion, or a truncation error).
        ``marked``: the format's end marker ended it (`[DONE]`), so the stream is whole even
        if no stop reason came (Snowflake's recorded stream sends none): a message that began
        completes with stop reason `other`, reported."""
        if not self.done:
            if self._stop is None and marked and self._started:
                self._stop = "other"
                self.ctx.loss(
                    f"/{self._chunks}",
                    "stop_reason_approximated",
                    f"{self.spec.format}: the stream ended with {self.spec.done} but gave no "
                    "stop reason; read as other",
                )
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

    def start(
        self, *, id: Any, model: Any, created: Any = None, created_at: Any = None, ptr: str
    ) -> None:
        if self._started:
            return
        event: Event = {"type": "message_start"}
        if isinstance(id, str) and id:
            event["id"] = self._id = id
        if isinstance(model, str) and model:
            event["model"] = self.ctx.model = model
        if created is not None:  # seconds since the epoch, as a timestamp
            event["created"] = UNIX_TIME.decode(self.ctx, created, ptr)
        elif isinstance(created_at, str) and created_at:  # a timestamp already
            if not _IS_TIMESTAMP(created_at):
                raise ConversionError("pattern_mismatch", ptr, "a time is an RFC 3339 timestamp")
            event["created"] = created_at
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

    def drop(self, ptr: str, reason: str, value: Any) -> None:
        if carries(value):
            self.ctx.loss(ptr, "field_dropped", f"{self.spec.format}: {reason}")

    def _delta(self, kind: str, key: Any, text: str, ptr: str) -> None:
        _check_key(key, ptr)
        if not text and (key is None or ("block", key) in self._keys):
            return  # an empty delta adds nothing (it only opens a keyed part, at its start)
        index = self._index("block", key, kind, ptr)
        self.events.append({"type": DELTA_EVENTS[kind], "index": index, "text": text})
        if self._texts is not None and kind == "text":
            self._texts.setdefault(index, []).append(text)

    def signature(self, *, part: Any, signature: Any, ptr: str) -> None:
        index = self._index("block", part, "thinking", ptr)
        self.events.append(
            {"type": "signature", "index": index, "signature": _text(signature, ptr)}
        )

    def call_start(self, *, part: Any, name: Any, id: Any = None, ptr: str) -> None:
        index = self._index("call", part, "tool_call", ptr)
        opened = self._open_calls.get(index)
        if opened is not None:
            # The same header again (OpenRouter's Kimi K2 repeats a call's index, id and name
            # with its arguments): the call goes on. Another id or name is another call.
            if id is not None and opened == (id, name):
                return
            raise ConversionError("stream_out_of_order", ptr, f"call {index} started twice")
        self._open(index, id, _text(name, ptr), ptr)

    def _open(self, index: int, id: Any, name: str, ptr: str) -> None:
        if id is None:
            id = pairing.synthesized_id(
                self.spec.format, pairing.response_seed(self._id), self._calls
            )
        self._calls += 1
        id = _text(id, ptr)
        self._open_calls[index] = (id, name)
        self.events.append({"type": "tool_call_start", "index": index, "id": id, "name": name})

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
        if part is None:  # the call just started (a format's one call a turn)
            last = self._last
            index = last if last is not None and last in self._open_calls else None
        else:
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
            # A chunk is not held to the wire schema first, as a body is: a text that is no
            # string is refused here, where it would become an event.
            text = _text(part["text"], ptr)
            if text:
                self.events.append({"type": f"{kind}_delta", "index": index, "text": text})
                if self._texts is not None and kind == "text":
                    self._texts.setdefault(index, []).append(text)
            if "signature" in part:
                signature = _text(part["signature"], ptr)
                self.events.append({"type": "signature", "index": index, "signature": signature})
            return
        if kind == "tool_call" and set(part) <= {"type", "id", "name", "arguments", "free_form"}:
            if "free_form" in part:
                # A stream's call events hold arguments only: the text goes as the one
                # argument `input`, as a format without free-form tools takes it.
                self.ctx.loss(
                    ptr,
                    "field_dropped",
                    "a streamed call is a function's: the free-form text goes as its one "
                    "argument `input`",
                    "tool_call",
                )
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
        before = len(self.ctx.losses)
        usage = self.spec.decode_usage(self.ctx, self._wire_usage, ptr)
        # The usage so far is read again on each chunk.
        once_per_field(self.ctx, before, ptr, self._usage_unread)
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
        # A name, or its number in the provider's enum (`stop_reasons.numbers`: Vertex AI)
        table = self.spec.stop_to_canonical
        reason = table.get(value) if type(value) is str or type(value) is int else None
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
