""" "Your games" (dicehall/web/yourgames.py) on a large database: one player with 10,000 finished and 30 open games
among about 200,000 seat rows of 1,000 players; the first page (open tables + newest finished) and a deep page
(a keyset cursor 9,000 games back), p50/p99 in ms, on SQLite and, where PostgreSQL is installed
(``tools/pgtemp``), on PostgreSQL. Target: p99 < 50 ms. Also the player's profile (``GET /api/players/{id}``,
profile_api.py: all 10,000 finished games counted, the last 20 and 500 analysed points): target p99 < 200 ms.
And a correspondence player's "Your games" (issue 25): 500 games in play at 3 days a move, 250 of them to move at,
each with its deadline (``corr_p99_ms``): target p99 < 50 ms.

``run(quick=False) -> dict``; run alone with ``python -m bench.players [--quick]``.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

from sqlalchemy import insert, select

from dicehall.web.app import freeze_start_up_heap
from dicehall.web.db import PlayerRow, SeatRow, Store, TableRow
from dicehall.web.manager import TableManager
from dicehall.web.profile_api import LAST_GAMES, POINTS, profile
from dicehall.web.yourgames import my_games_page

ME = "p0000000000000me"
CORR = "p00000000000corr"
MY_CORR, MY_CORR_TURN = 500, 250
MOVE_SECONDS = 3 * 86_400
PLAYERS = 1000
MY_FINISHED, MY_OPEN, MY_TURN = 10_000, 30, 10
SEAT_ROWS = 200_000
DEEP = 9_000


def _seat_json(a: str, b: str) -> str:
    seat = {"kind": "human", "bot": None, "token": None, "claimed": True, "named": True}
    return json.dumps([{**seat, "name": "Ann", "player": a}, {**seat, "name": "Bob", "player": b}])


def populate(store: Store, seat_rows: int) -> None:
    """Two-seat tables: the player's (finished, then open) and the others', until ``seat_rows`` seat rows."""
    others = [f"p{i:015d}" for i in range(1, PLAYERS)]
    tables: list[dict[str, Any]] = []
    seats: list[dict[str, Any]] = []
    t0 = 1.7e9

    def table(i: int, a: str, b: str, status: str, turn_a: bool, timed: bool = False) -> None:
        tid = f"t{i:011d}"
        at = t0 + i * 7.0
        tables.append(
            {
                "move_seconds": MOVE_SECONDS if timed else None,
                "deadline": at + MOVE_SECONDS if timed else None,
                "id": tid,
                "game": "thousand",
                "preset": "classic",
                "overrides": "{}",
                "seats": _seat_json(a, b),
                "status": status,
                "created": at,
                "updated": at,
                "result": '{"scores": [1000, 740], "winners": [0]}' if status == "finished" else None,
            }
        )
        done = status == "finished"
        for seat, pid, turn in ((0, a, turn_a), (1, b, not turn_a and not done)):
            seats.append(
                {
                    "table_id": tid,
                    "seat": seat,
                    "player_id": pid,
                    "game": "thousand",
                    "status": status,
                    "turn": turn and not done,
                    "updated": at,
                    "result": ("win" if seat == 0 else "loss") if done else None,
                    "score": (1000.0 if seat == 0 else 740.0) if done else None,
                    # the analyst's figures (every finished game of the player analysed)
                    **(
                        {"decisions": 30, "accuracy": 0.5 + (i % 13) / 10, "luck": (i % 7) - 3.0}
                        if done and pid == ME
                        else {"decisions": None, "accuracy": None, "luck": None}
                    ),
                }
            )

    n = 0
    for _ in range(MY_FINISHED):
        table(n, ME, others[n % len(others)], "finished", False)
        n += 1
    for k in range(MY_OPEN):
        table(n, ME, others[n % len(others)], "playing", k < MY_TURN)
        n += 1
    for k in range(MY_CORR):  # the correspondence player's games, half of them to move at
        table(n, CORR, others[n % len(others)], "playing", k % 2 == 0, timed=True)
        n += 1
    while 2 * n < seat_rows:  # everybody else's games, three in four finished
        a, b = others[n % len(others)], others[(n * 7 + 3) % len(others)]
        table(n, a, b, "finished" if n % 4 else "playing", n % 2 == 0)
        n += 1
    with store.engine.begin() as conn:
        conn.execute(
            insert(PlayerRow),
            [
                {"id": p, "name": f"N{p[-4:]}", "kind": "guest", "created": t0, "seen": t0}
                for p in [ME, CORR, *others]
            ],
        )
        for i in range(0, len(tables), 5000):
            conn.execute(insert(TableRow), tables[i : i + 5000])
        for i in range(0, len(seats), 10000):
            conn.execute(insert(SeatRow), seats[i : i + 10000])


def _quantiles(times: list[float]) -> dict[str, float]:
    times = sorted(times)
    return {
        "p50_ms": round(times[len(times) // 2] * 1000, 2),
        "p99_ms": round(times[min(len(times) - 1, int(len(times) * 0.99))] * 1000, 2),
    }


def measure(url: str, repeats: int, seat_rows: int) -> dict[str, Any]:
    store = Store(url)
    try:
        start = time.perf_counter()
        populate(store, seat_rows)
        out: dict[str, Any] = {"populate_s": round(time.perf_counter() - start, 1)}
        freeze_start_up_heap()  # as the server does once it has started
        manager = cast(TableManager, SimpleNamespace(store=store, tables={}, clock=time.time))
        deep_row = store._read(
            select(SeatRow.updated, SeatRow.table_id)
            .where(SeatRow.player_id == ME, SeatRow.status == "finished")
            .order_by(SeatRow.updated.desc(), SeatRow.table_id.desc())
            .offset(DEEP)
            .limit(1)
        )[0]
        for name, cursor in (("page1", None), ("deep", (deep_row[0], deep_row[1]))):
            times = []
            for _ in range(repeats):
                t = time.perf_counter()
                page = my_games_page(
                    manager, cast(Any, SimpleNamespace(id=ME)), 20, *(cursor or (None, None))
                )
                times.append(time.perf_counter() - t)
            assert len(page["finished"]) == 20, page  # a real page each time
            if cursor is None:
                assert len(page["your_turn"]) == MY_TURN and len(page["waiting"]) == MY_OPEN - MY_TURN
            out.update({f"{name}_{k}": v for k, v in _quantiles(times).items()})
        times, cpu = [], []
        for _ in range(repeats):
            t, c = time.perf_counter(), time.thread_time()
            page = my_games_page(manager, cast(Any, SimpleNamespace(id=CORR)), 20)
            times.append(time.perf_counter() - t)
            cpu.append(time.thread_time() - c)  # this thread's own work: apart from waiting for a busy CPU
        assert len(page["your_turn"]) == MY_CORR_TURN and len(page["waiting"]) == MY_CORR - MY_CORR_TURN
        deadlines = [it["deadline"] for it in page["your_turn"]]
        assert deadlines == sorted(deadlines) and None not in deadlines  # the nearest first
        out.update({f"corr_{k}": v for k, v in _quantiles(times).items()})
        out.update({f"corr_cpu_{k}": v for k, v in _quantiles(cpu).items()})
        times = []
        for _ in range(repeats):
            t = time.perf_counter()
            assert store.your_turn_count(ME) == MY_TURN
            times.append(time.perf_counter() - t)
        out.update({f"summary_{k}": v for k, v in _quantiles(times).items()})
        times = []
        for _ in range(max(20, repeats // 5)):
            t = time.perf_counter()
            prof = profile(store, ME)
            times.append(time.perf_counter() - t)
            assert prof is not None and prof["games"][0]["played"] == MY_FINISHED
            assert len(prof["last"]) == LAST_GAMES and len(prof["points"]) == POINTS
        out.update({f"profile_{k}": v for k, v in _quantiles(times).items()})
        return out
    finally:
        store.close()


def run(quick: bool = False) -> dict[str, Any]:
    repeats = 50 if quick else 300
    seat_rows = 40_000 if quick else SEAT_ROWS
    result: dict[str, Any] = {
        "seat_rows": seat_rows,
        "my_finished": MY_FINISHED,
        "my_open": MY_OPEN,
        "corr_games": MY_CORR,
    }
    with tempfile.TemporaryDirectory(prefix="dicehall-players-") as tmp:
        sqlite = measure(f"sqlite:///{Path(tmp) / 'players.sqlite'}", repeats, seat_rows)
    result.update({f"sqlite_{k}": v for k, v in sqlite.items()})
    try:
        from tools.pgtemp import Cluster, PostgresError
    except ImportError:  # pragma: no cover - tools/ ships with the repository
        return result
    try:
        with Cluster() as pg:
            pgfig = measure(pg.new_database(), repeats, seat_rows)
        result.update({f"pg_{k}": v for k, v in pgfig.items()})
    except PostgresError as exc:
        result["pg_skipped"] = str(exc).splitlines()[0]
    worst = max(
        v for k, v in result.items() if k.endswith("p99_ms") and "profile" not in k and "cpu" not in k
    )
    result["target_met"] = 1.0 if worst < 50 else 0.0
    worst = max(v for k, v in result.items() if k.endswith("profile_p99_ms"))
    result["profile_target_met"] = 1.0 if worst < 200 else 0.0
    return result


if __name__ == "__main__":
    print(json.dumps(run(quick="--quick" in sys.argv), indent=1))
