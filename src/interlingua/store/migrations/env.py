"""Alembic environment: migrations run on the connection the store hands over (no alembic.ini,
no URL of its own); see :func:`interlingua.store.engine.run_migrations`."""

from interlingua.store.engine import run_migrations

run_migrations()
