"""Puzzles found in games played here (issue 26): ``dh_found_puzzles``, a position a person met where one choice
was clearly best, kept as its game's puzzle line with the table and the step it came from.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "dh_found_puzzles",
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("puzzle", sa.String(32), primary_key=True),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("dh_tables.id"), nullable=False),
        sa.Column("step", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("found", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("dh_found_puzzles")
