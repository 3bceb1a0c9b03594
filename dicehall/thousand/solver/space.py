"""The two-player state space of Dice 1000 and its transitions, as flat arrays for the compiled kernel.

A *player state* is what one seat carries between turns: ``(score, opened, bolts, falls, attempts)``. With the
capped score barrel, "on the barrel" is exactly "score == barrel_score"; ``falls`` is kept only up to the fall
from which every fall sets the score to 0 (later counts behave alike); ``attempts`` only on the barrel. A
*position* between turns is (mover's state, opponent's state). Inside a turn the mover's sub-game adds the
turn total ``t`` and the dice in hand ``n`` (``n = 0``: hot dice, the roll of five is forced).

Scores can fall without bound through bolts and overtaking, so the model has a **floor**: a penalty that would
take a score below ``floor`` leaves it at ``floor``. This is the solver's one approximation; it is printed
with every result and its effect is measured in ``docs/thousand-solved.md``.

The rule effects here (banking, overtaking, dump truck, climbing and knocking off, bolts, falls) mirror
``state.py``; ``tests/thousand/test_solver.py`` checks them against the engine position by position.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from dicehall.core.errors import DicehallError, RuleConfigError
from dicehall.i18n.message import Message
from dicehall.thousand.dp import STEP, outcomes
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver.size import needs, table_size

NOT_ALLOWED = -2
"""``bank_next`` code: banking this turn total is refused."""
WIN = -1
"""``bank_next`` code: banking this turn total wins the game."""

DEFAULT_FLOOR = -300
DEFAULT_TOL = 1e-9  # the solve's defaults, here so that the command's options need no compiled code
DEFAULT_MAX_SWEEPS = 500


class SolveError(DicehallError):
    """A rule set the solver refuses, or a cached table that does not fit."""


MAX_POSITIONS = 12_000_000
"""Largest number of between-turn positions solved on this machine (two float64 tables of this size)."""

IntArray = npt.NDArray[np.int64]


class PlayerState(NamedTuple):
    score: int
    opened: bool
    bolts: int = 0
    falls: int = 0
    attempts: int = 0


def unsupported(rules: ThousandRules) -> list[Message]:
    """Rules in force that the state model does not cover yet, each in players' words naming its option; empty:
    solvable. (What each would add to the state, and the size: :mod:`size`, docs/thousand-solved.md.)"""
    r = rules
    out = []

    def said(name: str, **params: object) -> None:
        out.append(Message(f"solver.thousand.uncovered.{name}", **params))

    if r.free_set_aside:
        said("free_set_aside")
    if r.max_rolls:
        said("max_rolls")
    if r.hot_dice != "mandatory":
        said("confirm")
    if r.pair_reroll:
        said("pair_reroll")
    if r.skip_on_zero_first:
        said("skip_on_zero_first")
    if r.golden_win:
        said("golden_win")
    if r.exact_reset:
        said("exact_reset")
    if r.open_fail_penalty:
        said("open_fail_penalty")
    if r.barrel == "open":
        said("open_barrel")
    if r.barrel == "score" and (not r.barrel_cap or r.barrel_exact):
        said("uncapped")
    if r.barrel == "score" and r.barrel_knock == "opening":
        said("knock_opening")
    for name in (
        "target",
        "barrel_score",
        "overtake_penalty",
        "bolt_penalty",
        "barrel_fall_penalty",
        "open_min",
    ):
        if getattr(r, name) % STEP:
            said("step", option=name, got=getattr(r, name), step=STEP)
    for low, high in r.pits:
        if low % STEP or high % STEP:
            said("pit_step", low=low, high=high, step=STEP)
    return out


def check_floor(floor: int) -> None:
    """Refuses a score floor above 0 or off the steps of 5."""
    if floor > 0 or floor % STEP:
        raise RuleConfigError(Message("solver.thousand.floor", step=STEP, got=floor))


def refusal(rules: ThousandRules, floor: int, problems: list[Message]) -> RuleConfigError:
    """The refusal of rules the model does not cover: what it does not follow, the exact table's size and what
    solving it would take (refuses the floor first, which the size depends on)."""
    check_floor(floor)
    reasons = problems[-1]
    for p in reversed(problems[:-1]):
        reasons = Message("rules.error.and", first=p, rest=reasons)
    size = table_size(rules, floor)
    need = needs(size)
    return RuleConfigError(
        Message(
            "solver.thousand.uncovered",
            reasons=reasons,
            size=Message(
                "solver.thousand.size_over"
                if size.positions > MAX_POSITIONS
                else "solver.thousand.size_within",
                positions=size.positions,
                states=size.player_states,
                limit=MAX_POSITIONS,
                memory=round(need.memory_gb, 1),
                hours=round(need.cpu_hours, 1),
            ),
        )
    )


@dataclasses.dataclass
class Space:
    """Every player state of a rule set, with the per-state tables the kernel reads.

    States are sorted by falls, then score: the states with ``f`` falls form the slice ``fall_lo[f]:fall_lo[f+1]``,
    sorted by score (``scores`` lists every score that occurs).
    """

    rules: ThousandRules
    floor: int
    states: list[PlayerState]
    index: dict[PlayerState, int]
    score_of: IntArray
    falls_of: IntArray
    scores: IntArray
    fall_lo: IntArray
    top: IntArray  # T: turn totals at or above T * STEP are all alike (bank is the same)
    burn_next: IntArray
    ovt_next: IntArray
    knock_next: IntArray  # -1: not on the barrel
    bank_next: IntArray  # [state, ti]: next mover state, WIN or NOT_ALLOWED
    bank_score: IntArray  # [state, ti]: the mover's score right after adding (capped), for overtaking
    bank_climb: npt.NDArray[np.uint8]
    start: int

    @property
    def size(self) -> int:
        return len(self.states)

    @property
    def positions(self) -> int:
        return self.size * self.size

    def state_of(self, score: int, opened: bool, bolts: int = 0, falls: int = 0, attempts: int = 0) -> int:
        """Index of a player state as the engine shows it (counts reduced as the model keeps them)."""
        key = self.canonical(PlayerState(score, opened, bolts, falls, attempts))
        found = self.index.get(key)
        if found is None:
            raise ValueError(f"{key} is not a position of this model")
        return found

    def canonical(self, p: PlayerState) -> PlayerState:
        r = self.rules
        score = max(p.score, self.floor)
        bolts = p.bolts if r.bolts and (p.opened or r.bolts_everywhere) else 0
        falls = min(p.falls, _fall_states(r) - 1)
        attempts = p.attempts if _on_barrel(r, score) and r.barrel_attempts else 0
        return PlayerState(score, p.opened, bolts, falls, attempts)


def _on_barrel(r: ThousandRules, score: int) -> bool:
    return r.barrel == "score" and score >= r.barrel_score


def _fall_states(r: ThousandRules) -> int:
    if r.barrel != "score" or r.barrel_falls_to_zero == 0:
        return 1
    return r.barrel_falls_to_zero


def _top_score(r: ThousandRules) -> int:
    return r.barrel_score if r.barrel == "score" else r.target - STEP


def enumerate_states(r: ThousandRules, floor: int) -> list[PlayerState]:
    top = _top_score(r)
    bolts = range(r.bolts_count) if r.bolts else range(1)
    falls = range(_fall_states(r))
    out = []
    for score in range(floor, top + STEP, STEP):
        if r.dump_truck and score == r.dump_truck_score:
            continue
        attempts = range(r.barrel_attempts) if _on_barrel(r, score) and r.barrel_attempts else range(1)
        for b in bolts:
            for f in falls:
                for a in attempts:
                    out.append(PlayerState(score, True, b, f, a))
        if score <= 0:
            # not opened: only overtaking (and bolts everywhere) moves the score, and no fall has happened
            for b in bolts if r.bolts_everywhere else range(1):
                out.append(PlayerState(score, False, b, 0, 0))
    # falls first: a player's falls never go down, so each fall count is a contiguous block (see levels())
    out.sort(key=lambda p: (p.falls, p.score, p.opened, p.bolts, p.attempts))
    return out


class Rules1000:
    """The per-state rule effects of the engine, written for one seat against one opponent."""

    def __init__(self, rules: ThousandRules, floor: int) -> None:
        self.r = rules
        self.floor = floor

    def set_score(self, p: PlayerState, value: int) -> PlayerState:
        """The engine's ``_set_score``: leaving the barrel below its score, the dump truck, then our floor."""
        r = self.r
        if r.dump_truck and value == r.dump_truck_score:
            value = 0
        value = max(value, self.floor)
        attempts = p.attempts if _on_barrel(r, value) else 0
        # (the constructor, not _replace: building the space calls this a quarter of a million times)
        return PlayerState(value, p.opened, p.bolts, p.falls, attempts)

    def penalize(self, p: PlayerState, amount: int) -> PlayerState:
        return self.set_score(p, p.score - amount) if amount else p

    def fall(self, p: PlayerState) -> PlayerState:
        r = self.r
        nth = p.falls + 1
        falls = min(nth, _fall_states(r) - 1)
        p = p._replace(attempts=0, falls=falls)
        if r.barrel_falls_to_zero and nth >= r.barrel_falls_to_zero:
            # off the barrel first: set_score only keeps attempts on the barrel
            return self.set_score(p, 0)
        return self.penalize(p, r.barrel_fall_penalty) if r.barrel_fall_penalty else p

    def need(self, p: PlayerState) -> int:
        r = self.r
        need = 0 if p.opened else r.open_min
        pit = r.pit_of(p.score)
        if pit is not None:
            need = max(need, pit[1] - p.score)
        if _on_barrel(r, p.score):
            need = r.target - p.score
        return need

    def burn(self, p: PlayerState) -> PlayerState:
        """A turn that banks nothing (zero roll): barrel attempt and fall, then the bolt."""
        r = self.r
        bolt = r.bolts and (
            r.bolts_everywhere or (p.opened and r.pit_of(p.score) is None and not _on_barrel(r, p.score))
        )
        if _on_barrel(r, p.score) and r.barrel_attempts:
            p = p._replace(attempts=p.attempts + 1)
            if p.attempts >= r.barrel_attempts:
                p = self.fall(p)
        if bolt:
            p = p._replace(bolts=p.bolts + 1)
            if p.bolts >= r.bolts_count:
                p = self.penalize(p._replace(bolts=0), r.bolt_penalty)
        return p

    def bank(self, p: PlayerState, total: int) -> tuple[PlayerState | None, int, bool]:
        """Banking ``total``: (the mover's new state or None for a win, the score overtaking looks at, climbs)."""
        r = self.r
        was_on = _on_barrel(r, p.score)
        new = p.score + total
        climbs = r.barrel == "score" and not was_on and new >= r.barrel_score
        if climbs:
            new = r.barrel_score
        won = new >= r.target if r.barrel == "none" else was_on and new >= r.target
        if won:
            return None, new, climbs
        after = self.set_score(PlayerState(p.score, True, p.bolts, p.falls, 0), new)
        return after, new, climbs


def build_space(rules: ThousandRules, floor: int = DEFAULT_FLOOR) -> Space:
    """All player states and transition tables of ``rules`` (refuses what the model does not cover)."""
    problems = unsupported(rules)
    if problems:
        raise refusal(rules, floor, problems)
    check_floor(floor)
    r = rules
    fx = Rules1000(r, floor)
    states = enumerate_states(r, floor)
    index = {p: i for i, p in enumerate(states)}
    size = len(states)
    if size * size > MAX_POSITIONS:
        raise RuleConfigError(
            Message("solver.thousand.too_large", positions=size * size, states=size, limit=MAX_POSITIONS)
        )

    def idx(p: PlayerState) -> int:
        return index[p]

    score_of = np.array([p.score for p in states], dtype=np.int64)
    falls_of = np.array([p.falls for p in states], dtype=np.int64)
    fall_lo = np.searchsorted(falls_of, np.arange(_fall_states(r) + 1)).astype(np.int64)
    top = np.zeros(size, dtype=np.int64)
    for i, p in enumerate(states):
        if _on_barrel(r, p.score) or r.barrel == "none":
            limit = r.target - p.score
        else:
            limit = r.barrel_score - p.score  # every bank from here is capped onto the barrel
        top[i] = max(limit, fx.need(p)) // STEP
    tmax = int(top.max())
    bank_next = np.full((size, tmax + 1), NOT_ALLOWED, dtype=np.int64)
    bank_score = np.zeros((size, tmax + 1), dtype=np.int64)
    bank_climb = np.zeros((size, tmax + 1), dtype=np.uint8)
    burn_next = np.zeros(size, dtype=np.int64)
    ovt_next = np.zeros(size, dtype=np.int64)
    knock_next = np.full(size, -1, dtype=np.int64)
    for i, p in enumerate(states):
        need = fx.need(p)
        for ti in range(max(need // STEP, 1), int(top[i]) + 1):
            after, new, climbs = fx.bank(p, ti * STEP)
            bank_next[i, ti] = WIN if after is None else idx(after)
            bank_score[i, ti] = new
            bank_climb[i, ti] = climbs
        burn_next[i] = idx(fx.burn(p))
        ovt_next[i] = idx(fx.penalize(p, r.overtake_penalty))
        if _on_barrel(r, p.score) and r.barrel_knock == "fall":
            knock_next[i] = idx(fx.fall(p))
    start = index[PlayerState(0, False)]
    return Space(
        rules=r,
        floor=floor,
        states=states,
        index=index,
        score_of=score_of,
        falls_of=falls_of,
        scores=np.unique(score_of).astype(np.int64),
        fall_lo=fall_lo,
        top=top,
        burn_next=burn_next,
        ovt_next=ovt_next,
        knock_next=knock_next,
        bank_next=bank_next,
        bank_score=bank_score,
        bank_climb=bank_climb,
        start=start,
    )


class Dice(NamedTuple):
    """The scoring outcomes of rolling n dice: for n in 1..5 the slice ``first[n]:first[n + 1]`` of
    (probability, points / STEP, dice left; 0 = all scored, hot dice), and ``zero[n]``, the chance of a zero roll."""

    first: IntArray
    prob: npt.NDArray[np.float64]
    step: IntArray
    left: IntArray
    zero: npt.NDArray[np.float64]


@functools.cache
def dice_table(rules: ThousandRules) -> Dice:
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
    return Dice(
        np.array(first, dtype=np.int64),
        np.array(prob),
        np.array(step, dtype=np.int64),
        np.array(left, dtype=np.int64),
        np.array(zero),
    )


FloatArray = npt.NDArray[np.float64]
DiceTables = tuple[IntArray, FloatArray, IntArray, IntArray, FloatArray]
TurnTables = tuple[
    IntArray, IntArray, IntArray, IntArray, npt.NDArray[np.uint8], IntArray, IntArray, IntArray, DiceTables
]
"""What the turn kernels read besides the values, as one argument (see :func:`turn_tables`)."""


def turn_tables(space: Space, dice: Dice) -> TurnTables:
    """The tables the turn kernels read, in this order (the kernels unpack them so):
    ``(score_of, top, bank_next, bank_score, bank_climb, burn_next, ovt_next, knock_next, (first, prob, step,
    left, zero))``, the player states' transitions of ``space`` and the ``dice``.

    Plain tuples, not named ones: Numba's dispatcher types a plain tuple in C but a named one in Python (measured
    1.3 against 3.1 µs a call, 10 % of a game of ``bot:optimal`` played in Python, which calls a kernel each turn).
    """
    return (
        space.score_of,
        space.top,
        space.bank_next,
        space.bank_score,
        space.bank_climb,
        space.burn_next,
        space.ovt_next,
        space.knock_next,
        (dice.first, dice.prob, dice.step, dice.left, dice.zero),
    )


GROUP = 32
"""Scores per group: the opponents of a row (the kernel's lanes) are the states of one fall count in a group."""


class Level(NamedTuple):
    """A set of positions solved together: mover and opponent fall counts ``{a, b}`` (either way round)."""

    falls: tuple[int, int]
    rows: IntArray
    blocks: list[tuple[int, int, int, int]]  # (opponent lo, hi, mover lo, hi): the W slices of the level


def levels(space: Space, group: int = GROUP) -> list[Level]:
    """The positions in solving order: one level per pair of fall counts, most falls first.

    Falls never go down (a fall moves a player to the next count, or keeps the last count while sending the
    score to 0), so every position reads only its own level or one with more falls, already solved: barrel
    falls and knock-offs never have to be iterated around. Within a level the rows (see :func:`schedule`) go by
    score.
    """
    count = len(space.fall_lo) - 1
    pairs = sorted(
        ((a, b) for a in range(count) for b in range(a, count)),
        key=lambda ab: (-(ab[0] + ab[1]), -ab[1], -ab[0]),
    )
    out = []
    for a, b in pairs:
        sides = [(a, b)] if a == b else [(a, b), (b, a)]
        rows = schedule(space, sides, group)
        blocks = []
        for fm, fo in sides:
            blocks.append(
                (
                    int(space.fall_lo[fo]),
                    int(space.fall_lo[fo + 1]),
                    int(space.fall_lo[fm]),
                    int(space.fall_lo[fm + 1]),
                )
            )
        out.append(Level((a, b), rows, blocks))
    return out


def schedule(
    space: Space, sides: list[tuple[int, int]] | None = None, group: int = GROUP
) -> npt.NDArray[np.int64]:
    """The rows ``(m0, m1, o0, o1)`` of a sweep: movers ``m0..m1`` (one score, one fall count) against opponents
    ``o0..o1`` (one fall count, a group of scores). ``sides``: the (mover falls, opponent falls) pairs to cover
    (default: all).

    Scores are cut into groups of ``group`` consecutive scores (wide lanes for the vector units). Group pairs go by
    higher group, then lower group, both descending: a bank raises the mover's score (and an overtaken opponent's
    loss comes with a higher maximum), so almost every successor was visited earlier in the same sweep. Only
    penalties (bolts, the dump truck, the third fall to 0) point the other way. Within a pair of groups, each
    group's movers meet the other group, higher scores first.
    """
    count = len(space.fall_lo) - 1
    if sides is None:
        sides = [(a, b) for a in range(count) for b in range(count)]
    scores = space.scores
    k = len(scores)
    # per fall count: the slice of each score (empty where no state has it)
    ranges = []
    for f in range(count):
        a, b = int(space.fall_lo[f]), int(space.fall_lo[f + 1])
        block = space.score_of[a:b]
        lo = a + np.searchsorted(block, scores, side="left")
        hi = a + np.searchsorted(block, scores, side="right")
        ranges.append((lo, hi))
    groups = [list(range(g, min(g + group, k))) for g in range(0, k, group)]
    order = sorted(
        ((x, y) for x in range(len(groups)) for y in range(x + 1)), key=lambda xy: (-xy[0], -xy[1])
    )
    rows = []
    for x, y in order:
        for movers, opponents in ((groups[x], groups[y]), (groups[y], groups[x])):
            for fm, fo in sides:
                olo, ohi = ranges[fo]
                o0, o1 = int(olo[opponents[0]]), int(ohi[opponents[-1]])
                if o0 == o1:
                    continue
                mlo, mhi = ranges[fm]
                for a in reversed(movers):
                    if mlo[a] < mhi[a]:
                        rows.append((int(mlo[a]), int(mhi[a]), o0, o1))
            if x == y:
                break
    return np.array(rows, dtype=np.int64).reshape(-1, 4)


def opponent_after_bank(space: Space, mover: int, ti: int, opponent: int) -> int:
    """The opponent's state after the mover banks ``ti * STEP`` (overtaking, then a knock-off from the barrel);
    the kernel applies the same steps inline."""
    o = opponent
    if space.score_of[mover] < space.score_of[o] < space.bank_score[mover, ti]:
        o = int(space.ovt_next[o])
    if space.bank_climb[mover, ti] and space.knock_next[o] >= 0:
        o = int(space.knock_next[o])
    return o
