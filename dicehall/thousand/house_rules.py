"""What each Dice 1000 preset does to a game, measured by simulation: the first player's advantage, the game's
length in turns, how often the barrel's falls, the dump truck and a pit's refused bank come into a game, and how
often each *decided* it (:mod:`dicehall.thousand.lead`; docs/strategy.md, "When a house rule decided a game").

``bot:expert`` plays itself (two seats) under every preset, the same bot everywhere so that the presets compare;
the exact rows (:mod:`house_exact`: ``bot:optimal`` against itself, valued by the exact table) come for the presets
whose exact table is stored on the machine that makes the table (classic's is shipped; yard's and variant 2's are
made by ``dicehall solve thousand --preset …``), the others listed as ``unsolved``. Games ``0 .. games − 1`` of ``seed`` (``core.simulate``'s seeding), so the
same command gives the same table: the games ``dicehall simulate`` plays, each followed by the engine
(:meth:`ThousandState.follow_lead`) on the engine's fast path (``thousand/fast.py``, which plays through the
state's own methods).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dicehall.core.agents import Agent, make_bot
from dicehall.core.rng import agent_rng, game_seed, seeded_rng
from dicehall.core.simulate import play_game
from dicehall.core.stats import Z95, wilson_interval
from dicehall.thousand import house_exact
from dicehall.thousand.lead import BARREL, KINDS
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.state import ThousandState

PRESETS = tuple(ThousandRules.PRESETS)
BOT = "expert"
DEFAULT_GAMES = 20000
DEFAULT_SEED = 26
PROGRESS_EVERY = 50
EXACT = "exact"  # the exact row's name in progress reports


def _rate(hits: float, n: int) -> dict[str, float]:
    lo, hi = wilson_interval(hits, n)
    return {"value": hits / n, "low": lo, "high": hi}


def _mean(total: float, squares: float, n: int) -> dict[str, float]:
    mean = total / n
    sd = math.sqrt(max(squares / n - mean * mean, 0.0) * n / max(n - 1, 1))
    half = Z95 * sd / math.sqrt(n)
    return {"value": mean, "low": mean - half, "high": mean + half}


def play_followed(rules: ThousandRules, seed: int, index: int, agents: list[Agent]) -> ThousandState:
    """Game ``index`` of ``seed`` (``core.simulate``'s seeding: the game ``dicehall simulate`` plays), its lead
    followed (:mod:`dicehall.thousand.lead`): the engine's fast path plays it, the optimal bot's kernel does not."""
    state = ThousandState(rules, len(agents))
    state.follow_lead()
    gseed = game_seed(seed, index)
    play_game(state, agents, seeded_rng(gseed), agent_rng(gseed))
    return state


def game_facts(state: ThousandState) -> dict[str, float]:
    """One finished, followed game's figures for the table."""
    watch = state.lead_watch
    assert watch is not None
    stats = state.stats()
    decided = watch.decided(state.winner)
    barrel = sum(e.kind == BARREL for e in watch.events)  # each fall, and (variant 2) each knock-back
    return {
        "first_won": float(state.winner == 0),
        "turns": stats["turns"],
        "dumped": float(stats["dump_trucks"] > 0),
        "fell": float(barrel > 0),
        "falls": float(barrel),
        "bolts": stats["bolt_penalties"],
        "pit_refused": float(watch.pit_refusals > 0),
        **{f"decided_{kind}": float(bool(decided & bit)) for kind, bit in KINDS.items()},
    }


def preset_effects(
    preset: str,
    games: int = DEFAULT_GAMES,
    seed: int = DEFAULT_SEED,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """One preset's row: every rate with its 95 % Wilson interval, the mean length with a normal one."""
    rules = ThousandRules.from_preset(preset)
    agents = [make_bot("thousand", BOT, rules) for _ in range(2)]
    sums: dict[str, float] = {}
    turns2 = 0.0
    for i in range(games):
        facts = game_facts(play_followed(rules, seed, i, agents))
        for key, value in facts.items():
            sums[key] = sums.get(key, 0.0) + value
        turns2 += facts["turns"] ** 2
        if progress is not None and ((i + 1) % PROGRESS_EVERY == 0 or i + 1 == games):
            progress(i + 1)
    n = games
    return {
        "preset": preset,
        "bot": BOT,
        "games": n,
        "seed": seed,
        "first_player_wins": _rate(sums["first_won"], n),
        "turns": _mean(sums["turns"], turns2, n),
        "games_with_dump_truck": _rate(sums["dumped"], n),
        "games_with_barrel_fall": _rate(sums["fell"], n),
        "games_with_pit_refusal": _rate(sums["pit_refused"], n),
        "decided_by": {kind: _rate(sums[f"decided_{kind}"], n) for kind in KINDS},
        "barrel_falls_per_game": sums["falls"] / n,
        "bolt_penalties_per_game": sums["bolts"] / n,
        "dump_truck": rules.dump_truck,
        "barrel": rules.barrel,
        "pits": [list(p) for p in rules.pits],
    }


SHIPPED = Path(__file__).parent / "data" / "house_rules.json"
"""The table the page and ``dicehall strategy thousand --presets`` show, made by the command in ``command``."""


def exact_tables() -> dict[str, house_exact.Values | None]:
    """Each preset's exact table stored on this machine, None where none is (classic's is shipped)."""
    return {preset: house_exact.stored_values(ThousandRules.from_preset(preset)) for preset in PRESETS}


def effects(
    games: int = DEFAULT_GAMES,
    seed: int = DEFAULT_SEED,
    progress: Callable[[str, int], None] | None = None,
    exact_games: int = house_exact.DEFAULT_GAMES,
    tables: dict[str, house_exact.Values | None] | None = None,
) -> dict[str, Any]:
    """Every preset's row (the same games and seed for each), and the exact row of every preset whose exact table
    is stored here (``tables``, by default :func:`exact_tables`): ``exact_games`` games of ``bot:optimal``
    against itself, the same seed; progress as ``"exact:<preset>"``. ``unsolved``: the presets without one."""
    tables = exact_tables() if tables is None else tables
    rows = []
    for preset in PRESETS:
        step = None if progress is None else (lambda done, p=preset: progress(p, done))
        rows.append(preset_effects(preset, games, seed, step))
    exact = []
    for preset, values in tables.items():
        if values is not None:
            step = None if progress is None else (lambda done, p=preset: progress(exact_key(p), done))
            exact.append(house_exact.exact_effects(preset, values, exact_games, seed, step))
    return {
        "bot": BOT,
        "games": games,
        "seed": seed,
        "command": f"dicehall strategy thousand --presets --games {games} --exact-games {exact_games} "
        f"--seed {seed} --json",
        "presets": rows,
        "exact": exact,
        "unsolved": [p for p, values in tables.items() if values is None and not too_large(p)],
        "too_large": [p for p, values in tables.items() if values is None and too_large(p)],
    }


def too_large(preset: str) -> bool:
    """The exact solver refuses the preset's rules (docs/thousand-solved.md: what its table would need)."""
    from dicehall.thousand.solver.exact import model_for
    from dicehall.thousand.solver.space import unsupported

    rules = ThousandRules.from_preset(preset)
    return model_for(rules) is None and bool(unsupported(rules))


def exact_key(preset: str) -> str:
    """A preset's exact row in progress reports."""
    return f"{EXACT}:{preset}"


def shipped_effects() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(SHIPPED.read_text(encoding="utf-8"))
    return data
