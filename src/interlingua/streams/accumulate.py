"""Fold canonical stream events into a canonical Message.

Providers stream differently; their translators (issue 5) all emit the same canonical events
(schema `StreamEvent`). The accumulator turns any such sequence into the message the stream
carried: `partial` while it runs, `complete` after `message_complete`, `error` after `error`.
Every event must fit what came before; one that does not raises `StreamError` with a coded
finding, so a broken stream is never silently repaired into a plausible message.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel

from interlingua.conversion.adapters.documents import SCHEMA_VERSION, UNKNOWN_MODEL
from interlingua.conversion.reading import InputError, read_json
from interlingua.documents.validation import is_error, validate
from interlingua.generated.models import Message, ValidationError
from interlingua.generated.parts import BOUND_PART_TYPES

_KIND_OF_EVENT = {
    "text_delta": "text",
    "thinking_delta": "thinking",
    "refusal_delta": "refusal",
    "signature": "thinking",
}


class StreamError(Exception):
    """An event that cannot be folded in; ``error`` says which rule it broke and where."""

    def __init__(self, code: str, path: str, message: str) -> None:
        super().__init__(f"{code} at {path or '/'}: {message}")
        self.error = ValidationError.model_validate(
            {"code": code, "path": path, "message": message}
        )


class Accumulator:
    """Feed events in order with `feed`; read the message so far with `message()`."""

    def __init__(self, provider: str | None = None) -> None:
        """``provider`` (`anthropic`, `openai` …), when known, completes the message's metadata:
        `llm.provider` and the canonical `completion.model` (`<provider>:<model>`)."""
        self._provider = provider
        self._parts: dict[int, dict[str, Any]] = {}
        self._arguments: dict[int, str] = {}
        self._open_calls: set[int] = set()
        self._completion: dict[str, Any] = {"status": "partial"}
        self._model: str | None = None
        self._events = 0

    @property
    def done(self) -> bool:
        """True once the message completed or failed; no further event is accepted."""
        status: str = self._completion["status"]
        return status != "partial"

    def feed(self, event: BaseModel | Mapping[str, Any]) -> None:
        data = (
            event.model_dump(mode="json", exclude_none=True)
            if isinstance(event, BaseModel)
            else event
        )
        where = f"/{self._events}"
        errors = [f for f in validate(data, "StreamEvent") if is_error(f)]
        if errors:
            raise StreamError(errors[0].code, where + errors[0].path, errors[0].message)
        kind = data["type"]
        if kind == "loss":  # a translation's report: it builds nothing, wherever it comes
            self._events += 1
            return
        if self.done:
            raise StreamError("stream_out_of_order", where, "event after the message completed")
        self._events += 1
        if kind == "message_start":
            self._start(data)
        elif kind in _KIND_OF_EVENT:
            self._delta(data, _KIND_OF_EVENT[kind], where)
        elif kind == "tool_call_start":
            self._call_start(data, where)
        elif kind in ("tool_call_delta", "tool_call_end"):
            self._call(data, kind, where)
        elif kind == "part":
            self._part(data, where)
        elif kind == "citation":
            self._cite(data, where)
        elif kind == "usage":
            self._completion["usage"] = data["usage"]
        elif kind == "message_complete":
            self._finish(data, where)
        else:  # error
            self._completion["status"] = "error"

    def _start(self, data: Mapping[str, Any]) -> None:
        if "id" in data:
            self._completion["response_id"] = data["id"]
        if "created" in data:
            self._completion["created"] = data["created"]
        self._model = data.get("model", self._model)

    def _delta(self, data: Mapping[str, Any], kind: str, where: str) -> None:
        index = data["index"]
        part = self._parts.setdefault(index, {"type": kind, "text": ""})
        if part["type"] != kind:
            raise StreamError(
                "stream_out_of_order", where, f"part {index} is {part['type']}, not {kind}"
            )
        if data["type"] == "signature":
            part["signature"] = data["signature"]  # signatures arrive whole
        else:
            part["text"] += data["text"]

    def _call_start(self, data: Mapping[str, Any], where: str) -> None:
        index = data["index"]
        if index in self._parts:
            raise StreamError("stream_out_of_order", where, f"part {index} was already started")
        self._parts[index] = {
            "type": "tool_call",
            "id": data["id"],
            "name": data["name"],
            "arguments": {},
        }
        self._arguments[index] = ""
        self._open_calls.add(index)

    def _call(self, data: Mapping[str, Any], kind: str, where: str) -> None:
        index = data["index"]
        if index not in self._open_calls:
            raise StreamError("stream_out_of_order", where, f"no open tool call at part {index}")
        if kind == "tool_call_delta":
            self._arguments[index] += data["arguments_delta"]
            return
        self._open_calls.discard(index)
        text = self._arguments[index].strip()
        try:
            arguments = read_json(text) if text else {}
        except InputError as exc:
            raise StreamError(
                exc.code,
                f"/content/{index}/arguments",
                "the arguments are not JSON: " + exc.message,
            ) from None
        if not isinstance(arguments, dict):
            raise StreamError(
                "wrong_type", f"/content/{index}/arguments", "the arguments are not a JSON object"
            )
        self._parts[index]["arguments"] = arguments

    def _part(self, data: Mapping[str, Any], where: str) -> None:
        index = data["index"]
        if index in self._parts:
            raise StreamError("stream_out_of_order", where, f"part {index} was already started")
        self._parts[index] = dict(data["part"])

    def _cite(self, data: Mapping[str, Any], where: str) -> None:
        index = data["index"]
        part = self._parts.get(index)
        if part is None or part["type"] != "text":
            raise StreamError("stream_out_of_order", where, f"part {index} is not a text part")
        part["citations"] = [*part.get("citations", []), dict(data["citation"])]

    def _finish(self, data: Mapping[str, Any], where: str) -> None:
        if self._open_calls:
            raise StreamError(
                "stream_out_of_order",
                where,
                f"tool calls still open at parts {sorted(self._open_calls)}",
            )
        self._completion["status"] = "complete"
        self._completion["stop_reason"] = data["stop_reason"]
        if "usage" in data:
            self._completion["usage"] = data["usage"]

    def message(self) -> Message:
        """The message so far (status `partial` until the stream completes)."""
        completion = dict(self._completion)
        llm: dict[str, Any] = {}
        if self._model is not None:
            llm["model_id"] = self._model
        if self._provider is not None:
            llm["provider"] = self._provider
            if self._model is not None:
                completion["model"] = f"{self._provider}:{self._model}"
        extensions: dict[str, Any] = {"completion": completion}
        if llm:
            extensions["llm"] = llm
        content = [self._parts[i] for i in sorted(self._parts)]
        return Message.model_validate(
            {"role": "assistant", "content": content, "extensions": extensions}
        )

    def response(self, origin: str | None = None, endpoint: str | None = None) -> dict[str, Any]:
        """The canonical `Response` the stream carried, as JSON: what reading the same
        provider's non-streamed body gives (without its round-trip data). ``origin`` names the
        format the stream was read from (``endpoint``, where it was served): its reasoning
        parts are bound to it, as reading a body binds them."""
        completion = self._completion
        out: dict[str, Any] = {
            "schema_version": SCHEMA_VERSION,
            "model": self._model or UNKNOWN_MODEL,
            "stop_reason": completion.get("stop_reason", "error"),
        }
        if "response_id" in completion:
            out["id"] = completion["response_id"]
        if "created" in completion:
            out["created"] = completion["created"]
        if "usage" in completion:
            out["usage"] = completion["usage"]
        content = []
        for i in sorted(self._parts):
            part = dict(self._parts[i])
            if origin is not None and part["type"] in BOUND_PART_TYPES and "origin" not in part:
                part["origin"] = {
                    "format": origin,
                    **({"model": self._model} if self._model else {}),
                    **({"endpoint": endpoint} if endpoint else {}),
                }
            content.append(part)
        out["message"] = {"role": "assistant", "content": content}
        return out


def accumulate(events: Any, provider: str | None = None) -> Message:
    """The message an event sequence carries."""
    accumulator = Accumulator(provider)
    for event in events:
        accumulator.feed(event)
    return accumulator.message()
