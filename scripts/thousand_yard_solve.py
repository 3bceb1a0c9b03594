"""Solve the exact two-player table of the ``yard`` preset by policy iteration level by level (``solver/yard_pi.py``).

Usage: nice -n 19 python scripts/thousand_yard_solve.py [--floor -300] [--tol 1e-9] [--out PATH]

Resumable: the finished levels are kept in ``--out`` (default: the solver's cache directory,
``<rules key>.yard.npz``); run the same command again to go on. Prints each policy step (level, step, residual
max |T(V) − V|, CPU seconds, peak memory) and, at the end, the first player's win chance and the figures as JSON.
``dicehall solve thousand --preset yard`` does the same with a progress bar and stores the table for
``bot:optimal``, hints and analysis; run after this script (default ``--out``), it stores the finished run without
solving again (docs/thousand-solved.md, "Yard's model").
"""

from __future__ import annotations

import argparse
import json
import resource
import time
from pathlib import Path

from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver.solve import cache_dir, rules_key
from dicehall.thousand.solver.yard_pi import solve_levels


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--floor", type=int, default=-300)
    parser.add_argument("--tol", type=float, default=1e-9)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    rules = ThousandRules.from_preset("yard")
    out = args.out or cache_dir() / f"{rules_key(rules, args.floor)}.yard.npz"
    cpu0, wall0 = time.process_time(), time.perf_counter()

    def report(level: int, levels: int, step: int, residual: float) -> None:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(
            f"level {level}/{levels} step {step}: residual {residual:.3g}, "
            f"{time.process_time() - cpu0:.0f} CPU-s, peak {peak:.0f} MB",
            flush=True,
        )

    table = solve_levels(rules, args.floor, tol=args.tol, checkpoint=out, report=report)
    start = table.space.start
    print(
        json.dumps(
            {
                "win_probability_first": table.value(start, start),
                "positions_solved": sum(int(lv.positions) for lv in table.levels),
                "player_states": table.space.size,
                "levels": [lv._asdict() for lv in table.levels],
                "cpu_seconds_this_run": round(time.process_time() - cpu0, 1),
                "wall_seconds_this_run": round(time.perf_counter() - wall0, 1),
                "peak_memory_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
                "table": str(out),
                "score_floor": args.floor,
                "tolerance": args.tol,
            },
            indent=1,
        ),
        flush=True,
    )


if __name__ == "__main__":
    main()
