"""The creator key of each table (a salted hash of the creating address, for the unfinished-tables quota) and a
small key-value table for server secrets (the salt). Tables from before have no creator and count for nobody.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("dh_tables", sa.Column("creator", sa.String(32), nullable=True))
    op.create_index("ix_dh_tables_creator", "dh_tables", ["creator"])
    op.create_table(
        "dh_meta",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("dh_meta")
    op.drop_index("ix_dh_tables_creator", "dh_tables")
    with op.batch_alter_table("dh_tables") as batch:
        batch.drop_column("creator")
