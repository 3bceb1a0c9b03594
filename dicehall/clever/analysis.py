"""Ganz schön clever's evaluator for hints and analysis (:mod:`dicehall.core.analysis`): expected final points.

A decision's value is ``bot:master``'s learned afterstate value of it (:meth:`MasterAgent.values`: the points on
the sheet plus the network's estimate of the points still to come). A position's value for the seat to move is
its best decision's; for every other seat, the learned value of its own sheet in that position. At a roll the
expectation is taken over every outcome when there are at most :data:`ENUMERATE_LIMIT` (up to four dice), else
over :data:`SAMPLES` outcomes drawn from the game's own dice distribution with a generator seeded by the position
(the same position always gets the same sample, so an analysis is reproducible); the note says which.
"""

from __future__ import annotations

import hashlib
from typing import Any

import numpy as np

from dicehall.clever.kernel import bridge as B
from dicehall.clever.kernel import net
from dicehall.clever.kernel import rules as K
from dicehall.clever.kernel.layout import SIZE, njit
from dicehall.clever.master import MasterAgent, load_weights
from dicehall.clever.state import PH_ROLL, CleverState
from dicehall.core.analysis import Thresholds, Unit
from dicehall.core.game import CHANCE, TERMINAL, State
from dicehall.core.rules import RuleSet
from dicehall.i18n.message import Message

ENUMERATE_LIMIT = 1296
"""Rolls with at most this many outcomes (four dice) are averaged over every outcome."""
SAMPLES = 1000
"""Outcomes averaged for larger rolls (five or six dice, the solo passive roll); the standard error of a
roll's expectation is then about 0.1 points."""
POINT_THRESHOLDS = Thresholds(2.0, 5.0, 10.0)
"""Expected-final-score bands: the strongest bot's spread over a game is about 20 points, so 10 lost in one
decision is a blunder."""


def make_evaluator(rules: RuleSet, num_players: int) -> CleverEvaluator:
    return CleverEvaluator()


def _state(state: State[Any]) -> CleverState:
    if not isinstance(state, CleverState):
        raise TypeError(f"a Clever evaluator needs a CleverState, got {type(state).__name__}")
    return state


@njit
def _mean_after(
    g: np.ndarray,
    codes: np.ndarray,
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    w3: np.ndarray,
    b3: np.ndarray,
    acc: np.ndarray,
) -> None:
    """``acc[seat]``: the mean over ``codes`` of each seat's value after that outcome (divided by ``SCALE``)."""
    n = g[0]
    out, values = net.decision_scratch()
    x, a1, a2 = net.value_scratch(b1, b2)
    h = np.empty(SIZE, np.int64)
    acc[:] = 0.0
    for i in range(codes.shape[0]):
        h[:] = g
        K.apply(h, codes[i])
        p = K.current_player(h)
        for q in range(n):
            if q == p:
                acc[q] += net.best_value(h, q, w1, b1, w2, b2, w3, b3, out, values)
            else:
                acc[q] += net.afterstate_value(h, q, w1, b1, w2, b2, w3, b3, x, a1, a2)
    for q in range(n):
        acc[q] /= codes.shape[0]


@njit
def _sample_codes(g: np.ndarray, count: int, rng: np.random.Generator) -> np.ndarray:
    codes = np.empty(count, np.int64)
    for i in range(count):
        codes[i] = K.sample_chance(g, rng)
    return codes


class CleverEvaluator:
    """Expected final points from ``bot:master``'s learned values."""

    unit: Unit = "points"
    thresholds = POINT_THRESHOLDS
    note: str = Message("analysis.note.clever", samples=SAMPLES)

    def __init__(self) -> None:
        # the solo network at every size: its values are expected final points for every seat (the table
        # network's are leads over the best opponent, which the chance averages and the bands do not use)
        self.weights = load_weights()[0]
        self.master = MasterAgent(weights=self.weights)
        self._x, self._a1, self._a2 = net.value_scratch(self.weights[1], self.weights[3])

    def _learned(self, g: np.ndarray, seat: int) -> float:
        w1, b1, w2, b2, w3, b3 = self.weights
        return net.SCALE * net.afterstate_value(g, seat, w1, b1, w2, b2, w3, b3, self._x, self._a1, self._a2)

    def values(self, state: State[Any]) -> list[float]:
        s = _state(state)
        if s.is_terminal():
            return [float(x) for x in s.scores()]
        if s.is_chance_node():
            return self.chance_value(s)
        g = B.from_state(s)
        mover = s.current_player()
        out = [self._learned(g, q) for q in range(s.n)]
        out[mover] = max(v for _, v in self.decision_values(s))
        return out

    def decision_values(self, state: State[Any]) -> list[tuple[Any, float]]:
        return [(a, v) for a, v in self.master.values(_state(state))]

    def chance_value(self, state: State[Any]) -> list[float]:
        s = _state(state)
        g = B.from_state(s)
        if s.phase == PH_ROLL and 6 ** bin(s.roll_mask).count("1") <= ENUMERATE_LIMIT:
            codes = np.array([c for c, _ in s.chance_outcomes()], np.int64)
        else:
            seed = int.from_bytes(hashlib.blake2b(g.tobytes(), digest_size=8).digest(), "little")
            codes = _sample_codes(g, SAMPLES, np.random.default_rng(seed))
        acc = np.empty(s.n)
        w1, b1, w2, b2, w3, b3 = self.weights
        _mean_after(g, codes, w1, b1, w2, b2, w3, b3, acc)
        return [net.SCALE * float(v) for v in acc]

    def roller(self, state: State[Any]) -> int:
        s = _state(state)
        who = s.current_player()
        return s.active if who in (CHANCE, TERMINAL) else who
