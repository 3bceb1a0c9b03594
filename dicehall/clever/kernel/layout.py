"""Where everything lives in the kernel's flat game array, and the sheet tables as numpy arrays.

The tables are derived from :mod:`dicehall.clever.tables` (which reads :mod:`dicehall.clever.sheet`), so the
kernel uses the same sheet data as the engine and types none of it in again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np

from dicehall.clever import sheet as S
from dicehall.clever import tables as T

F = TypeVar("F", bound=Callable[..., Any])


def njit(fn: F) -> F:
    """Compile ``fn`` with Numba (no Python objects, cached on disk so a new process loads it quickly)."""
    import numba  # here, so that the layout's constants load without Numba (the ahead-of-time kernel's callers)

    return cast(F, numba.njit(cache=True, nogil=True)(fn))


def flat(fn: F) -> F:
    """:func:`njit` without Numba's reference counting, for the rules' functions, which allocate nothing: every
    array argument would otherwise be counted up and down (an atomic operation each) on every call, which was
    a quarter of a random game's time. Anything ``fn`` calls is compiled the same way, so it may not allocate."""
    import numba

    no_counting: dict[str, Any] = {"_nrt": False}  # Numba's own option, missing from its type stubs
    return cast(F, numba.njit(cache=True, nogil=True, **no_counting)(fn))


# -- a block of simulated games (:mod:`dicehall.clever.kernel.block`) ------------------------------------------
STATS: tuple[str, ...] = ("yellow", "blue", "green", "orange", "purple", "foxes", "fox_points", "total")
STATS += ("rerolls_left", "plus_ones_left")
"""The columns of a block's statistics: the keys of ``CleverState.stats`` (each the mean over the seats)."""
RANDOM, MASTER = 0, 1
TRACE_PER_GAME = 1500  # steps of one game: a 4-player game takes about 450 at most

# -- the game array (int64) ---------------------------------------------------------------------------------
N = 0  # players
ROUNDS = 1
ROUND = 2  # 1-based
ACTIVE = 3
PHASE = 4
ACTOR = 5
AFTER = 6
VAL = 7  # 7..12: the six dice values
ROLL_MASK = 13
FIELD = 14  # dice on the fields, as a mask
PLATTER = 15
ROLLS = 16
PLUS_USED = 17  # 17..20: per player, dice taken by +1 this turn
ORDER = 21  # 21..24: players still to act (passive order / end-of-game +1), from ORDER_HEAD
ORDER_HEAD = 25
ORDER_LEN = 26
CHOICE = 27  # 1 while the bonus at the queue's head waits for its player's choice
FALLBACK = 28  # rule passive_fallback
AUTO_SINGLE = 29  # rule auto_single_choice
Q_HEAD = 30
Q_LEN = 31
FIELD_SEQ = 32  # 32..34: the dice on the fields in the order they were chosen
FIELD_N = 35
QUEUE = 36  # ring of pending bonuses, each player << 4 | kind
Q_CAP = 64
SHEETS = QUEUE + Q_CAP
STRIDE = 40
SIZE = SHEETS + 4 * STRIDE

# -- one sheet, at SHEETS + player * STRIDE -----------------------------------------------------------------
YM = 0  # yellow mask (printed crosses set)
BM = 1  # blue mask
GC = 2  # green cells crossed
OC = 3  # orange cells written
OS = 4  # orange sum (multiplied values)
PC = 5  # purple cells written
PL = 6  # last purple value
PS = 7  # purple sum
RRG = 8  # re-roll circles gained / used
RRU = 9
P1G = 10  # +1 circles gained / used
P1U = 11
FOX = 12
OVALS = 13  # 13..23: the stored orange values
PVALS = 24  # 24..34: the purple values

# -- tables --------------------------------------------------------------------------------------------------
TRACK = len(T.O_MULT)
CIRCLES = S.ACTION_CIRCLES


def _groups(cell_groups: tuple[tuple[tuple[int, int, T.Origin], ...], ...]) -> tuple[np.ndarray, np.ndarray]:
    width = max(len(g) for g in cell_groups)
    masks = np.zeros((len(cell_groups), width), np.int64)
    bonuses = np.zeros((len(cell_groups), width), np.int64)
    for slot, groups in enumerate(cell_groups):
        for k, (mask, bonus, _) in enumerate(groups):  # (the kernel keeps no origins: it only plays)
            masks[slot, k] = mask
            bonuses[slot, k] = bonus
    return masks, bonuses


Y_GROUP_MASK, Y_GROUP_BONUS = _groups(T.Y_CELL_GROUPS)
B_GROUP_MASK, B_GROUP_BONUS = _groups(T.B_CELL_GROUPS)
Y_BY_VALUE = np.full((7, 2), -1, np.int64)
for _v, _cells in enumerate(T.Y_BY_VALUE):
    for _k, _c in enumerate(_cells):
        Y_BY_VALUE[_v, _k] = _c
Y_PRINTED = T.Y_PRINTED
Y_CELLS = 16
Y_COL_MASK = np.array([m for m, _ in T.Y_COL_POINTS], np.int64)
Y_COL_POINTS = np.array([p for _, p in T.Y_COL_POINTS], np.int64)
B_BY_SUM = np.array(T.B_BY_SUM, np.int64)
B_SLOTS = len(T.B_VALUES)
B_FIRST = min(i for i, v in enumerate(T.B_VALUES) if v)  # slot 0 is no cell
B_POINTS = np.array(T.B_POINTS, np.int64)
G_MIN = np.array(T.G_MIN, np.int64)
G_POINTS = np.array(T.G_POINTS, np.int64)
G_BONUS = np.array(T.G_BONUS, np.int64)
O_MULT = np.array(T.O_MULT, np.int64)
O_BONUS = np.array(T.O_BONUS, np.int64)
P_BONUS = np.array(T.P_BONUS, np.int64)
P_RESET = S.PURPLE_AREA.reset
ROUND_BONUS = np.array([b or 0 for b in S.ROUND_BONUSES], np.int64)
ORANGE_NUMBER = np.zeros(16, np.int64)
for _kind, _number in S.ORANGE_NUMBER.items():
    ORANGE_NUMBER[_kind] = _number
