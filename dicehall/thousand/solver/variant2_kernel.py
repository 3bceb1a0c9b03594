# mypy: allow-untyped-defs
# (Numba compiles these for the array types it is called with; annotations would not be checked there)
"""Variant 2's turn compiled (Numba), for one mover against many opponents at once (the lanes, a slice of
opponent states): :class:`variant2.Turn` over the ends :meth:`variant2.Positions.ends` gives, on the tables of
:mod:`variant2_space`.

``B[t, lane]``: banking total ``t * STEP`` (``NEG`` where refused); ``RV[t, n, lane]``: rolling the ``n`` dice in
hand at that total; ``H[t, lane]``: the confirmation roll of five after hot dice. Totals only rise (those above
the top are kept at it), so the rows are solved from the top down; at the top a confirmation always banks.
"""

from __future__ import annotations

import numba
import numpy as np

NEG = -1.0


@numba.njit(cache=True, nogil=True)
def ends(a, lo, hi, R, tables, B, Z):
    """The values of mover ``a``'s turn ends against opponents ``lo..hi`` from ``R`` (``R[b, a]``: mover ``a``,
    opponent ``b``): ``B`` each bank (1 for a win), ``Z`` a zero roll."""
    need_of, top_of, bank_next, bank_knocks, knock_next, _ = tables
    for lane in range(hi - lo):
        Z[lane] = 1.0 - R[a, lo + lane]
    for t in range(top_of[a] + 1):
        code = bank_next[a, t]
        if t < need_of[a] or code == -2:
            for lane in range(hi - lo):
                B[t, lane] = NEG
        elif code == -1:
            for lane in range(hi - lo):
                B[t, lane] = 1.0
        elif bank_knocks[a, t]:
            for lane in range(hi - lo):
                b = lo + lane
                k = knock_next[b]
                B[t, lane] = 1.0 - R[code, b if k < 0 else k]
        else:
            for lane in range(hi - lo):
                B[t, lane] = 1.0 - R[code, lo + lane]


@numba.njit(cache=True, nogil=True)
def turn(a, lanes, tables, B, Z, RV, H, out):
    """Mover ``a``'s best turn against the ends ``B``, ``Z`` of ``lanes`` opponents: ``out[lane]``, and the roll
    values ``RV`` and confirmation rolls ``H`` of every row (a decision rolls where ``RV > B``)."""
    need_of, top_of, _, _, _, dice = tables
    first, prob, step, left, zero = dice
    top = top_of[a]
    need = need_of[a]
    for t in range(top, -1, -1):
        # the confirmation roll: a score banks from the minimum on, below it the turn goes on
        z = zero[5]
        for lane in range(lanes):
            H[t, lane] = z * Z[lane]
        for k in range(first[5], first[6]):
            p = prob[k]
            t2 = min(t + step[k], top)
            n2 = left[k]
            for lane in range(lanes):
                if t2 >= need:
                    v = B[t2, lane]
                elif n2 == 0:
                    v = H[t2, lane]
                else:
                    v = max(B[t2, lane], RV[t2, n2, lane])
                H[t, lane] += p * v
        for n in range(1, 6):
            z = zero[n]
            for lane in range(lanes):
                RV[t, n, lane] = z * Z[lane]
            for k in range(first[n], first[n + 1]):
                p = prob[k]
                t2 = min(t + step[k], top)
                n2 = left[k]
                if n2 == 0:
                    for lane in range(lanes):
                        RV[t, n, lane] += p * H[t2, lane]
                else:
                    for lane in range(lanes):
                        RV[t, n, lane] += p * max(B[t2, lane], RV[t2, n2, lane])
    for lane in range(lanes):
        out[lane] = RV[0, 5, lane]


@numba.njit(cache=True, nogil=True)
def _mover(a, lo, hi, L, U, tables, B, Z, RV, H, out):
    """Both bounds of mover ``a`` against opponents ``lo..hi``, in place: ``L = T(U)``, then ``U = T(L)``."""
    lanes = hi - lo
    change = 0.0
    gap = 0.0
    for side in range(2):
        R = U if side == 0 else L
        W = L if side == 0 else U
        ends(a, lo, hi, R, tables, B, Z)
        turn(a, lanes, tables, B, Z, RV, H, out)
        for lane in range(lanes):
            b = lo + lane
            change = max(change, abs(out[lane] - W[b, a]))
            W[b, a] = out[lane]
    for lane in range(lanes):
        b = lo + lane
        gap = max(gap, U[b, a] - L[b, a])
    return change, gap


@numba.njit(cache=True, nogil=True)
def level_sweep(a_lo, a_hi, b_lo, b_hi, L, U, tables, score_of):
    """One Gauss–Seidel sweep of both bounds over the level of keys ``a_lo..a_hi`` and ``b_lo..b_hi`` (the same
    slice: one key): every mover of either key against every opponent of the other, movers by descending score
    (a bank raises the mover's score: most of what a turn reads is already updated). Returns the largest change
    and the largest gap between the bounds."""
    width = tables[2].shape[1]
    lanes = max(a_hi - a_lo, b_hi - b_lo)
    B = np.empty((width, lanes))
    Z = np.empty(lanes)
    RV = np.empty((width, 6, lanes))
    H = np.empty((width, lanes))
    out = np.empty(lanes)
    change = 0.0
    gap = 0.0
    i, j = a_hi - 1, b_hi - 1
    same = a_lo == b_lo
    while i >= a_lo or (not same and j >= b_lo):
        if same or j < b_lo or (i >= a_lo and score_of[i] >= score_of[j]):
            c, g = _mover(i, b_lo, b_hi, L, U, tables, B, Z, RV, H, out)
            i -= 1
        else:
            c, g = _mover(j, a_lo, a_hi, L, U, tables, B, Z, RV, H, out)
            j -= 1
        change = max(change, c)
        gap = max(gap, g)
    return change, gap
