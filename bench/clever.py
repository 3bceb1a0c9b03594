"""Clever benchmark: random games per second on one core (compiled kernel, the simulation's kernel blocks in
this process and as the whole user command, the older per-game path, plain engine), bot:master simulated,
bot:master's held-out mean and ms per game, training episodes per second, greedy solo games per second, the
expert's mean and speed.

Run alone with ``python -m bench.clever [--quick]``; ``make bench`` calls :func:`run`.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

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
    """bot:master (with and without the look-ahead) on held-out seeds and the trainer's episodes per second.

    The games are those of ``dicehall simulate clever --players bot:master --seed 2029`` (never used in training
    or in choosing the weights; docs/clever-training.md).
    """
    from dicehall.clever import train as T
    from dicehall.clever.kernel import net
    from dicehall.clever.master import MasterAgent
    from tools.master_eval import solo_games, summary

    out: dict[str, float] = {}
    games = 100 if quick else 1000
    for label, agent in (("master", MasterAgent()), ("master_plain", MasterAgent(lookahead=None))):
        figures = summary(*solo_games(agent, games, 2029))
        out[f"{label}_solo_games"] = games
        for key in ("mean", "sd", "p10", "p50", "p90", "foxes", "fox_points", "ms_per_game"):
            out[f"{label}_solo_{key}"] = figures[key]
    episodes = 64 if quick else 640
    T.adam_batch(T.new_run(T.TrainConfig(episodes=2, shards=1, sync=2)), 1e-4, 0.04, None)  # loads the kernel
    run = T.new_run(T.TrainConfig(episodes=episodes, shards=1, sync=episodes))
    start = time.perf_counter()
    T.adam_batch(run, 1e-4, 0.04, None)
    out["train_episodes_per_s_one_core"] = round(episodes / (time.perf_counter() - start), 1)
    w1, b1, w2, b2, w3, b3 = net.init_weights(np.random.default_rng(1), 64, 64)
    start = time.perf_counter()
    net.td_episodes(
        episodes, 1, 6, np.random.default_rng(1), w1, b1, w2, b2, w3, b3, 0.03, 0.8, 0.05, np.zeros(episodes)
    )
    out["train_sgd_episodes_per_s_one_core"] = round(episodes / (time.perf_counter() - start), 1)
    return out


def _simulate(players: str, games: int) -> tuple[float, float]:
    """``simulate`` in this process (the kernel's block path for random and master): wall and CPU seconds."""
    from dicehall.core.agents import parse_players
    from dicehall.core.simulate import SimulationJob, simulate

    job = SimulationJob("clever", CleverRules.from_preset(), tuple(parse_players(players)), 1)
    simulate(job, 10)  # loads the kernel
    wall, cpu = time.perf_counter(), time.process_time()
    simulate(job, games)
    return time.perf_counter() - wall, time.process_time() - cpu


def _on_one_core(command: list[str], cwd: str | None = None) -> tuple[float, float]:
    """``command`` run to its end on this process's first core (its threads included): wall and CPU seconds."""
    import os
    import resource
    import subprocess

    core = min(os.sched_getaffinity(0))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        command, check=True, capture_output=True, cwd=cwd, preexec_fn=lambda: os.sched_setaffinity(0, {core})
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _command(games: int) -> tuple[float, float]:
    """The whole user command ``dicehall simulate clever --players bot:random --jobs 1`` in a new process on one
    core, start-up included: wall and CPU seconds."""
    command = [str(Path(sys.executable).parent / "dicehall"), "simulate", "clever", "--players", "bot:random"]
    return _on_one_core([*command, "--games", str(games), "--seed", "1", "--jobs", "1"])  # its tables too


def _clever_lab(rounds: int) -> dict[str, float]:
    """Side by side with the anchor, on the same core, interleaved: Clever Lab's random games per second (by the
    difference of a 20,200- and a 100,200-game run, so without its start-up) against the whole ``dicehall simulate``
    command over 50,000 games (with its start-up). Clever Lab (github.com/fsaintjacques/prettyclever, TypeScript
    on node) is not part of this project: set ``CLEVER_LAB`` to a checkout where ``npm ci`` has run."""
    import os

    lab = os.environ.get("CLEVER_LAB")
    if not lab:
        return {}
    theirs, ours = [], []
    for _ in range(rounds):
        walls = []
        for games in (20_200, 100_200):
            sim = ["npx", "tsx", "src/sim/cli.ts", "--strategy", "random", "--games", str(games)]
            walls.append(_on_one_core([*sim, "--seed", "1"], cwd=lab)[0])
            ours.append(50_000 / _command(50_000)[0])
        theirs.append(80_000 / (walls[1] - walls[0]))
    lab_rate, our_rate = float(np.median(theirs)), float(np.median(ours))
    return {
        "clever_lab_random_games_per_s": round(lab_rate, 1),
        "simulate_command_random_50k_games_per_s_median": round(our_rate, 1),
        "simulate_command_over_clever_lab": round(our_rate / lab_rate, 2),
        "side_by_side_rounds": rounds,
    }


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
    n_block = 5_000 if quick else 50_000
    wall, cpu = _simulate("bot:random", n_block)
    out["simulate_random_solo_games_per_s"] = round(n_block / wall, 1)
    out["simulate_random_solo_games_per_cpu_s"] = round(n_block / cpu, 1)
    wall, cpu = _command(n_block)
    out["simulate_command_random_solo_games_per_s"] = round(n_block / wall, 1)  # start-up included
    out["simulate_command_random_solo_games_per_cpu_s"] = round(n_block / cpu, 1)
    wall, cpu = _command(1)
    out["simulate_command_start_up_cpu_s"] = round(cpu, 2)
    out["simulate_command_start_up_wall_s"] = round(wall, 2)
    out.update(_clever_lab(1 if quick else 3))
    n_master = 20 if quick else 300
    wall, cpu = _simulate("bot:master", n_master)
    out["simulate_master_solo_games_per_s"] = round(n_master / wall, 1)
    out["simulate_master_solo_games_per_cpu_s"] = round(n_master / cpu, 1)
    secs, scores = _run(RandomAgent(), n_random, 1)
    out["simulate_per_game_random_solo_games_per_s"] = round(n_random / secs, 1)  # engine state in and out
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
    from bench.analysis import clever_figures
    from bench.puzzles import clever_figures as clever_puzzle_figures

    out.update(clever_figures(quick))
    out.update(clever_puzzle_figures(quick))
    return out


if __name__ == "__main__":
    for key, value in run(quick="--quick" in sys.argv).items():
        print(f"{key:<40} {value}")
