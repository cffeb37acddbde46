"""The store's one interface: open a database, import sessions, query them, export them.

>>> import tempfile, os
>>> store = Store.open(os.path.join(tempfile.mkdtemp(), "chats.db"))
>>> report = store.import_document([{"role": "user", "content": "hi"}], "memo", "openai-chat")
>>> [s.messages for s in report.sessions], store.export(report.sessions[0].session_id).bodies
([1], [[{'role': 'user', 'content': 'hi'}]])
>>> store.close()
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from sqlalchemy import Engine, RowMapping, select

from interlingua.conversion import ConversionError, Loss
from interlingua.conversion.converter import from_canonical
from interlingua.documents.pricing import PriceTable, PricingError, default_table, plain
from interlingua.store import tables as t
from interlingua.store.engine import open_engine, writing
from interlingua.store.reading import (
    AUTO,
    IncomingSession,
    ReadResult,
    Refusal,
    read_document,
    read_file,
    rebuild,
)
from interlingua.store.writing import AlreadyImported, SessionWriter, Written

LINES = "lines"  # the envelope shape of a session read a turn per line


@dataclass(frozen=True)
class SessionImport:
    """One session's import: written, or skipped because it was imported before."""

    session_id: str | None
    messages: int
    tool_calls: int
    skipped: bool = False

    def as_json(self) -> dict[str, Any]:
        return {
            "session": self.session_id,
            "messages": self.messages,
            "tool_calls": self.tool_calls,
            "skipped": self.skipped,
        }


@dataclass
class ImportReport:
    """Every session an import wrote or skipped, every line or message it refused, and
    every loss of reading what it imported."""

    sessions: list[SessionImport] = field(default_factory=list)
    refused: list[Refusal] = field(default_factory=list)
    losses: list[Refusal] = field(default_factory=list)  # what reading did not carry


@dataclass(frozen=True)
class Export:
    """A session written in a format: one body, or for a session read a turn per line, one
    body per turn; with the losses of writing them."""

    bodies: list[Any]
    losses: tuple[Loss, ...]
    per_line: bool


@dataclass(frozen=True)
class SessionCost:
    """A session's cost: the exact total of its priced turns, and the turns it could not
    price (no model known, or no price for it) with the coded reason."""

    session_id: str
    usd: Decimal
    priced: int
    unpriced: list[dict[str, str]]
    pricing_version: str

    def as_json(self) -> dict[str, Any]:
        return {
            "session": self.session_id,
            "cost_usd": str(self.usd),
            "priced_turns": self.priced,
            "unpriced": self.unpriced,
            "pricing_version": self.pricing_version,
        }


class Store:
    """Sessions, messages and tool calls in SQLite (a file path) or PostgreSQL (a URL)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    @classmethod
    def open(cls, target: str) -> Store:
        """Open (and create or migrate) the database ``target``."""
        return cls(open_engine(target))

    def close(self) -> None:
        self.engine.dispose()

    # --- import ------------------------------------------------------------------------

    def import_session(self, incoming: IncomingSession) -> SessionImport:
        """Write one session's messages in one transaction (skipped if imported before)."""
        if not incoming.messages:
            return SessionImport(incoming.session_id, 0, 0, skipped=True)
        try:
            with writing(self.engine) as connection:
                written: Written = SessionWriter(connection, incoming).write()
        except AlreadyImported:
            return SessionImport(incoming.session_id, 0, 0, skipped=True)
        return SessionImport(written.session_id, written.messages, written.tool_calls)

    def import_read(self, read: ReadResult) -> ImportReport:
        report = ImportReport(refused=list(read.refused))
        report.losses = [loss for session in read.sessions for loss in session.losses]
        report.sessions = [self.import_session(s) for s in read.sessions]
        return report

    def import_file(self, path: str, source: str = AUTO) -> ImportReport:
        """Import a file (``*.jsonl``: JSON Lines) in any format, or the one ``source`` names."""
        return self.import_read(read_file(path, source))

    def import_document(self, document: Any, name: str, source: str = AUTO) -> ImportReport:
        """Import one parsed document (any format) as a session; ``name`` identifies it."""
        session, refused = read_document(document, name, source)
        return self.import_read(ReadResult([session] if session else [], refused))

    # --- reading back ------------------------------------------------------------------

    def sessions(self) -> list[dict[str, Any]]:
        with self.engine.connect() as connection:
            rows = connection.execute(select(t.sessions).order_by(t.sessions.c.created_at))
            return [dict(row) for row in rows.mappings()]

    def _session(self, session_id: str) -> RowMapping:
        with self.engine.connect() as connection:
            row = (
                connection.execute(select(t.sessions).where(t.sessions.c.id == session_id))
                .mappings()
                .first()
            )
        if row is None:
            raise ConversionError("unknown_document", "", f"no session {session_id!r} in the store")
        return row

    def messages(self, session_id: str) -> list[dict[str, Any]]:
        """The session's canonical messages, in order, as they were read."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(t.messages.c.role, t.messages.c.content_json, t.messages.c.metadata_json)
                .where(t.messages.c.session_id == session_id)
                .order_by(t.messages.c.seq)
            )
            return [
                {"role": role, "content": json.loads(content), **json.loads(metadata)}
                for role, content, metadata in rows
            ]

    def message_ids(self, session_id: str) -> list[str]:
        with self.engine.connect() as connection:
            return list(
                connection.scalars(
                    select(t.messages.c.id)
                    .where(t.messages.c.session_id == session_id)
                    .order_by(t.messages.c.seq)
                )
            )

    def id_map(self, session_id: str, kind: str = "tool_call") -> dict[str, str]:
        """The session's provider id → canonical id map (``kind``: tool_call or message)."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(t.id_map.c.provider_id, t.id_map.c.canonical_id)
                .where(t.id_map.c.session_id == session_id, t.id_map.c.kind == kind)
                .order_by(t.id_map.c.canonical_id)
            )
            return {str(provider): str(canonical) for provider, canonical in rows}

    def export(self, session_id: str, target: str | None = None) -> Export:
        """The session written in ``target`` (default: the format it was read from)."""
        session = self._session(session_id)
        target = target or session["source_format"] or "canonical"
        envelope = json.loads(session["envelope_json"] or "null")
        messages = self.messages(session_id)
        if (envelope or {}).get("shape") == LINES:
            results = [from_canonical(m, target, "messages") for m in messages]
            losses = tuple(loss for r in results for loss in r.losses)
            return Export([r.output for r in results], losses, per_line=True)
        kind = session["source_kind"] or "messages"
        result = from_canonical(rebuild(envelope, messages), target, kind)
        return Export([result.output], result.losses, per_line=False)

    # --- queries -----------------------------------------------------------------------

    def _calls(self, status: str, session_id: str | None) -> list[dict[str, Any]]:
        query = select(t.tool_calls).where(t.tool_calls.c.status == status)
        if session_id is not None:
            query = query.where(t.tool_calls.c.session_id == session_id)
        with self.engine.connect() as connection:
            rows = connection.execute(query.order_by(t.tool_calls.c.id)).mappings()
            return [dict(row) for row in rows]

    def unanswered(self, session_id: str | None = None) -> list[dict[str, Any]]:
        """Every tool call that no result answers (in one session, or all)."""
        return self._calls("pending", session_id)

    def failed(self, session_id: str | None = None) -> list[dict[str, Any]]:
        """Every tool call whose result is an error."""
        return self._calls("failed", session_id)

    def cost(
        self, session_id: str | None = None, table: PriceTable | None = None
    ) -> list[SessionCost]:
        """Each session's cost from its turns' Usage and the price table (exact decimals)."""
        table = table or default_table()
        query = select(
            t.messages.c.session_id, t.messages.c.id, t.messages.c.model, t.messages.c.usage_json
        ).where(t.messages.c.usage_json.is_not(None))
        if session_id is not None:
            query = query.where(t.messages.c.session_id == session_id)
        with self.engine.connect() as connection:
            rows = connection.execute(
                query.order_by(t.messages.c.session_id, t.messages.c.seq)
            ).all()
        return _costs(rows, table, [session_id] if session_id else [])


def _costs(rows: Iterable[Any], table: PriceTable, sessions: list[str]) -> list[SessionCost]:
    totals: dict[str, tuple[Decimal, int, list[dict[str, str]]]] = {
        s: (Decimal(0), 0, []) for s in sessions
    }
    for session_id, message_id, model, usage_json in rows:
        usd, priced, unpriced = totals.get(session_id, (Decimal(0), 0, []))
        try:
            if model is None:
                raise PricingError("unpriced_model", "", "the message names no model")
            usd += table.cost(json.loads(usage_json), model).usd
            priced += 1
        except PricingError as exc:
            unpriced.append({"message": message_id, "code": exc.code, "reason": exc.message})
        totals[session_id] = (usd, priced, unpriced)
    return [
        SessionCost(s, plain(usd), priced, unpriced, table.pricing_version)
        for s, (usd, priced, unpriced) in totals.items()
    ]
