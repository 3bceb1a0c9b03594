# mypy: allow-untyped-defs
# (Numba compiles these for the array types it is called with; annotations would not be checked there)
"""Yard's turn compiled (Numba), for one mover against many opponents at once (the lanes): :class:`yard.Turn`
over the ends :meth:`yard.Positions.ends` gives, on the tables of :mod:`yard_space`.

``D[t, n, r, lane]``: the value at turn total ``t * STEP`` with ``n`` dice in hand after ``r`` counted rolls;
``H[t, r, lane]``: the forced roll of five (hot dice or a pair re-roll; a confirmation where the rules say).
Totals only rise but at a pair re-roll, which leads to ``H`` of the same total, solved first: no fixed point.
"""

from __future__ import annotations

import numba
import numpy as np

NEG = -1.0


@numba.njit(cache=True, nogil=True)
def ends(m, lo, hi, flagged, W, F, S, B, Z, tables):
    """The values of mover ``m``'s turn ends against opponents ``lo..hi`` (flagged: ``flagged``): banks into
    ``B[t, lane]`` (``NEG``: refused), and ``Z[0]`` zero first roll, ``Z[1]`` later zero, ``Z[2]`` no zero.
    The opponent's positions are read from ``W``, ``F``, the mover's own (after a skipped turn) from ``S``: for a
    bound, the opposite bound and the same one (the value operator reverses the one and keeps the other)."""
    (
        rules_row,
        score_of,
        opened_of,
        need_of,
        limit_of,
        zero_next,
        fail_next,
        bank_next,
        bank_score,
        bank_knocks,
        reset_next,
        ovt_next,
        knock_next,
        _,
    ) = tables
    exact_reset = rules_row[3]
    overtake = rules_row[4]
    skip = rules_row[5]
    old = score_of[m]
    for j in range(hi - lo):
        o = lo + j
        z = zero_next[m]
        flag = skip and (opened_of[m] or opened_of[o])
        Z[0, j] = _next(z, o, flag, flagged, W, F, S)
        Z[1, j] = _next(z, o, 0, flagged, W, F, S)
        Z[2, j] = _next(fail_next[m], o, 0, flagged, W, F, S)
    for t in range(limit_of[m] + 1):
        code = bank_next[m, t]
        if code == -2 or t < need_of[m]:
            for j in range(hi - lo):
                B[t, j] = NEG
        elif code == -1:
            for j in range(hi - lo):
                B[t, j] = 1.0
        else:
            new = bank_score[m, t]
            knocks = bank_knocks[m, t]
            for j in range(hi - lo):
                o = lo + j
                s = score_of[o]
                if exact_reset and new > 0 and s == new:
                    o = reset_next[o]
                elif overtake and old < s < new:
                    o = ovt_next[o]
                if knocks and knock_next[o] >= 0:
                    o = knock_next[o]
                B[t, j] = _next(code, o, 0, flagged, W, F, S)


@numba.njit(cache=True, nogil=True, inline="always")
def _next(m2, o2, flag, flagged, W, F, S):
    """The mover's value of the next position (``yard.Positions.next_value``)."""
    if flagged and not flag:
        return S[o2, m2]
    if flag and not flagged:
        return 1.0 - F[m2, o2]
    return 1.0 - W[m2, o2]


@numba.njit(cache=True, nogil=True)
def turn(m, lanes, B, Z, D, H, start, tables):
    """Mover ``m``'s best turn for ``lanes`` opponents from the ends ``B``, ``Z``; fills ``D``, ``H`` and the
    start values ``start[lane]``."""
    rules_row = tables[0]
    need = tables[3][m]
    top = tables[4][m]
    first, prob, kind, step, left, zero = tables[13]
    max_rolls = rules_row[0]
    confirm = rules_row[1]
    reconfirm = rules_row[2]
    counted = max_rolls > 0
    rr = max_rolls + 1 if counted else 1
    acc = np.empty(lanes)
    for t in range(top, -1, -1):
        for r in range(rr):
            _roll(
                t,
                5,
                r,
                confirm,
                0,
                acc,
                lanes,
                need,
                top,
                reconfirm,
                max_rolls,
                B,
                Z,
                D,
                H,
                first,
                prob,
                kind,
                step,
                left,
                zero,
            )
            for j in range(lanes):
                H[t, r, j] = acc[j]
        for r in range(rr):
            can_roll = not counted or r < max_rolls
            r2 = r + 1 if counted else 0
            for n in range(1, 6):
                if can_roll:
                    _roll(
                        t,
                        n,
                        r2,
                        0,
                        0,
                        acc,
                        lanes,
                        need,
                        top,
                        reconfirm,
                        max_rolls,
                        B,
                        Z,
                        D,
                        H,
                        first,
                        prob,
                        kind,
                        step,
                        left,
                        zero,
                    )
                else:
                    for j in range(lanes):
                        acc[j] = NEG
                for j in range(lanes):
                    b = B[t, j] if t >= need else NEG
                    a = acc[j]
                    D[t, n, r, j] = b if b > a else a
    _roll(
        0,
        5,
        1 if counted else 0,
        0,
        1,
        start,
        lanes,
        need,
        top,
        reconfirm,
        max_rolls,
        B,
        Z,
        D,
        H,
        first,
        prob,
        kind,
        step,
        left,
        zero,
    )


@numba.njit(cache=True, nogil=True)
def _roll(
    t,
    n,
    r,
    confirm,
    is_first,
    acc,
    lanes,
    need,
    top,
    reconfirm,
    max_rolls,
    B,
    Z,
    D,
    H,
    first,
    prob,
    kind,
    step,
    left,
    zero,
):
    """Rolling ``n`` dice at total ``t``, ``r`` counted rolls after it: into ``acc`` (``yard.Turn._roll``)."""
    p0 = zero[n]
    zi = 0 if is_first else 1
    for j in range(lanes):
        acc[j] = p0 * Z[zi, j]
    for g in range(first[n], first[n + 1]):
        p = prob[g]
        k = kind[g]
        if k == 2:  # golden win
            for j in range(lanes):
                acc[j] += p
            continue
        if k == 3:  # pair re-roll: the forced roll of five at the same total
            for j in range(lanes):
                acc[j] += p * H[t, r, j]
            continue
        t2 = t + step[g]
        kept = left[g]
        if t2 > top:  # past the exact target
            for j in range(lanes):
                acc[j] += p * Z[2, j]
        elif confirm and not (kept == 0 and reconfirm) and t2 >= need:
            for j in range(lanes):
                acc[j] += p * B[t2, j]
        elif kept == 0:
            for j in range(lanes):
                acc[j] += p * H[t2, r, j]
        elif max_rolls > 0 and r >= max_rolls and t2 < need:
            for j in range(lanes):
                acc[j] += p * Z[2, j]
        else:
            for j in range(lanes):
                acc[j] += p * D[t2, kept, r, j]


@numba.njit(cache=True, nogil=True)
def row(m, lo, hi, flagged, W, F, S, X, tables):
    """Mover ``m``'s turn against opponents ``lo..hi`` read from ``W``, ``F`` and ``S`` (:func:`ends`); the start
    values go into ``X[lo:hi, m]``. Returns the largest change."""
    lanes = hi - lo
    width = tables[4].max() + 1
    rr = tables[0][0] + 1 if tables[0][0] > 0 else 1
    B = np.empty((width, lanes))
    Z = np.empty((3, lanes))
    D = np.empty((width, 6, rr, lanes))
    H = np.empty((width, rr, lanes))
    start = np.empty(lanes)
    ends(m, lo, hi, flagged, W, F, S, B, Z, tables)
    turn(m, lanes, B, Z, D, H, start, tables)
    change = 0.0
    for j in range(lanes):
        d = abs(start[j] - X[lo + j, m])
        if d > change:
            change = d
        X[lo + j, m] = start[j]
    return change


@numba.njit(cache=True, nogil=True)
def sweep(L, LF, U, UF, tables, flaggable, skip):
    """One Gauss–Seidel sweep of both bounds over every position (movers by descending index: higher scores
    first within a fall count); ``L`` from ``U`` and ``U`` from ``L`` (the operator reverses order). Flagged
    positions only for opponents a zero roll leaves (and someone has banked: the others are never read)."""
    size = L.shape[0]
    change = 0.0
    for m in range(size - 1, -1, -1):
        c = row(m, 0, size, 0, U, UF, L, L, tables)
        change = max(change, c)
        c = row(m, 0, size, 0, L, LF, U, U, tables)
        change = max(change, c)
        if not skip:
            continue
        o = 0
        while o < size:  # each run of flaggable opponents as one row
            if not flaggable[o]:
                o += 1
                continue
            end = o
            while end < size and flaggable[end]:
                end += 1
            c = row(m, o, end, 1, U, UF, L, LF, tables)
            change = max(change, c)
            c = row(m, o, end, 1, L, LF, U, UF, tables)
            change = max(change, c)
            o = end
    return change
