"""Seed 001's tables, the id map and the import record.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

from interlingua.store import revisions

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    revisions.create_tables()


def downgrade() -> None:
    revisions.drop_tables()
