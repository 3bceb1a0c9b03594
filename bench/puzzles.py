"""Puzzles: the miner's rate, the shipped batch's size and load time, and the puzzle page's API: the bytes a
puzzle and a verdict take, and the latency of ``GET /api/puzzles/GAME/next`` for a player who has answered some
(docs/puzzles.md). Dice 1000's figures (:func:`figures`, in ``bench.thousand``) and Clever's
(:func:`clever_figures`, in ``bench.clever``, named ``clever_puzzle…``).

Run alone: ``python -m bench.puzzles [--quick]`` (both games).
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


def clever_figures(quick: bool = False) -> dict[str, Any]:
    """Clever's miner (a smaller run: each decision is valued with the look-ahead), shipped batch and API."""
    from dicehall.clever import puzzles as clever

    start = time.perf_counter()
    miner = clever.Miner()
    setup = time.perf_counter() - start
    count = 20 if quick else 200
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "puzzles.jsonl"
        wall, cpu = time.perf_counter(), time.process_time()
        clever.mine(path, count, seed=1, miner=miner)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        games = clever.load_puzzles(path)[-1].game + 1
    start = time.perf_counter()
    shipped = clever.load_puzzles()
    load = time.perf_counter() - start
    page = page_figures(quick, "clever")
    return {
        **{f"clever_{k}": v for k, v in page.items()},
        "clever_puzzle_miner_setup_seconds": round(setup, 2),
        "clever_puzzles_mined": count,
        "clever_puzzles_per_minute": round(60 * count / wall, 1),
        "clever_puzzles_per_cpu_minute": round(60 * count / max(cpu, 1e-9), 1),
        "clever_puzzle_games_per_puzzle": round(games / count, 3),
        "clever_puzzles_shipped": len(shipped),
        "clever_puzzles_shipped_bytes": clever.SHIPPED.stat().st_size,
        "clever_puzzles_shipped_load_ms": round(1000 * load, 1),
    }


def page_figures(quick: bool = False, game: str = "thousand") -> dict[str, Any]:
    """The page's API on a fresh SQLite database in this process (TestClient: no network in the figures)."""
    from fastapi.testclient import TestClient

    from dicehall.web import puzzles_api
    from dicehall.web.app import create_app

    start = time.perf_counter()
    puzzles = puzzles_api.puzzle_set(game)  # what the first request of a process pays
    setup = time.perf_counter() - start
    answered = 20 if quick else 200
    calls = 50 if quick else 300
    with tempfile.TemporaryDirectory() as tmp, TestClient(create_app(f"sqlite:///{tmp}/b.sqlite")) as c:
        sizes_next, sizes_answer = [], []
        for _ in range(answered):
            got = c.get(f"/api/puzzles/{game}/next")
            sizes_next.append(len(got.content))
            pid = got.json()["id"]
            choice = next(iter(puzzles.get(pid).options))  # (the first legal choice: right or wrong)
            said = c.post(f"/api/puzzles/{game}/{pid}/answer", json={"choice": choice})
            sizes_answer.append(len(said.content))
        times = []
        for _ in range(calls):
            t0 = time.perf_counter()
            c.get(f"/api/puzzles/{game}/next").raise_for_status()
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
    quick = "--quick" in sys.argv
    print(json.dumps({**figures(quick), **clever_figures(quick)}, indent=1))
