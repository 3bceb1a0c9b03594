"""Yard's steps of ``dicehall solve thousand`` (:func:`exact_cli.solve_exact` runs them for
``yard_table.YardModel``): yard's model (:mod:`yard_pi`) solved level by level, resumed from its checkpoint of
finished levels, and the figures of the run."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver.exact import LevelDone, Report
from dicehall.thousand.solver.solve import default_threads, peak_memory_mb
from dicehall.thousand.solver.yard_pi import YardTable, solve_levels


def solve(
    rules: ThousandRules, floor: int, tol: float, ckpt: Path, threads: int | None, report: Report | None
) -> YardTable:
    threads = threads or default_threads()
    if report is None:
        return solve_levels(rules, floor, tol=tol, checkpoint=ckpt, threads=threads)
    said = report

    def level_done(level: int, levels: int, step: int, residual: float) -> None:
        said(LevelDone(level, levels, (level - 1) / levels, step, residual, None))

    return solve_levels(rules, floor, tol=tol, checkpoint=ckpt, threads=threads, report=level_done)


def summary(table: YardTable, floor: int, tol: float, seconds: float) -> dict[str, Any]:
    start = table.space.start
    levels = table.levels
    return {
        "win_probability_first": table.value(start, start),
        "win_probability_first_bounds": None,
        "method": "policy iteration",
        "residual": max(lv.residual for lv in levels),
        "exact": True,
        "converged": table.complete,
        "skip_flag": True,
        "states": sum(int(lv.positions) for lv in levels),
        "player_states": table.space.size,
        "sweeps": sum(int(lv.steps) for lv in levels),
        "levels": [
            {k: float(v) if k == "residual" else round(v, 1) for k, v in lv._asdict().items()}
            for lv in levels
        ],
        "tolerance": tol,
        "seconds": round(seconds, 2),
        "cpu_seconds": round(sum(lv.cpu_seconds for lv in levels), 2),
        "peak_memory_mb": round(peak_memory_mb(), 1),
        "score_floor": floor,
        "approximation": f"scores below {floor} are kept at {floor} (the only approximation)",
        "undecided_positions": [],
    }
