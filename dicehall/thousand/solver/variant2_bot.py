"""Playing variant-2-like rules from a solved table (:mod:`variant2_solve`): the decision of each turn's position
read from the compiled turn (:mod:`variant2_kernel`) over the table's values.

Two players only. Not registered as ``bot:optimal`` yet: that needs the full table solved and stored
(docs/thousand-solved.md, "Variant 2's model"). The self-play test holds it to the table's first-player chance
on small rules.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from dicehall.core.game import State
from dicehall.thousand.bots import ThousandBot
from dicehall.thousand.dp import STEP
from dicehall.thousand.solver import variant2_kernel
from dicehall.thousand.solver.size import FullState
from dicehall.thousand.solver.variant2_solve import Variant2Table
from dicehall.thousand.solver.variant2_space import kernel_tables
from dicehall.thousand.state import ThousandState


def seat_of(table: Variant2Table, state: ThousandState, seat: int) -> int:
    """The table's player state of ``seat``."""
    p = FullState(state.score[seat], state.opened[seat], opening=state.opening_score[seat])
    return table.space.index[table.space.model.seat.canonical(p)]


class Variant2Turn:
    """The turn of one position played from the table: the bank values and the roll values."""

    def __init__(self, table: Variant2Table, mover: int, opponent: int) -> None:
        space = table.space
        tables = kernel_tables(space)
        width = space.bank_next.shape[1]
        self.bank = np.empty((width, 1))
        Z = np.empty(1)
        self.rolls: npt.NDArray[np.float64] = np.empty((width, 6, 1))
        H, out = np.empty((width, 1)), np.empty(1)
        RS, HS, slope = np.empty((width, 6, 1)), np.empty((width, 1)), np.empty(1)
        variant2_kernel.ends(mover, opponent, opponent + 1, table.middle, tables, self.bank, Z)
        variant2_kernel.turn(mover, 1, tables, self.bank, Z, self.rolls, H, out, RS, HS, slope)
        self.need = int(space.need_of[mover])
        self.top = int(space.top_of[mover])
        self.value = float(out[0])

    def wants_roll(self, total: int, in_hand: int) -> bool:
        t = min(total // STEP, self.top)  # past the top every bank is alike
        bank = float(self.bank[t, 0]) if t >= self.need else variant2_kernel.NEG
        return bool(self.rolls[t, in_hand, 0] > bank)


class Variant2TableBot(ThousandBot):
    """Two-player variant 2 from a solved table: forced moves as every bot, else roll where rolling is worth
    more."""

    name = "variant2-table"

    def __init__(self, table: Variant2Table) -> None:
        super().__init__(table.space.rules)
        self.table = table
        self._key: tuple[int, int] | None = None
        self._turn: Variant2Turn | None = None

    def turn(self, state: ThousandState) -> Variant2Turn:
        key = (seat_of(self.table, state, state.player), seat_of(self.table, state, 1 - state.player))
        if key != self._key or self._turn is None:
            self._turn = Variant2Turn(self.table, *key)
            self._key = key
        return self._turn

    def choose(self, state: State[Any], rng: np.random.Generator) -> Any:
        assert isinstance(state, ThousandState) and state.n == 2
        return super().choose(state, rng)

    def wants_roll(self, state: ThousandState) -> bool:
        return self.turn(state).wants_roll(state.turn_total, state.in_hand)
