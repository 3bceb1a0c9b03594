"""Whole blocks of simulated games inside the kernel: seeded, played and summed up without leaving it.

Game ``index`` of a simulation gets exactly the generators ``dicehall simulate`` gives it
(:func:`pcg.game_generators`), so a block plays the games the engine would play for the same seed, game by game.
What comes out per game is what the simulation report is made of: every seat's total, its share of the win (the
engine's tie rule), the per-game statistics of ``CleverState.stats`` and, on request, the trace of every step
(who acted and the action's code), from which the game records are written.
"""

from __future__ import annotations

import numpy as np

from dicehall.clever.kernel import pcg
from dicehall.clever.kernel import rules as K
from dicehall.clever.kernel.layout import (
    FOX,
    MASTER,
    P1G,
    P1U,
    RANDOM,
    RRG,
    RRU,
    SHEETS,
    SIZE,
    STATS,
    STRIDE,
    TRACE_PER_GAME,
    flat,
    njit,
)
from dicehall.clever.kernel.net import decision_scratch
from dicehall.clever.kernel.search import choose_search
from dicehall.core.game import CHANCE, TERMINAL

__all__ = ["MASTER", "RANDOM", "STATS", "TRACE_PER_GAME", "play_block", "sample_chance"]


@flat
def sample_chance(g: np.ndarray, st: np.ndarray, vals: np.ndarray, keys: np.ndarray) -> int:
    """:func:`rules.sample_chance` drawing from the compiled generator ``st`` (``vals``, ``keys``: six-slot
    scratch)."""
    for d in range(6):
        vals[d] = pcg.integers(st, 1, 7)
    if g[4] != K.PH_ROLL:
        for d in range(6):
            keys[d] = pcg.random(st)
    else:
        keys[:] = 0.0
    return K.chance_code(g, vals, keys)


@njit
def _finish(g: np.ndarray, j: int, scores: np.ndarray, shares: np.ndarray, stats: np.ndarray) -> None:
    """Game ``j``'s row of the outputs from its end position ``g``."""
    n = g[0]
    best_total = -1
    best_area = -1
    winners = 0
    for p in range(n):
        s = SHEETS + p * STRIDE
        low = 1 << 30
        high = 0
        pts = 0
        for area in range(5):
            a = K.area_score(g, p, area)
            stats[j, area] += a / n
            pts += a
            low = min(low, a)
            high = max(high, a)
        fox = g[s + FOX]
        total = pts + fox * low
        scores[j, p] = total
        stats[j, 5] += fox / n
        stats[j, 6] += fox * low / n
        stats[j, 7] += total / n
        stats[j, 8] += (g[s + RRG] - g[s + RRU]) / n
        stats[j, 9] += (g[s + P1G] - g[s + P1U]) / n
        if total > best_total or (total == best_total and high > best_area):
            best_total, best_area, winners = total, high, 1
        elif total == best_total and high == best_area:
            winners += 1
    for p in range(n):
        high = 0
        for area in range(5):
            high = max(high, K.area_score(g, p, area))
        shares[j, p] = 1.0 / winners if scores[j, p] == best_total and high == best_area else 0.0


@njit
def play_block(
    kind: int,
    root: np.ndarray,
    start: int,
    new: np.ndarray,
    weights: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    rolls: np.ndarray,
    margin: float,
    width: int,
    every_roll: bool,
    tail: np.ndarray,
    scores: np.ndarray,
    shares: np.ndarray,
    stats: np.ndarray,
    actors: np.ndarray,
    codes: np.ndarray,
    steps_of: np.ndarray,
) -> None:
    """Play games ``start``, ``start + 1``, … (as many as ``scores`` has rows) from the position ``new``: every
    seat ``bot:random`` (``kind`` RANDOM) or ``bot:master`` with ``weights`` and the look-ahead (``width`` 0:
    plain argmax; ``tail``: its low-tail corrections, :mod:`search`). With ``actors``/``codes`` of one row per game (else empty), row ``j`` gets who acted at each
    step (``CHANCE`` for a roll) and the action's code, and ``steps_of[j]`` the number of steps."""
    w1, b1, w2, b2, w3, b3 = weights
    chance = np.zeros(6, np.uint64)
    bots = np.zeros(6, np.uint64)
    out, values = decision_scratch()
    g = np.empty(SIZE, np.int64)
    vals = np.empty(6, np.int64)
    keys = np.zeros(6)
    recording = codes.shape[0] > 0
    stats[:] = 0.0
    for j in range(scores.shape[0]):
        pcg.game_generators(root, start + j, chance, bots)
        g[:] = new
        steps = 0
        while True:
            p = K.current_player(g)
            if p == TERMINAL:
                break
            if p == CHANCE:
                code = sample_chance(g, chance, vals, keys)
            elif kind == RANDOM:
                k = K.legal(g, out)
                code = out[pcg.integers(bots, 0, k)]
            else:
                code = out[
                    choose_search(
                        g, w1, b1, w2, b2, w3, b3, out, values, rolls, margin, width, every_roll, tail
                    )
                ]
            if recording:
                actors[j, steps] = p
                codes[j, steps] = code
            steps += 1
            K.apply(g, code)
        if recording:
            steps_of[j] = steps
        _finish(g, j, scores, shares, stats)
