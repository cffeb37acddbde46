"""Store import throughput against a plain ``executemany`` of the same rows.

``--messages`` canonical messages (default 100,000) in sessions of ``--per-session`` (an
assistant turn calling a tool, the tool's result, every tenth call left unanswered) are imported
with :meth:`Store.import_session`, one transaction per session, as `interlingua store import`
does after reading a file: ids generated, tool calls and the id map derived, the session
locked, the import recorded. The baseline writes the very rows the store wrote (read back from
it) into a fresh database with the same tables, with one ``executemany`` per table in one
transaction: the floor for putting those bytes in that database. Reported: messages per second
of each and the ratio (store time / executemany time). ``--reading N`` also times reading N
lines of the same turns from JSON Lines (format detection, conversion, validation), the step
before the store, per line.

    python benchmarks/store_import.py [--messages 100000] [--db postgresql://...]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sqlalchemy import select

from interlingua.store import Store
from interlingua.store import tables as t
from interlingua.store.reading import IncomingMessage, IncomingSession, read_lines

TABLES = (t.sessions, t.messages, t.tool_calls, t.id_map, t.imports)


def turns(session: str, count: int) -> Iterator[dict[str, Any]]:
    """``count`` canonical turns of one session: calls and their results."""
    for i in range(count // 2):
        call = f"call_{session}_{i}"
        yield {
            "role": "assistant",
            "content": [
                {"type": "text", "text": f"Reading file {i} of the project to answer."},
                {
                    "type": "tool_call",
                    "id": call,
                    "name": "read_file",
                    "arguments": {"path": f"src/{i}.py"},
                },
            ],
        }
        if i % 10 != 9:
            yield {
                "role": "tool",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_call_id": call,
                        "content": [{"type": "text", "text": "x = 1\n" * 8}],
                    }
                ],
            }
        else:
            yield {"role": "user", "content": [{"type": "text", "text": "never mind"}]}


def sessions(messages: int, per_session: int) -> list[IncomingSession]:
    found = []
    for s in range(messages // per_session):
        name = f"bench-{s}"
        incoming = IncomingSession(name, source_format="canonical", source_kind="messages")
        incoming.envelope = {"shape": "list"}
        incoming.messages = [IncomingMessage(m) for m in turns(name, per_session)]
        incoming.digest_parts.append(name.encode())
        found.append(incoming)
    return found


def store_import(database: str, incoming: list[IncomingSession]) -> float:
    store = Store.open(database)
    start = time.perf_counter()
    for session in incoming:
        store.import_session(session)
    elapsed = time.perf_counter() - start
    store.close()
    return elapsed


def rows_of(database: str) -> dict[str, list[dict[str, Any]]]:
    store = Store.open(database)
    with store.engine.connect() as connection:
        found = {
            table.name: [dict(r) for r in connection.execute(select(table)).mappings()]
            for table in TABLES
        }
    store.close()
    return found


def executemany(database: str, rows: dict[str, list[dict[str, Any]]]) -> float:
    """The same rows, one executemany per table, one transaction, on the DBAPI connection."""
    store = Store.open(database)  # same tables and indexes, created before the clock starts
    raw = store.engine.raw_connection()
    try:
        cursor = raw.cursor()
        paramstyle = "%s" if store.engine.dialect.name == "postgresql" else "?"
        start = time.perf_counter()
        if store.engine.dialect.name == "sqlite":
            cursor.execute("BEGIN")
        for table in TABLES:
            table_rows = rows[table.name]
            if not table_rows:
                continue
            columns = list(table_rows[0])
            sql = (
                f"INSERT INTO {table.name} ({', '.join(columns)}) "
                f"VALUES ({', '.join([paramstyle] * len(columns))})"
            )
            cursor.executemany(sql, [tuple(r[c] for c in columns) for r in table_rows])
        raw.commit()
        elapsed = time.perf_counter() - start
    finally:
        raw.close()
        store.close()
    return elapsed


def reading(lines: int, per_session: int) -> float:
    """Seconds per line to read JSON Lines turns (detected, converted, validated)."""
    data = "\n".join(
        json.dumps(m)
        for s in range(max(1, lines // per_session))
        for m in turns(f"r{s}", per_session)
    ).encode()
    count = data.count(b"\n") + 1
    start = time.perf_counter()
    result = read_lines(data, "bench.jsonl")
    elapsed = time.perf_counter() - start
    assert not result.refused and sum(len(s.messages) for s in result.sessions) == count
    return elapsed / count


def fresh_database(base: str | None, folder: Path, name: str) -> str:
    if base is None:
        return str(folder / f"{name}.db")
    import psycopg  # noqa: PLC0415

    database = f"bench_{name}_{os.getpid()}"
    with psycopg.connect(base, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{database}"')
        connection.execute(f'CREATE DATABASE "{database}"')
    head, _, tail = base.partition("?")
    return head.rsplit("/", 1)[0] + "/" + database + (f"?{tail}" if tail else "")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--per-session", type=int, default=100)
    parser.add_argument(
        "--reading", type=int, default=2_000, help="lines to time reading (0: skip)"
    )
    parser.add_argument(
        "--db", help="a postgresql:// URL of a database to create test databases from"
    )
    args = parser.parse_args(argv)
    incoming = sessions(args.messages, args.per_session)
    total = sum(len(s.messages) for s in incoming)
    with tempfile.TemporaryDirectory() as folder:
        store_db = fresh_database(args.db, Path(folder), "store")
        store_s = store_import(store_db, incoming)
        rows = rows_of(store_db)
        assert len(rows["messages"]) == total
        plain_s = executemany(fresh_database(args.db, Path(folder), "plain"), rows)
    dialect = "postgresql" if args.db else "sqlite"
    print(f"store import, {total:,} messages in {len(incoming):,} sessions ({dialect}):")
    print(f"  Store.import_session  {store_s:8.2f} s  {total / store_s:>10,.0f} messages/s")
    print(f"  plain executemany     {plain_s:8.2f} s  {total / plain_s:>10,.0f} messages/s")
    print(f"  ratio (store / executemany): {store_s / plain_s:.2f}x")
    if args.reading:
        per_line = reading(args.reading, args.per_session)
        print(f"  reading JSON Lines turns before import: {per_line * 1e6:,.0f} µs per line")
    return 0


if __name__ == "__main__":
    sys.exit(main())
