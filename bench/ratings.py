"""The rating update of a finished 4-player game (dicehall/web/ratings.py): three rated players and a bot anchor,
the whole update as the server runs it inside the finish's transaction (rows made if missing, read FOR UPDATE,
updated, history written) plus the finish itself; p50/p99 in ms on SQLite and, where PostgreSQL is installed
(``tools/pgtemp``), on PostgreSQL. Also the model alone (``core.rating.rate``). Target: p99 < 5 ms (it runs on the
server's event loop).

``run(quick=False) -> dict``; run alone with ``python -m bench.ratings [--quick]``.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from sqlalchemy import insert

from dicehall.core.rating import Skill, rate
from dicehall.web.app import freeze_start_up_heap
from dicehall.web.db import Finish, PlayerRow, Store, StoredEvent, TableMeta
from dicehall.web.ratings import RatedGame

PLAYERS = ("pa", "pb", "pc")
SCORES, WINNERS = [1000.0, 640.0, 640.0, 310.0], [0]


def _seats() -> list[dict[str, Any]]:
    seat = {"kind": "human", "bot": None, "token": None, "claimed": True, "named": True}
    seats = [{**seat, "name": p, "player": p} for p in PLAYERS]
    return [*seats, {"name": "bot:expert", "kind": "bot", "bot": "expert", "token": None, "claimed": True}]


def _ms(times: list[float]) -> tuple[float, float]:
    times.sort()
    return round(statistics.median(times) * 1000, 3), round(times[int(len(times) * 0.99) - 1] * 1000, 3)


def measure(url: str, repeats: int) -> dict[str, float]:
    """Each repeat finishes a new rated table of the same three players: the update alone (timed inside the
    transaction) and the whole finishing write."""
    store = Store(url)
    try:
        for p in PLAYERS:
            store._write(insert(PlayerRow).values(id=p, name=p, kind="guest", created=0.0, seen=0.0))
        freeze_start_up_heap()  # as the server does once it has started
        update_times: list[float] = []
        write_times: list[float] = []
        for k in range(repeats):
            tid = f"bench{k:06d}"
            now = time.time()
            meta = TableMeta(tid, "thousand", "standard", {}, _seats(), "playing", now, now, rated=True)
            store.create_table(meta, (0,))
            game = RatedGame(tid, "thousand", meta.seats, SCORES, WINNERS)

            def timed(conn: Any, at: float, game: RatedGame = game) -> None:
                t0 = time.perf_counter()
                game(conn, at)
                update_times.append(time.perf_counter() - t0)

            t0 = time.perf_counter()
            store.append_events(
                tid, [StoredEvent(1, 0, "bank", now)], "finished", finish=Finish(SCORES, WINNERS, timed)
            )
            write_times.append(time.perf_counter() - t0)
            assert len(game.changes) == len(PLAYERS)
        up50, up99 = _ms(update_times)
        w50, w99 = _ms(write_times)
        return {"update_p50_ms": up50, "update_p99_ms": up99, "finish_p50_ms": w50, "finish_p99_ms": w99}
    finally:
        store.close()


def model_ms(repeats: int) -> float:
    skills = [Skill(25, 8.3), Skill(27, 3), Skill(23, 5), Skill(28, 1)]
    t0 = time.perf_counter()
    for _ in range(repeats):
        rate(skills, [1, 2, 2, 4])
    return round((time.perf_counter() - t0) / repeats * 1000, 4)


def run(quick: bool = False) -> dict[str, Any]:
    repeats = 100 if quick else 1000
    result: dict[str, Any] = {"model_ms": model_ms(repeats)}
    with tempfile.TemporaryDirectory(prefix="dicehall-ratings-") as tmp:
        result.update(
            {f"sqlite_{k}": v for k, v in measure(f"sqlite:///{Path(tmp) / 'r.sqlite'}", repeats).items()}
        )
    try:
        from tools.pgtemp import Cluster, PostgresError

        with Cluster() as pg:
            result.update({f"pg_{k}": v for k, v in measure(pg.new_database(), repeats).items()})
    except ImportError:  # pragma: no cover - tools/ ships with the repository
        pass
    except PostgresError as exc:
        result["pg_skipped"] = str(exc).splitlines()[0]
    worst = max(v for k, v in result.items() if k.endswith("update_p99_ms"))
    result["target_met"] = 1.0 if worst < 5 else 0.0
    return result


if __name__ == "__main__":
    print(json.dumps(run(quick="--quick" in sys.argv), indent=1))
