"""Backups and moving house (docs/web.md): backup and export throughput (tables/s) on a database of 10,000
finished games, and the restore and import time of the same, on SQLite and on a throw-away PostgreSQL.

The database is built fast: distinct finished games are played through the server's real path
(``tools/fairgames.py``: the table manager on a SQLite store, cheap bots for the seats, the manager's own seeded
dice), then copied under new table ids in SQL until there are 10,000 (copies keep their seed, so every copy's dice
check on import is real). The mix is half Dice 1000 (about 600 events a game), half Ganz schön clever.

``run(quick=False) -> dict``; run alone with ``python -m bench.backup [--quick]``.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, text

from dicehall.web.backup import backup, export, import_, restore
from dicehall.web.db import Store
from tools.fairgames import manager_on, play_table
from tools.pgtemp import Cluster

GAMES = 10_000
DISTINCT = {"thousand": 20, "clever": 20}
"""Distinct games played per game; the rest are copies of them."""
COPIED = ("dh_tables", "dh_events", "dh_seats")


def build(db: Path, games: int) -> str:
    """A SQLite database of ``games`` finished games; its URL."""
    url = f"sqlite:///{db}"
    with manager_on(db) as manager:
        for game, n in DISTINCT.items():
            for i in range(n):
                play_table(manager, game, seed=i)
    engine = create_engine(url)
    with engine.begin() as conn:
        distinct = conn.execute(text("SELECT count(*) FROM dh_tables")).scalar_one()
        copies = -(-games // distinct) - 1
        cols = {t: [r[1] for r in conn.exec_driver_sql(f"PRAGMA table_info({t})")] for t in COPIED}
        for k in range(1, copies + 1):
            for t in COPIED:
                key = "id" if t == "dh_tables" else "table_id"
                rest = [c for c in cols[t] if c != key]
                conn.exec_driver_sql(
                    f"INSERT INTO {t} ({key}, {', '.join(rest)}) "
                    f"SELECT {key} || '-{k}', {', '.join(rest)} FROM {t} WHERE {key} NOT LIKE '%-%'"
                )
        over = conn.execute(text("SELECT count(*) FROM dh_tables")).scalar_one() - games
        if over > 0:  # exactly ``games``: drop the last copies made
            doomed = f"SELECT id FROM dh_tables WHERE id LIKE '%-{copies}' LIMIT {over}"
            for t in ("dh_events", "dh_seats"):
                conn.exec_driver_sql(f"DELETE FROM {t} WHERE table_id IN ({doomed})")
            conn.exec_driver_sql(f"DELETE FROM dh_tables WHERE id IN ({doomed})")
    engine.dispose()
    return url


def _timed(fn: Any, *args: Any, **kwargs: Any) -> tuple[Any, float]:
    start = time.perf_counter()
    value = fn(*args, **kwargs)
    return value, time.perf_counter() - start


def run(quick: bool = False) -> dict[str, Any]:
    games = 500 if quick else GAMES
    out: dict[str, Any] = {"games": games}
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        src, build_s = _timed(build, tmp / "club.sqlite", games)
        out["build_s"] = round(build_s, 1)
        engine = create_engine(src)
        with engine.connect() as conn:
            out["events"] = conn.execute(text("SELECT count(*) FROM dh_events")).scalar_one()
        engine.dispose()
        out["sqlite_mb"] = round((tmp / "club.sqlite").stat().st_size / 1e6, 1)

        _, s = _timed(backup, src, tmp / "copy.sqlite")
        out["sqlite_backup_tables_per_s"] = round(games / s)
        _, s = _timed(restore, f"sqlite:///{tmp / 'restored.sqlite'}", tmp / "copy.sqlite")
        out["sqlite_restore_s"] = round(s, 2)
        _, s = _timed(export, src, tmp / "club.jsonl")
        out["sqlite_export_tables_per_s"] = round(games / s)
        out["export_mb"] = round((tmp / "club.jsonl").stat().st_size / 1e6, 1)
        _, s = _timed(export, src, tmp / "club.jsonl.gz")
        out["sqlite_export_gz_tables_per_s"] = round(games / s)
        out["export_gz_mb"] = round((tmp / "club.jsonl.gz").stat().st_size / 1e6, 1)
        _, s = _timed(import_, f"sqlite:///{tmp / 'imported.sqlite'}", tmp / "club.jsonl")
        out["sqlite_import_s"] = round(s, 2)

        with Cluster() as cluster:
            pg = cluster.new_database()
            _, s = _timed(import_, pg, tmp / "club.jsonl")
            out["postgres_import_s"] = round(s, 2)
            _, s = _timed(export, pg, tmp / "pg.jsonl")
            out["postgres_export_tables_per_s"] = round(games / s)
            how, s = _timed(backup, pg, tmp / "pg.dump")
            out[f"postgres_backup_{how}_tables_per_s"] = round(games / s)
            _, s = _timed(restore, cluster.new_database(), tmp / "pg.dump")
            out[f"postgres_restore_{how}_s"] = round(s, 2)
            Store(pg).close()
    return out


if __name__ == "__main__":
    print(json.dumps(run(quick="--quick" in sys.argv), indent=1))
