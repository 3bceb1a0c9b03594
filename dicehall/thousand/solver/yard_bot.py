"""Playing yard-like rules from a solved yard table (:mod:`yard_pi`, stored by :mod:`yard_table`): the decision
of each turn's position read from the compiled turn (:mod:`yard_kernel`) over the table's values.

``bot:optimal`` on yard-like rules is :class:`YardTableBot` on the stored table (``solver/bot.py`` picks it);
hints and analysis read :class:`YardTurn` too (``thousand/analysis.py``), so they judge by what it plays. With
three or more players it plays against the leader only, as ``bot:optimal`` does on classic.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from dicehall.core.playout import register_playout
from dicehall.thousand.dp import STEP
from dicehall.thousand.solver import yard_kernel
from dicehall.thousand.solver.bot import TableBot, leader, reason
from dicehall.thousand.solver.size import FullState
from dicehall.thousand.solver.yard_space import YardSpace, kernel_tables
from dicehall.thousand.state import ThousandState


class Values(Protocol):
    """A solved yard table: :class:`yard_pi.YardTable` (just solved) or :class:`yard_table.StoredYard`."""

    @property
    def space(self) -> YardSpace: ...

    @property
    def values(self) -> npt.NDArray[np.floating]: ...


def seat_of(table: Values, state: ThousandState, seat: int) -> int:
    """The table's player state of ``seat`` (counts reduced, the score floored as the model keeps it)."""
    p = FullState(
        state.score[seat], state.opened[seat], state.bolts[seat], state.falls[seat], state.attempts[seat]
    )
    return table.space.index[table.space.model.seat.canonical(p)]


def position_of(table: Values, state: ThousandState, seat: int, other: int) -> tuple[int, int, bool]:
    """(mover, opponent, the opponent flagged to skip) of ``seat``'s turn against ``other``."""
    return seat_of(table, state, seat), seat_of(table, state, other), bool(state.skip_next[other])


class YardTurn:
    """The turn of one position played from the table: the bank values, the roll values (``rolls[t, n, r]``:
    rolling ``n`` dice after ``r`` counted rolls), the forced rolls of five (``hot[t, r]``) and the start."""

    def __init__(self, table: Values, mover: int, opponent: int, flagged: bool) -> None:
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
        self.hot: npt.NDArray[np.float64] = np.empty((width, rr, 1))
        start = np.empty(1)
        yard_kernel.ends(mover, opponent, opponent + 1, int(flagged), W, F, W, self.bank, Z, tables)
        yard_kernel.turn(mover, self.bank, Z, D, self.hot, self.rolls, start, tables)
        self.need = int(space.need_of[mover])
        self.limit = int(space.limit_of[mover])
        self.value = float(start[0])

    def start(self) -> float:
        """The mover's win chance before the turn's first roll."""
        return self.value

    def _ti(self, total: int) -> int:
        # a score below the model's floor (kept at it) has a longer way to the exact target than the model's:
        # its totals past the model's last are played as that one (the floor's approximation)
        return int(min(total // STEP, self.bank.shape[0] - 1, self.limit))

    def _r(self, counted: int) -> int:
        return int(min(counted, self.rolls.shape[2] - 1))

    def bank_value(self, total: int) -> float | None:
        """The win chance after banking ``total`` now (None: banking is refused)."""
        t = self._ti(total)
        return float(self.bank[t, 0]) if t >= self.need else None

    def roll_value(self, total: int, in_hand: int, counted: int) -> float:
        """Rolling ``in_hand`` dice at ``total`` after ``counted`` counted rolls (the roll counts), played on
        optimally; ``-inf`` where no counted roll is left."""
        return float(self.rolls[self._ti(total), in_hand, self._r(counted), 0])

    def hot_value(self, total: int, counted: int) -> float:
        """The forced roll of five (after hot dice or a pair re-roll: not counted)."""
        return float(self.hot[self._ti(total), self._r(counted), 0])

    def wants_roll(self, total: int, in_hand: int, counted: int) -> bool:
        bank = self.bank_value(total)
        return self.roll_value(total, in_hand, counted) > (yard_kernel.NEG if bank is None else bank)

    def decisions(self) -> npt.NDArray[np.uint8]:
        """The turn's decisions, one byte per (turn total, counted rolls): bit ``n`` = roll with ``n`` dice."""
        t = np.arange(self.bank.shape[0])
        bank = np.where(t >= self.need, self.bank[:, 0], -np.inf)
        rolls = self.rolls[:, 1:, :, 0] > bank[:, None, None]  # [t, n - 1, r]
        bits: npt.NDArray[np.uint8] = (rolls << np.arange(1, 6)[None, :, None]).sum(axis=1).astype(np.uint8)
        return bits


class KeptDecisions:
    """The decisions of the positions met so far (:meth:`YardTurn.decisions`), shared by every ``bot:optimal``
    playing from one stored table (``decide.Decisions`` does this for classic): a position's turn is solved once,
    not once per bot and game. At most ``keep`` positions (≈ 1 KB each on yard), the oldest forgotten first."""

    def __init__(self, keep: int = 32_768) -> None:
        self.keep = keep
        self.rows: dict[tuple[int, int, bool], tuple[npt.NDArray[np.uint8], int]] = {}

    def row(self, table: Values, key: tuple[int, int, bool]) -> tuple[npt.NDArray[np.uint8], int]:
        """(decisions, the largest turn total index that goes on) of ``key``'s turn."""
        found = self.rows.get(key)
        if found is None:
            if len(self.rows) >= self.keep:
                del self.rows[next(iter(self.rows))]
            turn = YardTurn(table, *key)
            found = self.rows[key] = (turn.decisions(), min(turn.limit, turn.bank.shape[0] - 1))
        return found


class YardTableBot(TableBot[YardTurn]):
    """Yard from a solved table: forced moves as every bot, else roll where rolling is worth more."""

    def __init__(self, table: Values, kept: KeptDecisions | None = None) -> None:
        """``kept``: the decisions shared with the other players of ``table`` (a private store without it)."""
        super().__init__(table)
        self.kept = kept if kept is not None else KeptDecisions()

    def position(self, state: ThousandState) -> tuple[int, int, bool]:
        return position_of(self.table, state, state.player, leader(state))

    def make_turn(self, key: tuple[Any, ...]) -> YardTurn:
        return YardTurn(self.table, *key)

    def wants_roll(self, state: ThousandState) -> bool:
        row, last = self.kept.row(self.table, self.position(state))
        r = min(state.free_rolls, row.shape[1] - 1)
        roll = bool(row[min(state.turn_total // STEP, last), r] >> state.in_hand & 1)
        if self.explain:
            turn = self.turn(state)
            rolling = turn.roll_value(state.turn_total, state.in_hand, state.free_rolls)
            self.last_reason = reason(roll, rolling, turn.bank_value(state.turn_total))
        return roll


def _play_out(
    state: ThousandState, agents: Sequence[Any], chance_rng: np.random.Generator, bot_rng: np.random.Generator
) -> bool:
    from dicehall.thousand.solver import yard_playout  # the game kernel: compiled on first use

    return yard_playout.play_out(state, agents, chance_rng, bot_rng)


register_playout(ThousandState, _play_out, agent_type=YardTableBot)  # against itself: the compiled kernel
