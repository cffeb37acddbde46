"""The store's tables: seed 001 §9's sessions, messages and tool_calls, and what keeps them
whole (the per-session id map, and the record of each import that makes re-running one safe).

Times are microseconds since the Unix epoch, UTC, in 64-bit integers (seed 001 stores
`created_at` as an integer; a 32-bit one would overflow in PostgreSQL). JSON is kept as text:
the store reads it back byte for byte, never queries inside it. The migrations in
`migrations/versions/` create exactly these tables; a test compares the two.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Column,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    Table,
    Text,
    UniqueConstraint,
)

metadata = MetaData()

sessions = Table(
    "sessions",
    metadata,
    Column("id", Text, primary_key=True),
    Column("workspace_path", Text, nullable=False),
    Column("active_model", Text),  # canonical model id of the session's last priced turn
    Column("routing_policy_json", Text),
    Column("schema_version", Integer, nullable=False),
    Column("created_at", BigInteger, nullable=False),
    Column("updated_at", BigInteger, nullable=False),
    # Where the session came from, so export can write it back as it was read.
    Column("source_format", Text),
    Column("source_kind", Text),  # request | response | messages
    Column("envelope_json", Text),  # the canonical document minus its messages
)

messages = Table(
    "messages",
    metadata,
    Column("id", Text, primary_key=True),
    Column("session_id", Text, ForeignKey("sessions.id"), nullable=False),
    Column("seq", Integer, nullable=False),  # order within the session
    Column("role", Text, nullable=False),
    Column("content_json", Text, nullable=False),
    # The canonical message as read, minus role and content: exact export depends on it.
    Column("metadata_json", Text, nullable=False),
    Column("created_at", BigInteger, nullable=False),
    Column("schema_version", Integer, nullable=False),
    Column("model", Text),  # canonical `<provider>:<model>` id of the model that wrote it
    Column("usage_json", Text),  # the Usage of the generation that wrote it
    Column("source_line", Integer),  # line of a JSON Lines import
    UniqueConstraint("session_id", "seq", name="uq_messages_session_seq"),
)
Index("idx_messages_session_created", messages.c.session_id, messages.c.created_at)

tool_calls = Table(
    "tool_calls",
    metadata,
    Column("id", Text, primary_key=True),  # canonical `tu_<ulid>`
    Column("session_id", Text, ForeignKey("sessions.id"), nullable=False),
    Column("message_id", Text, ForeignKey("messages.id"), nullable=False),
    Column("result_message_id", Text, ForeignKey("messages.id")),
    Column("name", Text, nullable=False),
    Column("status", Text, nullable=False),  # pending | succeeded | failed | cancelled
    Column("provider_id", Text),
    Column("provider", Text),
    Column("created_at", BigInteger, nullable=False),
    Column("completed_at", BigInteger),
)
Index("idx_tool_calls_session_status", tool_calls.c.session_id, tool_calls.c.status)
# `unanswered` / `failed` across every session read only the rows with that status.
Index("idx_tool_calls_status", tool_calls.c.status)

id_map = Table(
    "id_map",
    metadata,
    Column("session_id", Text, ForeignKey("sessions.id"), nullable=False),
    Column("kind", Text, nullable=False),  # message | tool_call
    Column("canonical_id", Text, nullable=False),
    Column("provider_id", Text, nullable=False),
    PrimaryKeyConstraint("session_id", "kind", "canonical_id", name="pk_id_map"),
)
Index("idx_id_map_provider", id_map.c.session_id, id_map.c.kind, id_map.c.provider_id)

imports = Table(
    "imports",
    metadata,
    # sha256 of what one import transaction wrote from its source: the same piece imported
    # again (a re-run after a crash, a second writer) is recognised and skipped.
    Column("digest", Text, primary_key=True),
    Column("session_id", Text, ForeignKey("sessions.id"), nullable=False),
    Column("source", Text, nullable=False),
    Column("imported_at", BigInteger, nullable=False),
)
