"""Table leases for several server processes on one PostgreSQL (docs/scaling.md): one row per table that a
process has owned. ``owner`` is the process's random id ("" once released), ``url`` where the other processes
reach it, ``epoch`` grows by one at every take-over (every event append checks it: fencing), ``expires_at`` is
database time in epoch seconds. A single-process server never writes it.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "dh_owners",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("dh_tables.id"), primary_key=True),
        sa.Column("owner", sa.String(32), nullable=False),
        sa.Column("url", sa.String(200), nullable=False),
        sa.Column("epoch", sa.Integer, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_index("ix_dh_owners_owner", "dh_owners", ["owner"])


def downgrade() -> None:
    op.drop_index("ix_dh_owners_owner", "dh_owners")
    op.drop_table("dh_owners")
