# mypy: allow-untyped-defs
# (Numba compiles these for the array types it is called with; annotations would not be checked there)
"""Whole two-player games of yard's ``bot:optimal`` against itself, compiled: the engine's rules for yard-like
rule sets (:func:`yard_table.is_yard`).

The classic game kernel (:mod:`playout_kernel`) with yard's turn: counted rolls (``max_rolls``), the confirmation
roll after hot dice (and its reconfirmation), the pair re-roll, the golden win, the exact target (a total past it
ends the turn), the exact landing that resets an opponent, the skip after a zero first roll, a climb onto the
barrel that knocks the other off. It mirrors ``ThousandState._roll``, ``_take``, ``_resolve``, ``_fail``,
``_bank`` and ``_start_turn`` for those rules and shares the turn's start (``_begin_turn``), the costs of a turn
without a bank (``_no_bank``), the seat's penalties, falls and dump truck (``_set_score``, ``_penalize``,
``_fall``) and the model index with the classic kernel. Each roll is one
``rng.random()`` picking entry ``int(u * 6**k)`` of the engine's ordered rolls; each decision is ``bot:optimal``'s
(``yard_bot.YardTableBot``): one byte per (turn total, counted rolls), bit ``n`` = roll with ``n`` dice, made by
yard's compiled turn (:func:`yard_kernel.ends`, :func:`yard_kernel.turn`) the first time a position is met and
kept. It stops *before* the action or the roll that wins (the engine applies it: the last narration and the final
position are the engine's own) or at a decision whose position the table does not hold.
``tests/thousand/test_yard_playout.py`` plays games both ways from the same seeds and requires the same positions.

``g`` holds the scalars (indices below), ``seat[row, player]`` the per-seat lists (the classic kernel's rows and
``SKIP``), ``R`` the classic kernel's rule options, ``Y`` yard's own.
"""

from __future__ import annotations

import numba
import numpy as np

from dicehall.thousand.solver import yard_kernel
from dicehall.thousand.solver.playout_kernel import (
    ANYONE,
    ATTEMPTS,
    BARREL_SCORE,
    CLEARED,
    DUMP,
    DUMP_SCORE,
    FORCED,
    FREE,
    HOT,
    IN_HAND,
    KEPT_I,
    KEPT_K,
    KNOCK_FALL,
    LAST_I,
    LAST_K,
    NEED,
    NEW_ROLLS,
    NKEPT,
    ON_BARREL,
    OPENED,
    OPENING,
    OVERTAKE,
    OVERTAKES,
    PHASE,
    PLAYER,
    ROLLS,
    SCORE,
    STEP,
    STEPS,
    TARGET,
    TOTAL,
    TOTAL_ROLLS,
    _begin_turn,
    _dump_check,
    _fall,
    _no_bank,
    _penalize,
    _set_score,
    model_index,
)
from dicehall.thousand.solver.playout_kernel import G_SIZE as PK_G_SIZE

# g: the game's scalars, the classic kernel's (the shared penalties, falls and dump truck write its counts)
# and yard's after them
CONFIRM = PK_G_SIZE  # the coming roll is a confirmation roll
LIMIT = PK_G_SIZE + 1  # the largest turn total that goes on (the exact target)
ROW = PK_G_SIZE + 2  # the pool row of this turn's decisions (-2: not looked up yet)
LAST_ROW = PK_G_SIZE + 3  # the largest turn total index the row decides
MOVED = PK_G_SIZE + 4  # steps applied by this call
G_SIZE = PK_G_SIZE + 5

SKIP = 8  # seat row after the classic kernel's eight
SEAT_ROWS = 9

# Y: yard's rule options
MAX_ROLLS = 0
CONFIRMS = 1  # hot_dice == "confirm"
RECONFIRM = 2
GOLDEN = 3
EXACT_RESET = 4
SKIP_ON_ZERO = 5
Y_SIZE = 6

ROLLING = 0
DECIDING = 1
WIN_BANK = 0  # stopped at the decision whose bank wins
WIN_ROLL = 1  # stopped at the roll that wins (its uniform number in ``u[0]``)
OUTSIDE = 2  # stopped at a decision whose position the table does not hold
TOO_LONG = 3


@numba.njit(cache=True)
def _start_turn(g, seat, R, pits):
    """The next seat's turn, passing a seat that skips (its flag spent); the smallest and largest bank."""
    n = seat.shape[1]
    p = (g[PLAYER] + 1) % n
    while seat[SKIP, p]:
        seat[SKIP, p] = 0
        p = (p + 1) % n
    _begin_turn(g, seat, R, pits, p, seat[ON_BARREL, p])
    g[CONFIRM] = 0
    g[ROW] = -2
    g[LIMIT] = R[TARGET] - seat[SCORE, p]


@numba.njit(cache=True)
def _fail(g, seat, R, Y, pits, zero):
    """The turn ends without a bank (a zero roll, a total past the target, out of rolls)."""
    p = g[PLAYER]
    _no_bank(g, seat, R, pits, p, zero, seat[ON_BARREL, p])
    if zero and Y[SKIP_ON_ZERO] and g[ROLLS] == 1 and g[ANYONE]:
        seat[SKIP, p] = 1
    _start_turn(g, seat, R, pits)


@numba.njit(cache=True)
def _wins(seat, R, p, total):
    """Banking ``total`` wins: the exact target (a dump truck on the target would empty it first)."""
    new = seat[SCORE, p] + total
    return new == R[TARGET] and not (R[DUMP] and R[DUMP_SCORE] == new)


@numba.njit(cache=True)
def _bank(g, seat, R, Y, pits):
    """The mover banks (a bank that does not win): opening, the exact landing (the other to 0, not also
    overtaken), overtaking, the dump truck, climbing the barrel and knocking the other off."""
    p = g[PLAYER]
    n = seat.shape[1]
    old = seat[SCORE, p]
    new = old + g[TOTAL]
    climbs = not seat[ON_BARREL, p] and new >= R[BARREL_SCORE] and new != R[TARGET]
    if not seat[OPENED, p]:
        seat[OPENED, p] = 1
        seat[OPENING, p] = new
    g[ANYONE] = 1
    seat[SCORE, p] = new
    for q in range(n):
        if q == p:
            continue
        reset = Y[EXACT_RESET] and new > 0 and seat[SCORE, q] == new
        if reset:
            _set_score(g, seat, R, q, 0)
        if R[OVERTAKE] and old < seat[SCORE, q] < new and not reset:
            g[OVERTAKES] += 1
            _penalize(g, seat, R, q, R[OVERTAKE])
    _dump_check(g, seat, R, p)
    if climbs and seat[SCORE, p] >= R[BARREL_SCORE]:
        seat[ON_BARREL, p] = 1
        seat[ATTEMPTS, p] = 0
        for q in range(n):
            if q != p and seat[ON_BARREL, q] and R[KNOCK_FALL]:
                _fall(g, seat, R, q)
    _start_turn(g, seat, R, pits)


@numba.njit(cache=True)
def decision_row(m, o, flagged, W, F, tables, rows, pool, last, owner, cursor, work):
    """The pool row of the decisions of mover ``m`` against ``o`` (flagged: ``flagged``), made by yard's compiled
    turn on first meeting (``yard_bot.YardTurn.decisions``: bit ``n`` of ``pool[row, t, r]`` = roll with ``n``
    dice); ``rows`` maps a position to its row, which is reused oldest first."""
    size = W.shape[0]
    key = (flagged * size + o) * size + m
    found = rows.get(key, -1)
    if found >= 0:
        return found
    r = cursor[0]
    cursor[0] = r + 1 if r + 1 < pool.shape[0] else 0
    if owner[r] >= 0:
        rows.pop(owner[r])
    owner[r] = key
    rows[key] = r
    B, Z, D, RV, H, start = work
    yard_kernel.ends(m, o, o + 1, flagged, W, F, W, B, Z, tables)
    yard_kernel.turn(m, B, Z, D, H, RV, start, tables)
    need = tables[3][m]
    width = B.shape[0]
    for t in range(width):
        bank = B[t, 0] if t >= need else -np.inf
        for c in range(RV.shape[2]):
            bits = 0
            for k in range(1, 6):
                if RV[t, k, c, 0] > bank:
                    bits |= 1 << k
            pool[r, t, c] = bits
    last[r] = min(tables[4][m], width - 1)
    return r


@numba.njit(cache=True)
def play(
    g,
    seat,
    u,
    rng,
    max_steps,
    R,
    Y,
    pits,
    PTS,
    KEPT,
    GOLD,
    PAIR,
    SIZES,
    IDX,
    W,
    F,
    t0,
    t1,
    t2,
    t3,
    t4,
    t5,
    t6,
    t7,
    t8,
    t9,
    t10,
    t11,
    t12,
    d0,
    d1,
    d2,
    d3,
    d4,
    d5,
    rows,
    pool,
    last,
    owner,
    cursor,
    w0,
    w1,
    w2,
    w3,
    w4,
    w5,
):
    """:func:`_play` with every array a plain argument (``t*``: ``yard_space.kernel_tables``, ``d*`` its dice,
    ``w*`` the turn's work arrays): Numba types arrays inside tuples in Python on every call, which cost more
    than a short game."""
    tables = (t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, (d0, d1, d2, d3, d4, d5))
    kept = (rows, pool, last, owner, cursor, (w0, w1, w2, w3, w4, w5))
    return _play(
        g, seat, R, Y, pits, PTS, KEPT, GOLD, PAIR, SIZES, IDX, max_steps, rng, u, W, F, tables, kept
    )


@numba.njit(cache=True)
def _play(g, seat, R, Y, pits, PTS, KEPT, GOLD, PAIR, SIZES, IDX, max_steps, rng, u, W, F, tables, kept):
    """Play on from ``g`` and ``seat`` (a turn's roll or decision) until the bank or the roll that wins
    (``WIN_BANK``, ``WIN_ROLL``), a position outside the table (``OUTSIDE``) or ``max_steps`` steps
    (``TOO_LONG``). ``kept``: :func:`decision_row`'s store."""
    rows, pool, last, owner, cursor, work = kept
    counted = Y[MAX_ROLLS] > 0
    while True:
        g[STEPS] += 1
        if g[STEPS] > max_steps:
            return TOO_LONG
        p = g[PLAYER]
        k = g[IN_HAND]
        if g[PHASE] == ROLLING:
            x = rng.random()
            i = int(x * SIZES[k])
            points = PTS[k, i]
            if points:
                total = g[TOTAL] + points
                left = k - KEPT[k, i]
                confirmed = (
                    g[CONFIRM]
                    and total <= g[LIMIT]
                    and not (left == 0 and Y[RECONFIRM])
                    and total >= g[NEED]
                    and _wins(seat, R, p, total)
                )
                if (GOLD[k, i] and Y[GOLDEN]) or confirmed:
                    u[0] = x
                    g[STEPS] -= 1
                    return WIN_ROLL
            g[MOVED] += 1
            g[NEW_ROLLS] += 1
            g[ROLLS] += 1
            g[TOTAL_ROLLS] += 1
            if g[FORCED]:
                g[FORCED] = 0
            else:
                g[FREE] += 1
            confirm = g[CONFIRM]
            g[CONFIRM] = 0
            if k == 5:
                g[NKEPT] = 0
                g[CLEARED] = 1
            g[LAST_K] = k
            g[LAST_I] = i
            if points == 0:
                if PAIR[k, i]:  # a non-scoring pair beside three set aside: roll all five again
                    g[HOT] = 1
                    g[IN_HAND] = 5
                    g[PHASE] = DECIDING
                else:
                    _fail(g, seat, R, Y, pits, 1)
                continue
            g[TOTAL] = total = g[TOTAL] + points
            j = g[NKEPT]
            g[KEPT_K + j] = k
            g[KEPT_I + j] = i
            g[NKEPT] = j + 1
            left = k - KEPT[k, i]
            hot = left == 0
            if hot:
                g[HOT] = 1
                g[IN_HAND] = 5
            else:
                g[IN_HAND] = left
            # _resolve: past the target, a confirmation that banks, out of rolls below the minimum
            if total > g[LIMIT]:
                _fail(g, seat, R, Y, pits, 0)
            elif confirm and not (hot and Y[RECONFIRM]) and total >= g[NEED]:
                g[HOT] = 0
                _bank(g, seat, R, Y, pits)
            elif not hot and counted and g[FREE] >= Y[MAX_ROLLS] and total < g[NEED]:
                _fail(g, seat, R, Y, pits, 0)
            else:
                g[PHASE] = DECIDING
            continue
        # a decision, as bot:optimal takes it (ThousandBot.choose, YardTableBot.wants_roll)
        total = g[TOTAL]
        roll = 1
        if g[HOT]:
            g[FORCED] = 1
            g[CONFIRM] = Y[CONFIRMS]
            g[HOT] = 0
        elif total < g[NEED]:
            g[FORCED] = 0
            g[CONFIRM] = 0
        else:
            if counted and g[FREE] >= Y[MAX_ROLLS]:
                roll = 0
            else:
                if g[ROW] == -2:
                    m = model_index(seat, R, IDX, p)
                    o = model_index(seat, R, IDX, 1 - p)
                    if m < 0 or o < 0:
                        g[STEPS] -= 1
                        return OUTSIDE
                    flagged = seat[SKIP, 1 - p]
                    g[ROW] = decision_row(m, o, flagged, W, F, tables, rows, pool, last, owner, cursor, work)
                    g[LAST_ROW] = last[g[ROW]]
                t = min(total // R[STEP], g[LAST_ROW])
                c = min(g[FREE], pool.shape[2] - 1)
                roll = (pool[g[ROW], t, c] >> k) & 1
            if roll:
                g[FORCED] = 0
                g[CONFIRM] = 0
        if roll:
            g[MOVED] += 1
            g[PHASE] = ROLLING
            continue
        if _wins(seat, R, p, total):
            g[STEPS] -= 1
            return WIN_BANK
        g[MOVED] += 1
        _bank(g, seat, R, Y, pits)
