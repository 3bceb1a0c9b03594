"""Real dice: the table option ``dice`` (``rolled`` or ``real``; null on older tables means ``rolled``) and, per
event, the seat that typed a dice outcome in (``entered_by``). A taken-back entry is logged as one more event with
actor ``undo`` (its move is the outcome taken back, ``entered_by`` the seat that took it back); nothing is deleted.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("dh_tables", sa.Column("dice", sa.String(8), nullable=True))
    op.add_column("dh_events", sa.Column("entered_by", sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("dh_events") as batch:
        batch.drop_column("entered_by")
    with op.batch_alter_table("dh_tables") as batch:
        batch.drop_column("dice")
