"""Alembic environment: the server passes its own connection in ``config.attributes["connection"]``."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from dicehall.web.db import Base

config = context.config
target_metadata = Base.metadata


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is None:
        # Stand-alone use (`alembic -x url=...`): open our own connection.
        url = context.get_x_argument(as_dictionary=True).get("url") or config.get_main_option(
            "sqlalchemy.url"
        )
        if not url:
            raise RuntimeError("no database: pass -x url=SQLALCHEMY_URL")
        with create_engine(url).connect() as conn:
            context.configure(connection=conn, target_metadata=target_metadata, render_as_batch=True)
            with context.begin_transaction():
                context.run_migrations()
            conn.commit()
        return
    context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    raise RuntimeError("offline migrations are not supported; run against a database")
run_migrations_online()
