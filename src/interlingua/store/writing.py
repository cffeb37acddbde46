"""One import transaction: an incoming session's messages, tool calls and id map as rows.

Everything one piece of a source brings is written in one transaction, so a crash leaves the
session as it was before. The session's row is locked first (PostgreSQL: ``SELECT … FOR
UPDATE``; SQLite: the writer's ``BEGIN IMMEDIATE``), so two writers adding to one session
queue up: each numbers its messages after the other's and neither loses any. The import's
digest is recorded in the same transaction; a piece already recorded is skipped, so re-running
an import after a crash writes nothing twice.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Insert, Table, func, select, update

from interlingua.documents.model_ids import provider_of
from interlingua.store import tables as t
from interlingua.store.identity import MonotonicUlids, is_ulid
from interlingua.store.reading import IncomingMessage, IncomingSession

SCHEMA_VERSION = 1
SESSION_PREFIX = "sess_"


class AlreadyImported(Exception):
    """This piece of the source is in the store already (its digest is recorded)."""


@dataclass
class Written:
    """What one import transaction wrote."""

    session_id: str
    messages: int = 0
    tool_calls: int = 0
    message_ids: list[str] = field(default_factory=list)


def now_us() -> int:
    return time.time_ns() // 1000


def timestamp_us(value: Any) -> int | None:
    """Microseconds since the epoch of an RFC 3339 timestamp (always with its offset, as the
    schema's `Timestamp` says), or None (a leap second Python cannot represent)."""
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return int(moment.timestamp()) * 1_000_000 + moment.microsecond


def insert_new(connection: Connection, table: Table, **values: Any) -> Insert:
    """An INSERT of one row that does nothing when its key exists (``ON CONFLICT DO
    NOTHING``, spelled by each dialect)."""
    if connection.dialect.name == "postgresql":
        from sqlalchemy.dialects import postgresql  # noqa: PLC0415

        return postgresql.insert(table).values(**values).on_conflict_do_nothing()
    from sqlalchemy.dialects import sqlite  # noqa: PLC0415

    return sqlite.insert(table).values(**values).on_conflict_do_nothing()


class SessionWriter:
    """Writes one incoming session inside the caller's transaction."""

    def __init__(self, connection: Connection, incoming: IncomingSession) -> None:
        self.conn = connection
        self.incoming = incoming
        self.now = now_us()
        self.ids = MonotonicUlids()
        fmt = incoming.source_format
        self.provider = provider_of(fmt) if fmt else None
        # Its own generator: message ids carry their messages' times, not the import's.
        self.session_id = incoming.session_id or SESSION_PREFIX + MonotonicUlids().next()
        # Earlier imports' calls this one answers: (call id, columns to set).
        self.late_answers: list[tuple[str, dict[str, Any]]] = []

    def write(self) -> Written:
        self._lock_session()
        recorded = self.conn.execute(
            insert_new(
                self.conn,
                t.imports,
                digest=self.incoming.digest,
                session_id=self.session_id,
                source=self.incoming.source,
                imported_at=self.now,
            ).returning(t.imports.c.digest)
        ).first()
        if recorded is None:  # (rowcount is not reliable here: psycopg reports -1)
            raise AlreadyImported(self.incoming.digest)
        seq, last_id = self.conn.execute(
            select(func.max(t.messages.c.seq), func.max(t.messages.c.id)).where(
                t.messages.c.session_id == self.session_id
            )
        ).one()
        if last_id is not None:
            self.ids.observe(last_id)
        written = Written(self.session_id)
        message_rows, calls, id_rows = self._rows((seq or 0) + 1, written)
        self.conn.execute(t.messages.insert(), message_rows)  # never empty: see import_session
        if calls:
            self.conn.execute(t.tool_calls.insert(), calls)
        if id_rows:
            self.conn.execute(t.id_map.insert(), id_rows)
        for call_id, answer in self.late_answers:
            self.conn.execute(
                update(t.tool_calls).where(t.tool_calls.c.id == call_id).values(**answer)
            )
        self._finish_session(message_rows)
        written.messages, written.tool_calls = len(message_rows), len(calls)
        return written

    def _lock_session(self) -> None:
        first = next((m for m in self.incoming.messages), None)
        created = (timestamp_us(first.message.get("created_at")) if first else None) or self.now
        self.conn.execute(
            insert_new(
                self.conn,
                t.sessions,
                id=self.session_id,
                workspace_path=self.incoming.source,
                schema_version=SCHEMA_VERSION,
                created_at=created,
                updated_at=self.now,
                source_format=self.incoming.source_format,
                source_kind=self.incoming.source_kind,
                envelope_json=json.dumps(self.incoming.envelope, ensure_ascii=False),
            )
        )
        self.conn.execute(
            select(t.sessions.c.id).where(t.sessions.c.id == self.session_id).with_for_update()
        )

    def _taken(self) -> set[str]:
        """Source message ids already used by some message in the store."""
        wanted = [m.message["id"] for m in self.incoming.messages if is_ulid(m.message.get("id"))]
        taken: set[str] = set()
        for start in range(0, len(wanted), 500):
            chunk = wanted[start : start + 500]
            taken.update(
                self.conn.scalars(select(t.messages.c.id).where(t.messages.c.id.in_(chunk)))
            )
        return taken

    def _message_id(
        self, incoming: IncomingMessage, taken: set[str], ms: int, id_rows: list[dict[str, Any]]
    ) -> str:
        source_id = incoming.message.get("id")
        if isinstance(source_id, str) and is_ulid(source_id) and source_id not in taken:
            taken.add(source_id)
            self.ids.observe(source_id)
            return str(source_id)
        made = self.ids.next(ms)
        if isinstance(source_id, str):
            id_rows.append(self._map("message", made, source_id))
        return made

    def _map(self, kind: str, canonical: str, provider_id: str) -> dict[str, Any]:
        return {
            "session_id": self.session_id,
            "kind": kind,
            "canonical_id": canonical,
            "provider_id": provider_id,
        }

    def _rows(
        self, seq: int, written: Written
    ) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
        taken = self._taken()
        message_rows: list[dict[str, Any]] = []
        calls: list[dict[str, Any]] = []
        pending: dict[str, dict[str, Any]] = {}  # provider id -> this batch's unanswered call
        id_rows: list[dict[str, Any]] = []
        for incoming in self.incoming.messages:
            message = incoming.message
            created = timestamp_us(message.get("created_at")) or self.now
            message_id = self._message_id(incoming, taken, created // 1000, id_rows)
            written.message_ids.append(message_id)
            rest = {k: v for k, v in message.items() if k not in ("role", "content")}
            message_rows.append(
                {
                    "id": message_id,
                    "session_id": self.session_id,
                    "seq": seq,
                    "role": message["role"],
                    "content_json": json.dumps(message["content"], ensure_ascii=False),
                    "metadata_json": json.dumps(rest, ensure_ascii=False),
                    "created_at": created,
                    "schema_version": SCHEMA_VERSION,
                    "model": incoming.model,
                    "usage_json": json.dumps(incoming.usage) if incoming.usage else None,
                    "source_line": incoming.line,
                }
            )
            seq += 1
            cancelled = _status(message) == "cancelled"
            for part in message["content"]:  # validated: each part is an object
                if part.get("type") == "tool_call":
                    call = self._call(part, message_id, created, incoming, cancelled)
                    calls.append(call)
                    id_rows.append(self._map("tool_call", call["id"], call["provider_id"]))
                    pending[call["provider_id"]] = call
                elif part.get("type") == "tool_result":
                    self._answer(part, message_id, created, pending)
        return message_rows, calls, id_rows

    def _call(
        self,
        part: dict[str, Any],
        message_id: str,
        created: int,
        incoming: IncomingMessage,
        cancelled: bool,
    ) -> dict[str, Any]:
        provider_id = part.get("id")
        canonical = self.ids.tool_call_id(created // 1000)
        provider = incoming.model.split(":", 1)[0] if incoming.model else self.provider
        return {
            "id": canonical,
            "session_id": self.session_id,
            "message_id": message_id,
            "result_message_id": None,
            "name": str(part.get("name", "")),
            "status": "cancelled" if cancelled else "pending",
            "provider_id": provider_id if isinstance(provider_id, str) else canonical,
            "provider": provider,
            "created_at": created,
            "completed_at": None,
        }

    def _answer(
        self,
        part: dict[str, Any],
        message_id: str,
        created: int,
        pending: dict[str, dict[str, Any]],
    ) -> None:
        """Mark the call ``part`` answers: one of this batch, else the session's latest
        pending call with that provider id."""
        provider_id = part["tool_call_id"]  # required by the schema
        status = "failed" if part.get("is_error") is True else "succeeded"
        answer = {"status": status, "result_message_id": message_id, "completed_at": created}
        call = pending.pop(provider_id, None)
        if call is not None:
            if call["status"] == "pending":
                call.update(answer)
            return
        earlier = self.conn.scalar(
            select(t.tool_calls.c.id)
            .where(
                t.tool_calls.c.session_id == self.session_id,
                t.tool_calls.c.provider_id == provider_id,
                t.tool_calls.c.status == "pending",
            )
            .order_by(t.tool_calls.c.id.desc())
            .limit(1)
        )
        if earlier is not None:  # written once this batch's messages are
            self.late_answers.append((earlier, answer))

    def _finish_session(self, message_rows: list[dict[str, Any]]) -> None:
        values: dict[str, Any] = {"updated_at": self.now}
        models = [row["model"] for row in message_rows if row["model"]]
        if models:
            values["active_model"] = models[-1]
        self.conn.execute(
            update(t.sessions).where(t.sessions.c.id == self.session_id).values(**values)
        )


def _status(message: dict[str, Any]) -> Any:
    completion = (message.get("extensions") or {}).get("completion")
    return completion.get("status") if type(completion) is dict else None
