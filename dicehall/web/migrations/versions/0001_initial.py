"""Tables and their append-only event log.

Revision ID: 0001
Revises:
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "dh_tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("preset", sa.String(64), nullable=False),
        sa.Column("overrides", sa.Text, nullable=False),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_index("ix_dh_tables_status", "dh_tables", ["status"])
    op.create_table(
        "dh_events",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("dh_tables.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("actor", sa.String(16), nullable=False),
        sa.Column("move", sa.String(200), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("dh_events")
    op.drop_index("ix_dh_tables_status", "dh_tables")
    op.drop_table("dh_tables")
