"""Environment benchmark: agent steps per second under a random policy (masked), one core.

A step is one ``env.step`` of an agent's decision; the chance nodes and, in the Gymnasium environments, the bots'
moves in between are inside it. Wurf uses the ``fast`` arena model.

Run alone: ``python -m dicehall.envs.bench [--quick]``.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

import numpy as np

from dicehall.envs import aec_env, gym_env

AEC_CASES = (("thousand", 2), ("thousand", 4), ("clever", 1), ("clever", 4), ("wurf", 2), ("wurf", 5))
GYM_CASES = (("clever", ()), ("thousand", ("expert",)), ("wurf", ("cautious",)))


def aec_rate(game: str, players: int, seconds: float) -> tuple[float, int]:
    """(agent steps per second, games finished) of random play for about ``seconds``."""
    env = aec_env(game, players)
    rng = np.random.default_rng(0)
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=games)
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
        games += 1
    return steps / (time.perf_counter() - start), games


def gym_rate(game: str, opponents: tuple[str, ...], seconds: float) -> tuple[float, int]:
    env = gym_env(game, opponents)
    rng = np.random.default_rng(0)
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        _, info = env.reset(seed=games)
        terminated = False
        while not terminated:
            _, _, terminated, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            steps += 1
        games += 1
    return steps / (time.perf_counter() - start), games


def run(quick: bool = False) -> dict[str, Any]:
    seconds = 1.0 if quick else 5.0
    out: dict[str, Any] = {}
    for game, players in AEC_CASES:
        rate, games = aec_rate(game, players, seconds)
        out[f"aec_{game}_{players}p_steps_per_s"] = round(rate)
        out[f"aec_{game}_{players}p_games"] = games
    for game, opponents in GYM_CASES:
        rate, games = gym_rate(game, opponents, seconds)
        name = f"gym_{game}_vs_{'_'.join(opponents)}" if opponents else f"gym_{game}_solo"
        out[f"{name}_steps_per_s"] = round(rate)
        out[f"{name}_games"] = games
    return out


if __name__ == "__main__":
    print(json.dumps(run(quick="--quick" in sys.argv), indent=1))
