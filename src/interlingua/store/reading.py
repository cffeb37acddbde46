"""Reading a file into sessions to import: any format, detected or named.

A ``.json`` file is one document (a request, a response, or stored turns) and becomes one
session. A JSON Lines file is read line by line: a line holding one turn joins the session its
``session_id`` names (the file's own session when it names none), so a transcript or an
agent's memory kept a turn per line is one session; a line holding a whole document is a
session of its own. A line or message that cannot be read, converted or validated is refused
with its coded error, JSON pointer and line number; the rest of the file still imports.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from interlingua.conversion import ConversionError
from interlingua.conversion.converter import canonical_messages, kinds, to_canonical
from interlingua.conversion.detector import readings
from interlingua.conversion.reading import DEFAULT_MAX_BYTES, InputError, read_json
from interlingua.documents.model_ids import message_model
from interlingua.documents.validation import is_error, validate

AUTO = "auto"
CONTAINERS = ("messages", "message")  # where a canonical document keeps its messages


@dataclass(frozen=True)
class Refusal:
    """A line or message left out of an import, with its coded error; or (in a session's
    `losses`) something reading it did not carry, with its loss code."""

    code: str
    path: str
    message: str
    line: int | None = None

    def as_json(self) -> dict[str, Any]:
        record: dict[str, Any] = {"code": self.code, "path": self.path, "message": self.message}
        if self.line is not None:
            record["line"] = self.line
        return record


@dataclass
class IncomingMessage:
    """One canonical message to store, with what the store derives from its document."""

    message: dict[str, Any]
    line: int | None = None
    model: str | None = None  # canonical `<provider>:<model>` id
    usage: dict[str, Any] | None = None


@dataclass
class IncomingSession:
    """The messages one import transaction writes into one session."""

    source: str
    session_id: str | None = None  # None: a new session, id generated
    source_format: str | None = None
    source_kind: str | None = None
    envelope: dict[str, Any] | None = None  # see `envelope_of`
    messages: list[IncomingMessage] = field(default_factory=list)
    digest_parts: list[bytes] = field(default_factory=list)
    losses: list[Refusal] = field(default_factory=list)  # what reading did not carry

    @property
    def digest(self) -> str:
        """What identifies this piece of the source: the same bytes imported again are the
        same import."""
        sha = hashlib.sha256(self.source.encode())
        for part in self.digest_parts:
            sha.update(len(part).to_bytes(8, "big"))
            sha.update(part)
        return sha.hexdigest()


@dataclass
class ReadResult:
    sessions: list[IncomingSession]
    refused: list[Refusal]


def envelope_of(document: Any) -> dict[str, Any]:
    """What export needs besides the messages to write ``document`` back: its shape (one
    message, a list, or the key an object keeps them under) and the rest of the object."""
    if type(document) is list:
        return {"shape": "list"}
    if type(document) is dict:
        for key in CONTAINERS:
            if key in document:
                rest = {k: v for k, v in document.items() if k != key}
                return {"shape": key, "document": rest}
    return {"shape": "one"}


def rebuild(envelope: dict[str, Any] | None, messages: list[Any]) -> Any:
    """The canonical document ``envelope_of`` took apart, with ``messages`` back in it."""
    shape = (envelope or {}).get("shape", "list")
    if shape == "list":
        return messages
    if shape == "one" and len(messages) == 1:
        return messages[0]
    if shape == "message" and len(messages) == 1:
        return {**envelope["document"], "message": messages[0]}  # type: ignore[index]
    if shape == "messages":
        return {**envelope["document"], "messages": messages}  # type: ignore[index]
    return messages  # messages were refused or added: the shape no longer holds them


def _try_readings(
    payload: Any, tries: Iterable[tuple[str, str]], line: int | None = None
) -> tuple[str, str, Any, list[Refusal]] | ConversionError:
    """The first reading that converts without a loss, else the first that converts (its
    losses reported, never silent): (format, kind, canonical document, losses), or the
    first reading's coded error."""
    first: ConversionError | None = None
    lossy: tuple[str, str, Any, list[Refusal]] | None = None
    for fmt, kind in tries:
        try:
            result = to_canonical(payload, fmt, kind)
        except ConversionError as exc:
            first = first or exc
            continue
        losses = [Refusal(x.code, x.pointer, x.reason, line) for x in result.losses]
        if not losses:
            return fmt, kind, result.output, losses
        lossy = lossy or (fmt, kind, result.output, losses)
    if lossy is not None:
        return lossy
    return first or ConversionError("unknown_format", "", "no format reads this document")


def _candidates(payload: Any, source: str, preferred: str | None) -> list[tuple[str, str]]:
    """The readings to try, best first. When none validates but a format is known (named,
    or the one the file's other lines read as), its readings are tried anyway: converting
    gives the precise coded error and pointer."""
    among = None if source == AUTO else [source]
    tries = readings(payload, among=among)
    if preferred is not None:  # the format the file's other turns read as goes first
        tries.sort(key=lambda t: t[0] != preferred)  # stable: kinds keep their order
    fallback = preferred or (None if source == AUTO else source)
    if not tries and fallback is not None:
        order = sorted(kinds(fallback), key=lambda k: k != ("messages" if preferred else "request"))
        tries = [(fallback, kind) for kind in order]
    return tries


def _messages_of(
    document: Any, fmt: str, kind: str, line: int | None, refused: list[Refusal]
) -> list[IncomingMessage]:
    """The valid messages of a canonical document; each invalid one is refused."""
    listed = canonical_messages(document) if kind == "messages" else []
    if kind == "request":
        listed = document["messages"]
    elif kind == "response":
        listed = [document["message"]]
    pointer = {"request": "/messages", "messages": "/messages" if type(document) is dict else ""}
    base = "/message" if kind == "response" else pointer.get(kind, "")
    found = []
    for i, message in enumerate(listed):
        at = (
            base if kind == "response" or envelope_of(document)["shape"] == "one" else f"{base}/{i}"
        )
        if kind == "response":  # in its Response: a refusal's empty turn is waived there
            errors = [f for f in validate(document, type="Response") if is_error(f)]
            at = ""
        else:
            errors = [f for f in validate(message, type="Message") if is_error(f)]
        if errors:
            refused.extend(Refusal(e.code, at + e.path, e.message, line) for e in errors)
            continue
        usage = (message.get("extensions") or {}).get("completion", {}).get("usage")
        if usage is None and kind == "response":
            usage = document.get("usage")
        envelope_model = document.get("model") if kind == "response" else None
        model = message_model(message, fmt, envelope_model)
        found.append(IncomingMessage(message, line, model, usage))
    return found


def read_document(
    payload: Any, name: str, source: str = AUTO, line: int | None = None
) -> tuple[IncomingSession | None, list[Refusal]]:
    """One document (a whole file, or a line holding one) as one session."""
    refused: list[Refusal] = []
    tries = _candidates(payload, source, None)
    if not tries:
        where = "" if source == AUTO else f" as {source}"
        refused.append(Refusal("unknown_format", "", f"no format reads this document{where}", line))
        return None, refused
    read = _try_readings(payload, tries, line)
    while isinstance(read, ConversionError):
        refused.append(Refusal(read.code, read.pointer, read.message, line))
        payload = _without_culprit(payload, read.pointer)
        if payload is None:
            return None, refused
        read = _try_readings(payload, tries, line)
    fmt, kind, document, losses = read
    session = IncomingSession(name, source_format=fmt, source_kind=kind, losses=losses)
    session.envelope = envelope_of(document)
    session.messages = _messages_of(document, fmt, kind, line, refused)
    session.session_id = _named_session(session.messages)
    session.digest_parts.append(json.dumps(payload, sort_keys=True).encode())
    return session, refused


def _without_culprit(payload: Any, pointer: str) -> Any:
    """``payload`` without the message a reading error points into (`/messages/N/...`), so
    the rest of the document still imports; None when the error is not one message's."""
    steps = pointer.split("/")
    if len(steps) < 3 or steps[1] != "messages" or not steps[2].isdigit():
        return None
    listed = payload.get("messages") if type(payload) is dict else None
    at = int(steps[2])
    if type(listed) is not list or at >= len(listed) or len(listed) == 1:
        return None
    return {**payload, "messages": listed[:at] + listed[at + 1 :]}


def _named_session(messages: list[IncomingMessage]) -> str | None:
    for incoming in messages:
        named = incoming.message.get("session_id")
        if isinstance(named, str):
            return named
    return None


def _parse_lines(data: bytes, max_bytes: int) -> tuple[list[tuple[int, Any, bytes]], list[Refusal]]:
    parsed, refused = [], []
    for number, raw in enumerate(data.split(b"\n"), start=1):
        if not raw.strip():
            continue
        try:
            parsed.append((number, read_json(raw, max_bytes=max_bytes), raw))
        except InputError as exc:
            refused.append(Refusal(exc.code, exc.path, exc.message, number))
    return parsed, refused


def _turn_format(payloads: list[Any], source: str) -> str | None:
    """The format the file's turns read as together; else the one most lines read as."""
    if source != AUTO:
        return source
    together = readings(payloads, kind="messages")
    if together:
        return together[0][0]
    firsts = Counter(r[0][0] for r in (readings(p) for p in payloads) if r)
    return firsts.most_common(1)[0][0] if firsts else None


def read_lines(
    data: bytes, name: str, source: str = AUTO, max_bytes: int = DEFAULT_MAX_BYTES
) -> ReadResult:
    """A JSON Lines file: turns grouped into sessions, whole documents a session each."""
    parsed, refused = _parse_lines(data, max_bytes)
    preferred = _turn_format([p for _, p, _ in parsed], source) if parsed else None
    turns: dict[str | None, IncomingSession] = {}
    documents: list[IncomingSession] = []
    for number, payload, raw in parsed:
        # The file's format first, without detection: most lines are its turns.
        read = _try_readings(payload, [(preferred, "messages")] if preferred else [], number)
        if isinstance(read, ConversionError) or read[3]:
            tries = _candidates(payload, source, preferred)
            read = (
                _try_readings(payload, tries, number)
                if tries
                else ConversionError("unknown_format", "", "no format reads this line")
            )
        if isinstance(read, ConversionError):
            refused.append(Refusal(read.code, read.pointer, read.message, number))
            continue
        fmt, kind, document, losses = read
        if kind == "messages" and envelope_of(document)["shape"] == "one":
            found = _messages_of(document, fmt, kind, number, refused)
            if not found:
                continue
            named = _named_session(found)
            session = turns.setdefault(
                named, IncomingSession(name, named, fmt, "messages", {"shape": "lines"})
            )
            session.messages.extend(found)
            session.losses.extend(losses)
            session.digest_parts.append(raw)
            continue
        session = IncomingSession(name, source_format=fmt, source_kind=kind, losses=losses)
        session.envelope = envelope_of(document)
        session.messages = _messages_of(document, fmt, kind, number, refused)
        session.session_id = _named_session(session.messages)
        session.digest_parts.append(raw)
        documents.append(session)
    return ReadResult([*turns.values(), *documents], refused)


def read_file(path: str, source: str = AUTO, max_bytes: int = DEFAULT_MAX_BYTES) -> ReadResult:
    """Every session in the file at ``path`` (``*.jsonl``: JSON Lines), and what was refused."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise InputError("unreadable_input", f"cannot read {path}: {exc.strerror or exc}") from None
    name = str(Path(path).resolve())
    if path.endswith(".jsonl"):
        return read_lines(data, name, source, max_bytes)
    session, refused = read_document(read_json(data, max_bytes=max_bytes), name, source)
    return ReadResult([session] if session else [], refused)
