"""Rated and turn-based play (issue 25): ratings, correspondence deadlines, Web Push subscriptions, dice anyone
can verify.

``dh_tables``: ``rated`` (null: tables from before, unrated); ``move_seconds`` (null: live; else the time a seat
has for each move of a correspondence table) with ``deadline`` (when the seat to move times out, indexed for the
sweep) and ``reminded`` (the deadline a reminder was sent for); ``dice_seed``/``dice_commit``: the table's secret
dice seed and the SHA-256 shown from the start (the seed is revealed in the record when the game ends).
``dh_ratings``: one row per player and game (OpenSkill mu/sigma, the leaderboard's ``ordinal``);
``dh_rating_history``: each rated game's change, for the profile's chart and the game-over card.
``dh_push_subs``: a browser's Web Push subscription (``id``: SHA-256 of the endpoint).

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("dh_tables") as batch:
        batch.add_column(sa.Column("rated", sa.Boolean, nullable=True))
        batch.add_column(sa.Column("move_seconds", sa.Integer, nullable=True))
        batch.add_column(sa.Column("deadline", sa.Float, nullable=True))
        batch.add_column(sa.Column("reminded", sa.Float, nullable=True))
        batch.add_column(sa.Column("dice_seed", sa.String(64), nullable=True))
        batch.add_column(sa.Column("dice_commit", sa.String(64), nullable=True))
        batch.create_index("ix_dh_tables_deadline", ["deadline"])
    op.create_table(
        "dh_ratings",
        sa.Column("player_id", sa.String(16), sa.ForeignKey("dh_players.id"), primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("ordinal", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_index("ix_dh_ratings_board", "dh_ratings", ["game", "ordinal"])
    op.create_table(
        "dh_rating_history",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(16), sa.ForeignKey("dh_players.id"), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("dh_tables.id"), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
    )
    op.create_index("ix_dh_rating_history_player", "dh_rating_history", ["player_id", "game", "at"])
    op.create_index("ix_dh_rating_history_table", "dh_rating_history", ["table_id"])
    op.create_table(
        "dh_push_subs",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(16), sa.ForeignKey("dh_players.id"), nullable=False),
        sa.Column("endpoint", sa.Text, nullable=False),
        sa.Column("p256dh", sa.String(128), nullable=False),
        sa.Column("auth", sa.String(64), nullable=False),
        sa.Column("lang", sa.String(8), nullable=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("failures", sa.Integer, nullable=False, server_default="0"),
    )
    op.create_index("ix_dh_push_subs_player_id", "dh_push_subs", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_dh_push_subs_player_id", "dh_push_subs")
    op.drop_table("dh_push_subs")
    op.drop_index("ix_dh_rating_history_table", "dh_rating_history")
    op.drop_index("ix_dh_rating_history_player", "dh_rating_history")
    op.drop_table("dh_rating_history")
    op.drop_index("ix_dh_ratings_board", "dh_ratings")
    op.drop_table("dh_ratings")
    with op.batch_alter_table("dh_tables") as batch:
        batch.drop_index("ix_dh_tables_deadline")
        for column in ("dice_commit", "dice_seed", "reminded", "deadline", "move_seconds", "rated"):
            batch.drop_column(column)
