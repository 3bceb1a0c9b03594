# mypy: allow-untyped-defs
# (Numba compiles these for the array types it is called with; annotations would not be checked there)
"""The optimal decisions of one turn against one opponent, solved once and kept: what ``bot:optimal`` plays.

:func:`turn_one` solves the mover's turn sub-game against a single opponent (the solver's :func:`kernel.turn`
with one lane, written without ``fastmath``: IEEE arithmetic gives the same numbers wherever it is compiled,
alone or inlined in :mod:`playout`'s game kernel, so the bot and the fast simulation path decide alike bit for
bit). Its decisions are kept per position (mover, opponent) as one byte per turn total: bit ``n`` set means
"with ``n`` dice in hand, roll". A game of classic visits about a hundred positions, most of them met before
in other games, so most turns read their decisions instead of solving the turn again (``Decisions``).
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np
import numpy.typing as npt

from dicehall.thousand.solver.solve import Table
from dicehall.thousand.solver.space import NOT_ALLOWED, Space, TurnTables, dice_table, turn_tables

NEG = -1.0
CAPACITY = 1 << 17
"""Positions whose decisions are kept (the oldest is forgotten first); at most ``CAPACITY * (tmax + 1)`` bytes."""


@numba.njit(cache=True)
def turn_one(m, o, low, W, C, B, tables):
    """Mover ``m``'s turn against opponent ``o``: ``C[t, n]`` the value at turn total ``t * STEP`` with ``n`` dice
    in hand (``n = 0``: hot dice, the roll of five forced), ``B[t]`` the value of banking (``NEG``: refused).

    ``C`` needs ``max(step)`` rows beyond the top row ``T``: they repeat row ``T`` (every total above it is alike),
    so that no outcome's row needs clamping. Rows below ``low`` are left out (a bot's decisions need only the rows
    from the smallest bank allowed on: below it the turn must roll on anyway). ``tables``: from
    :func:`~dicehall.thousand.solver.space.turn_tables`.
    """
    score_of, top, bank_next, bank_score, bank_climb, burn_next, ovt_next, knock_next, dice = tables
    first, prob, step, left, zero = dice
    T = top[m]
    old = score_of[m]
    so = score_of[o]
    z = 1.0 - W[burn_next[m], o]
    for t in range(T + 1):  # every bank first: independent reads of the table, which the CPU can overlap
        code = bank_next[m, t]
        if code == -2:
            B[t] = NEG
        elif code == -1:
            B[t] = 1.0
        else:
            q = o
            if old < so < bank_score[m, t]:
                q = ovt_next[q]
            if bank_climb[m, t] and knock_next[q] >= 0:
                q = knock_next[q]
            B[t] = 1.0 - W[code, q]
    _top_row(T, C, B[T], z, dice)
    for t in range(T + 1, C.shape[0]):
        for n in range(6):
            C[t, n] = C[T, n]
    Cf = C.reshape(C.size)  # one index per read: row * 6 + dice
    off = step * 6 + left
    for t in range(T - 1, low - 1, -1):
        b = B[t]
        base = t * 6
        a = 0.0
        for n in range(1, 6):
            # four partial sums: the additions of one long chain would wait on each other
            a0 = zero[n] * z
            a1 = 0.0
            a2 = 0.0
            a3 = 0.0
            g = first[n]
            end = first[n + 1]
            while g + 3 < end:
                a0 += prob[g] * Cf[base + off[g]]
                a1 += prob[g + 1] * Cf[base + off[g + 1]]
                a2 += prob[g + 2] * Cf[base + off[g + 2]]
                a3 += prob[g + 3] * Cf[base + off[g + 3]]
                g += 4
            while g < end:
                a0 += prob[g] * Cf[base + off[g]]
                g += 1
            a = (a0 + a1) + (a2 + a3)
            Cf[base + n] = b if b > a else a
        Cf[base] = a  # hot dice: the roll of five without the choice to bank


@numba.njit(cache=True)
def _top_row(T, C, b, z, dice):
    """The row ``t = T``: every outcome stays in it, so iterate (hot dice, the only loop, is rare)."""
    first, prob, _, left, zero = dice
    for n in range(6):
        C[T, n] = 0.0
    for _ in range(1000):
        change = 0.0
        a = 0.0
        for n in range(1, 6):
            a = zero[n] * z
            for g in range(first[n], first[n + 1]):
                a += prob[g] * C[T, left[g]]
            v = b if b > a else a
            d = abs(v - C[T, n])
            if d > change:
                change = d
            C[T, n] = v
        d = abs(a - C[T, 0])
        if d > change:
            change = d
        C[T, 0] = a
        if change < 1e-16:
            break


@numba.njit(cache=True)
def row_of(m, o, slot, pool, owner, cursor, size, first_bank, W, C, B, tables):
    """The row of ``pool`` holding the decisions of position (mover ``m``, opponent ``o``), solved if not kept.

    ``pool[row, t]`` bit ``n`` (1..5): roll with ``n`` dice in hand at turn total ``t * STEP`` (``t`` up to the
    mover's top row; totals above it decide as it does). Rows are reused oldest first.
    """
    key = m * size + o
    r = slot[key]
    if r >= 0:
        return r
    r = cursor[0]
    cursor[0] = r + 1 if r + 1 < pool.shape[0] else 0
    if owner[r] >= 0:
        slot[owner[r]] = -1
    owner[r] = key
    slot[key] = r
    T = tables[1][m]  # the mover's top row (``top`` of turn_tables)
    low = first_bank[m]
    turn_one(m, o, low, W, C, B, tables)
    for t in range(low):
        pool[r, t] = 0b111110
    for t in range(low, T + 1):
        b = B[t]
        bits = 0
        for n in range(1, 6):
            if b < 0 or C[t, n] > b:
                bits |= 1 << n
        pool[r, t] = bits
    return r


def turn_rows(space: Space, top: int) -> int:
    """Rows of ``C`` that :func:`turn_one` needs for a mover whose top row is ``top``."""
    return top + 1 + int(dice_table(space.rules).step.max())


class Decisions:
    """The decisions of positions met so far, for one table (shared by every ``bot:optimal`` playing from it and
    by the fast simulation path)."""

    def __init__(self, space: Space, values: npt.NDArray[np.floating], capacity: int = CAPACITY) -> None:
        self.space = space
        self.values = values
        self.tables: TurnTables = turn_tables(space, dice_table(space.rules))
        width = int(space.top.max()) + 1
        # the smallest turn total (in steps) each player state may bank: rows below are never decided
        self.first_bank = np.argmax(space.bank_next != NOT_ALLOWED, axis=1).astype(np.int64)
        self.slot = np.full(space.size * space.size, -1, dtype=np.int32)
        self.pool = np.zeros((capacity, width), dtype=np.uint8)
        self.owner = np.full(capacity, -1, dtype=np.int64)
        self.cursor = np.zeros(1, dtype=np.int64)
        self.C = np.empty((turn_rows(space, int(space.top.max())), 6))
        self.B = np.empty(width)
        self.game_tables: Any = None
        """What the fast simulation path reads besides the decisions (:class:`playout.GameTables`)."""

    def args(self) -> tuple[Any, ...]:
        """The arguments of :func:`row_of` after ``m`` and ``o``."""
        return (
            self.slot,
            self.pool,
            self.owner,
            self.cursor,
            self.space.size,
            self.first_bank,
            self.values,
            self.C,
            self.B,
            self.tables,
        )

    def row(self, mover: int, opponent: int) -> npt.NDArray[np.uint8]:
        """A copy of the decision bytes of (mover, opponent), indexed by turn total // STEP up to the mover's top."""
        r = row_of(mover, opponent, *self.args())
        return self.pool[r, : int(self.space.top[mover]) + 1].copy()

    @property
    def kept(self) -> int:
        """Positions whose decisions are kept now."""
        return int((self.owner >= 0).sum())


def decisions_of(table: Table) -> Decisions:
    """The decisions kept for ``table`` (made on first use and kept with it)."""
    if table.decisions is None:
        table.decisions = Decisions(table.space, table.values)
    found: Decisions = table.decisions
    return found
