"""Variant 2's model (:mod:`variant2`) as flat arrays for the compiled kernel (:mod:`variant2_kernel`), and its
levels.

Player states are :func:`size.player_states`, sorted by their *key* — the opening score, −1 before the opening
— then by score, so that each key is a slice ``key_lo[k]:key_hi[k]`` of scores rising in steps of 5. Values live
in the kernel's layout ``X[b, a]`` = position (mover ``a``, opponent ``b``) — what a mover's turn reads for many
opponents at once is then one row.

**Levels.** The opening score never changes once set, so a position's pair of keys only changes when an
unopened player opens. The positions split by the unordered pair of keys into levels that read only themselves
and levels solved before: both opened first (each such level reads only itself), then one unopened, then the
start. Within a level scores only rise except the knock-back (:mod:`variant2`).
"""

from __future__ import annotations

import dataclasses
import functools

import numpy as np
import numpy.typing as npt

from dicehall.thousand.dp import STEP, outcomes
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver.size import FullState
from dicehall.thousand.solver.variant2 import Positions

NOT_ALLOWED = -2
WIN = -1

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


def key_of(p: FullState) -> int:
    return p.opening if p.opened else -1


@dataclasses.dataclass
class Variant2Space:
    """Every player state of a variant-2-like rule set and the per-state tables the kernel reads."""

    model: Positions
    states: list[FullState]
    index: dict[FullState, int]
    score_of: IntArray
    need_of: IntArray  # the smallest bank / STEP (at least 1)
    top_of: IntArray  # the turn total from which banks are alike / STEP
    bank_next: IntArray  # [state, ti]: the mover after banking, WIN or NOT_ALLOWED
    bank_knocks: npt.NDArray[np.uint8]  # [state, ti]: the bank climbs onto the barrel
    knock_next: IntArray  # knocked back to the opening score; -1: not on the barrel
    keys: list[int]  # the keys in state order
    key_lo: IntArray
    key_hi: IntArray
    start: int

    @property
    def rules(self) -> ThousandRules:
        return self.model.rules

    @property
    def size(self) -> int:
        return len(self.states)

    def level_positions(self, level: tuple[int, int]) -> int:
        a, b = level
        na = int(self.key_hi[a] - self.key_lo[a])
        nb = int(self.key_hi[b] - self.key_lo[b])
        return na * nb * (1 if a == b else 2)


@functools.cache
def build_variant2_space(rules: ThousandRules) -> Variant2Space:
    model = Positions(rules)
    seat = model.seat
    states = sorted(model.states, key=lambda p: (key_of(p), p.score))
    index = {p: i for i, p in enumerate(states)}
    size = len(states)
    top_of = np.array([model.top(p) // STEP for p in states], dtype=np.int64)
    width = int(top_of.max()) + 1
    bank_next = np.full((size, width), NOT_ALLOWED, dtype=np.int64)
    bank_knocks = np.zeros((size, width), dtype=np.uint8)
    knock_next = np.full(size, -1, dtype=np.int64)
    for i, p in enumerate(states):
        for total in seat.bank_totals(p):
            ti = total // STEP
            after = seat.bank(p, total)
            if after is None:
                bank_next[i, ti] = WIN
                continue
            bank_next[i, ti] = index[seat.canonical(after)]
            bank_knocks[i, ti] = not seat.on_barrel(p.score) and seat.on_barrel(after.score)
        if seat.on_barrel(p.score):
            knock_next[i] = index[seat.canonical(seat.knock(p))]
    keys: list[int] = []
    lo: list[int] = []
    hi: list[int] = []
    for i, p in enumerate(states):
        if not keys or keys[-1] != key_of(p):
            keys.append(key_of(p))
            lo.append(i)
            hi.append(i)
        hi[-1] = i + 1
    return Variant2Space(
        model=model,
        states=states,
        index=index,
        score_of=np.array([p.score for p in states], dtype=np.int64),
        need_of=np.array([max(model.need(p), STEP) // STEP for p in states], dtype=np.int64),
        top_of=top_of,
        bank_next=bank_next,
        bank_knocks=bank_knocks,
        knock_next=knock_next,
        keys=keys,
        key_lo=np.array(lo, dtype=np.int64),
        key_hi=np.array(hi, dtype=np.int64),
        start=index[seat.canonical(FullState(0, False))],
    )


def levels(space: Variant2Space) -> list[tuple[int, int]]:
    """The levels as pairs of key numbers (indices into ``space.keys``), in the order they are solved: both
    opened, then one unopened, then the start (key 0 is the unopened player)."""
    k = len(space.keys)
    assert space.keys[0] == -1
    opened = [(a, b) for a in range(1, k) for b in range(a, k)]
    return [*opened, *((0, b) for b in range(1, k)), (0, 0)]


def schedule(space: Variant2Space, level: tuple[int, int], group: int) -> tuple[IntArray, IntArray, IntArray]:
    """The order of a level's sweep: each mover of either key against the other key's opponents in groups of
    ``group`` (the kernel's lanes), by descending sum of the two scores (the middle of the group's). A position
    reads what a zero roll leads to (the same scores) and, after a bank, positions with a larger sum, so this
    order reads nearly everything already updated — but for the knock-back, which lowers the sum."""
    ka, kb = level
    rows: list[tuple[int, int, int, int]] = []
    for mk, ok in ((ka, kb), (kb, ka)) if ka != kb else ((ka, ka),):
        o_lo, o_hi = int(space.key_lo[ok]), int(space.key_hi[ok])
        for m in range(int(space.key_lo[mk]), int(space.key_hi[mk])):
            for lo in range(o_lo, o_hi, group):
                hi = min(lo + group, o_hi)
                key = 2 * int(space.score_of[m]) + int(space.score_of[lo]) + int(space.score_of[hi - 1])
                rows.append((-key, m, lo, hi))
    rows.sort()
    table = np.array(rows, dtype=np.int64)
    return table[:, 1].copy(), table[:, 2].copy(), table[:, 3].copy()


def barrel_schedule(
    space: Variant2Space, level: tuple[int, int], group: int, columns: int = 0
) -> tuple[IntArray, IntArray, IntArray]:
    """The positions of a level with a player on the barrel, as :func:`schedule` rows: the only ones a turn can
    come back to after a bank (a climb knocks the player on the barrel back, and only a climb leads there). Each
    key's last state is its barrel score. ``columns``: the movers below the barrel against the opponent on it in
    calls of that many lanes by descending score (``movers`` ``-1 - opponent``, ``lows..highs`` the movers:
    :func:`variant2_kernel.level_sweep`); 0: one a row. (All in one call, the sweep is Jacobi-like within it:
    1,401 sweeps of level (400, 405) against 45; by 4, 47.)"""
    ka, kb = level
    rows: list[tuple[int, int, int, int]] = []
    for mk, ok in ((ka, kb), (kb, ka)) if ka != kb else ((ka, ka),):
        m_lo, m_hi = int(space.key_lo[mk]), int(space.key_hi[mk])
        o_lo, o_hi = int(space.key_lo[ok]), int(space.key_hi[ok])
        for lo in range(o_lo, o_hi, group):  # the mover on the barrel
            rows.append((0, m_hi - 1, lo, min(lo + group, o_hi)))
        if columns:  # the opponent on the barrel: the movers below it in calls of ``columns`` lanes
            for hi in range(m_hi - 1, m_lo, -columns):
                rows.append((-int(space.score_of[hi - 1]), -o_hi, max(m_lo, hi - columns), hi))
        else:
            for m in range(m_lo, m_hi - 1):  # the opponent on the barrel
                rows.append((-int(space.score_of[m]), m, o_hi - 1, o_hi))
    rows.sort()
    table = np.array(rows, dtype=np.int64)
    return table[:, 1].copy(), table[:, 2].copy(), table[:, 3].copy()


def ordered_pairs(space: Variant2Space, level: tuple[int, int]) -> tuple[IntArray, IntArray]:
    """The level's positions with nobody on the barrel as pairs ``(a, b)`` standing for (mover ``a``, opponent
    ``b``) and the swap, by descending sum of the scores (:func:`variant2_kernel.ordered_pass`)."""
    ka, kb = level
    barrel = space.rules.barrel_score
    a_states = range(int(space.key_lo[ka]), int(space.key_hi[ka]))
    b_states = range(int(space.key_lo[kb]), int(space.key_hi[kb]))
    score = space.score_of
    rows = [
        (-int(score[a] + score[b]), a, b)
        for a in a_states
        for b in b_states
        if (ka != kb or b >= a) and score[a] < barrel and score[b] < barrel
    ]
    rows.sort()
    table = np.array(rows, dtype=np.int64).reshape(-1, 3)
    return table[:, 1].copy(), table[:, 2].copy()


def tiles(space: Variant2Space, level: tuple[int, int], group: int) -> IntArray:
    """The level's positions with nobody on the barrel as rows ``(a, lo, hi, warm)`` of
    :func:`variant2_kernel.tiled_pass`: mover ``a`` of the first key against opponents ``lo..hi`` of the other
    (their swaps with them), ``a`` by descending score and, for each, the opponents in groups of ``group`` by
    descending score (one key: only opponents up to ``a``'s score); ``warm`` the mover 5 points up whose tile
    starts it (-1: none). A tile reads, besides itself, only positions of a larger ``a`` (a bank of
    ``a``), of a larger group (a bank of an opponent) and the barrel's."""
    ka, kb = level
    barrel = space.rules.barrel_score

    def below(k: int) -> tuple[int, int]:  # the key's states below the barrel (scores rise within a key)
        lo, hi = int(space.key_lo[k]), int(space.key_hi[k])
        return lo, lo + int(np.count_nonzero(space.score_of[lo:hi] < barrel))

    (a_lo, a_hi), (b_lo, b_hi) = below(ka), below(kb)
    rows: list[tuple[int, int, int, int]] = []
    for a in range(a_hi - 1, a_lo - 1, -1):
        end = a + 1 if ka == kb else b_hi
        warm = a + 1 if a + 1 < a_hi else -1
        for hi in range(end, b_lo, -group):
            rows.append((a, max(b_lo, hi - group), hi, warm))
    return np.array(rows, dtype=np.int64).reshape(-1, 4)


@functools.cache
def variant2_dice(rules: ThousandRules) -> tuple[IntArray, FloatArray, IntArray, IntArray, FloatArray]:
    """Rolling n = 1..5 dice: for each n the slice ``first[n]:first[n + 1]`` of the scoring outcomes
    (probability, points / STEP, dice left; 0 = hot), and ``zero[n]``, the chance of a zero roll."""
    first = [0, 0]
    prob: list[float] = []
    step: list[int] = []
    left: list[int] = []
    zero = [0.0] * 6
    for n in range(1, 6):
        for o in outcomes(n, rules.kinds):
            if o.kind == "zero":
                zero[n] += o.prob
                continue
            ((points, used),) = o.options
            prob.append(o.prob)
            step.append(points // STEP)
            left.append(n - used)
        first.append(len(prob))
    return (
        np.array(first, dtype=np.int64),
        np.array(prob),
        np.array(step, dtype=np.int64),
        np.array(left, dtype=np.int64),
        np.array(zero),
    )


def kernel_tables(space: Variant2Space) -> tuple[object, ...]:
    """What :mod:`variant2_kernel` reads, as one plain tuple."""
    return (
        space.need_of,
        space.top_of,
        space.bank_next,
        space.bank_knocks,
        space.knock_next,
        variant2_dice(space.rules),
    )
