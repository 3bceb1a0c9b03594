"""Playing yard-like rules from a solved yard table (:mod:`yard_pi`): the decision of each turn's position read
from the compiled turn (:mod:`yard_kernel`) over the table's values.

Two players only. Not registered as ``bot:optimal`` yet: that needs the table's storage and the compiled
self-play path (docs/thousand-solved.md, "Yard's model"). The self-play test holds it to the table's
first-player chance on small rules.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from dicehall.core.game import State
from dicehall.thousand.bots import ThousandBot
from dicehall.thousand.dp import STEP
from dicehall.thousand.solver import yard_kernel
from dicehall.thousand.solver.size import FullState
from dicehall.thousand.solver.yard_pi import YardTable
from dicehall.thousand.solver.yard_space import kernel_tables
from dicehall.thousand.state import ThousandState


def seat_of(table: YardTable, state: ThousandState, seat: int) -> int:
    """The table's player state of ``seat`` (counts reduced, the score floored as the model keeps it)."""
    p = FullState(
        state.score[seat], state.opened[seat], state.bolts[seat], state.falls[seat], state.attempts[seat]
    )
    return table.space.index[table.space.model.seat.canonical(p)]


class YardTurn:
    """The turn of one position played from the table: the bank values and the roll values."""

    def __init__(self, table: YardTable, mover: int, opponent: int, flagged: bool) -> None:
        space = table.space
        tables = kernel_tables(space)
        size = space.size
        half = size * size
        W = table.values[:half].reshape(size, size)
        F = table.values[half:].reshape(size, size)
        width = space.bank_next.shape[1]
        rr = space.rules.max_rolls + 1 if space.rules.max_rolls else 1
        self.bank = np.empty((width, 1))
        Z = np.empty((3, 1))
        D = np.empty((width, 6, rr, 1))
        self.rolls: npt.NDArray[np.float64] = np.empty((width, 6, rr, 1))
        H = np.empty((width, rr, 1))
        start = np.empty(1)
        yard_kernel.ends(mover, opponent, opponent + 1, int(flagged), W, F, W, self.bank, Z, tables)
        yard_kernel.turn(mover, self.bank, Z, D, H, self.rolls, start, tables)
        self.need = int(space.need_of[mover])
        self.limit = int(space.limit_of[mover])
        self.value = float(start[0])

    def wants_roll(self, total: int, in_hand: int, counted: int) -> bool:
        # a score below the model's floor (kept at it) has a longer way to the exact target than the model's:
        # its totals past the model's last are played as that one (the floor's approximation)
        t = min(total // STEP, self.bank.shape[0] - 1, self.limit)
        bank = float(self.bank[t, 0]) if t >= self.need else yard_kernel.NEG
        return bool(self.rolls[t, in_hand, counted if self.rolls.shape[2] > 1 else 0, 0] > bank)


class YardTableBot(ThousandBot):
    """Two-player yard from a solved table: forced moves as every bot, else roll where rolling is worth more."""

    name = "yard-table"

    def __init__(self, table: YardTable) -> None:
        super().__init__(table.space.rules)
        self.table = table
        self._key: tuple[int, int, bool] | None = None
        self._turn: YardTurn | None = None

    def turn(self, state: ThousandState) -> YardTurn:
        me, other = state.player, 1 - state.player
        key = (seat_of(self.table, state, me), seat_of(self.table, state, other), state.skip_next[other])
        if key != self._key or self._turn is None:
            self._turn = YardTurn(self.table, *key)
            self._key = key
        return self._turn

    def choose(self, state: State[Any], rng: np.random.Generator) -> Any:
        assert isinstance(state, ThousandState) and state.n == 2
        return super().choose(state, rng)

    def wants_roll(self, state: ThousandState) -> bool:
        return self.turn(state).wants_roll(state.turn_total, state.in_hand, state.free_rolls)
