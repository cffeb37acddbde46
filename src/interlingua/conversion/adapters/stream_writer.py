"""Writing a format's stream: canonical stream events in, wire chunks out (`StreamWriter`), and
the fused paths a generated per-chunk converter calls (`delta_text`, `call_text`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from json.encoder import encode_basestring
from typing import Any

from interlingua.conversion import Context, ConversionError
from interlingua.conversion.adapters import pairing
from interlingua.conversion.adapters.documents import encode_response
from interlingua.conversion.adapters.models import same_endpoint
from interlingua.conversion.adapters.runtime import MISS
from interlingua.conversion.adapters.stream_citations import (
    unwritable_citation,
)
from interlingua.conversion.adapters.stream_reader import StreamReader, once_per_field
from interlingua.conversion.adapters.stream_spec import (
    DELTA_KEYS,
    DELTA_KINDS,
    StreamSpec,
)
from interlingua.conversion.reading import InputError, read_json
from interlingua.conversion.transforms import TRANSFORMS
from interlingua.conversion.transforms.times import UNIX_TIME
from interlingua.generated.parts import BOUND_PART_TYPES
from interlingua.streams.accumulate import Accumulator, StreamError

# A target's delta text around the delta itself (`a_*`), or None when it writes nothing.
Around = Callable[[dict[str, Any]], "tuple[str, str] | None"]


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
        self._usage_dropped: set[str] = set()  # usage fields reported as having no place
        # Where signatures ride on the next block (`layout.signature_field`): the signature of
        # a signature-only thinking part, held back until that block is written.
        self._held: str | None = None
        self._first_text: int | None = None  # the first text part written (its index)
        self._cited: dict[int, int] = {}  # the citations written, by part
        # A web page's citation of the open text block that names no span (Anthropic's web
        # search): it supports the whole block, whose length is known when the block closes.
        self._spanless: list[tuple[Mapping[str, Any], str]] = []
        self._text_length = 0  # code points written to the open text block
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
            if "created" in event:  # templates take seconds, or the timestamp itself
                self._v["created"] = UNIX_TIME.encode(self.ctx, ptr + "/created", event["created"])
                self._v["created_at"] = event["created"]
                self._version += 1
        elif kind == "usage":
            self._usage = event["usage"]
            self._v["usage"] = self._encode_usage(event["usage"], ptr + "/usage")
            self._version += 1
            self._write("usage", {}, out)
        elif kind in ("text_delta", "thinking_delta", "refusal_delta"):
            block = self._block(event["index"], DELTA_KINDS[kind], ptr, out)
            if block is not None and event["text"]:
                # The writer's vars in one merge (the stream's, the block's, the delta's).
                v = {**self._v, **block[1], "text": event["text"]}
                if self._held is not None and block[0] != "thinking":
                    v["signature"], self._held = self._held, None
                writer = self.spec.writers.get(DELTA_KEYS[block[0]])
                if writer is not None:
                    self._emit(writer(v), out)
                if block[0] == "text":
                    self._text_length += len(event["text"])
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

    def _encode_usage(self, usage: Any, ptr: str) -> Any:
        """The target's usage. A stream gives its usage again and again (Gemini's on every
        chunk): a field the target has no place for is reported once, where it first came."""
        before = len(self.ctx.losses)
        wire = self.spec.encode_usage(self.ctx, usage, ptr)
        once_per_field(self.ctx, before, ptr, self._usage_dropped)
        return wire

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
            held, self._spanless = self._spanless, []
            for citation, ptr in held:  # the whole block's span, now that it is known
                whole = {**citation, "span": {"start": 0, "end": self._text_length}}
                self._put_citation(index, whole, ptr, out)
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
        self._text_length = 0
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
        citation = event["citation"]
        if (
            citation.get("type") == "url"
            and "span" not in citation
            and self._open is not None
            and self._open[0] == index
            and self._open[1] == "text"
        ):
            self._spanless.append((citation, ptr))  # written when the block closes
            return
        self._put_citation(index, citation, ptr, out)

    def _put_citation(
        self, index: int, citation: Mapping[str, Any], ptr: str, out: list[Any]
    ) -> None:
        """Write a citation of part ``index`` (reported where the format cannot express it)."""
        encode = self.spec.encode_citation
        assert encode is not None  # `_citation` asked
        wire = encode(self.ctx, citation, ptr + "/citation")
        if wire is MISS:
            self.ctx.loss(
                ptr + "/citation",
                "parameter_dropped",
                f"{self.spec.format} cannot express this citation",
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
            self._v["usage"] = self._encode_usage(event["usage"], ptr + "/usage")
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
    if kind == "text":
        w._text_length += len(text)
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
