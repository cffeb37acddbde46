"""Tool calls paired with their results, in any canonical document.

>>> from interlingua import tool_exchanges
>>> messages = [
...     {"role": "assistant", "content": [
...         {"type": "tool_call", "id": "c1", "name": "lookup", "arguments": {"q": "x"}},
...         {"type": "tool_call", "id": "c2", "name": "lookup", "arguments": {"q": "y"}}]},
...     {"role": "tool", "content": [
...         {"type": "tool_result", "tool_call_id": "c1", "content": []}]},
... ]
>>> [(x.id, x.status) for x in tool_exchanges(messages)]
[('c1', 'answered'), ('c2', 'unanswered')]

Pairing is by id, the canonical form's only link between a call and its result (formats that
pair by tool name or position get their ids when read). Each exchange says where its call and
its result are (JSON pointers into the canonical document) and what became of the call:
``answered``, ``failed`` (the result is an error), ``unanswered``; a result that answers no
earlier call is an ``orphan``, a second result for one call a ``duplicate``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal

Status = Literal["answered", "failed", "unanswered", "orphan", "duplicate"]
PAIRED: frozenset[str] = frozenset({"answered", "failed"})


@dataclass(frozen=True)
class ToolExchange:
    """One tool call and what answered it (or one result that answers nothing)."""

    id: str
    status: Status
    name: str | None = None
    arguments: Any = None
    call: str | None = None  # pointer of the call part
    result: str | None = None  # pointer of the result part
    content: tuple[Any, ...] = ()  # the result's parts

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "status": self.status}
        if self.name is not None:
            out["name"] = self.name
        if self.call is not None:
            out["arguments"] = self.arguments
            out["call"] = self.call
        if self.result is not None:
            out["result"] = self.result
            out["content"] = list(self.content)
        return out


def _messages(document: Any) -> Iterator[tuple[str, Any]]:
    """The messages of a Conversation, a Response, a list of Messages or one Message, with
    their pointers."""
    if isinstance(document, list):
        for i, message in enumerate(document):
            yield f"/{i}", message
    elif isinstance(document, Mapping) and isinstance(document.get("messages"), list):
        for i, message in enumerate(document["messages"]):
            yield f"/messages/{i}", message
    elif isinstance(document, Mapping) and isinstance(document.get("message"), Mapping):
        yield "/message", document["message"]
    elif isinstance(document, Mapping):
        yield "", document


def tool_exchanges(document: Any) -> list[ToolExchange]:
    """Every tool call of a canonical document with its result, in the order of the calls;
    results that answer no call come where they stand."""
    found: list[ToolExchange] = []
    open_calls: dict[str, int] = {}  # call id → position in `found`
    for where, message in _messages(document):
        if not isinstance(message, Mapping):
            continue
        content = message.get("content")
        if not isinstance(content, list):
            continue
        for j, part in enumerate(content):
            if not isinstance(part, Mapping):
                continue
            at = f"{where}/content/{j}"
            if part.get("type") == "tool_call" and isinstance(part.get("id"), str):
                open_calls[part["id"]] = len(found)
                found.append(
                    ToolExchange(
                        part["id"],
                        "unanswered",
                        name=part.get("name"),
                        arguments=part.get("arguments"),
                        call=at,
                    )
                )
            elif part.get("type") == "tool_result" and isinstance(part.get("tool_call_id"), str):
                found += _answer(found, open_calls, part, at)
    return found


def _answer(
    found: list[ToolExchange], open_calls: dict[str, int], part: Mapping[str, Any], at: str
) -> list[ToolExchange]:
    """Pair a result with its call in ``found``; the exchanges to add when it pairs with none."""
    call_id: str = part["tool_call_id"]
    parts = part.get("content")
    content = tuple(parts) if isinstance(parts, list) else ()  # a malformed result: no parts
    index = open_calls.get(call_id)
    if index is None:
        return [ToolExchange(call_id, "orphan", name=part.get("name"), result=at, content=content)]
    call = found[index]
    if call.status != "unanswered":
        return [ToolExchange(call_id, "duplicate", name=call.name, result=at, content=content)]
    status: Status = "failed" if part.get("is_error") else "answered"
    found[index] = ToolExchange(call.id, status, call.name, call.arguments, call.call, at, content)
    return []
