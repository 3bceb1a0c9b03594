"""Dice 1000 benchmark: bot-vs-bot throughput (``bot:expert`` vs ``bot:bold``, classic) on one core.

Games are played through the real engine and the real protocol loop (:func:`dicehall.core.simulate.play_game`).
The expert's DP tables are built first and timed on their own (every table a classic game can need), so the
throughput figure is steady-state play.

Run alone: ``python -m bench.thousand [--quick]``.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

from dicehall.core.agents import make_bot
from dicehall.core.game import get_game
from dicehall.core.rng import agent_rng, game_seed, seeded_rng
from dicehall.core.simulate import play_game
from dicehall.thousand import dp
from dicehall.thousand.bots import turn_model
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.state import ThousandState

TARGET_GAMES_PER_SECOND = 2000


def prebuild_tables(rules: ThousandRules) -> int:
    """Solve the DP for every (score, opened, on-barrel) a game under ``rules`` can present; returns the count."""
    seen = set()
    low = -600  # penalties can push a score below zero
    for score in range(low, rules.target + 1, dp.STEP):
        for opened in (False, True):
            for on_barrel in (False, True):
                if on_barrel and not (rules.barrel == "score" and score >= rules.barrel_score):
                    continue
                state = ThousandState.from_position(rules, [score], opened=[opened], on_barrel=[on_barrel])
                model = turn_model(state)
                if model not in seen:
                    seen.add(model)
                    dp.table(model)
    return len(seen)


def run(quick: bool = False) -> dict[str, Any]:
    rules = ThousandRules.from_preset("classic")
    assert isinstance(rules, ThousandRules)
    dp.clear_cache()
    start = time.perf_counter()
    tables = prebuild_tables(rules)
    build = time.perf_counter() - start

    game = get_game("thousand")
    agents = [make_bot("thousand", "expert", rules), make_bot("thousand", "bold", rules)]
    games = 300 if quick else 3000
    turns = steps = 0
    expert_wins = 0.0
    start = time.perf_counter()
    for i in range(games):
        seed = game_seed(1, i)
        state = game.new_initial_state(rules, 2)
        play_game(state, agents, seeded_rng(seed), agent_rng(seed))
        assert isinstance(state, ThousandState)
        turns += state.turns
        steps += state.total_rolls
        expert_wins += state.returns()[0]
    elapsed = time.perf_counter() - start
    rate = games / elapsed
    from bench import thousand_solver as solver_bench
    from bench.analysis import thousand_figures
    from bench.puzzles import figures as puzzle_figures

    return {
        **solver_bench.run(quick),
        **thousand_figures(quick),
        **puzzle_figures(quick),
        "dp_tables": tables,
        "dp_build_seconds": round(build, 3),
        "dp_ms_per_table": round(1000 * build / max(tables, 1), 2),
        "games": games,
        "games_per_second": round(rate, 1),
        "target_games_per_second": TARGET_GAMES_PER_SECOND,
        "meets_target": rate >= TARGET_GAMES_PER_SECOND,
        "mean_turns_per_game": round(turns / games, 1),
        "mean_rolls_per_game": round(steps / games, 1),
        "microseconds_per_roll": round(1e6 * elapsed / max(steps, 1), 2),
        "expert_win_rate_vs_bold": round(expert_wins / games, 3),
        "extra_tables_built_during_play": dp.cached_tables() - tables,
    }


if __name__ == "__main__":
    print(json.dumps(run(quick="--quick" in sys.argv), indent=1))
