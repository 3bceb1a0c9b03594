"""Playing variant-2-like rules from a solved table (:mod:`variant2_solve`): the decision of each turn's position
read from the compiled turn (:mod:`variant2_kernel`) over the table's values.

``bot:optimal`` on variant-2-like rules (:func:`solver.bot.optimal_bot`) plays from the stored table
(:mod:`variant2_table`); with three or more players it plays against the leader only, as the classic and yard
tables do. :class:`Variant2Turn` also gives the hints and the analysis their values (``thousand/analysis.py``).
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from dicehall.thousand.dp import STEP
from dicehall.thousand.solver import variant2_kernel
from dicehall.thousand.solver.bot import TableBot, leader, reason
from dicehall.thousand.solver.size import FullState
from dicehall.thousand.solver.variant2_space import Variant2Space, kernel_tables
from dicehall.thousand.state import ThousandState


class Values(Protocol):
    """A solved variant 2 table: :class:`variant2_solve.Variant2Table` (just solved) or
    :class:`variant2_table.StoredVariant2` (its middle values in float32)."""

    @property
    def space(self) -> Variant2Space: ...

    @property
    def middle(self) -> npt.NDArray[np.floating]: ...


def seat_of(table: Values, state: ThousandState, seat: int) -> int:
    """The table's player state of ``seat``."""
    p = FullState(state.score[seat], state.opened[seat], opening=state.opening_score[seat])
    return table.space.index[table.space.model.seat.canonical(p)]


def position_of(table: Values, state: ThousandState, seat: int, other: int) -> tuple[int, int]:
    return seat_of(table, state, seat), seat_of(table, state, other)


class Variant2Turn:
    """The turn of one position played from the table: the bank values, the roll values (``rolls[t, n]``), the
    confirmation rolls after hot dice (``hot[t]``) and the start (``value``)."""

    def __init__(self, table: Values, mover: int, opponent: int) -> None:
        space = table.space
        tables = kernel_tables(space)
        width = space.bank_next.shape[1]
        self.bank = np.empty((width, 1))
        Z = np.empty(1)
        self.rolls: npt.NDArray[np.float64] = np.empty((width, 6, 1))
        self.hot: npt.NDArray[np.float64] = np.empty((width, 1))
        H, out = self.hot, np.empty(1)
        RS, HS, slope = np.empty((width, 6, 1)), np.empty((width, 1)), np.empty(1)
        variant2_kernel.ends(mover, opponent, opponent + 1, table.middle, tables, self.bank, Z)
        variant2_kernel.turn(mover, 1, tables, self.bank, Z, self.rolls, H, out, RS, HS, slope)
        self.need = int(space.need_of[mover])
        self.top = int(space.top_of[mover])
        self.value = float(out[0])

    def _t(self, total: int) -> int:
        return min(total // STEP, self.top)  # past the top every bank is alike

    def start(self) -> float:
        return self.value

    def bank_value(self, total: int) -> float | None:
        """Banking ``total`` (None where it may not be banked)."""
        t = self._t(total)
        return float(self.bank[t, 0]) if t >= self.need and self.bank[t, 0] >= 0 else None

    def roll_value(self, total: int, in_hand: int) -> float:
        return float(self.rolls[self._t(total), in_hand, 0])

    def hot_value(self, total: int) -> float:
        """The confirmation roll of five after hot dice at ``total``."""
        return float(self.hot[self._t(total), 0])

    def wants_roll(self, total: int, in_hand: int) -> bool:
        t = self._t(total)
        bank = float(self.bank[t, 0]) if t >= self.need else variant2_kernel.NEG
        return bool(self.rolls[t, in_hand, 0] > bank)


class Variant2TableBot(TableBot[Variant2Turn]):
    """Variant 2 from a solved table: forced moves as every bot, else roll where rolling is worth more (three
    or more players: against the leader, :func:`bot.leader`)."""

    def position(self, state: ThousandState) -> tuple[int, int]:
        return position_of(self.table, state, state.player, leader(state))

    def make_turn(self, key: tuple[Any, ...]) -> Variant2Turn:
        return Variant2Turn(self.table, *key)

    def wants_roll(self, state: ThousandState) -> bool:
        turn = self.turn(state)
        roll = turn.wants_roll(state.turn_total, state.in_hand)
        if self.explain:
            rolling = turn.roll_value(state.turn_total, state.in_hand)
            self.last_reason = reason(roll, rolling, turn.bank_value(state.turn_total))
        return roll
