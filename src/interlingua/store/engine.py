"""Opening a database: a file path is SQLite (embedded, nothing to start), a
``postgresql://`` URL is PostgreSQL through psycopg 3; both are brought to the newest
migration on open."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, create_engine, event

SQLITE_BUSY_MS = 60_000  # a second writer waits for the first this long before failing
MIGRATION_LOCK = 0x1D1A  # PostgreSQL advisory lock key the migrations hold
WRITER = "interlingua_writer"  # execution option of the transactions that write


def database_url(target: str) -> str:
    """The SQLAlchemy URL for ``target``: a URL as given (``postgresql://`` gets psycopg 3),
    anything else a SQLite file path."""
    if target.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + target.split("://", 1)[1]
    if "://" in target:
        return target
    return "sqlite:///" + target


def _sqlite_writer(engine: Engine) -> None:
    """SQLite: foreign keys on, WAL (readers never block the writer), and a writing
    transaction (:func:`writing`) takes the write lock when it begins (BEGIN IMMEDIATE), so two
    writers queue up instead of both reading and one failing on its first write."""

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, record: Any) -> None:
        dbapi_connection.isolation_level = None  # we issue BEGIN ourselves
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_MS}")
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA synchronous = NORMAL")  # durable at each WAL checkpoint
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection: Any) -> None:
        writer = connection.get_execution_options().get(WRITER, False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if writer else "BEGIN")


@contextmanager
def writing(engine: Engine) -> Iterator[Connection]:
    """A transaction that will write: on SQLite it holds the write lock from its start."""
    with engine.connect().execution_options(**{WRITER: True}) as connection, connection.begin():
        yield connection


def open_engine(target: str) -> Engine:
    """An engine on ``target``, migrated to the newest revision."""
    url = database_url(target)
    engine = create_engine(url)
    if engine.dialect.name == "sqlite":
        _sqlite_writer(engine)
    migrate(engine)
    return engine


def run_migrations() -> None:
    """Alembic's environment (`migrations/env.py`): run the migrations on the connection
    :func:`migrate` or :func:`downgrade` hands over, in its transaction."""
    from alembic import context  # noqa: PLC0415

    from interlingua.store.tables import metadata  # noqa: PLC0415

    connection = context.config.attributes["connection"]
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def _config() -> Config:
    config = Config()
    config.set_main_option(
        "script_location", str(resources.files("interlingua.store") / "migrations")
    )
    return config


def migrate(engine: Engine, revision: str = "head") -> None:
    """Upgrade the database to ``revision`` with the package's Alembic migrations. Two
    processes opening a new PostgreSQL database at once take turns (an advisory lock)."""
    config = _config()
    with writing(engine) as connection:
        if connection.dialect.name == "postgresql":
            connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
        config.attributes["connection"] = connection
        command.upgrade(config, revision)


def downgrade(engine: Engine, revision: str) -> None:
    """Take the database back to ``revision`` (``base``: no tables)."""
    config = _config()
    with writing(engine) as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, revision)
