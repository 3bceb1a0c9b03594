"""Figures of ``bot:master`` on held-out seeds: mean ± sd with a 95 % interval, percentiles, areas, foxes, speed,
and paired differences between two settings played on the same dice.

The games are those of ``dicehall simulate clever --players bot:master --seed SEED`` (game ``i`` from
``game_seed(SEED, i)``, the kernel fast path). Used by the Clever bench and ``scripts/clever_master_eval.py``.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from dicehall.clever.game import CleverGame
from dicehall.clever.master import Lookahead, MasterAgent, load_weights
from dicehall.clever.rules import CleverRules
from dicehall.core.agents import Agent
from dicehall.core.rng import agent_rng, game_seed, seeded_rng
from dicehall.core.simulate import play_game
from dicehall.core.stats import wilson_interval

AREAS = ("yellow", "blue", "green", "orange", "purple")


def parse_lookahead(text: str) -> Lookahead | None:
    """``ROLLS:MARGIN:WIDTH[:all][:low=B[/ROUNDS]][:wide=MARGIN/WIDTH[/ROUNDS]][:risk=K]
    [:deep=ROUNDS[/ROLLS[/OUTER]]][:exact=CAP[/roll]]`` as the scripts take it, or ``off`` (``low``, ``wide``, ``risk``: the low-tail corrections
    of :class:`Lookahead`; ``deep``: its deeper search)."""
    if text == "off":
        return None
    rolls, margin, width, *rest = text.split(":")
    extra: dict[str, float | int] = {}
    for item in rest:
        if item.startswith("low="):
            b, *r = item[4:].split("/")
            extra.update(low=float(b), low_rounds=int(r[0]) if r else 0)
        elif item.startswith("deep="):
            deep = [int(v) for v in item[5:].split("/")]
            deep += [6, 0][len(deep) - 1 :]  # the inner rolls 6, the outer ones the look-ahead's
            extra.update(deep_rounds=deep[0], deep_rolls=deep[1], deep_outer=deep[2])
        elif item.startswith("exact="):
            cap, *roll = item[6:].split("/")
            extra.update(exact=int(cap), exact_roll=roll == ["roll"])
        elif item.startswith("risk="):
            extra["risk"] = float(item[5:])
        elif item.startswith("wide="):
            m, w, *r = item[5:].split("/")
            extra.update(wide_margin=float(m), wide_width=int(w), wide_rounds=int(r[0]) if r else 0)
        elif item != "all":
            raise ValueError(f"unknown look-ahead option {item!r}")
    return Lookahead(int(rolls), float(margin), int(width), "all" in rest, **extra)  # type: ignore[arg-type]


def master_agent(weights: str, lookahead: Lookahead | None) -> MasterAgent:
    """``bot:master`` with the weights of a file, or the shipped ones for ``package``."""
    return MasterAgent(
        weights=load_weights(None if weights == "package" else Path(weights))[0], lookahead=lookahead
    )


def solo_games(agent: MasterAgent, games: int, seed: int) -> tuple[np.ndarray, dict[str, np.ndarray], float]:
    """Solo scores, per-game statistics (areas, foxes, fox points) and ms per game."""
    rules = CleverRules.from_preset()
    game = CleverGame()
    scores = np.zeros(games)
    stats: dict[str, list[float]] = {}
    warm = game.new_initial_state(rules, 1)  # loads (or compiles) the kernel outside the timing
    play_game(warm, [agent], seeded_rng(0), agent_rng(0))
    start = time.perf_counter()
    for i in range(games):
        s = game_seed(seed, i)
        state = game.new_initial_state(rules, 1)
        play_game(state, [agent], seeded_rng(s), agent_rng(s))
        scores[i] = state.scores()[0]
        for key, value in state.stats().items():
            stats.setdefault(key, []).append(float(value))
    ms = 1000 * (time.perf_counter() - start) / games
    return scores, {k: np.array(v) for k, v in stats.items()}, ms


def summary(scores: np.ndarray, stats: dict[str, np.ndarray], ms: float) -> dict[str, float]:
    n = len(scores)
    sd = float(scores.std(ddof=1)) if n > 1 else 0.0
    out = {
        "games": float(n),
        "mean": round(float(scores.mean()), 2),
        "sd": round(sd, 2),
        "ci95": round(1.96 * sd / np.sqrt(n), 2),
        "p10": round(float(np.percentile(scores, 10)), 1),
        "p50": round(float(np.percentile(scores, 50)), 1),
        "p90": round(float(np.percentile(scores, 90)), 1),
        "worst_tenth": round(float(worst_tenth(scores)), 2),
        "ms_per_game": round(ms, 2),
    }
    for key in (*AREAS, "foxes", "fox_points"):
        if key in stats:
            out[key] = round(float(stats[key].mean()), 2)
    return out


def worst_tenth(scores: np.ndarray) -> float:
    """The mean of the lowest tenth of the scores (at least one game)."""
    return float(np.sort(scores)[: max(1, len(scores) // 10)].mean())


def paired_tail(a: np.ndarray, b: np.ndarray, resamples: int = 2000, seed: int = 0) -> dict[str, list[float]]:
    """Differences ``a`` − ``b`` of p10 and of the worst tenth's mean over the same games, with 95 % intervals
    from a paired bootstrap (the games resampled together)."""
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(a), (resamples, len(a)))
    out = {}
    for name, stat in (("p10", lambda x: np.percentile(x, 10, axis=-1)), ("worst_tenth", _worst_tenths)):
        d = stat(a[idx]) - stat(b[idx])
        point = float(stat(a[None])[0] - stat(b[None])[0])
        out[name] = [round(point, 2), *(round(float(v), 2) for v in np.percentile(d, [2.5, 97.5]))]
    return out


def _worst_tenths(x: np.ndarray) -> np.ndarray:
    """Each row's worst-tenth mean."""
    return np.asarray(np.sort(x, axis=-1)[:, : max(1, x.shape[-1] // 10)].mean(axis=-1), np.float64)


def paired(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """Mean of ``a - b`` over the same games and its 95 % half-width."""
    d = a - b
    return float(d.mean()), float(1.96 * d.std(ddof=1) / np.sqrt(len(d)))


def table_games(
    candidate: Agent, opponent: Agent, players: int, games: int, seed: int
) -> dict[str, float | list[float]]:
    """``candidate`` in one seat and ``opponent`` in the others, the candidate's seat rotating game by game (game
    ``j``: seat ``j % players``, dice from ``game_seed(seed, j)``): its win share (ties shared, as the engine
    scores them) with the Wilson 95 % interval, its mean score, the opponents' mean, and its mean lead over the
    best opponent."""
    rules = CleverRules.from_preset()
    game = CleverGame()
    wins = 0.0
    own = np.zeros(games)
    others = np.zeros(games)
    lead = np.zeros(games)
    start = time.perf_counter()
    for j in range(games):
        seat = j % players
        agents = [candidate if q == seat else opponent for q in range(players)]
        s = game_seed(seed, j)
        state = game.new_initial_state(rules, players)
        play_game(state, agents, seeded_rng(s), agent_rng(s))
        scores = state.scores()
        wins += state.returns()[seat]
        own[j] = scores[seat]
        rest = [v for q, v in enumerate(scores) if q != seat]
        others[j] = float(np.mean(rest))
        lead[j] = scores[seat] - max(rest)
    lo, hi = wilson_interval(wins, games)
    return {
        "players": players,
        "games": games,
        "seed": seed,
        "win": round(wins / games, 4),
        "win_ci95": [round(lo, 4), round(hi, 4)],
        "fair": round(1 / players, 4),
        "mean": round(float(own.mean()), 2),
        "opponents_mean": round(float(others.mean()), 2),
        "lead": round(float(lead.mean()), 2),
        "lead_ci95": round(float(1.96 * lead.std(ddof=1) / np.sqrt(games)), 2) if games > 1 else 0.0,
        "s_per_game": round((time.perf_counter() - start) / games, 3),
    }
