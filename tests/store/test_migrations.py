"""The Alembic migrations create exactly the tables `tables.py` describes, on both
databases, and run again as a no-op."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect

from interlingua.store import Store
from interlingua.store.engine import database_url, downgrade, migrate
from interlingua.store.tables import metadata


def test_migrations_match_the_tables(database: str) -> None:
    store = Store.open(database)
    with store.engine.connect() as connection:
        context = MigrationContext.configure(connection)
        assert context.get_current_revision() == "0001"
        assert compare_metadata(context, metadata) == []
        names = set(inspect(connection).get_table_names())
    assert {"sessions", "messages", "tool_calls", "id_map", "imports"} <= names
    migrate(store.engine)  # at head already: nothing to do, nothing fails
    downgrade(store.engine, "base")  # and back down
    with store.engine.connect() as connection:
        assert "messages" not in inspect(connection).get_table_names()
    store.close()


def test_database_urls() -> None:
    assert database_url("chats.db") == "sqlite:///chats.db"
    assert database_url("postgresql://u@h/d") == "postgresql+psycopg://u@h/d"
    assert database_url("postgres://u@h/d") == "postgresql+psycopg://u@h/d"
    assert database_url("sqlite:///x.db") == "sqlite:///x.db"
