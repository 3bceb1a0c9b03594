"""Reading a solved table: the position of an engine state, and the optimal decision inside a turn."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from dicehall.thousand.dp import STEP
from dicehall.thousand.solver import decide
from dicehall.thousand.solver.space import Space, dice_table, turn_tables
from dicehall.thousand.state import ThousandState


def player_index(space: Space, state: ThousandState, seat: int) -> int:
    """The model's player state of ``seat`` (counts reduced as the model keeps them, scores floored)."""
    return space.state_of(
        state.score[seat], state.opened[seat], state.bolts[seat], state.falls[seat], state.attempts[seat]
    )


class TurnValues:
    """The mover's whole turn against one opponent: values ``C[t, n]`` and bank values ``B[t]``."""

    def __init__(self, space: Space, values: npt.NDArray[np.floating], mover: int, opponent: int) -> None:
        self.dice = dice = dice_table(space.rules)
        self.top = int(space.top[mover])
        self.burn = 1.0 - float(values[space.burn_next[mover], opponent])
        self.C = np.empty((decide.turn_rows(space, self.top), 6))
        self.B = np.empty(self.top + 1)
        # the bot's own arithmetic (decide.turn_one), so that hints and analysis judge by what it plays
        decide.turn_one(mover, opponent, 0, values, self.C, self.B, turn_tables(space, dice))

    def _ti(self, total: int) -> int:
        return min(total // STEP, self.top)

    def start(self) -> float:
        """Win probability of the mover before the turn's first roll."""
        return float(self.C[0, 0])

    def bank(self, total: int) -> float | None:
        """Win probability after banking ``total`` now (None: banking refused)."""
        b = float(self.B[self._ti(total)])
        return None if b < 0 else b

    def roll(self, total: int, dice: int) -> float:
        """Win probability of rolling ``dice`` (0 = hot dice: five) at turn total ``total``, playing on optimally."""
        ti = self._ti(total)
        n = 5 if dice == 0 else dice
        d = self.dice
        acc = d.zero[n] * self.burn
        for g in range(d.first[n], d.first[n + 1]):
            t2 = min(ti + int(d.step[g]), self.top)
            acc += d.prob[g] * self.C[t2, int(d.left[g])]
        return float(acc)

    def should_roll(self, total: int, dice: int) -> bool:
        """The optimal decision at a decision point: roll (True) or bank; ties bank."""
        ti = self._ti(total)
        bank = self.B[ti]
        if dice == 0 or bank < 0:
            return True
        return bool(self.C[ti, dice] > bank)
