"""No data lost: a kill -9 in the middle of an import leaves no partial session and a re-run
imports the rest exactly once; two writers adding to the same sessions at once lose nothing.
Real processes, on SQLite and on PostgreSQL."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from sqlalchemy import func, select

from interlingua.store import Store
from interlingua.store import tables as t

PER_SESSION = 40


def _transcript(path: Path, sessions: list[str], tag: str, per_session: int = PER_SESSION) -> Path:
    """A memory file: PER_SESSION canonical turns for each session, a tool call and its
    result in each pair of turns."""
    with path.open("w") as out:
        for session in sessions:
            for i in range(per_session // 2):
                call = f"{tag}-{session}-{i}"
                turns = [
                    {
                        "role": "assistant",
                        "session_id": session,
                        "content": [
                            {
                                "type": "tool_call",
                                "id": call,
                                "name": "f",
                                "arguments": {"i": i, "pad": "x" * 200},
                            }
                        ],
                    },
                    {
                        "role": "tool",
                        "session_id": session,
                        "content": [
                            {
                                "type": "tool_result",
                                "tool_call_id": call,
                                "content": [{"type": "text", "text": "ok"}],
                            }
                        ],
                    },
                ]
                for turn in turns:
                    out.write(json.dumps(turn) + "\n")
    return path


def _import(database: str, path: Path, out: int = subprocess.DEVNULL) -> subprocess.Popen[bytes]:
    command = [
        sys.executable,
        "-m",
        "interlingua",
        "store",
        "import",
        str(path),
        "--from",
        "canonical",
        "--db",
        database,
    ]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}  # a line per session as it commits
    return subprocess.Popen(command, stdout=out, stderr=subprocess.PIPE, env=env)


def _counts(store: Store) -> dict[str, int]:
    with store.engine.connect() as connection:
        rows = connection.execute(
            select(t.messages.c.session_id, func.count()).group_by(t.messages.c.session_id)
        )
        return {str(session): int(count) for session, count in rows}


def test_kill_9_mid_import_leaves_whole_sessions_and_a_rerun_finishes_it(
    database: str, tmp_path: Path
) -> None:
    # Many small sessions: the import spends long enough committing them one by one for the
    # kill to land in the middle, even on a busy machine.
    sessions, per_session = [f"s{i:03d}" for i in range(200)], 10
    path = _transcript(tmp_path / "memory.jsonl", sessions, "a", per_session)
    store = Store.open(database)  # migrated before the writer starts
    writer = _import(database, path, subprocess.PIPE)
    assert writer.stdout is not None
    assert b"session s000" in writer.stdout.readline()  # the first session is committed
    writer.send_signal(signal.SIGKILL)
    writer.wait()
    partial = _counts(store)
    assert len(partial) < len(sessions), "the import finished before it could be killed"
    assert set(partial.values()) <= {per_session}  # whole sessions, or none
    rerun = _import(database, path)
    assert rerun.wait(timeout=120) == 0, rerun.stderr.read() if rerun.stderr else ""
    final = _counts(store)
    assert final == dict.fromkeys(sessions, per_session)  # the rest, once
    assert store.unanswered() == []
    store.close()


def test_two_writers_lose_no_message(database: str, tmp_path: Path) -> None:
    sessions = ["shared-1", "shared-2", "shared-3"]
    first = _transcript(tmp_path / "a.jsonl", sessions, "a")
    second = _transcript(tmp_path / "b.jsonl", sessions[::-1], "b")
    store = Store.open(database)
    writers = [_import(database, first), _import(database, second)]
    for writer in writers:
        assert writer.wait(timeout=120) == 0, writer.stderr.read() if writer.stderr else ""
    assert _counts(store) == dict.fromkeys(sessions, 2 * PER_SESSION)
    for session in sessions:
        with store.engine.connect() as connection:
            seqs = list(
                connection.scalars(
                    select(t.messages.c.seq)
                    .where(t.messages.c.session_id == session)
                    .order_by(t.messages.c.seq)
                )
            )
        assert seqs == list(range(1, 2 * PER_SESSION + 1))
        ids = store.message_ids(session)
        assert ids == sorted(ids)  # monotonic in the session, across both writers
    assert store.unanswered() == [] and len(store.id_map("shared-1")) == 2 * PER_SESSION // 2
    store.close()


def test_the_environment_names_the_database(tmp_path: Path) -> None:
    path = _transcript(tmp_path / "m.jsonl", ["e1"], "e")
    database = str(tmp_path / "env.db")
    env = {**os.environ, "INTERLINGUA_STORE": database}
    done = subprocess.run(
        [sys.executable, "-m", "interlingua", "store", "import", str(path)],
        env=env,
        capture_output=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    store = Store.open(database)
    assert _counts(store) == {"e1": PER_SESSION}
    store.close()
