"""Solve the exact two-player table of the ``variant2`` preset level by level (``solver/variant2_solve.py``).

Usage: python scripts/thousand_variant2_solve.py --out FILE [--tol 1e-10] [--levels N] [--every 600]
       python scripts/thousand_variant2_solve.py --sample 12 [--tol 1e-10]

It runs at the lowest priority (nice 19). Resumable: the bounds are kept in ``FILE.lower.npy`` and
``FILE.upper.npy`` (2 × 1.2 GB when full; what is not yet solved stays a hole in the file) and ``FILE`` lists
the finished levels (written at most every ``--every`` seconds and at the end); run the same command again to go
on. ``--levels N`` stops after N more levels. Prints each level (number, the two
opening scores, positions, sweeps, the bounds' gap, the residual, CPU seconds, peak memory) and, at the end, the
first player's win chance and the figures as JSON. ``--sample K`` solves K levels of two opened players spread
over the opening scores instead (nothing is kept) and prints the cost per position and the estimate for the
whole table. ``--tile G``: the ordered pass by tiles of G opponents (default 16; 0: pair by pair, the slower
first way); ``--columns C``: the barrel's sweeps take the movers below an opponent on the barrel C at a time
(default 4; 0: one by one). ``dicehall solve thousand --preset variant2`` runs the same solve with a progress bar and stores the
table for ``bot:optimal``, the hints and the analysis (docs/thousand-solved.md, "Variant 2's model").
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import time
from pathlib import Path

from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver.variant2_solve import Level, solve
from dicehall.thousand.solver.variant2_space import build_variant2_space, levels


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--tol", type=float, default=1e-10)
    parser.add_argument("--levels", type=int, default=None)
    parser.add_argument("--every", type=float, default=600.0, help="seconds between checkpoints")
    parser.add_argument("--sample", type=int, default=0)
    parser.add_argument(
        "--sweeps-only", action="store_true", help="no ordered pass: sweeps after the barrel's"
    )
    parser.add_argument("--tile", type=int, default=16, help="opponents a tile of the ordered pass; 0: pairs")
    parser.add_argument("--columns", type=int, default=4, help="barrel's movers a call; 0: one by one")
    args = parser.parse_args()
    os.nice(19 - os.nice(0))
    if not args.sample and args.out is None:
        parser.error("--out FILE (the table and its checkpoint) or --sample K")
    rules = ThousandRules.from_preset("variant2")
    space = build_variant2_space(rules)
    order = levels(space)
    cpu0, wall0 = time.process_time(), time.perf_counter()

    def report(level: Level, count: int) -> None:
        print(
            f"level {level.number + 1}/{count} openings {level.openings}: {level.positions} positions, "
            f"{level.barrel_sweeps} barrel sweeps, Newton ≤ {level.newton}, {level.sweeps} sweeps, "
            f"gap {level.gap:.2g}, residual {level.residual:.2g}, "
            f"{level.cpu_seconds:.1f} CPU-s (all: {time.process_time() - cpu0:.0f}), peak {peak_mb():.0f} MB",
            flush=True,
        )

    if args.sample:
        opened = [i for i, (a, b) in enumerate(order) if a and b]
        picks = [opened[round(k * (len(opened) - 1) / max(1, args.sample - 1))] for k in range(args.sample)]
        solve(
            rules, args.tol, only=picks[-1:], tile=args.tile, columns=args.columns
        )  # the kernels' compilation, not timed
        base = peak_mb()  # the process, the model's tables and the compiled kernels
        table = solve(
            rules, args.tol, only=picks, report=report, ordered=not args.sweeps_only, tile=args.tile
        )
        sweeps = sum(lv.sweeps * lv.positions for lv in table.levels)
        cpu = sum(lv.cpu_seconds for lv in table.levels)
        positions = sum(lv.positions for lv in table.levels)
        total = sum(space.level_positions(lv) for lv in order)
        print(
            json.dumps(
                {
                    "levels": len(picks),
                    "positions": positions,
                    "full_sweeps_per_position": round(sweeps / positions, 1),
                    "microseconds_per_position": round(cpu / positions * 1e6, 1),
                    "cpu_seconds": round(cpu, 1),
                    "estimate_cpu_hours_all": round(cpu / positions * total / 3600, 2),
                    "estimate_memory_gb_all": round(2 * 8 * space.size**2 / 1e9 + base / 1e3, 2),
                },
                indent=1,
            ),
            flush=True,
        )
        return
    table = solve(rules, args.tol, checkpoint=args.out, checkpoint_every=args.every, max_levels=args.levels,
                  report=report, ordered=not args.sweeps_only, tile=args.tile, columns=args.columns)  # fmt: skip
    start = table.space.start
    print(
        json.dumps(
            {
                "complete": table.complete,
                "win_probability_first_bounds": table.bounds(space.states[start], space.states[start])
                if table.complete
                else None,
                "levels_done": len(table.levels),
                "levels": len(order),
                "largest_gap": max((lv.gap for lv in table.levels), default=None),
                "sweeps": sum(lv.sweeps for lv in table.levels),
                "cpu_seconds_this_run": round(time.process_time() - cpu0, 1),
                "wall_seconds_this_run": round(time.perf_counter() - wall0, 1),
                "peak_memory_mb": round(peak_mb(), 1),
                "table": str(args.out),
                "tolerance": args.tol,
            },
            indent=1,
        ),
        flush=True,
    )


if __name__ == "__main__":
    main()
