"""Dice 1000 puzzles: the miner's rate, the shipped batch's size and load time, and the puzzle page's API: the
bytes a puzzle and a verdict take, and the latency of ``GET /api/puzzles/thousand/next`` for a player who has
answered some (docs/puzzles.md).

Run alone: ``python -m bench.puzzles [--quick]``.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from dicehall.thousand.puzzles import SHIPPED, Miner, load_puzzles, mine


def figures(quick: bool = False) -> dict[str, Any]:
    start = time.perf_counter()
    miner = Miner()  # the shipped table and the space: once per process
    setup = time.perf_counter() - start
    count = 300 if quick else 3000
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "puzzles.jsonl"
        wall, cpu = time.perf_counter(), time.process_time()
        mine(path, count, seed=1, miner=miner)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        games = load_puzzles(path)[-1].game + 1
    start = time.perf_counter()
    shipped = load_puzzles()
    load = time.perf_counter() - start
    return {
        **page_figures(quick),
        "puzzle_miner_setup_seconds": round(setup, 2),
        "puzzles_mined": count,
        "puzzles_per_minute": round(60 * count / wall),
        "puzzles_per_cpu_minute": round(60 * count / max(cpu, 1e-9)),
        "puzzle_games_per_puzzle": round(games / count, 3),
        "puzzles_shipped": len(shipped),
        "puzzles_shipped_bytes": SHIPPED.stat().st_size,
        "puzzles_shipped_load_ms": round(1000 * load, 1),
    }


def page_figures(quick: bool = False) -> dict[str, Any]:
    """The page's API on a fresh SQLite database in this process (TestClient: no network in the figures)."""
    from fastapi.testclient import TestClient

    from dicehall.web import puzzles_api
    from dicehall.web.app import create_app

    start = time.perf_counter()
    puzzles_api.puzzle_set()  # what the first request of a process pays
    setup = time.perf_counter() - start
    answered = 20 if quick else 200
    calls = 50 if quick else 300
    with tempfile.TemporaryDirectory() as tmp, TestClient(create_app(f"sqlite:///{tmp}/b.sqlite")) as c:
        sizes_next, sizes_answer = [], []
        for _ in range(answered):
            got = c.get("/api/puzzles/thousand/next")
            sizes_next.append(len(got.content))
            said = c.post(f"/api/puzzles/thousand/{got.json()['id']}/answer", json={"choice": "bank"})
            sizes_answer.append(len(said.content))
        times = []
        for _ in range(calls):
            t0 = time.perf_counter()
            c.get("/api/puzzles/thousand/next").raise_for_status()
            times.append(time.perf_counter() - t0)
    times.sort()
    return {
        "puzzle_set_build_ms": round(1000 * setup, 1),
        "puzzle_next_bytes": round(sum(sizes_next) / len(sizes_next)),
        "puzzle_answer_bytes": round(sum(sizes_answer) / len(sizes_answer)),
        "puzzle_next_answered_before": answered,
        "puzzle_next_ms_median": round(1000 * times[len(times) // 2], 2),
        "puzzle_next_ms_p95": round(1000 * times[int(len(times) * 0.95)], 2),
    }


if __name__ == "__main__":
    print(json.dumps(figures(quick="--quick" in sys.argv), indent=1))
