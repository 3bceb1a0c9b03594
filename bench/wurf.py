"""Der große Wurf benchmarks: ``python -m bench.wurf [--quick]``.

Figures: physics throw time with 10 dice already in the arena (median/p90 wall and CPU time, one thread), the
same with its motion recorded and packed for a live table, the motion payload's size, fast model throws per
second, full bot-versus-bot games per second with the fast model, and the time of a hint (the map of where to
aim).
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

import numpy as np

from dicehall.core.agents import make_bot
from dicehall.core.game import CHANCE
from dicehall.core.simulate import play_game
from dicehall.wurf.actions import EndTurn, Rearrange
from dicehall.wurf.arena.base import DieRest, ThrowParams
from dicehall.wurf.arena.fast import FastArena
from dicehall.wurf.arena.physics import PhysicsArena
from dicehall.wurf.layout import gather_positions, inside, overlap
from dicehall.wurf.motion import encode
from dicehall.wurf.rules import WurfRules
from dicehall.wurf.state import WurfState


def scattered(n: int, rng: np.random.Generator) -> list[DieRest]:
    dice: list[DieRest] = []
    while len(dice) < n:
        x, y, yaw = (float(v) for v in (rng.uniform(20, 180), rng.uniform(20, 180), rng.uniform(0, 90)))
        if inside(x, y) and not any(overlap((x, y, yaw), (d.x or 0, d.y or 0, d.yaw)) for d in dice):
            dice.append(DieRest(int(rng.integers(2, 7)), x, y, yaw))
    return dice


def bench_physics(throws: int) -> dict[str, float]:
    phys = PhysicsArena()
    rng = np.random.default_rng(1)
    phys.throw(scattered(10, rng), 1, ThrowParams(100, 90, 0.5, 0.5), rng)  # compile the model
    wall, cpu, sim = [], [], []
    for _ in range(throws):
        arena = scattered(10, rng)
        params = ThrowParams(
            float(rng.uniform(40, 160)), float(rng.uniform(40, 160)), float(rng.random()), 0.5
        )
        t0, c0 = time.perf_counter(), time.thread_time()
        res = phys.throw(arena, 1, params, rng)
        wall.append(time.perf_counter() - t0)
        cpu.append(time.thread_time() - c0)
        sim.append(res.sim_time)
    return {
        "physics_throw_10dice_median_ms": 1000 * float(np.median(wall)),
        "physics_throw_10dice_p90_ms": 1000 * float(np.percentile(wall, 90)),
        "physics_throw_10dice_median_cpu_ms": 1000 * float(np.median(cpu)),
        "physics_throw_simulated_s_median": float(np.median(sim)),
    }


def bench_motion(throws: int) -> dict[str, float]:
    """Live-table throws: the physics throw recording its frames, and the size of the motion payload sent."""
    phys = PhysicsArena()
    rng = np.random.default_rng(3)
    wall, cpu, size = [], [], []
    for _ in range(throws):
        arena = scattered(10, rng)
        params = ThrowParams(
            float(rng.uniform(40, 160)), float(rng.uniform(40, 160)), float(rng.random()), 0.5
        )
        t0, c0 = time.perf_counter(), time.thread_time()
        res = phys.throw(arena, 1, params, rng, record_frames=True)
        payload = encode(res.frames, res.frame_dt)
        wall.append(time.perf_counter() - t0)
        cpu.append(time.thread_time() - c0)
        size.append(len(json.dumps(payload)))
    big = []
    for _ in range(max(3, throws // 10)):  # the largest throws the box allows: 15 dice into 15
        res = phys.throw(scattered(15, rng), 15, ThrowParams(100, 100, float(rng.random()), 1.0), rng, True)
        big.append(len(json.dumps(encode(res.frames, res.frame_dt))))
    return {
        "physics_throw_10dice_with_motion_median_ms": 1000 * float(np.median(wall)),
        "physics_throw_10dice_with_motion_median_cpu_ms": 1000 * float(np.median(cpu)),
        "motion_payload_10dice_median_kb": float(np.median(size)) / 1000,
        "motion_payload_10dice_max_kb": float(np.max(size)) / 1000,
        "motion_payload_15_into_15_max_kb": float(np.max(big)) / 1000,
    }


def bench_fast(seconds: float) -> dict[str, float]:
    fast = FastArena.default()
    rng = np.random.default_rng(2)
    out: dict[str, float] = {}
    for n in (5, 10):
        arena = scattered(n, rng)
        params = ThrowParams(100, 90, 0.5, 0.5)
        count = 0
        t0, c0 = time.perf_counter(), time.thread_time()
        while time.perf_counter() - t0 < seconds:
            for _ in range(200):
                fast.throw(arena, 1, params, rng)
            count += 200
        out[f"fast_throws_per_s_{n}dice"] = count / (time.perf_counter() - t0)
        out[f"fast_throws_per_cpu_s_{n}dice"] = count / (time.thread_time() - c0)
        # A fresh layout for every throw (no cached per-layout probabilities).
        layouts = [scattered(n, rng) for _ in range(500)]
        t0, c0 = time.perf_counter(), time.thread_time()
        for layout in layouts:
            fast.throw(layout, 1, params, rng)
        out[f"fast_throws_per_s_{n}dice_fresh_layout"] = len(layouts) / (time.perf_counter() - t0)
        out[f"fast_throws_per_cpu_s_{n}dice_fresh_layout"] = len(layouts) / (time.thread_time() - c0)
    out.update(bench_fast_crowded(200 if seconds < 1 else 1000, rng))
    return out


def bench_fast_crowded(throws: int, rng: np.random.Generator) -> dict[str, float]:
    """CPU µs per fast-model throw where placing the dice is hardest: a lob onto a gathered block of nine, and
    the biggest big throw (15 dice into 15). Placement (no die inside another) is most of that time."""
    fast = FastArena.default()
    out: dict[str, float] = {}
    for label, n_arena, n_thrown in (("block9_plus1", 9, 1), ("15_into_15", 15, 15)):
        if label.startswith("block"):
            layouts = [
                [DieRest(int(rng.integers(2, 7)), x, y, 0.0) for x, y in gather_positions(n_arena, 100, 100)]
                for _ in range(throws)
            ]
        else:
            layouts = [scattered(n_arena, rng) for _ in range(throws)]
        c0 = time.thread_time()
        for layout in layouts:
            fast.throw(layout, n_thrown, ThrowParams(100, 90, float(rng.random()), 0.5), rng)
        out[f"fast_throw_{label}_cpu_us"] = 1e6 * (time.thread_time() - c0) / throws
    return out


def bench_games(games: int) -> dict[str, float]:
    rules = WurfRules.from_preset("standard")
    out: dict[str, float] = {}
    for label, bots in (
        ("expert_vs_cautious", ("expert", "cautious")),
        ("random_vs_random", ("random", "random")),
    ):
        agents = [make_bot("wurf", b, rules) for b in bots]
        t0, c0 = time.perf_counter(), time.thread_time()
        for i in range(games):
            state = WurfState(rules, 2)
            play_game(state, agents, np.random.default_rng(i), np.random.default_rng(10_000 + i))
        out[f"games_per_s_fast_{label}"] = games / (time.perf_counter() - t0)
        out[f"games_per_cpu_s_fast_{label}"] = games / (time.thread_time() - c0)
    return out


def hint_positions(count: int) -> list[WurfState]:
    """Decision positions of seeded bot:expert games (2–5 players, every stage of the game, big throws too)."""
    found: list[WurfState] = []
    game = 0
    while len(found) < count:
        players = 2 + game % 4
        state = WurfState(WurfRules.from_preset("standard"), players)
        bot = make_bot("wurf", "expert", state.rules)
        rng = np.random.default_rng(500 + game)
        while not state.is_terminal() and len(found) < count:
            if state.current_player() == CHANCE:
                state.apply_action(state.sample_chance(rng))
                continue
            found.append(state.clone())
            state.apply_action(bot.choose(state, rng))
        game += 1
    return found


def bench_hints(count: int) -> dict[str, float]:
    """The hint of a Wurf position (wurf/hints.py: the 10 × 10 map at the expert's two powers, its own candidates,
    gathering and ending): the first in the process (the expert made), then CPU ms per new position, and a
    position asked again (kept)."""
    from dicehall.wurf import hints

    positions = hint_positions(count)
    hints._EXPERT.clear()
    hints._MAPS.clear()
    t0 = time.perf_counter()
    hints.wurf_hints(positions[0])
    first = time.perf_counter() - t0
    cpu = []
    beaten = 0
    for state in positions[1:]:
        c0 = time.thread_time()
        h = hints.wurf_hints(state)
        cpu.append(time.thread_time() - c0)
        m = hints.throw_map(state)
        beaten += m.expert != m.best and not isinstance(m.expert, EndTurn | Rearrange)
        assert h.map is m
    t0 = time.perf_counter()
    hints.wurf_hints(positions[-1])
    again = time.perf_counter() - t0
    return {
        "hint_first_ms": 1000 * first,
        "hint_median_cpu_ms": 1000 * float(np.median(cpu)),
        "hint_p90_cpu_ms": 1000 * float(np.percentile(cpu, 90)),
        "hint_max_cpu_ms": 1000 * float(np.max(cpu)),
        "hint_asked_again_us": 1e6 * again,
        "hint_grid_beats_expert_throw_share": beaten / len(cpu),
    }


def run(quick: bool = False) -> dict[str, Any]:
    figures: dict[str, Any] = {}
    figures.update(bench_physics(40 if quick else 300))
    figures.update(bench_motion(20 if quick else 100))
    figures.update(bench_fast(0.5 if quick else 2.0))
    figures.update(bench_games(20 if quick else 200))
    figures.update(bench_hints(40 if quick else 300))
    return figures


if __name__ == "__main__":
    print(json.dumps(run(quick="--quick" in sys.argv), indent=1))
