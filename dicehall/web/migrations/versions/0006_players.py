"""Players and their sessions (docs/players-design.md, step 1): a guest identity per browser, kept by a cookie.

``dh_players``: ``id`` public (16 hex digits), ``name`` the display name (null until the player picks one),
``name_key`` its skeleton (core/names.py), ``kind`` guest/account/merged/deleted, ``webauthn_user`` for passkeys
later. ``dh_sessions``: only the SHA-256 of the cookie's value is stored; ``ended`` set at sign-out. No backfill:
tables from before have no players.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "dh_players",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("name_key", sa.String(256), nullable=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("seen", sa.Float, nullable=False),
        sa.Column("webauthn_user", sa.LargeBinary, nullable=True, unique=True),
    )
    op.create_table(
        "dh_sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(16), sa.ForeignKey("dh_players.id"), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("seen", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
        sa.Column("ended", sa.Float, nullable=True),
    )
    op.create_index("ix_dh_sessions_player_id", "dh_sessions", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_dh_sessions_player_id", "dh_sessions")
    op.drop_table("dh_sessions")
    op.drop_table("dh_players")
