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

The positions between turns follow in the next step.

This is the model in Python, checked against the engine's own turns and transitions
(``tests/thousand/test_solver_yard.py``). The compiled kernels do not follow it yet, so ``build_space`` still
refuses yard (docs/thousand-solved.md, "Yard's model").
"""

from __future__ import annotations

import dataclasses
import functools
from typing import NamedTuple

from dicehall.thousand.dp import STEP, Outcome, outcomes
from dicehall.thousand.rules import ThousandRules

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
