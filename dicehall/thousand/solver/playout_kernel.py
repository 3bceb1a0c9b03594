# mypy: allow-untyped-defs
# (Numba compiles these for the array types it is called with; annotations would not be checked there)
"""Whole games of ``bot:optimal`` against itself, compiled: the engine's rules for the rule sets the solver covers.

The kernel carries what the engine carries (scores without the solver's floor, fall and bolt counts, the game's
statistics), draws each roll with one ``rng.random()`` exactly as the engine does (the roll is entry
``int(u * 6**k)`` of the engine's list of ordered rolls of ``k`` dice) and decides as ``bot:optimal`` does, from
the decisions of :mod:`decide`. It mirrors ``ThousandState._roll``, ``_fail``, ``_bank``, ``_fall``,
``_set_score`` and ``_start_turn`` for those rule sets (no roll limit, set-aside choice, confirmation, golden
win, skips, exact landing, open barrel or opening knock-back); ``tests/thousand/test_playout.py`` plays games
both ways from the same seeds and requires the same positions. It stops *before* the winning bank (the engine
applies that one, so the final position and its narration are the engine's own) or at a position the table does
not hold (the engine and its bots go on from there).

``g`` holds the scalars (indices below), ``seat[row, player]`` the per-seat lists, ``R`` the rule options.
"""

from __future__ import annotations

import numba

from dicehall.thousand.solver.decide import row_of

# g: the game's scalars
PLAYER = 0
PHASE = 1  # ROLLING or DECIDING
TOTAL = 2
IN_HAND = 3
HOT = 4
FORCED = 5
ROLLS = 6
FREE = 7
TURNS = 8
TOTAL_ROLLS = 9
BOLT_TOTAL = 10
FALL_TOTAL = 11
OVERTAKES = 12
DUMPS = 13
ANYONE = 14
NEED = 15
NEED_RULE = 16  # NEED_RULES below
LAST_K = 17
LAST_I = 18
NKEPT = 19  # rolls whose kept dice are set aside now (KEPT_K, KEPT_I)
KEPT_K = 20
KEPT_I = 25
CLEARED = 30  # the set-aside was cleared (a roll of five, a new turn) since the kernel began
MOVER = 31  # model index of the mover and the opponent this turn (-2: not looked up yet)
OPPONENT = 32
STEPS = 33
NEW_ROLLS = 34  # rolls made by this call
G_SIZE = 35
NEED_RULES = ("", "opening", "pit", "barrel")

# seat rows
SCORE = 0
OPENED = 1
OPENING = 2
OPEN_FAILS = 3
BOLTS = 4
ON_BARREL = 5
ATTEMPTS = 6
FALLS = 7
SEAT_ROWS = 8

# R: the rule options
TARGET = 0
BARREL = 1  # 1: the capped score barrel; 0: none
BARREL_SCORE = 2
BARREL_ATTEMPTS = 3
FALL_PENALTY = 4
FALLS_TO_ZERO = 5
KNOCK_FALL = 6
OPEN_MIN = 7
BOLTS_ON = 8
BOLTS_COUNT = 9
BOLT_PENALTY = 10
BOLTS_EVERYWHERE = 11
OVERTAKE = 12
DUMP = 13
DUMP_SCORE = 14
FLOOR = 15
FALL_STATES = 16
STEP = 17
R_SIZE = 18

ROLLING = 0
DECIDING = 1
WIN = 0  # stopped before the winning bank
OUTSIDE = 1  # stopped at a decision whose position the table does not hold
TOO_LONG = 2


@numba.njit(cache=True)
def _dump_check(g, seat, R, q):
    if R[DUMP] and seat[SCORE, q] == R[DUMP_SCORE]:
        g[DUMPS] += 1
        seat[SCORE, q] = 0


@numba.njit(cache=True)
def _set_score(g, seat, R, q, value):
    seat[SCORE, q] = value
    if seat[ON_BARREL, q] and R[BARREL] and value < R[BARREL_SCORE]:
        seat[ON_BARREL, q] = 0
        seat[ATTEMPTS, q] = 0
    _dump_check(g, seat, R, q)


@numba.njit(cache=True)
def _penalize(g, seat, R, q, amount):
    if amount:
        _set_score(g, seat, R, q, seat[SCORE, q] - amount)


@numba.njit(cache=True)
def _fall(g, seat, R, q):
    seat[ON_BARREL, q] = 0
    seat[ATTEMPTS, q] = 0
    seat[FALLS, q] += 1
    g[FALL_TOTAL] += 1
    if R[FALLS_TO_ZERO] and seat[FALLS, q] >= R[FALLS_TO_ZERO]:
        _set_score(g, seat, R, q, 0)
    else:
        _penalize(g, seat, R, q, R[FALL_PENALTY])


@numba.njit(cache=True)
def _in_pit(pits, score):
    """The top of the pit holding ``score`` (``low <= score < high``), or 0."""
    for i in range(pits.shape[0]):
        if pits[i, 0] <= score < pits[i, 1]:
            return pits[i, 1]
    return 0


@numba.njit(cache=True)
def _start_turn(g, seat, R, pits):
    p = (g[PLAYER] + 1) % seat.shape[1]
    _begin_turn(g, seat, R, pits, p, R[BARREL] and seat[ON_BARREL, p])


@numba.njit(cache=True)
def _begin_turn(g, seat, R, pits, p, barrel):
    """Seat ``p``'s turn begins: the turn's counters cleared and its smallest bank (``barrel``: ``p`` is on the
    barrel). The yard kernel's turn starts here too."""
    g[PLAYER] = p
    g[PHASE] = ROLLING
    g[TOTAL] = 0
    g[IN_HAND] = 5
    g[NKEPT] = 0
    g[CLEARED] = 1
    g[ROLLS] = 0
    g[FREE] = 0
    g[HOT] = 0
    g[FORCED] = 0
    g[TURNS] += 1
    g[MOVER] = -2
    score = seat[SCORE, p]
    if seat[OPENED, p]:
        need, rule = 0, 0
    else:
        need, rule = R[OPEN_MIN], 1
    high = _in_pit(pits, score)
    if high and high - score > need:
        need, rule = high - score, 2
    if barrel:
        need, rule = R[TARGET] - score, 3
    g[NEED] = need
    g[NEED_RULE] = rule


@numba.njit(cache=True)
def _fail(g, seat, R, pits):
    """A zero roll: barrel attempt and fall, the bolt, the failed opening; the next turn."""
    p = g[PLAYER]
    _no_bank(g, seat, R, pits, p, 1, R[BARREL] and seat[ON_BARREL, p])
    _start_turn(g, seat, R, pits)


@numba.njit(cache=True)
def _no_bank(g, seat, R, pits, p, zero, barrel):
    """What a turn of seat ``p`` that ends without a bank costs it: the barrel attempt and fall (``barrel``: ``p``
    is on the barrel), the bolt of a ``zero`` roll, the failed opening. The yard kernel's too."""
    bolt = (
        zero
        and R[BOLTS_ON]
        and (
            R[BOLTS_EVERYWHERE]
            or (seat[OPENED, p] and _in_pit(pits, seat[SCORE, p]) == 0 and not seat[ON_BARREL, p])
        )
    )
    if barrel:
        seat[ATTEMPTS, p] += 1
        if R[BARREL_ATTEMPTS] and seat[ATTEMPTS, p] >= R[BARREL_ATTEMPTS]:
            _fall(g, seat, R, p)
    if bolt:
        seat[BOLTS, p] += 1
        if seat[BOLTS, p] >= R[BOLTS_COUNT]:
            seat[BOLTS, p] = 0
            g[BOLT_TOTAL] += 1
            _penalize(g, seat, R, p, R[BOLT_PENALTY])
    if not seat[OPENED, p]:
        seat[OPEN_FAILS, p] += 1


@numba.njit(cache=True)
def _bank(g, seat, R, pits):
    """The mover banks (a bank that does not win): opening, overtaking, dump truck, climbing and knocking off."""
    p = g[PLAYER]
    n = seat.shape[1]
    old = seat[SCORE, p]
    new = old + g[TOTAL]
    climbs = R[BARREL] and not seat[ON_BARREL, p] and new >= R[BARREL_SCORE]
    if climbs:
        new = R[BARREL_SCORE]
    if not seat[OPENED, p]:
        seat[OPENED, p] = 1
        seat[OPENING, p] = new
    g[ANYONE] = 1
    seat[SCORE, p] = new
    if R[OVERTAKE]:
        for q in range(n):
            if q != p and old < seat[SCORE, q] < new:
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
def model_index(seat, R, IDX, q):
    """The table's player state of seat ``q`` (as ``Space.canonical`` reduces it), or -1 outside the model."""
    score = seat[SCORE, q]
    if score < R[FLOOR]:
        score = R[FLOOR]
    opened = seat[OPENED, q]
    bolts = seat[BOLTS, q] if R[BOLTS_ON] and (opened or R[BOLTS_EVERYWHERE]) else 0
    falls = min(seat[FALLS, q], R[FALL_STATES] - 1)
    attempts = seat[ATTEMPTS, q] if R[BARREL] and score >= R[BARREL_SCORE] and R[BARREL_ATTEMPTS] else 0
    s = (score - R[FLOOR]) // R[STEP]
    if (score - R[FLOOR]) % R[STEP] or s >= IDX.shape[0] or bolts >= IDX.shape[2] or attempts >= IDX.shape[4]:
        return -1
    return IDX[s, opened, bolts, falls, attempts]


@numba.njit(cache=True)
def play(
    g,
    seat,
    R,
    pits,
    PTS,
    KEPT,
    SIZES,
    IDX,
    max_steps,
    rng,
    slot,
    pool,
    owner,
    cursor,
    size,
    first_bank,
    W,
    C,
    B,
    tables,
):
    """Play on from ``g`` and ``seat`` (a turn's roll or decision) until the bank that wins (``WIN``), a position
    outside the table (``OUTSIDE``) or ``max_steps`` steps (``TOO_LONG``); every stop is at a decision."""
    top = tables[1]  # ``top`` of turn_tables
    while True:
        g[STEPS] += 1
        if g[STEPS] > max_steps:
            return TOO_LONG
        p = g[PLAYER]
        k = g[IN_HAND]
        if g[PHASE] == ROLLING:
            i = int(rng.random() * SIZES[k])
            g[ROLLS] += 1
            g[TOTAL_ROLLS] += 1
            g[NEW_ROLLS] += 1
            if g[FORCED]:
                g[FORCED] = 0
            else:
                g[FREE] += 1
            if k == 5:
                g[NKEPT] = 0
                g[CLEARED] = 1
            g[LAST_K] = k
            g[LAST_I] = i
            points = PTS[k, i]
            if points == 0:
                _fail(g, seat, R, pits)
                continue
            g[TOTAL] += points
            j = g[NKEPT]
            g[KEPT_K + j] = k
            g[KEPT_I + j] = i
            g[NKEPT] = j + 1
            left = k - KEPT[k, i]
            if left == 0:
                g[HOT] = 1
                g[IN_HAND] = 5
            else:
                g[IN_HAND] = left
            g[PHASE] = DECIDING
            continue
        # a decision, as bot:optimal takes it
        if g[HOT]:
            g[FORCED] = 1
            g[HOT] = 0
            g[PHASE] = ROLLING
            continue
        total = g[TOTAL]
        if total < g[NEED]:
            g[FORCED] = 0
            g[PHASE] = ROLLING
            continue
        if g[MOVER] == -2:
            g[MOVER] = model_index(seat, R, IDX, p)
            g[OPPONENT] = model_index(seat, R, IDX, 1 - p)
        m = g[MOVER]
        o = g[OPPONENT]
        if m < 0 or o < 0:
            g[STEPS] -= 1
            return OUTSIDE
        r = row_of(m, o, slot, pool, owner, cursor, size, first_bank, W, C, B, tables)
        t = total // R[STEP]
        if t > top[m]:
            t = top[m]
        if pool[r, t] >> k & 1:
            g[FORCED] = 0
            g[PHASE] = ROLLING
            continue
        if seat[SCORE, p] + total >= R[TARGET] and (not R[BARREL] or seat[ON_BARREL, p]):
            g[STEPS] -= 1
            return WIN
        _bank(g, seat, R, pits)
