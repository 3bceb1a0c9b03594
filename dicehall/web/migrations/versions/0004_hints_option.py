"""The table option ``hints``: ``"on"`` (players may ask for hints during the game) or ``"off"``; null on tables from before this revision, which keep the old rule (allowed when at most one person
plays). Also an index on ``created``: the finished-games list pages through it newest first.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("dh_tables", sa.Column("hints", sa.String(8), nullable=True))
    op.create_index("ix_dh_tables_created", "dh_tables", ["created"])


def downgrade() -> None:
    op.drop_index("ix_dh_tables_created", "dh_tables")
    with op.batch_alter_table("dh_tables") as batch:
        batch.drop_column("hints")
