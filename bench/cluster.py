"""Cluster benchmark: the same seeded Dice 1000 run (``bot:expert`` vs ``bot:bold``, classic) on worker processes
and on a local Ray instance, with 1 and 2 workers; every run must give the same report.

Wall times include starting the workers (the process pool, or Ray: measured on its own as ``ray_start_stop_s``).
The default is 20,000 games; ``make bench ARGS="--only cluster --cluster-games 100000"`` gives the figure of the
issue. Run alone: ``python -m bench.cluster [--quick] [GAMES]``.
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any

from dicehall.core.agents import parse_players
from dicehall.core.cluster import RayExecutor
from dicehall.core.game import get_game
from dicehall.core.simulate import SimulationJob, simulate

DEFAULT_GAMES = 20_000
QUICK_GAMES = 2_000


def run(quick: bool = False, games: int | None = None) -> dict[str, Any]:
    games = games or (QUICK_GAMES if quick else DEFAULT_GAMES)
    classic = get_game("thousand").rules_type.from_preset("classic")
    job = SimulationJob("thousand", classic, tuple(parse_players("bot:expert,bot:bold")), 1)
    out: dict[str, Any] = {"games": games, "load_average_1min": round(os.getloadavg()[0], 2)}
    start = time.perf_counter()
    RayExecutor(num_cpus=1).shutdown()
    out["ray_start_stop_s"] = round(time.perf_counter() - start, 2)
    reports = []
    for backend in ("processes", "ray"):
        for workers in (1, 2):
            start = time.perf_counter()
            report, _ = simulate(job, games, jobs=workers, backend=backend)
            seconds = time.perf_counter() - start
            reports.append(report)
            out[f"{backend}_{workers}_workers_s"] = round(seconds, 2)
            out[f"{backend}_{workers}_workers_games_per_s"] = round(games / seconds)
    out["identical_reports"] = all(r == reports[0] for r in reports)
    for backend in ("processes", "ray"):
        out[f"{backend}_speedup_1_to_2"] = round(
            out[f"{backend}_1_workers_s"] / out[f"{backend}_2_workers_s"], 2
        )
    return out


if __name__ == "__main__":
    numbers = [int(a) for a in sys.argv[1:] if a.isdigit()]
    print(json.dumps(run(quick="--quick" in sys.argv, games=numbers[0] if numbers else None), indent=1))
