"""Clever benchmark: random games per second on one core (compiled kernel, simulation path, plain engine),
greedy solo games per second, the expert's mean and speed.

Run alone with ``python -m dicehall.clever.bench [--quick]``; ``make bench`` calls :func:`run`.
"""

from __future__ import annotations

import sys
import time

import numpy as np

from dicehall.clever import sheet as S
from dicehall.clever.bots import ExpertAgent, GreedyAgent
from dicehall.clever.game import CleverGame
from dicehall.clever.kernel import rules as K
from dicehall.clever.rules import CleverRules
from dicehall.core.agents import Agent, RandomAgent
from dicehall.core.rng import agent_rng, game_seed, seeded_rng
from dicehall.core.simulate import play_game


def _run(
    agent: Agent, games: int, seed: int, players: int = 1, fast: bool = True
) -> tuple[float, list[float]]:
    rules = CleverRules.from_preset()
    game = CleverGame()
    scores: list[float] = []
    start = time.perf_counter()
    for i in range(games):
        s = game_seed(seed, i)
        state = game.new_initial_state(rules, players)
        play_game(state, [agent] * players, seeded_rng(s), agent_rng(s), fast=fast)
        scores.append(state.scores()[0])
    return time.perf_counter() - start, scores


def _kernel(games: int, players: int) -> tuple[float, float]:
    """Random games inside the kernel (one generator for dice and decisions): seconds and seat 0's mean."""
    rng = np.random.default_rng(1)
    rounds = S.ROUNDS_BY_PLAYERS[players]
    start = time.perf_counter()
    mean = K.random_games(games, players, rounds, rng)
    return time.perf_counter() - start, mean


def _learned(quick: bool) -> dict[str, float]:
    """bot:master on held-out seeds (those of ``simulate --seed 2026``) and TD(λ) training episodes per second."""
    from dicehall.clever.kernel import net
    from dicehall.clever.master import MasterAgent

    out: dict[str, float] = {}
    games = 100 if quick else 1000
    secs, scores = _run(MasterAgent(), games, 2026)
    arr = np.array(scores)
    out["master_solo_games"] = games
    out["master_solo_mean"] = round(float(arr.mean()), 2)
    out["master_solo_sd"] = round(float(arr.std(ddof=1)), 2)
    for q in (10, 50, 90):
        out[f"master_solo_p{q}"] = round(float(np.percentile(arr, q)), 1)
    out["master_ms_per_solo_game"] = round(1000 * secs / games, 2)
    rng = np.random.default_rng(1)
    weights = net.init_weights(rng, 64, 64)
    episodes = 100 if quick else 1000
    w1, b1, w2, b2, w3, b3 = weights
    start = time.perf_counter()
    net.td_episodes(episodes, 1, 6, rng, w1, b1, w2, b2, w3, b3, 0.03, 0.8, 0.05, np.zeros(episodes))
    out["train_episodes_per_s_one_core"] = round(episodes / (time.perf_counter() - start), 1)
    return out


def run(quick: bool = False) -> dict[str, float]:
    n_random, n_greedy, n_expert = (300, 100, 3) if quick else (3000, 1000, 60)
    n_kernel = 20_000 if quick else 200_000
    out: dict[str, float] = {}
    start = time.perf_counter()
    _kernel(10, 1)  # compiles the kernel, or loads it from Numba's cache
    out["kernel_load_seconds"] = round(time.perf_counter() - start, 2)
    secs, mean = _kernel(n_kernel, 1)
    out["kernel_random_solo_games_per_s"] = round(n_kernel / secs, 1)
    out["kernel_random_solo_mean"] = round(mean, 2)
    secs, mean = _kernel(n_kernel // 4, 4)
    out["kernel_random_4p_games_per_s"] = round(n_kernel // 4 / secs, 1)
    secs, scores = _run(RandomAgent(), n_random, 1)
    out["simulate_random_solo_games_per_s"] = round(n_random / secs, 1)
    out["random_solo_mean"] = round(float(np.mean(scores)), 2)
    secs, scores = _run(RandomAgent(), n_random, 1, fast=False)
    out["engine_random_solo_games_per_s"] = round(n_random / secs, 1)
    secs, scores = _run(RandomAgent(), n_random // 3, 2, players=4, fast=False)
    out["engine_random_4p_games_per_s"] = round(n_random // 3 / secs, 1)
    out.update(_learned(quick))
    secs, scores = _run(GreedyAgent(), n_greedy, 1)
    out["greedy_solo_games_per_s"] = round(n_greedy / secs, 1)
    out["greedy_solo_mean"] = round(float(np.mean(scores)), 2)
    out["greedy_solo_sd"] = round(float(np.std(scores, ddof=1)), 2)
    secs, scores = _run(ExpertAgent(), n_expert, 1)
    out["expert_solo_seconds_per_game"] = round(secs / n_expert, 3)
    out["expert_solo_mean"] = round(float(np.mean(scores)), 2)
    out["expert_solo_sd"] = round(float(np.std(scores, ddof=1)), 2)
    out["expert_games"] = n_expert
    # the same seeds for greedy, so the two means compare like for like
    _, same = _run(GreedyAgent(), n_expert, 1)
    out["greedy_solo_mean_same_games_as_expert"] = round(float(np.mean(same)), 2)
    from dicehall.core.analysis_bench import clever_figures

    out.update(clever_figures(quick))
    return out


if __name__ == "__main__":
    for key, value in run(quick="--quick" in sys.argv).items():
        print(f"{key:<40} {value}")
