"""Yard's rules in the solver's state model: one turn, and the positions between turns (issue 26).

**The turn.** Yard's turn ends in one of five ways, its *ends*: a bank of the turn total ``t`` (the player's
choice, or a scoring confirmation roll that may bank), a zero first roll (which flags the player to skip their next
turn once anyone has banked), a later zero roll, a turn that ends with nothing and no zero (the total passed the
exact target, or the rolls ran out below the minimum bank), and a win at once (five 1s). :class:`Turn` is the
mover's best play against given values of those ends. Inside it a decision point is ``(t, n, r)``: turn total
``t``, ``n`` dice in hand, ``r`` counted rolls made; *hot* ``(t, r)`` is the forced roll of all five after hot dice
or a pair re-roll (three dice aside, a non-scoring pair on the other two), a confirmation roll under
``hot_dice = confirm``: it banks at once if it scores and the total may be banked, unless it is hot itself
(``reconfirm_hot``: confirm again); below the minimum the turn goes on. Forced rolls are not counted. Totals only
rise except at a pair re-roll, which leads to the hot roll of the same total: the turn is solved from the largest
total down, with no fixed point (the exact target bounds the total).

**Between turns** (:class:`Positions`): a position is (mover, opponent, the opponent skips their next turn), the
seats as :mod:`size` finds them (``size.Seat``: banks, zero rolls, overshooting, bolts, barrel attempts and falls,
exact landing, overtaking, knock-offs). :meth:`Positions.ends` values a turn's ends from the values of the next
positions: after a flagged opponent's skipped turn the mover moves again; if the mover is flagged while the
opponent's flag is pending, both are spent and the opponent plays next.

This is the model in Python, checked against the engine's own turns and transitions
(``tests/thousand/test_solver_yard.py``); ``yard_kernel`` compiles it. ``dicehall solve``, ``bot:optimal`` and the
hints use it on yard-like rules (:mod:`yard_table`); ``build_space`` still refuses yard (docs/thousand-solved.md,
"Yard's model").
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from typing import NamedTuple

from dicehall.thousand.dp import STEP, Outcome, outcomes
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver.size import FullState, Seat, player_states

NEG = float("-inf")


def covers(rules: ThousandRules) -> bool:
    """Whether this model follows ``rules``: a score barrel with an exact win (the turn total is bounded), no
    free set-aside, no open barrel's points, no knock-back to the opening score, no failed-opening penalty."""
    r = rules
    return (
        r.barrel == "score"
        and r.barrel_exact
        and not r.barrel_cap
        and r.barrel_knock != "opening"
        and not r.free_set_aside
        and not r.open_fail_penalty
    )


class Ends(NamedTuple):
    """The values (the mover's win chance) of the ways a turn can end."""

    bank: list[float]
    """By turn total / STEP, 0 up to the exact limit: banking it; ``NEG`` where banking is refused."""
    zero_first: float
    zero: float
    fail: float
    """The turn ends with nothing and no zero roll: the exact target passed, or out of rolls below the minimum."""
    win: float = 1.0


@functools.cache
def _rolls(rules: ThousandRules) -> tuple[tuple[Outcome, ...], ...]:
    """The grouped outcomes of rolling n = 0..5 dice (``dp.outcomes``: golden win and pair re-roll as rules say)."""
    return tuple(outcomes(n, rules.kinds, rules.golden_win, rules.pair_reroll) for n in range(6))


@dataclasses.dataclass
class Turn:
    """The mover's turn solved against ``ends``: ``need`` the smallest bank, ``limit`` the largest turn total
    that does not end the turn (the exact target)."""

    rules: ThousandRules
    need: int
    limit: int
    ends: Ends

    def __post_init__(self) -> None:
        r = self.rules
        self.counted = r.max_rolls > 0
        self.rr = r.max_rolls + 1 if self.counted else 1
        self.top = self.limit // STEP
        size = self.top + 1
        # [ti][n][r]: decision value (n = 1..5), roll value and the decision (True: roll); hot[ti][r]
        self.d = [[[NEG] * self.rr for _ in range(6)] for _ in range(size)]
        self.rv = [[[NEG] * self.rr for _ in range(6)] for _ in range(size)]
        self.roll_ok = [[[False] * self.rr for _ in range(6)] for _ in range(size)]
        self.hot = [[NEG] * self.rr for _ in range(size)]
        confirm = r.hot_dice == "confirm"
        for ti in range(self.top, -1, -1):
            for ri in range(self.rr):
                self.hot[ti][ri] = self._roll(ti, 5, ri, confirm, first=False)
            bank = self.ends.bank[ti] if ti * STEP >= self.need else NEG
            for ri in range(self.rr):
                can_roll = not self.counted or ri < r.max_rolls
                for n in range(1, 6):
                    roll = self._roll(ti, n, ri + 1 if self.counted else 0, False, False) if can_roll else NEG
                    self.rv[ti][n][ri] = roll
                    self.roll_ok[ti][n][ri] = roll > bank
                    self.d[ti][n][ri] = max(roll, bank)
        self.value = self._roll(0, 5, 1 if self.counted else 0, False, first=True)

    def _after(self, t: int, left: int, ri: int, confirm: bool) -> float:
        """Points taken: total ``t``, ``left`` dice in hand (0: hot), ``ri`` counted rolls (the engine's
        ``_resolve``)."""
        r = self.rules
        if t > self.limit:
            return self.ends.fail
        hot = left == 0
        ti = t // STEP
        if confirm and not (hot and r.reconfirm_hot) and t >= self.need:
            return self.ends.bank[ti]
        if hot:
            return self.hot[ti][ri]
        if self.counted and ri >= r.max_rolls and t < self.need:
            return self.ends.fail
        return self.d[ti][left][ri]

    def _roll(self, ti: int, n: int, ri: int, confirm: bool, first: bool) -> float:
        """Rolling ``n`` dice at total ``ti * STEP``; ``ri`` counted rolls after it."""
        total = 0.0
        for o in _rolls(self.rules)[n]:
            if o.kind == "zero":
                total += o.prob * (self.ends.zero_first if first else self.ends.zero)
            elif o.kind == "golden":
                total += o.prob * self.ends.win
            elif o.kind == "pair":
                total += o.prob * self.hot[ti][ri]
            else:
                ((points, used),) = o.options
                total += o.prob * self._after(ti * STEP + points, n - used, ri, confirm)
        return total

    def decide(self, t: int, n: int, r: int) -> bool:
        """True to roll the ``n`` dice in hand at total ``t`` after ``r`` counted rolls, False to bank."""
        return self.roll_ok[t // STEP][n][r if self.counted else 0]


# -- between turns ------------------------------------------------------------------------------------------------
class Position(NamedTuple):
    mover: FullState
    opponent: FullState
    flagged: bool = False
    """The opponent skips their next turn."""


Values = Callable[[Position], float]
"""The mover's win chance at a position."""


class Positions:
    """The positions of ``rules`` between turns and what each end of a turn leads to."""

    def __init__(self, rules: ThousandRules, floor: int) -> None:
        if not covers(rules):
            raise ValueError("these rules are not yard's kind: see yard.covers")
        self.rules = rules
        self.seat = Seat(rules, floor)
        self.states = player_states(rules, floor)
        self.state_set = frozenset(self.states)
        seat = self.seat
        self.flaggable = frozenset(seat.canonical(seat.fail(p, zero=True)) for p in self.states)

    def holds(self, pos: Position) -> bool:
        """Whether ``pos`` is a position of the model: two seats, flagged only where the opponent's state is one a
        zero roll leaves and someone has banked (``size.table_size`` counts these)."""
        m, o, flagged = pos
        if m not in self.state_set or o not in self.state_set:
            return False
        return not flagged or (
            self.rules.skip_on_zero_first and o in self.flaggable and (m.opened or o.opened)
        )

    def need(self, p: FullState) -> int:
        return self.seat.need(p)

    def limit(self, p: FullState) -> int:
        limit = self.seat.limit(p)
        assert limit is not None
        return limit

    def after_bank(self, m: FullState, total: int, o: FullState) -> tuple[FullState | None, FullState]:
        """The mover (None: won) and the opponent after the mover banks ``total``, in the engine's order
        (``_bank``): an exact landing resets the opponent to 0 (ruling 12, before overtaking: a reset opponent is
        not also overtaken), else overtaking; the mover's dump truck; a climb onto the barrel knocks the opponent
        off it."""
        r, seat = self.rules, self.seat
        old = m.score
        new = old + total
        climbs = not seat.on_barrel(old) and new >= r.barrel_score and new != r.target
        after = seat.bank(m, total)
        if after is None:
            return None, o
        if r.exact_reset and new > 0 and o.score == new:
            o = seat.set_score(o, 0)
        elif r.overtake_penalty and old < o.score < new:
            o = seat.penalize(o, r.overtake_penalty)
        if climbs and seat.on_barrel(after.score) and seat.on_barrel(o.score):
            o = seat.knock(o)
        return seat.canonical(after), seat.canonical(o)

    def next_value(
        self, pos: Position, mover: FullState, opponent: FullState, flag: bool, value: Values
    ) -> float:
        """The mover's win chance once their turn from ``pos`` has left them at ``mover`` (flagged to skip: ``flag``)
        and the opponent at ``opponent`` (the engine's ``_start_turn`` with two seats)."""
        if pos.flagged and not flag:  # the opponent's turn is skipped: the mover again
            return value(Position(mover, opponent))
        # both flags spent at once when both are set
        return 1.0 - value(Position(opponent, mover, flag and not pos.flagged))

    def ends(self, pos: Position, value: Values) -> Ends:
        """The values of each end of the mover's turn from ``pos``."""
        m, o = pos.mover, pos.opponent
        seat = self.seat
        limit = self.limit(m)
        bank = [NEG] * (limit // STEP + 1)
        for total in seat.bank_totals(m):
            if total > limit:
                continue
            after, other = self.after_bank(m, total, o)
            bank[total // STEP] = 1.0 if after is None else self.next_value(pos, after, other, False, value)
        zeroed = seat.canonical(seat.fail(m, zero=True))
        flag = self.rules.skip_on_zero_first and (m.opened or o.opened)
        return Ends(
            bank=bank,
            zero_first=self.next_value(pos, zeroed, o, flag, value),
            zero=self.next_value(pos, zeroed, o, False, value),
            fail=self.next_value(pos, seat.canonical(seat.fail(m, zero=False)), o, False, value),
        )

    def turn(self, pos: Position, value: Values) -> Turn:
        return Turn(self.rules, self.need(pos.mover), self.limit(pos.mover), self.ends(pos, value))
