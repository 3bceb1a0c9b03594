"""Solver figures for ``make bench``: a small rule set solved and timed, ``optimal`` against ``expert``.

The classic table is not solved here (it takes far longer than a benchmark run; see docs/thousand-solved.md):
the match is played on ``BENCH_RULES``, a no-barrel game to 300 with one pit, overtaking, bolts and the dump
truck, whose table is solved in the run.
"""

from __future__ import annotations

import time
from typing import Any

from dicehall.core.agents import make_bot
from dicehall.core.rng import agent_rng, game_seed, seeded_rng
from dicehall.core.simulate import play_game
from dicehall.core.stats import wilson_interval
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver.solve import save_table, solve
from dicehall.thousand.state import ThousandState

BENCH_RULES = ThousandRules.from_preset(
    "classic",
    {"target": 300, "barrel": "none", "pits": [[100, 150]], "dump_truck_score": 255},
)


def match(rules: ThousandRules, games: int, optimal_seat: int, seed: int) -> tuple[float, int]:
    """Wins of ``bot:optimal`` in ``optimal_seat`` against ``bot:expert`` over ``games`` games."""
    bots = [make_bot("thousand", "optimal", rules), make_bot("thousand", "expert", rules)]
    if optimal_seat == 1:
        bots.reverse()
    wins = 0.0
    for i in range(games):
        s = game_seed(seed, i)
        state = ThousandState(rules, 2)
        play_game(state, bots, seeded_rng(s), agent_rng(s))
        wins += state.returns()[optimal_seat]
    return wins, games


def run(quick: bool = False) -> dict[str, Any]:
    start = time.perf_counter()
    solution = solve(BENCH_RULES)
    solve_seconds = time.perf_counter() - start
    summary = solution.summary()
    save_table(solution)
    games = 2_000 if quick else 50_000
    out: dict[str, Any] = {
        "solver_rules": "classic, target 300, no barrel, pit 100-150, dump truck 255, floor -300",
        "solver_positions": summary["states"],
        "solver_sweeps": summary["sweeps"],
        "solver_seconds": round(solve_seconds, 1),
        "solver_peak_memory_mb": summary["peak_memory_mb"],
        "solver_win_probability_first": summary["win_probability_first"],
    }
    for seat in (0, 1):
        t0 = time.perf_counter()
        wins, n = match(BENCH_RULES, games, seat, seed=11 + seat)
        lo, hi = wilson_interval(wins, n)
        out[f"optimal_vs_expert_seat{seat + 1}_win_rate"] = round(wins / n, 4)
        out[f"optimal_vs_expert_seat{seat + 1}_95ci"] = [round(lo, 4), round(hi, 4)]
        out[f"optimal_vs_expert_seat{seat + 1}_games_per_second"] = round(n / (time.perf_counter() - t0), 1)
    return out


if __name__ == "__main__":
    import json
    import sys

    print(json.dumps(run(quick="--quick" in sys.argv), indent=1))
