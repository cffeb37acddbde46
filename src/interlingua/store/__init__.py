"""Conversations kept in a database (seed 001 §9): sessions, messages and tool calls.

SQLite is the embedded default (a file path, nothing to start); PostgreSQL serves those who
outgrow one machine (a ``postgresql://`` URL, through psycopg 3). The tables are created and
upgraded by Alembic migrations; :class:`Store` is the one interface. Install with
``pip install 'interlingua[store]'``. The names load on first use, so registering the
``store`` command imports no SQLAlchemy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from interlingua._lazy import lazy_exports

if TYPE_CHECKING:
    from interlingua.store.store import Export, ImportReport, SessionCost, SessionImport, Store

_STORE = "interlingua.store.store"
_WHERE = dict.fromkeys(("Export", "ImportReport", "SessionCost", "SessionImport", "Store"), _STORE)
__all__ = ["Export", "ImportReport", "SessionCost", "SessionImport", "Store"]
__getattr__, __dir__ = lazy_exports(__name__, _WHERE)
