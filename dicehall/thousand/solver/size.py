"""How large the exact two-player table of a rule set is, also for rules the solver's model does not cover.

:func:`player_states` finds every state one seat can carry between turns under ``rules`` by a search from the
opening position, through the engine's effects (``state.py``) on one seat: banking every total it may bank,
a zero roll, a turn that ends unbanked without one (overshooting an exact target, running out of rolls), and
what an opponent can do to it (overtaking, an exact landing on its score, climbing onto the barrel). Beyond the
solver's model it keeps the open barrel's points, variant 2's opening score (the knock-back returns to it) and
the failed-opening count. :func:`table_size` puts two seats together into positions (yard's skipped turn adds
the opponent's "skips its next turn" flag) and splits them into the levels a solver can solve one after the
other, and :func:`needs` turns that into memory and time from the costs measured on classic.

``tests/thousand/test_solver_size.py`` checks that on the rules the model covers the search finds exactly the
model's player states, and the position counts of the presets it refuses.
"""

from __future__ import annotations

import dataclasses
import functools
from collections import Counter
from typing import NamedTuple

from dicehall.thousand.dp import STEP
from dicehall.thousand.rules import ThousandRules


class FullState(NamedTuple):
    """One seat between turns, every count any rule set needs (those a rule set does not use stay 0)."""

    score: int
    opened: bool
    bolts: int = 0
    falls: int = 0
    attempts: int = 0
    points: int = 0  # open barrel: points for passing the target since the last fall
    opening: int = 0  # variant 2's knock-back: the score the opening bank recorded
    fails: int = 0  # failed opening turns, with open_fail_penalty


class Seat:
    """The engine's effects on one seat (``ThousandState._bank``, ``_fail``, ``_fall``, ``_knock``,
    ``_set_score``), with scores below ``floor`` kept at it and every count reduced to what still matters."""

    def __init__(self, rules: ThousandRules, floor: int) -> None:
        self.r = rules
        self.floor = floor

    def on_barrel(self, score: int) -> bool:
        return self.r.barrel == "score" and score >= self.r.barrel_score

    def canonical(self, p: FullState) -> FullState:
        r = self.r
        score = max(p.score, self.floor)
        bolts = p.bolts if r.bolts and (p.opened or r.bolts_everywhere) else 0
        if r.barrel == "score":
            falls = min(p.falls, r.barrel_falls_to_zero - 1) if r.barrel_falls_to_zero else 0
        elif r.barrel == "open":
            falls = min(p.falls, r.open_fall_limit - 1)
        else:
            falls = 0
        attempts = p.attempts if self.on_barrel(score) and r.barrel_attempts else 0
        points = p.points if r.barrel == "open" else 0
        knock_back = r.barrel == "score" and r.barrel_knock == "opening" and p.opened
        opening = p.opening if knock_back else 0
        if knock_back and opening >= r.barrel_score:  # opened straight onto the barrel: the nominal minimum
            opening = r.open_min
        fails = p.fails % r.open_fail_every if r.open_fail_penalty and not p.opened else 0
        return FullState(score, p.opened, bolts, falls, attempts, points, opening, fails)

    def set_score(self, p: FullState, value: int) -> FullState:
        r = self.r
        if r.dump_truck and value == r.dump_truck_score:
            value = 0
        attempts = p.attempts if self.on_barrel(value) else 0
        return p._replace(score=max(value, self.floor), attempts=attempts)

    def penalize(self, p: FullState, amount: int) -> FullState:
        return self.set_score(p, p.score - amount) if amount else p

    def fall(self, p: FullState) -> FullState:
        r = self.r
        p = p._replace(attempts=0, falls=p.falls + 1)
        if r.barrel_falls_to_zero and p.falls >= r.barrel_falls_to_zero:
            return self.set_score(p, 0)
        return self.penalize(p, r.barrel_fall_penalty)

    def need(self, p: FullState) -> int:
        r = self.r
        need = 0 if p.opened else r.open_min
        pit = r.pit_of(p.score)
        if pit is not None:
            need = max(need, pit[1] - p.score)
        if self.on_barrel(p.score):
            need = r.target - p.score
        return need

    def limit(self, p: FullState) -> int | None:
        """The largest turn total that does not end the turn (an exact target), or None."""
        r = self.r
        if r.barrel == "open" or (r.barrel == "score" and r.barrel_exact):
            return r.target - p.score
        return None

    def top(self, p: FullState) -> int:
        """The turn total from which every bank is alike (the win, the capped barrel; ``space.top``), or the
        largest that does not end the turn (an exact target)."""
        r = self.r
        limit = self.limit(p)
        if limit is not None:
            return limit
        if r.barrel == "score" and r.barrel_cap and not self.on_barrel(p.score):
            return max(self.need(p), r.barrel_score - p.score)
        return max(self.need(p), r.target - p.score)

    def bank_totals(self, p: FullState) -> range:
        """Every turn total worth trying: from the smallest bank allowed to :meth:`top`."""
        return range(max(self.need(p), STEP), self.top(p) + STEP, STEP)

    def bank(self, p: FullState, total: int) -> FullState | None:
        """The seat after banking ``total``; None for a win."""
        r = self.r
        was_on = self.on_barrel(p.score)
        new = p.score + total
        climbs = (
            r.barrel == "score"
            and not was_on
            and new >= r.barrel_score
            and not (r.barrel_exact and new == r.target)
        )
        if climbs and r.barrel_cap:
            new = r.barrel_score
        if r.barrel == "none":
            won = new >= r.target
        elif r.barrel == "open" or r.barrel_exact:
            won = new == r.target
        else:
            won = (was_on or not r.barrel_cap) and new >= r.target
        if won:
            return None
        if not p.opened:
            p = p._replace(opened=True, opening=new, fails=0)
        return self.set_score(p._replace(attempts=0), new)

    def fail(self, p: FullState, *, zero: bool) -> FullState:
        """A turn that banks nothing: a zero roll (``zero``), else an overshoot or the end of the rolls."""
        r = self.r
        bolt = (
            zero
            and r.bolts
            and (
                r.bolts_everywhere or (p.opened and r.pit_of(p.score) is None and not self.on_barrel(p.score))
            )
        )
        if not zero and r.barrel == "open":  # the total passed the target: a point
            p = p._replace(points=p.points + 1)
            if p.points >= r.open_points_limit:
                p = p._replace(points=0, falls=p.falls + 1)
                if p.falls >= r.open_fall_limit:
                    p = self.set_score(p, 0)
                else:
                    p = self.penalize(p, r.open_point_penalty)
        if self.on_barrel(p.score) and r.barrel_attempts:
            p = p._replace(attempts=p.attempts + 1)
            if p.attempts >= r.barrel_attempts:
                p = self.fall(p)
        if bolt:
            p = p._replace(bolts=p.bolts + 1)
            if p.bolts >= r.bolts_count:
                p = self.penalize(p._replace(bolts=0), r.bolt_penalty)
        if not p.opened and r.open_fail_penalty:
            p = p._replace(fails=p.fails + 1)
            if p.fails % r.open_fail_every == 0:
                p = self.penalize(p, r.open_fail_penalty)
        return p

    def can_fail_without_zero(self) -> bool:
        r = self.r
        return r.barrel == "open" or (r.barrel == "score" and r.barrel_exact) or r.max_rolls > 0

    def knock(self, p: FullState) -> FullState:
        """Another player climbs onto the barrel this seat is on."""
        if self.r.barrel_knock == "fall":
            return self.fall(p)
        if self.r.barrel_knock == "opening":
            return self.set_score(p._replace(attempts=0), p.opening)
        return p

    def hit(self, p: FullState) -> list[FullState]:
        """What the opponent's bank can do to this seat, in the engine's order: land exactly on its score (to
        0), overtake it, climb onto the barrel it is on — each where it can happen, alone or after another."""
        r = self.r
        out = [p]
        if r.overtake_penalty:  # a seat reset to 0 was level with the banker: never overtaken too
            out.append(self.penalize(p, r.overtake_penalty))
        if r.exact_reset and p.score > 0:
            out.append(self.set_score(p, 0))
        out += [self.knock(q) for q in out if self.on_barrel(q.score)]
        return out[1:]

    def after_turn(self, p: FullState, banks: bool = True) -> list[FullState]:
        """Every state the seat can be in after its own turn from ``p``, or after the opponent's (without its own
        banks: ``banks=False``)."""
        out = [self.fail(p, zero=True), *self.hit(p)]
        if self.can_fail_without_zero():
            out.append(self.fail(p, zero=False))
        if banks:
            out += [a for t in self.bank_totals(p) if (a := self.bank(p, t)) is not None]
        return out


def player_states(rules: ThousandRules, floor: int) -> list[FullState]:
    """Every seat state reachable from the start (score 0, not opened), canonical, sorted."""
    return list(_player_states(rules, floor))


@functools.cache
def _player_states(rules: ThousandRules, floor: int) -> tuple[FullState, ...]:
    seat = Seat(rules, floor)
    start = seat.canonical(FullState(0, False))
    seen = {start}
    todo = [start]
    # An opened seat off the barrel banks to the same states from every score with the same other counts: each
    # new score gives one state, and every such score range ends where the banks of the rule set end (the
    # barrel, the target). So each group of seats is banked from once per new score: the lowest banked so far.
    lowest: dict[FullState, int] = {}
    while todo:
        p = todo.pop()
        out = seat.after_turn(p, banks=False)
        totals = seat.bank_totals(p)
        if p.opened and not seat.on_barrel(p.score):
            group = p._replace(score=0)
            done = lowest.get(group)
            if done is not None:
                totals = range(totals.start, min(totals.stop, done - p.score), STEP)
            if totals:
                lowest[group] = p.score + totals.start
        out += [a for t in totals if (a := seat.bank(p, t)) is not None]
        for nxt in out:
            nxt = seat.canonical(nxt)
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return tuple(sorted(seen))


def _level_key(rules: ThousandRules, p: FullState) -> tuple[int, int]:
    """What never goes back within a game: the falls (a fall moves to the next count, the last count stays) and
    variant 2's opening score (set once, by the opening bank; -1 before it). The open barrel's points go back to
    0 at a fall, so they are no key: with classic-open's one fall count everything is one level."""
    knock_back = rules.barrel == "score" and rules.barrel_knock == "opening"
    return (p.falls, (p.opening if p.opened else -1) if knock_back else 0)


@dataclasses.dataclass(frozen=True)
class TableSize:
    """The exact two-player table of a rule set (with the solver's score floor)."""

    player_states: int
    positions: int
    levels: int
    largest_level: int
    turn_states: int
    """Positions × (turn totals up to where banks are alike) × 6 dice counts (× the counted rolls, with a roll
    limit): what one pass of the turn kernel over every position works through."""
    rows: float
    """Mean turn totals (0 to where banks are alike) a mover's turn has."""


@functools.cache
def table_size(rules: ThousandRules, floor: int) -> TableSize:
    """Positions of the exact table: (mover, opponent) pairs, with yard's skip flag the pairs where the
    opponent's last turn began with a zero roll after someone had banked (it is then skipped)."""
    seat = Seat(rules, floor)
    states = _player_states(rules, floor)
    index = set(states)
    by_key = Counter(_level_key(rules, p) for p in states)
    pairs = {(a, b) for a in by_key for b in by_key}
    level_of = {tuple(sorted((a, b))): 0 for a, b in pairs}
    for a, b in pairs:
        level_of[tuple(sorted((a, b)))] += by_key[a] * by_key[b]  # both orders of a pair of keys
    positions = len(states) ** 2
    if rules.skip_on_zero_first:
        # the opponent is flagged right after its zero first roll: its state is one a zero roll leaves
        flagged = {seat.canonical(seat.fail(p, zero=True)) for p in states}
        assert flagged <= index
        flagged_key = Counter(_level_key(rules, p) for p in flagged)
        # nobody has banked while both are unopened: no flag then
        unopened = Counter(_level_key(rules, p) for p in states if not p.opened)
        flagged_unopened = Counter(_level_key(rules, p) for p in flagged if not p.opened)
        for a, b in pairs:
            count = by_key[a] * flagged_key[b] - unopened[a] * flagged_unopened[b]
            level_of[tuple(sorted((a, b)))] += count
            positions += count
    layers = rules.max_rolls or 1
    rows = sum(seat.top(p) // STEP + 1 for p in states) / len(states)
    return TableSize(
        player_states=len(states),
        positions=positions,
        levels=len(level_of),
        largest_level=max(level_of.values()),
        turn_states=round(positions * rows * 6 * layers),
        rows=rows,
    )


# -- what a solve would need, from classic's costs measured on 27 Nov 2026 (docs/thousand-solved.md, "Sizes of
# the presets the model refuses"): `dicehall solve thousand --preset classic --fresh --json` under
# /usr/bin/time -v, policy iteration by fall level, two threads
CLASSIC_TURN_STATES = 3_522_940_668
"""Turn states of the model's classic table (2,203 player states, 4,853,209 positions, 121.0 turn totals a mover)."""
CLASSIC_CPU_SECONDS = 358.1
"""CPU seconds of the whole process (101.6 ns a turn state, 73.8 µs a position)."""
EXITS_PER_ROW = 132_614_658 / (1_106_700 * 121.0)
"""Entries of policy iteration's matrix per position and turn total: classic's largest level (fall counts
{0, 2}, 1,106,700 positions) had 132,614,658 (int32 column and float64 chance: 12 bytes each)."""
KRYLOV_VECTORS = 41
"""GMRES(40)'s basis: 41 float64 vectors of the level's size."""
BASE_BYTES = 384e6
"""The rest of classic's peak (2,377 MB resident, less the matrix, the basis and the values): Python, Numba's
kernels, the model's tables."""


class Needs(NamedTuple):
    memory_gb: float
    cpu_hours: float


def needs(size: TableSize) -> Needs:
    """Peak memory and CPU time of policy iteration level by level (the solver's method for classic), scaled from
    classic's measured run: the time by turn states, the largest level's matrix by its positions and turn
    totals, the basis by its positions, plus one float64 value per position."""
    level = size.largest_level * (12 * EXITS_PER_ROW * size.rows + 8 * KRYLOV_VECTORS)
    memory = BASE_BYTES + 8 * size.positions + level
    cpu = CLASSIC_CPU_SECONDS * size.turn_states / CLASSIC_TURN_STATES
    return Needs(memory / 1e9, cpu / 3600)
