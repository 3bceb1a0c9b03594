"""Puzzle ratings (issue 26): ``dh_puzzle_ratings``, a player's Glicko-2 puzzle rating per game (``rating``,
``rd``, ``vol``) with the streak, the best streak and the puzzles solved and tried; ``dh_puzzle_answers``, the
first answer of a player to each puzzle (the one that was rated; the primary key makes a second one unrated).

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "dh_puzzle_ratings",
        sa.Column("player_id", sa.String(16), sa.ForeignKey("dh_players.id"), primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("rd", sa.Float, nullable=False),
        sa.Column("vol", sa.Float, nullable=False),
        sa.Column("streak", sa.Integer, nullable=False),
        sa.Column("best_streak", sa.Integer, nullable=False),
        sa.Column("solved", sa.Integer, nullable=False),
        sa.Column("tried", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_table(
        "dh_puzzle_answers",
        sa.Column("player_id", sa.String(16), sa.ForeignKey("dh_players.id"), primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("puzzle", sa.String(32), primary_key=True),
        sa.Column("choice", sa.String(16), nullable=False),
        sa.Column("correct", sa.Boolean, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("rating_before", sa.Float, nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("dh_puzzle_answers")
    op.drop_table("dh_puzzle_ratings")
