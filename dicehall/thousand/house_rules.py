"""What each Dice 1000 preset does to a game, measured by simulation: the first player's advantage, the game's
length in turns, and how often the barrel's falls and the dump truck come into a game (docs/strategy.md).

``bot:expert`` plays itself (two seats) under every preset, the same bot everywhere so that the presets compare:
``bot:optimal`` exists for classic only. Games ``0 .. games − 1`` of ``seed`` (``core.simulate``'s seeding), so the
same command gives the same table.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dicehall.core.agents import PlayerSpec
from dicehall.core.simulate import OutcomeBlock, SimulationJob, iter_outcomes
from dicehall.core.stats import Z95, wilson_interval
from dicehall.thousand.rules import ThousandRules

PRESETS = tuple(ThousandRules.PRESETS)
BOT = "expert"
DEFAULT_GAMES = 20000
DEFAULT_SEED = 26


def _rate(hits: float, n: int) -> dict[str, float]:
    lo, hi = wilson_interval(hits, n)
    return {"value": hits / n, "low": lo, "high": hi}


def _mean(total: float, squares: float, n: int) -> dict[str, float]:
    mean = total / n
    sd = math.sqrt(max(squares / n - mean * mean, 0.0) * n / max(n - 1, 1))
    half = Z95 * sd / math.sqrt(n)
    return {"value": mean, "low": mean - half, "high": mean + half}


def preset_effects(
    preset: str,
    games: int = DEFAULT_GAMES,
    seed: int = DEFAULT_SEED,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """One preset's row: every rate with its 95 % Wilson interval, the mean length with a normal one."""
    rules = ThousandRules.from_preset(preset)
    seats = tuple(PlayerSpec(f"bot:{BOT}", BOT) for _ in range(2))
    job = SimulationJob("thousand", rules, seats, seed)
    n = first = turns = turns2 = dumped = fell = falls = bolts = 0.0
    for part in iter_outcomes(job, games, jobs=jobs):
        if isinstance(part, OutcomeBlock):
            rows = [
                (float(part.returns[k][0]), {key: float(v[k]) for key, v in part.stats.items()})
                for k in range(len(part))
            ]
        else:
            rows = [(o.returns[0], o.stats) for o in part]
        for first_won, stats in rows:
            n += 1
            first += first_won
            turns += stats["turns"]
            turns2 += stats["turns"] ** 2
            dumped += stats["dump_trucks"] > 0
            fell += stats["barrel_falls"] > 0
            falls += stats["barrel_falls"]
            bolts += stats["bolt_penalties"]
        if progress is not None:
            progress(int(n))
    count = int(n)
    return {
        "preset": preset,
        "bot": BOT,
        "games": count,
        "seed": seed,
        "first_player_wins": _rate(first, count),
        "turns": _mean(turns, turns2, count),
        "games_with_dump_truck": _rate(dumped, count),
        "games_with_barrel_fall": _rate(fell, count),
        "barrel_falls_per_game": falls / count,
        "bolt_penalties_per_game": bolts / count,
        "dump_truck": rules.dump_truck,
        "barrel": rules.barrel,
        "pits": [list(p) for p in rules.pits],
    }


SHIPPED = Path(__file__).parent / "data" / "house_rules.json"
"""The table the page and ``dicehall strategy thousand --presets`` show, made by the command in ``command``."""


def effects(
    games: int = DEFAULT_GAMES,
    seed: int = DEFAULT_SEED,
    jobs: int = 1,
    progress: Callable[[str, int], None] | None = None,
) -> dict[str, Any]:
    """Every preset's row (the same games and seed for each)."""
    rows = []
    for preset in PRESETS:
        step = None if progress is None else (lambda done, p=preset: progress(p, done))
        rows.append(preset_effects(preset, games, seed, jobs, step))
    return {
        "bot": BOT,
        "games": games,
        "seed": seed,
        "command": f"dicehall strategy thousand --presets --games {games} --seed {seed} --json",
        "presets": rows,
    }


def shipped_effects() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(SHIPPED.read_text(encoding="utf-8"))
    return data
