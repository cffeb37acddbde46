"""Alembic environment: migrations run on the connection the store hands over (no alembic.ini,
no URL of its own), so they share the store's engine and its transaction."""

from __future__ import annotations

from alembic import context

from interlingua.store.tables import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
