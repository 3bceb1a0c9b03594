"""Your games, results, rematches and passkeys (docs/players-design.md, steps 2–6).

``dh_seats``: one row per seat of every table made from now on, linked to the player who holds it; ``turn`` and
``result`` are written only when they change, so "Your games" is a walk of ``ix_dh_seats_player`` and never a
replay. ``dh_tables.result`` holds a finished game's scores and winners; ``creator_player`` counts the
unfinished-tables quota per player. ``dh_rematches``: the offer made from a finished table (its primary key makes
two offers one). ``dh_credentials``/``dh_challenges``: passkeys and their single-use challenges. No backfill:
tables from before have no seat rows.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "dh_seats",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("dh_tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.String(16), sa.ForeignKey("dh_players.id"), nullable=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("turn", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("updated", sa.Float, nullable=False),
        sa.Column("result", sa.String(8), nullable=True),
        sa.Column("score", sa.Float, nullable=True),
        sa.Column("accuracy", sa.Float, nullable=True),
        sa.Column("luck", sa.Float, nullable=True),
        sa.Column("decisions", sa.Integer, nullable=True),
    )
    op.create_index("ix_dh_seats_player", "dh_seats", ["player_id", "status", "updated", "table_id"])
    with op.batch_alter_table("dh_tables") as batch:
        batch.add_column(sa.Column("result", sa.Text, nullable=True))
        batch.add_column(sa.Column("creator_player", sa.String(16), nullable=True))
        batch.create_index("ix_dh_tables_creator_player", ["creator_player"])
    op.create_table(
        "dh_rematches",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("dh_tables.id"), primary_key=True),
        sa.Column("new_table_id", sa.String(32), sa.ForeignKey("dh_tables.id"), nullable=False),
        sa.Column("offered_by", sa.Integer, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "dh_credentials",
        sa.Column("id", sa.String(512), primary_key=True),
        sa.Column("player_id", sa.String(16), sa.ForeignKey("dh_players.id"), nullable=False),
        sa.Column("public_key", sa.LargeBinary, nullable=False),
        sa.Column("sign_count", sa.Integer, nullable=False),
        sa.Column("transports", sa.Text, nullable=True),
        sa.Column("backed_up", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("last_used", sa.Float, nullable=True),
        sa.Column("nickname", sa.String(64), nullable=True),
    )
    op.create_index("ix_dh_credentials_player_id", "dh_credentials", ["player_id"])
    op.create_table(
        "dh_challenges",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("challenge", sa.LargeBinary, nullable=False),
        sa.Column("session_hash", sa.String(64), nullable=True),
        sa.Column("address", sa.String(64), nullable=True),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index("ix_dh_challenges_expires", "dh_challenges", ["expires"])


def downgrade() -> None:
    op.drop_index("ix_dh_challenges_expires", "dh_challenges")
    op.drop_table("dh_challenges")
    op.drop_index("ix_dh_credentials_player_id", "dh_credentials")
    op.drop_table("dh_credentials")
    op.drop_table("dh_rematches")
    with op.batch_alter_table("dh_tables") as batch:
        batch.drop_index("ix_dh_tables_creator_player")
        batch.drop_column("creator_player")
        batch.drop_column("result")
    op.drop_index("ix_dh_seats_player", "dh_seats")
    op.drop_table("dh_seats")
