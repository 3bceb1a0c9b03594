"""Dice 1000 puzzles: the miner's rate and the shipped batch's size and load time (docs/puzzles.md).

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
        "puzzle_miner_setup_seconds": round(setup, 2),
        "puzzles_mined": count,
        "puzzles_per_minute": round(60 * count / wall),
        "puzzles_per_cpu_minute": round(60 * count / max(cpu, 1e-9)),
        "puzzle_games_per_puzzle": round(games / count, 3),
        "puzzles_shipped": len(shipped),
        "puzzles_shipped_bytes": SHIPPED.stat().st_size,
        "puzzles_shipped_load_ms": round(1000 * load, 1),
    }


if __name__ == "__main__":
    print(json.dumps(figures(quick="--quick" in sys.argv), indent=1))
