"""Yard's model (:mod:`yard`) as flat arrays for the compiled kernel (:mod:`yard_kernel`).

Player states are :func:`size.player_states`, sorted by falls, then score (falls never go down, so each fall
count is a slice, as in :mod:`space`). Values live in two tables in the kernel's layout ``X[b, a]`` = position
(mover ``a``, opponent ``b``): ``W`` with no flag and ``F`` with the opponent ``b`` flagged to skip (only the
rows of states a zero roll leaves are positions; the others are never read). A turn's end leads to (mover ``m'``,
opponent ``o'``, the mover flagged ``f``); from a position flagged ``s`` its value is (:meth:`yard.Positions
.next_value`): ``1 - W[m', o']`` (no flags, or both spent), ``1 - F[m', o']`` (the mover flagged), ``W[o', m']``
(the opponent's turn skipped: the mover again).
"""

from __future__ import annotations

import dataclasses
import functools

import numpy as np
import numpy.typing as npt

from dicehall.thousand.dp import STEP, outcomes
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver.size import FullState
from dicehall.thousand.solver.yard import Positions

NOT_ALLOWED = -2
WIN = -1

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

KIND_SCORE, KIND_GOLDEN, KIND_PAIR = 1, 2, 3


@dataclasses.dataclass
class YardSpace:
    """Every player state of a yard-like rule set and the per-state tables the kernel reads."""

    model: Positions
    states: list[FullState]
    index: dict[FullState, int]
    score_of: IntArray
    falls_of: IntArray
    opened_of: npt.NDArray[np.uint8]
    flaggable: npt.NDArray[np.uint8]
    need_of: IntArray  # the smallest bank / STEP
    limit_of: IntArray  # the largest turn total that goes on / STEP (the exact target)
    zero_next: IntArray
    fail_next: IntArray
    bank_next: IntArray  # [state, ti]: the mover after banking, WIN or NOT_ALLOWED
    bank_score: IntArray  # [state, ti]: score + total (what an exact landing and overtaking look at)
    bank_knocks: npt.NDArray[np.uint8]  # [state, ti]: the bank climbs onto the barrel (and stays there)
    reset_next: IntArray  # an opponent landed on: 0 (itself without exact_reset)
    ovt_next: IntArray
    knock_next: IntArray  # -1: not on the barrel
    start: int

    @property
    def rules(self) -> ThousandRules:
        return self.model.rules

    @property
    def size(self) -> int:
        return len(self.states)


def build_yard_space(rules: ThousandRules, floor: int) -> YardSpace:
    model = Positions(rules, floor)
    seat = model.seat
    r = rules
    states = sorted(model.states, key=lambda p: (p.falls, p.score, p.opened, p.bolts, p.attempts))
    index = {p: i for i, p in enumerate(states)}
    size = len(states)

    def idx(p: FullState) -> int:
        return index[seat.canonical(p)]

    limit_of = np.array([model.limit(p) // STEP for p in states], dtype=np.int64)
    width = int(limit_of.max()) + 1
    bank_next = np.full((size, width), NOT_ALLOWED, dtype=np.int64)
    bank_score = np.zeros((size, width), dtype=np.int64)
    bank_knocks = np.zeros((size, width), dtype=np.uint8)
    knock_next = np.full(size, -1, dtype=np.int64)
    for i, p in enumerate(states):
        for total in seat.bank_totals(p):
            ti = total // STEP
            if ti >= width or total > model.limit(p):
                continue
            after = seat.bank(p, total)
            bank_score[i, ti] = p.score + total
            if after is None:
                bank_next[i, ti] = WIN
                continue
            bank_next[i, ti] = idx(after)
            climbs = not seat.on_barrel(p.score) and p.score + total >= r.barrel_score
            bank_knocks[i, ti] = climbs and seat.on_barrel(after.score)
        if seat.on_barrel(p.score):
            knock_next[i] = idx(seat.knock(p))
    return YardSpace(
        model=model,
        states=states,
        index=index,
        score_of=np.array([p.score for p in states], dtype=np.int64),
        falls_of=np.array([p.falls for p in states], dtype=np.int64),
        opened_of=np.array([p.opened for p in states], dtype=np.uint8),
        flaggable=np.array([p in model.flaggable for p in states], dtype=np.uint8),
        need_of=np.array([model.need(p) // STEP for p in states], dtype=np.int64),
        limit_of=limit_of,
        zero_next=np.array([idx(seat.fail(p, zero=True)) for p in states], dtype=np.int64),
        fail_next=np.array([idx(seat.fail(p, zero=False)) for p in states], dtype=np.int64),
        bank_next=bank_next,
        bank_score=bank_score,
        bank_knocks=bank_knocks,
        reset_next=np.array(
            [idx(seat.set_score(p, 0)) if r.exact_reset else i for i, p in enumerate(states)], dtype=np.int64
        ),
        ovt_next=np.array([idx(seat.penalize(p, r.overtake_penalty)) for p in states], dtype=np.int64),
        knock_next=knock_next,
        start=index[seat.canonical(FullState(0, False))],
    )


@functools.cache
def yard_dice(rules: ThousandRules) -> tuple[IntArray, FloatArray, IntArray, IntArray, IntArray, FloatArray]:
    """Rolling n = 1..5 dice: for each n the slice ``first[n]:first[n + 1]`` of (probability, kind: score,
    golden or pair, points / STEP, dice left; 0 = hot), and ``zero[n]``, the chance of a zero roll."""
    first = [0, 0]
    prob: list[float] = []
    kind: list[int] = []
    step: list[int] = []
    left: list[int] = []
    zero = [0.0] * 6
    codes = {"score": KIND_SCORE, "golden": KIND_GOLDEN, "pair": KIND_PAIR}
    for n in range(1, 6):
        for o in outcomes(n, rules.kinds, rules.golden_win, rules.pair_reroll):
            if o.kind == "zero":
                zero[n] += o.prob
                continue
            points, used = o.options[0] if o.options else (0, 0)
            prob.append(o.prob)
            kind.append(codes[o.kind])
            step.append(points // STEP)
            left.append(n - used)
        first.append(len(prob))
    return (
        np.array(first, dtype=np.int64),
        np.array(prob),
        np.array(kind, dtype=np.int64),
        np.array(step, dtype=np.int64),
        np.array(left, dtype=np.int64),
        np.array(zero),
    )


def kernel_tables(space: YardSpace) -> tuple[object, ...]:
    """What :func:`yard_kernel.turn` reads, as one plain tuple (Numba types a plain tuple fastest)."""
    r = space.rules
    rules_row = np.array(
        [
            r.max_rolls,
            r.hot_dice == "confirm",
            r.reconfirm_hot,
            r.exact_reset,
            r.overtake_penalty > 0,
            r.skip_on_zero_first,
        ],
        dtype=np.int64,
    )
    return (
        rules_row,
        space.score_of,
        space.opened_of,
        space.need_of,
        space.limit_of,
        space.zero_next,
        space.fail_next,
        space.bank_next,
        space.bank_score,
        space.bank_knocks,
        space.reset_next,
        space.ovt_next,
        space.knock_next,
        yard_dice(r),
    )
