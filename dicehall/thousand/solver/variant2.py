"""Variant 2's rules in the solver's state model: one turn, and the positions between turns (issue 26).

**The turn.** Variant 2 has hot dice with a *confirmation roll*: after all five dice scored, the roll of five is
forced, and if it scores and the turn total may then be banked it banks at once (the engine's ``_resolve``);
below the minimum bank the turn goes on. A turn ends in a bank of the turn total ``t`` or a zero roll (no bolts:
every zero roll is alike). :class:`Turn` is the mover's best play against given values of those ends. From
``top = max(need, barrel − score)`` on (on the barrel: the win) every bank has the same effect (capped onto the
barrel, or the win), so totals above it are kept at it; a confirmation there always banks, so unlike classic's
top row there is no fixed point.

**Between turns** (:class:`Positions`): a player is (score, opened, opening score), the seats of
:func:`size.player_states` (variant 2 has no bolts, falls, pits' penalties, overtaking or dump truck). A bank
raises the mover's score (capped at the barrel); climbing onto the barrel sends an opponent on it back to their
opening bank's score (ruling 15 in docs/thousand.md: the opening minimum if that bank itself reached the barrel,
which :meth:`size.Seat.canonical` stores as the opening score). A zero roll changes nothing.

This is the model in Python, checked against the engine's own turns and transitions
(``tests/thousand/test_solver_variant2.py``); ``variant2_kernel`` compiles it. ``dicehall solve``, ``bot:optimal``
and the hints use it through ``variant2_table``; ``build_space`` does not (docs/thousand-solved.md, "Variant 2's
model").
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
FLOOR = 0
"""Scores never go below 0 under these rules: the floor is never used."""


def covers(rules: ThousandRules) -> bool:
    """Whether this model follows ``rules``: a capped score barrel whose knock sends the player back to the
    opening score, confirmation rolls after hot dice, and nothing that lowers a score or needs another count
    (bolts, overtaking, the dump truck, an exact landing, barrel attempts, roll limits, skipped turns)."""
    r = rules
    return (
        r.barrel == "score"
        and r.barrel_cap
        and not r.barrel_exact
        and r.barrel_knock == "opening"
        and r.barrel_attempts == 0
        and r.hot_dice == "confirm"
        and not r.reconfirm_hot
        and not r.free_set_aside
        and not r.golden_win
        and not r.pair_reroll
        and r.max_rolls == 0
        and not r.skip_on_zero_first
        and not r.bolts
        and r.overtake_penalty == 0
        and not r.dump_truck
        and not r.exact_reset
        and not r.open_fail_penalty
        and r.open_min > 0
    )


class Ends(NamedTuple):
    """The values (the mover's win chance) of the ways a turn can end."""

    bank: list[float]
    """By turn total / STEP, 0 up to the top: banking it; ``NEG`` where banking is refused."""
    zero: float


@functools.cache
def _rolls(rules: ThousandRules) -> tuple[tuple[Outcome, ...], ...]:
    return tuple(outcomes(n, rules.kinds) for n in range(6))


@dataclasses.dataclass
class Turn:
    """The mover's turn solved against ``ends``: ``need`` the smallest bank, ``top`` the total from which banks
    are alike (larger totals are kept at it)."""

    rules: ThousandRules
    need: int
    top: int
    ends: Ends

    def __post_init__(self) -> None:
        self._memo: dict[tuple[int, int, bool], float] = {}
        self.value = self.roll(0, 5, confirm=False)

    def bank(self, t: int) -> float:
        return self.ends.bank[t // STEP] if t >= max(self.need, STEP) else NEG

    def roll(self, t: int, n: int, confirm: bool) -> float:
        """Rolling ``n`` dice at total ``t`` (``confirm``: the forced roll of five after hot dice)."""
        key = (t, n, confirm)
        if key in self._memo:
            return self._memo[key]
        v = 0.0
        for o in _rolls(self.rules)[n]:
            if o.kind == "zero":
                v += o.prob * self.ends.zero
                continue
            ((points, used),) = o.options
            after = min(t + points, self.top)
            left = n - used
            if confirm and after >= self.need:
                v += o.prob * self.bank(after)
            elif left == 0:
                v += o.prob * self.roll(after, 5, confirm=True)
            else:
                v += o.prob * self.decision(after, left)
        self._memo[key] = v
        return v

    def decision(self, t: int, n: int) -> float:
        """The best of banking ``t`` (where allowed) and rolling the ``n`` dice in hand."""
        return max(self.bank(t), self.roll(t, n, confirm=False))

    def decide(self, t: int, n: int) -> bool:
        """True to roll the ``n`` dice in hand at total ``t``, False to bank."""
        t = min(t, self.top)
        return self.roll(t, n, confirm=False) > self.bank(t)


# -- between turns ------------------------------------------------------------------------------------------------
class Position(NamedTuple):
    mover: FullState
    opponent: FullState


Values = Callable[[Position], float]
"""The mover's win chance at a position."""


class Positions:
    """The positions of ``rules`` between turns and what each end of a turn leads to."""

    def __init__(self, rules: ThousandRules) -> None:
        if not covers(rules):
            raise ValueError("these rules are not variant 2's kind: see variant2.covers")
        self.rules = rules
        self.seat = Seat(rules, FLOOR)
        self.states = player_states(rules, FLOOR)
        self.state_set = frozenset(self.states)

    def holds(self, pos: Position) -> bool:
        return pos.mover in self.state_set and pos.opponent in self.state_set

    def need(self, p: FullState) -> int:
        return self.seat.need(p)

    def top(self, p: FullState) -> int:
        return self.seat.top(p)

    def after_bank(self, m: FullState, total: int, o: FullState) -> tuple[FullState | None, FullState]:
        """The mover (None: won) and the opponent after the mover banks ``total`` (the engine's ``_bank``): a
        climb onto the barrel sends an opponent on it back to their opening score (``_knock``)."""
        seat = self.seat
        climbs = not seat.on_barrel(m.score) and m.score + total >= self.rules.barrel_score
        after = seat.bank(m, total)
        if after is None:
            return None, o
        if climbs and seat.on_barrel(o.score):
            o = seat.knock(o)
        return seat.canonical(after), seat.canonical(o)

    def ends(self, pos: Position, value: Values) -> Ends:
        """The values of each end of the mover's turn from ``pos``: the opponent moves next."""
        m, o = pos
        top = self.top(m)
        bank = [NEG] * (top // STEP + 1)
        for total in self.seat.bank_totals(m):
            after, other = self.after_bank(m, total, o)
            bank[total // STEP] = 1.0 if after is None else 1.0 - value(Position(other, after))
        return Ends(bank=bank, zero=1.0 - value(Position(o, m)))

    def turn(self, pos: Position, value: Values) -> Turn:
        return Turn(self.rules, self.need(pos.mover), self.top(pos.mover), self.ends(pos, value))
