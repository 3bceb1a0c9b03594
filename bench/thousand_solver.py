"""Solver figures for ``make bench``: a rule set solved and timed, ``optimal`` against ``expert``, decision time,
and ``optimal`` against itself on classic (games a second on the compiled path, decision time) and on yard (the
tiny yard of the tests solved here; the real yard where its table is in the cache: it is never solved here).

By default the table solved is ``BENCH_RULES`` with the floor at −100 (a no-barrel game to 300 with a pit,
overtaking, bolts and the dump truck; about ten CPU-seconds), ``--quick`` a small barrel rule set. The classic
solve (policy iteration, about eight CPU-minutes, see docs/thousand-solved.md) runs only when asked:
``make bench ARGS=--solve-classic`` (it sets ``DICEHALL_BENCH_CLASSIC``), resuming from its checkpoint. Its wall
time depends on what else the machine runs, so the load average before and after is reported with it.
"""

from __future__ import annotations

import os
import time
from typing import Any

import numpy as np

from dicehall.core.agents import make_bot
from dicehall.core.rng import agent_rng, game_seed, seeded_rng
from dicehall.core.simulate import play_game
from dicehall.core.stats import wilson_interval
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver.bot import OptimalBot
from dicehall.thousand.solver.solve import Table, checkpoint_path, load_table, save_table, solve
from dicehall.thousand.state import ThousandState

CLASSIC_ENV = "DICEHALL_BENCH_CLASSIC"
BENCH_RULES = ThousandRules.from_preset(
    "classic",
    {"target": 300, "barrel": "none", "pits": [[100, 150]], "dump_truck_score": 255},
)
QUICK_RULES = ThousandRules.from_preset(
    "classic",
    {
        "target": 120,
        "barrel_score": 80,
        "pits": [[30, 40]],
        "open_min": 20,
        "dump_truck_score": 55,
        "bolt_penalty": 30,
        "barrel_fall_penalty": 30,
        "overtake_penalty": 15,
    },
)


def match(
    rules: ThousandRules, table: Table, games: int, optimal_seat: int, seed: int
) -> tuple[float, int, list[float]]:
    """Wins of ``bot:optimal`` (playing from ``table``) in ``optimal_seat`` against ``bot:expert`` over ``games``
    games, and the seconds of each of its decisions."""
    optimal = OptimalBot(rules, table)
    bots: list[Any] = [optimal, make_bot("thousand", "expert", rules)]
    if optimal_seat == 1:
        bots.reverse()
    times: list[float] = []
    choose = optimal.choose

    def timed(state: Any, rng: np.random.Generator) -> Any:
        t0 = time.perf_counter()
        action = choose(state, rng)
        times.append(time.perf_counter() - t0)
        return action

    optimal.choose = timed  # type: ignore[method-assign]
    wins = 0.0
    for i in range(games):
        s = game_seed(seed, i)
        state = ThousandState(rules, 2)
        play_game(state, bots, seeded_rng(s), agent_rng(s))
        wins += state.returns()[optimal_seat]
    return wins, games, times


def solve_figures(rules: ThousandRules, floor: int, label: str, resume: bool = False) -> dict[str, Any]:
    """Solve ``rules`` (or resume its checkpoint), store the table, return the figures under ``label``."""
    load_before = os.getloadavg()[0]
    solution = solve(rules, floor=floor, checkpoint=checkpoint_path(rules, floor) if resume else None)
    s = solution.summary()
    if solution.exact:
        save_table(solution)
    return {
        f"{label}_method": s["method"],
        f"{label}_residual": s["residual"],
        f"{label}_gmres_iterations": sum(lv.get("gmres_iterations", 0) for lv in s["levels"]),
        f"{label}_load_average": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        f"{label}_positions": s["states"],
        f"{label}_sweeps": s["sweeps"],
        f"{label}_sweep_equivalents": s["sweep_equivalents"],
        f"{label}_seconds": s["seconds"],
        f"{label}_cpu_seconds": s["cpu_seconds"],
        f"{label}_peak_memory_mb": s["peak_memory_mb"],
        f"{label}_win_probability_first": s["win_probability_first"],
        f"{label}_gap": s["gap"],
    }


def run(quick: bool = False) -> dict[str, Any]:
    rules, floor = (QUICK_RULES, -30) if quick else (BENCH_RULES, -100)
    out: dict[str, Any] = {
        "solver_rules": "quick: classic scaled to 120 with a barrel at 80"
        if quick
        else "classic, target 300, no barrel, pit 100-150, dump truck 255, floor -100",
    }
    out.update(solve_figures(rules, floor, "solver"))
    table = load_table(rules, floor)
    assert table is not None
    games = 300 if quick else 10_000
    times: list[float] = []
    for seat in (0, 1):
        t0 = time.perf_counter()
        wins, n, decisions = match(rules, table, games, seat, seed=11 + seat)
        times += decisions
        lo, hi = wilson_interval(wins, n)
        out[f"optimal_vs_expert_seat{seat + 1}_win_rate"] = round(wins / n, 4)
        out[f"optimal_vs_expert_seat{seat + 1}_95ci"] = [round(lo, 4), round(hi, 4)]
        out[f"optimal_vs_expert_seat{seat + 1}_games_per_second"] = round(n / (time.perf_counter() - t0), 1)
    ms = np.array(times) * 1000
    out["optimal_decision_ms_mean"] = round(float(ms.mean()), 3)
    out["optimal_decision_ms_p99"] = round(float(np.percentile(ms, 99)), 3)
    out.update(shipped_figures())
    out.update(selfplay_figures(500 if quick else 5000))
    out.update(yard_selfplay_figures(2000 if quick else 20_000))
    if os.environ.get(CLASSIC_ENV):
        out.update(solve_figures(ThousandRules.from_preset("classic"), -300, "classic", resume=True))
    return out


def selfplay_figures(games: int) -> dict[str, Any]:
    """``bot:optimal`` against itself on classic (the exact table where classic is solved here, else the shipped
    one): games a CPU-second through ``simulate`` on one core (the compiled path, :mod:`playout`), after 100 games
    that load the table and the kernel, and the bot's decision time in the engine's own loop, first with no
    decisions kept (every new position solves its turn) and then with those of the games before."""
    from dicehall.core.agents import parse_players
    from dicehall.core.simulate import SimulationJob, simulate
    from dicehall.thousand.solver.solve import find_table

    rules = ThousandRules.from_preset("classic")
    table = find_table(rules)
    assert table is not None
    table.decisions = None  # no decisions kept from earlier runs
    players = tuple(parse_players("bot:optimal,bot:optimal"))
    load_before = os.getloadavg()[0]
    simulate(SimulationJob("thousand", rules, players, 20), 100, 1)
    t0, c0 = time.perf_counter(), time.process_time()
    simulate(SimulationJob("thousand", rules, players, 21), games, 1)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    out: dict[str, Any] = {
        "optimal_selfplay_table": "shipped" if table.shipped else "exact",
        "optimal_selfplay_games": games,
        "optimal_selfplay_games_per_cpu_second": round(games / cpu, 1),
        "optimal_selfplay_games_per_second": round(games / wall, 1),
        "optimal_selfplay_load_average": [round(load_before, 2), round(os.getloadavg()[0], 2)],
    }
    for label, fresh in (("cold", True), ("warm", False)):
        if fresh:
            table.decisions = None
        ms = np.array(_decision_times(rules, table, 100)) * 1000
        out[f"optimal_classic_decision_ms_mean_{label}"] = round(float(ms.mean()), 4)
        out[f"optimal_classic_decision_ms_p99_{label}"] = round(float(np.percentile(ms, 99)), 4)
        out[f"optimal_classic_decision_ms_max_{label}"] = round(float(ms.max()), 3)
    return out


YARD_TINY = ThousandRules.from_preset(
    "yard",
    {
        "target": 40,
        "open_min": 10,
        "pits": [[15, 20]],
        "dump_truck_score": 25,
        "overtake_penalty": 5,
        "bolts_count": 2,
        "bolt_penalty": 10,
        "barrel_score": 30,
        "barrel_fall_penalty": 10,
        "barrel_attempts": 2,
        "barrel_falls_to_zero": 2,
    },
)  # tests/thousand/test_solver_yard.py's TINY


def yard_selfplay_figures(games: int) -> dict[str, Any]:
    """Yard's ``bot:optimal`` against itself, games a CPU-second: the compiled path (:mod:`yard_playout`, through
    ``play_game``) and the Python loop (``thousand/fast.py``) on the same games of the tiny yard (after 200 games
    that compile the kernel and keep most decisions); on the real yard through ``simulate`` on one core where
    its table is in the cache (it is never solved here: about 1.7 CPU-hours)."""
    from dicehall.core.agents import parse_players
    from dicehall.core.simulate import SimulationJob, simulate
    from dicehall.thousand import fast
    from dicehall.thousand.solver import yard_table
    from dicehall.thousand.solver.yard_bot import KeptDecisions, YardTableBot
    from dicehall.thousand.solver.yard_pi import solve_levels

    table = solve_levels(YARD_TINY, -60, tol=1e-11)
    kept = KeptDecisions()
    bots = [YardTableBot(table, kept), YardTableBot(table, kept)]

    def play(seed: int, n: int, compiled: bool) -> tuple[float, float]:
        wins = 0.0
        c0 = time.process_time()
        for i in range(n):
            s = game_seed(seed, i)
            state = ThousandState(YARD_TINY, 2)
            if compiled:
                play_game(state, bots, seeded_rng(s), agent_rng(s))
            else:
                fast.play_out(state, bots, seeded_rng(s), agent_rng(s))
            wins += state.returns()[0]
        return wins, time.process_time() - c0

    play(23, 200, True)
    play(23, 200, False)
    wins, cpu = play(24, games, True)
    python_games = max(games // 10, 200)
    _, python_cpu = play(24, python_games, False)
    out: dict[str, Any] = {
        "yard_tiny_selfplay_games": games,
        "yard_tiny_selfplay_first_player": round(wins / games, 4),
        "yard_tiny_selfplay_table_first_player": round(table.value(table.space.start, table.space.start), 4),
        "yard_tiny_selfplay_games_per_cpu_second": round(games / cpu, 1),
        "yard_tiny_python_loop_games_per_cpu_second": round(python_games / python_cpu, 1),
    }
    rules = ThousandRules.from_preset("yard")
    if yard_table.load_yard_table(rules) is None:
        out["yard_selfplay"] = "no yard table in the cache (dicehall solve thousand --preset yard)"
        return out
    players = tuple(parse_players("bot:optimal,bot:optimal"))
    simulate(SimulationJob("thousand", rules, players, 20), 100, 1)
    t0, c0 = time.perf_counter(), time.process_time()
    n = max(games // 10, 500)
    simulate(SimulationJob("thousand", rules, players, 21), n, 1)
    out["yard_selfplay_games"] = n
    out["yard_selfplay_games_per_cpu_second"] = round(n / (time.process_time() - c0), 1)
    out["yard_selfplay_games_per_second"] = round(n / (time.perf_counter() - t0), 1)
    return out


def _decision_times(rules: ThousandRules, table: Table, games: int) -> list[float]:
    """Seconds of each decision of ``bot:optimal`` playing itself through the engine's own loop."""
    bot = OptimalBot(rules, table)
    times: list[float] = []
    choose = bot.choose

    def timed(state: Any, rng: np.random.Generator) -> Any:
        t = time.perf_counter()
        action = choose(state, rng)
        times.append(time.perf_counter() - t)
        return action

    bot.choose = timed  # type: ignore[method-assign]
    for i in range(games):
        s = game_seed(22, i)
        play_game(ThousandState(rules, 2), [bot, bot], seeded_rng(s), agent_rng(s), fast=False)
    return times


def shipped_figures() -> dict[str, Any]:
    """The compact classic table shipped in the package: its size and the time to decode it (the space built
    first, as a loader does; docs/thousand-solved.md, "Out of the box")."""
    from dicehall.thousand.solver import compact
    from dicehall.thousand.solver.space import build_space

    path = compact.shipped_path()
    t0 = time.perf_counter()
    space = build_space(ThousandRules.from_preset("classic"))
    t1 = time.perf_counter()
    compact.decode(path, space)
    t2 = time.perf_counter()
    return {
        "shipped_table_bytes": path.stat().st_size,
        "shipped_table_max_error": compact.read_header(path)["max_error"],
        "shipped_table_space_ms": round(1000 * (t1 - t0), 1),
        "shipped_table_decode_ms": round(1000 * (t2 - t1), 1),
    }


if __name__ == "__main__":
    import json
    import sys

    print(json.dumps(run(quick="--quick" in sys.argv), indent=1))
