"""Environment benchmark: agent steps per CPU-second under a random policy (masked), one process.

Steps per CPU-second (``time.process_time``) hardly depend on what else the machine runs; steps per wall-second
are given beside them.

A step is one ``env.step`` of an agent's decision; the chance nodes and, in the Gymnasium environments, the bots'
moves in between are inside it. Wurf uses the ``fast`` arena model.

Run alone: ``python -m bench.envs [--quick]``.
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any

import numpy as np

from dicehall.envs import aec_env, gym_env

AEC_CASES = (("thousand", 2), ("thousand", 4), ("clever", 1), ("clever", 4), ("wurf", 2), ("wurf", 5))
GYM_CASES = (("clever", ()), ("thousand", ("expert",)), ("wurf", ("cautious",)))


def aec_rate(game: str, players: int, seconds: float) -> tuple[float, float, int]:
    """(agent steps per CPU-second, per wall-second, games finished) of random play for ``seconds`` of CPU."""
    env = aec_env(game, players)
    rng = np.random.default_rng(0)
    steps = games = 0
    cpu, wall = time.process_time(), time.perf_counter()
    while time.process_time() - cpu < seconds:
        env.reset(seed=games)
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
        games += 1
    return steps / (time.process_time() - cpu), steps / (time.perf_counter() - wall), games


def gym_rate(game: str, opponents: tuple[str, ...], seconds: float) -> tuple[float, float, int]:
    env = gym_env(game, opponents)
    rng = np.random.default_rng(0)
    steps = games = 0
    cpu, wall = time.process_time(), time.perf_counter()
    while time.process_time() - cpu < seconds:
        _, info = env.reset(seed=games)
        terminated = False
        while not terminated:
            _, _, terminated, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            steps += 1
        games += 1
    return steps / (time.process_time() - cpu), steps / (time.perf_counter() - wall), games


def run(quick: bool = False) -> dict[str, Any]:
    seconds = 1.0 if quick else 5.0
    out: dict[str, Any] = {"load_average_1min": round(os.getloadavg()[0], 2)}
    for game, players in AEC_CASES:
        cpu, wall, games = aec_rate(game, players, seconds)
        out[f"aec_{game}_{players}p_steps_per_cpu_s"] = round(cpu)
        out[f"aec_{game}_{players}p_steps_per_s"] = round(wall)
        out[f"aec_{game}_{players}p_games"] = games
    for game, opponents in GYM_CASES:
        cpu, wall, games = gym_rate(game, opponents, seconds)
        name = f"gym_{game}_vs_{'_'.join(opponents)}" if opponents else f"gym_{game}_solo"
        out[f"{name}_steps_per_cpu_s"] = round(cpu)
        out[f"{name}_steps_per_s"] = round(wall)
        out[f"{name}_games"] = games
    return out


if __name__ == "__main__":
    print(json.dumps(run(quick="--quick" in sys.argv), indent=1))
