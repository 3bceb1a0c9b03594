"""Variant 2's steps of ``dicehall solve thousand`` (:func:`exact_cli.solve_exact` runs them for
``variant2_table.Variant2Model``): variant 2's model (:mod:`variant2_solve`) solved level by level, resumed from
its checkpoint of finished levels, and the figures of the run."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver.exact import LevelDone, Report
from dicehall.thousand.solver.solve import peak_memory_mb
from dicehall.thousand.solver.variant2_solve import Level, Variant2Table
from dicehall.thousand.solver.variant2_solve import solve as solve_levels
from dicehall.thousand.solver.variant2_space import build_variant2_space
from dicehall.thousand.solver.variant2_space import levels as level_order
from dicehall.thousand.solver.variant2_table import EXACT


def solve(rules: ThousandRules, tol: float, ckpt: Path, report: Report | None) -> Variant2Table:
    if report is None:
        return solve_levels(rules, tol, checkpoint=ckpt, checkpoint_every=60.0)
    said = report
    space = build_variant2_space(rules)
    sizes = [space.level_positions(lv) for lv in level_order(space)]
    total = sum(sizes)

    def level_done(level: Level, count: int) -> None:
        done = sum(sizes[: level.number + 1]) / total
        said(LevelDone(level.number + 1, count, done, level.sweeps, level.residual, level.gap))

    return solve_levels(rules, tol, checkpoint=ckpt, checkpoint_every=60.0, report=level_done)


def _turn_states(table: Variant2Table) -> int:
    """Decision points of every turn solved: (top + 1) totals × 6 dice counts, each mover against each opponent."""
    space = table.space
    rows = (space.top_of + 1) * 6
    out = 0
    for ka, kb in level_order(space):
        for mk, ok in ((ka, kb), (kb, ka)) if ka != kb else ((ka, ka),):
            movers = rows[space.key_lo[mk] : space.key_hi[mk]]
            out += int(movers.sum()) * int(space.key_hi[ok] - space.key_lo[ok])
    return out


def summary(table: Variant2Table, tol: float, seconds: float) -> dict[str, Any]:
    start = table.space.start
    levels = table.levels
    lo, hi = table.bounds(table.space.states[start], table.space.states[start])
    return {
        "win_probability_first": table.value(start, start),
        "win_probability_first_bounds": [lo, hi],
        "method": "value iteration by levels",
        "max_change": max(lv.residual for lv in levels),
        "gap": max(lv.gap for lv in levels),
        "exact": True,
        "converged": table.complete and all(lv.converged for lv in levels),
        "states": sum(int(lv.positions) for lv in levels),
        "player_states": table.space.size,
        "turn_states": _turn_states(table),
        "sweeps": sum(lv.barrel_sweeps + lv.sweeps for lv in levels),
        "levels": len(levels),
        "level_cpu_seconds": [lv.cpu_seconds for lv in levels],
        "endless_pairs": sum(lv.endless for lv in levels),
        "tolerance": tol,
        "seconds": round(seconds, 2),
        "cpu_seconds": round(sum(lv.cpu_seconds for lv in levels), 2),
        "peak_memory_mb": round(peak_memory_mb(), 1),
        "score_floor": None,
        "approximation": str(EXACT),
        "undecided_positions": [],
    }
