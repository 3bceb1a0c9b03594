"""Two tables finishing at once for the same player on PostgreSQL: the second's rating update waits for the
first's row lock and starts from its result (test_web_ratings.py holds the SQLite case and the helper)."""

from __future__ import annotations

import time

import pytest
from pg import Cluster
from sqlalchemy import create_engine, text
from test_web_ratings import two_finishes_at_once


def test_two_tables_finishing_at_once_lose_no_update_postgres(pg_cluster: Cluster) -> None:
    url = pg_cluster.new_database()
    watcher = create_engine(url)

    def second_is_waiting_for_a_lock() -> None:
        """The condition the first transaction waits for: the second blocked on a row lock (pg_locks)."""
        end = time.monotonic() + 4  # within the server's idle-in-transaction limit (5 s, db.py)
        with watcher.connect() as conn:
            while time.monotonic() < end:
                if conn.execute(text("SELECT count(*) FROM pg_locks WHERE NOT granted")).scalar():
                    return
                conn.rollback()
        raise AssertionError("the second finish never waited for the first one's lock")

    try:
        first, second = two_finishes_at_once(url, second_is_waiting_for_a_lock)
    finally:
        watcher.dispose()
    assert second.mu_before == pytest.approx(first.mu) and second.sigma_before == pytest.approx(first.sigma)
