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
def end_targets(m, o, flagged, tables, col, same):
    """Where each end of mover ``m``'s turn against opponent ``o`` (flagged: ``flagged``) leads: for the bank of
    ``t`` (``t`` < the tables' width) and the zero first roll, later zero and no-zero ends (the width and the
    two after it), ``col``: the next position in the stacked values ``[W.ravel(), F.ravel()]`` (-1: a win, -2:
    refused) and ``same``: it is the mover's own (after the opponent's skipped turn), else the opponent's
    (``yard.Positions.ends``)."""
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
    size = score_of.shape[0]
    width = bank_next.shape[1]
    z = zero_next[m]
    flag = rules_row[5] and (opened_of[m] or opened_of[o])
    c, s = _target(z, o, flag, flagged, size)
    col[width], same[width] = c, s
    c, s = _target(z, o, 0, flagged, size)
    col[width + 1], same[width + 1] = c, s
    c, s = _target(fail_next[m], o, 0, flagged, size)
    col[width + 2], same[width + 2] = c, s
    old = score_of[m]
    for t in range(width):
        code = bank_next[m, t]
        if code == -2 or t < need_of[m] or t > limit_of[m]:
            col[t] = -2
            continue
        if code == -1:
            col[t] = -1
            continue
        new = bank_score[m, t]
        o2 = o
        if rules_row[3] and new > 0 and score_of[o] == new:  # exact landing: to 0, not also overtaken
            o2 = reset_next[o]
        elif rules_row[4] and old < score_of[o] < new:
            o2 = ovt_next[o]
        if bank_knocks[m, t] and knock_next[o2] >= 0:
            o2 = knock_next[o2]
        c, s = _target(code, o2, 0, flagged, size)
        col[t], same[t] = c, s


@numba.njit(cache=True, nogil=True, inline="always")
def _target(m2, o2, flag, flagged, size):
    """The next position once the turn left the mover at ``m2`` (flagged: ``flag``) and the opponent at ``o2``
    (``yard.Positions.next_value``): the opponent's turn skipped — the mover again; else the opponent moves,
    with the mover flagged unless both flags are spent."""
    if flagged and not flag:
        return o2 * size + m2, 1
    if flag and not flagged:
        return size * size + m2 * size + o2, 0
    return m2 * size + o2, 0


@numba.njit(cache=True, nogil=True)
def ends(m, lo, hi, flagged, W, F, S, B, Z, tables):
    """The values of mover ``m``'s turn ends against opponents ``lo..hi`` (flagged: ``flagged``): banks into
    ``B[t, lane]`` (``NEG``: refused), and ``Z[0]`` zero first roll, ``Z[1]`` later zero, ``Z[2]`` no zero.
    The opponent's positions are read from ``W``, ``F``, the mover's own (after a skipped turn) from ``S``: for a
    bound, the opposite bound and the same one (the value operator reverses the one and keeps the other)."""
    size = W.shape[0]
    width = tables[7].shape[1]
    col = np.empty(width + 3, dtype=np.int64)
    same = np.empty(width + 3, dtype=np.int64)
    w, f, own = W.ravel(), F.ravel(), S.ravel()
    for j in range(hi - lo):
        end_targets(m, lo + j, flagged, tables, col, same)
        for e in range(width + 3):
            c = col[e]
            if c == -2:
                v = NEG
            elif c == -1:
                v = 1.0
            elif same[e]:
                v = own[c]
            elif c < size * size:
                v = 1.0 - w[c]
            else:
                v = 1.0 - f[c - size * size]
            if e < width:
                B[e, j] = v
            else:
                Z[e - width, j] = v


# where an outcome leads (:func:`_route`)
TO_WIN, TO_HOT, TO_BANK, TO_FAIL, TO_DECIDE = 1, 2, 3, 4, 5


@numba.njit(cache=True, nogil=True, inline="always")
def _route(g, t, r, confirm, need, top, reconfirm, max_rolls, kind, step, left):
    """Where outcome group ``g`` of a roll at total ``t`` (``r`` counted rolls after it) leads: (where, total,
    dice in hand) — ``yard.Turn._roll`` and ``_after``."""
    k = kind[g]
    if k == 2:  # golden win
        return TO_WIN, t, 0
    if k == 3:  # pair re-roll: the forced roll of five at the same total
        return TO_HOT, t, 0
    t2 = t + step[g]
    kept = left[g]
    if t2 > top:  # past the exact target
        return TO_FAIL, t2, kept
    if confirm and not (kept == 0 and reconfirm) and t2 >= need:
        return TO_BANK, t2, kept
    if kept == 0:
        return TO_HOT, t2, 0
    if max_rolls > 0 and r >= max_rolls and t2 < need:
        return TO_FAIL, t2, kept
    return TO_DECIDE, t2, kept


@numba.njit(cache=True, nogil=True)
def _roll(t, n, r, confirm, is_first, acc, m, B, Z, D, H, tables):
    """Rolling ``n`` dice at total ``t``, ``r`` counted rolls after it: into ``acc``."""
    rules_row = tables[0]
    need, top = tables[3][m], tables[4][m]
    first, prob, kind, step, left, zero = tables[13]
    lanes = acc.shape[0]
    p0 = zero[n]
    zi = 0 if is_first else 1
    for j in range(lanes):
        acc[j] = p0 * Z[zi, j]
    for g in range(first[n], first[n + 1]):
        p = prob[g]
        where, t2, kept = _route(g, t, r, confirm, need, top, rules_row[2], rules_row[0], kind, step, left)
        if where == TO_WIN:
            for j in range(lanes):
                acc[j] += p
        elif where == TO_HOT:
            for j in range(lanes):
                acc[j] += p * H[t2, r, j]
        elif where == TO_FAIL:
            for j in range(lanes):
                acc[j] += p * Z[2, j]
        elif where == TO_BANK:
            for j in range(lanes):
                acc[j] += p * B[t2, j]
        else:
            for j in range(lanes):
                acc[j] += p * D[t2, kept, r, j]


@numba.njit(cache=True, nogil=True)
def turn(m, B, Z, D, H, RV, start, tables):
    """Mover ``m``'s best turn from the ends ``B``, ``Z`` (lanes: the last axis); fills ``D``, ``H``, the roll
    values ``RV[t, n, r]`` (``NEG`` where no counted roll is left) and the start values ``start[lane]``."""
    rules_row = tables[0]
    need, top = tables[3][m], tables[4][m]
    max_rolls, confirm = rules_row[0], rules_row[1]
    counted = max_rolls > 0
    rr = max_rolls + 1 if counted else 1
    lanes = start.shape[0]
    acc = np.empty(lanes)
    for t in range(top, -1, -1):
        for r in range(rr):
            _roll(t, 5, r, confirm, 0, acc, m, B, Z, D, H, tables)
            H[t, r, :] = acc
        for r in range(rr):
            can_roll = not counted or r < max_rolls
            for n in range(1, 6):
                if can_roll:
                    _roll(t, n, r + 1 if counted else 0, 0, 0, acc, m, B, Z, D, H, tables)
                else:
                    acc[:] = NEG
                for j in range(lanes):
                    b = B[t, j] if t >= need else NEG
                    a = acc[j]
                    RV[t, n, r, j] = a
                    D[t, n, r, j] = b if b > a else a
    _roll(0, 5, 1 if counted else 0, 0, 1, start, m, B, Z, D, H, tables)


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
    RV = np.empty((width, 6, rr, lanes))
    H = np.empty((width, rr, lanes))
    start = np.empty(lanes)
    ends(m, lo, hi, flagged, W, F, S, B, Z, tables)
    turn(m, B, Z, D, H, RV, start, tables)
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


@numba.njit(cache=True, nogil=True)
def flow(m, B, RV, j, tables, PB, PZ):
    """Where lane ``j``'s turn of mover ``m`` ends when played by the decisions ``RV > B`` (roll where rolling is
    worth more than banking): the chance of banking each total into ``PB[t]``, of a zero first roll, a later
    zero, no zero and a golden win into ``PZ[0..3]``. Totals only rise (a pair re-roll keeps it: decisions at a
    total before its forced rolls), so the chances flow in one pass from the first roll up."""
    rules_row = tables[0]
    need, top = tables[3][m], tables[4][m]
    max_rolls, confirm = rules_row[0], rules_row[1]
    counted = max_rolls > 0
    rr = max_rolls + 1 if counted else 1
    M = np.zeros((top + 1, 6, rr))
    MH = np.zeros((top + 1, rr))
    PB[:] = 0.0
    PZ[:] = 0.0
    _spread(0, 5, 1 if counted else 0, 0, 1, 1.0, m, M, MH, PB, PZ, tables)
    for t in range(top + 1):
        for r in range(rr):
            for n in range(1, 6):
                mass = M[t, n, r]
                if mass == 0.0:
                    continue
                b = B[t, j] if t >= need else NEG
                if RV[t, n, r, j] > b:
                    _spread(t, n, r + 1 if counted else 0, 0, 0, mass, m, M, MH, PB, PZ, tables)
                else:
                    PB[t] += mass
        for r in range(rr):
            if MH[t, r] != 0.0:
                _spread(t, 5, r, confirm, 0, MH[t, r], m, M, MH, PB, PZ, tables)


@numba.njit(cache=True, nogil=True)
def _spread(t, n, r, confirm, is_first, mass, m, M, MH, PB, PZ, tables):
    """``mass`` of rolling ``n`` dice at total ``t`` (``r`` counted rolls after it), spread over the outcomes."""
    rules_row = tables[0]
    need, top = tables[3][m], tables[4][m]
    first, prob, kind, step, left, zero = tables[13]
    PZ[0 if is_first else 1] += mass * zero[n]
    for g in range(first[n], first[n + 1]):
        p = mass * prob[g]
        where, t2, kept = _route(g, t, r, confirm, need, top, rules_row[2], rules_row[0], kind, step, left)
        if where == TO_WIN:
            PZ[3] += p
        elif where == TO_HOT:
            MH[t2, r] += p
        elif where == TO_FAIL:
            PZ[2] += p
        elif where == TO_BANK:
            PB[t2] += p
        else:
            M[t2, kept, r] += p


@numba.njit(cache=True, nogil=True)
def level_rows(m, olo, ohi, flagged, V, local, tables, start, cols, vals, end, diag, rhs, tv):
    """Policy iteration's rows of mover ``m`` against opponents ``olo..ohi`` (flagged: ``flagged``), for the turn
    played greedily for the values ``V`` (stacked ``[W.ravel(), F.ravel()]``): the row of position ``x =
    local[its column]`` is ``(1 + diag[x]) v[x] + Σ vals[k] v[cols[k]] = rhs[x]`` over ``start[x]..end[x]``,
    entries to positions outside the level (``local`` -1, solved already) moved into ``rhs``; ``tv[x]`` the
    greedy turn's value (for the residual)."""
    size = tables[1].shape[0]
    half = size * size
    width = tables[7].shape[1]
    rr = tables[0][0] + 1 if tables[0][0] > 0 else 1
    lanes = ohi - olo
    W = V[:half].reshape(size, size)
    F = V[half:].reshape(size, size)
    B = np.empty((width, lanes))
    Z = np.empty((3, lanes))
    D = np.empty((width, 6, rr, lanes))
    RV = np.empty((width, 6, rr, lanes))
    H = np.empty((width, rr, lanes))
    first = np.empty(lanes)
    ends(m, olo, ohi, flagged, W, F, W, B, Z, tables)
    turn(m, B, Z, D, H, RV, first, tables)
    col = np.empty(width + 3, dtype=np.int64)
    same = np.empty(width + 3, dtype=np.int64)
    PB = np.empty(width)
    PZ = np.empty(4)
    for j in range(lanes):
        o = olo + j
        x = local[flagged * half + o * size + m]
        flow(m, B, RV, j, tables, PB, PZ)
        end_targets(m, o, flagged, tables, col, same)
        k = start[x]
        d = 0.0
        b = PZ[3]
        for e in range(width + 3):
            p = PB[e] if e < width else PZ[e - width]
            if p == 0.0:
                continue
            c = col[e]
            if c == -1:  # a win
                b += p
                continue
            coef = -p if same[e] else p
            if not same[e]:
                b += p
            lc = local[c]
            if lc == x:
                d += coef
            elif lc >= 0:
                cols[k] = lc
                vals[k] = coef
                k += 1
            else:
                b -= coef * V[c]
        end[x] = k
        diag[x] = d
        rhs[x] = b
        tv[x] = first[j]
