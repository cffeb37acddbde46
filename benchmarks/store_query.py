"""`store query unanswered` on a large store, against pairing calls from the stored JSON.

A store of ``--messages`` messages (default 100,000; the issue's figure is
``--messages 1000000``) in sessions of 100 turns — an assistant turn calling a tool, then its
result, one call in twenty left unanswered — is filled with plain ``executemany`` (rows as
the store writes them). Timed: :meth:`Store.unanswered` over every session, and for one
session (the mean over ``--sessions`` random ones). The baseline answers the same question
without the denormalised `tool_calls` table (seed 001 §9 keeps it so that this query needs no
JSON extraction): read every message's `content_json` in order and pair calls with results in
Python. Both must find the same calls; reported are the times and the ratio baseline / store.

    python benchmarks/store_query.py [--messages 1000000] [--db postgresql://...]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sqlalchemy import select
from store_import import fresh_database

from interlingua.store import Store
from interlingua.store import tables as t
from interlingua.store.identity import MonotonicUlids

PER_SESSION = 100
CHUNK = 20_000


def session_rows(s: int, ids: MonotonicUlids) -> Iterator[tuple[str, dict[str, Any]]]:
    """(table, row) for one session's rows, as the store writes them."""
    session = f"sess_{s:07d}"
    now = 1_764_000_000_000_000 + s
    yield (
        "sessions",
        {
            "id": session,
            "workspace_path": "bench",
            "schema_version": 1,
            "created_at": now,
            "updated_at": now,
            "source_format": "canonical",
            "source_kind": "messages",
            "envelope_json": '{"shape": "list"}',
            "active_model": None,
            "routing_policy_json": None,
        },
    )
    for i in range(PER_SESSION // 2):
        call_message, result_message, call = ids.next(), ids.next(), ids.tool_call_id()
        provider_id = f"call_{i}"
        answered = i % 20 != 19
        content = [
            {
                "type": "tool_call",
                "id": provider_id,
                "name": "read_file",
                "arguments": {"path": f"{i}.py"},
            }
        ]
        result = [
            {
                "type": "tool_result",
                "tool_call_id": provider_id if answered else "other",
                "content": [{"type": "text", "text": "ok"}],
            }
        ]
        for seq, (mid, role, parts) in enumerate(
            ((call_message, "assistant", content), (result_message, "tool", result))
        ):
            yield (
                "messages",
                {
                    "id": mid,
                    "session_id": session,
                    "seq": 2 * i + seq + 1,
                    "role": role,
                    "content_json": json.dumps(parts),
                    "metadata_json": "{}",
                    "created_at": now,
                    "schema_version": 1,
                    "model": None,
                    "usage_json": None,
                    "source_line": None,
                },
            )
        yield (
            "tool_calls",
            {
                "id": call,
                "session_id": session,
                "message_id": call_message,
                "result_message_id": result_message if answered else None,
                "name": "read_file",
                "status": "succeeded" if answered else "pending",
                "provider_id": provider_id,
                "provider": None,
                "created_at": now,
                "completed_at": now if answered else None,
            },
        )


def fill(store: Store, messages: int) -> int:
    """Write the rows; the number of sessions."""
    sessions = messages // PER_SESSION
    ids = MonotonicUlids()
    tables = {"sessions": t.sessions, "messages": t.messages, "tool_calls": t.tool_calls}
    pending: dict[str, list[dict[str, Any]]] = {name: [] for name in tables}

    def flush(connection: Any) -> None:
        for name in ("sessions", "messages", "tool_calls"):  # foreign keys: parents first
            if pending[name]:
                connection.execute(tables[name].insert(), pending[name])
                pending[name].clear()

    with store.engine.begin() as connection:
        for s in range(sessions):
            for name, row in session_rows(s, ids):
                pending[name].append(row)
            if len(pending["messages"]) >= CHUNK:
                flush(connection)
        flush(connection)
    return sessions


def scan_unanswered(store: Store, session: str | None = None) -> list[tuple[str, str]]:
    """The baseline: pair calls and results from every message's stored JSON."""
    query = select(t.messages.c.session_id, t.messages.c.content_json).order_by(
        t.messages.c.session_id, t.messages.c.seq
    )
    if session is not None:
        query = query.where(t.messages.c.session_id == session)
    found: list[tuple[str, str]] = []
    current: str | None = None
    open_calls: dict[str, bool] = {}
    with store.engine.connect() as connection:
        for session_id, content_json in connection.execution_options(yield_per=CHUNK).execute(
            query
        ):
            if session_id != current:
                found.extend((current, c) for c in open_calls)  # type: ignore[misc]
                current, open_calls = session_id, {}
            for part in json.loads(content_json):
                if part.get("type") == "tool_call":
                    open_calls[part["id"]] = True
                elif part.get("type") == "tool_result":
                    open_calls.pop(part["tool_call_id"], None)
    found.extend((current, c) for c in open_calls)  # type: ignore[misc]
    return found


def timed(function: Any, *args: Any) -> tuple[float, Any]:
    start = time.perf_counter()
    result = function(*args)
    return time.perf_counter() - start, result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument(
        "--sessions", type=int, default=50, help="single-session queries to average"
    )
    parser.add_argument(
        "--db", help="a postgresql:// URL of a database to create test databases from"
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        store = Store.open(fresh_database(args.db, Path(folder), "query"))
        fill_s, sessions = timed(fill, store, args.messages)
        all_s, calls = timed(store.unanswered)
        scan_s, scanned = timed(scan_unanswered, store)
        assert sorted((c["session_id"], c["provider_id"]) for c in calls) == sorted(scanned)
        picks = [f"sess_{random.randrange(sessions):07d}" for _ in range(args.sessions)]
        one_s = sum(timed(store.unanswered, s)[0] for s in picks) / len(picks)
        one_scan_s = sum(timed(scan_unanswered, store, s)[0] for s in picks) / len(picks)
        store.close()
    dialect = "postgresql" if args.db else "sqlite"
    where = f"{args.messages:,} messages in {sessions:,} sessions ({dialect})"
    print(f"unanswered tool calls, {where}, filled in {fill_s:.1f} s:")
    print(f"  every session: Store.unanswered {all_s:8.3f} s  ({len(calls):,} calls)")
    print(f"                 JSON scan        {scan_s:8.3f} s  ratio {scan_s / all_s:.1f}x")
    print(f"  one session:   Store.unanswered {one_s * 1e3:8.3f} ms")
    ratio = one_scan_s / one_s
    print(f"                 JSON scan        {one_scan_s * 1e3:8.3f} ms  ratio {ratio:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
