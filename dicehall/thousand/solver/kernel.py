# mypy: allow-untyped-defs
# (Numba compiles these for the array types it is called with; annotations would not be checked there)
"""The compiled (Numba) heart of the solver: one player's turn solved for many opponents at once.

``W[b, a]`` holds the value of position (mover ``a``, opponent ``b``) — the chance that the player to move wins.
Storing it transposed makes the values a turn needs (the opponent moves next: ``V[o', m'] = W[m', o']``) one
contiguous row per next mover state.

:func:`turn` fills the mover's turn sub-game for the opponents ``lo..hi`` (the *lanes*): ``C[t, n, lane]`` is the
value at turn total ``t * STEP`` with ``n`` dice in hand (``n = 0``: hot dice, a roll of five is forced), and
``C[0, 0]`` is the value of the turn from its first roll. Turn totals at or above ``top[m]`` all bank alike, so
that row is solved as a small fixed point (hot dice there lead back to it).
"""

from __future__ import annotations

import numba
import numpy as np

NEG = -1.0


@numba.njit(cache=True, fastmath=True, nogil=True)
def turn(m, lo, hi, W, C, B, tables):
    """Solve mover ``m``'s turn against opponents ``lo..hi`` reading values from ``W``; fills ``C`` and ``B``.

    ``B[t, lane]`` is the value of banking at ``t`` (``NEG`` where banking is refused). ``tables``: from
    :func:`~dicehall.thousand.solver.space.turn_tables`.
    """
    score_of, top, bank_next, bank_score, bank_climb, burn_next, ovt_next, knock_next, dice = tables
    first, prob, step, left, zero = dice
    lanes = hi - lo
    T = top[m]
    old = score_of[m]
    zrow = burn_next[m]
    Z = np.empty(lanes)
    for j in range(lanes):
        Z[j] = 1.0 - W[zrow, lo + j]
    acc = np.empty(lanes)
    for t in range(T, -1, -1):
        code = bank_next[m, t]
        if code == -2:
            for j in range(lanes):
                B[t, j] = NEG
        elif code == -1:
            for j in range(lanes):
                B[t, j] = 1.0
        else:
            new = bank_score[m, t]
            climb = bank_climb[m, t]
            for j in range(lanes):
                o = lo + j
                s = score_of[o]
                if old < s < new:
                    o = ovt_next[o]
                if climb and knock_next[o] >= 0:
                    o = knock_next[o]
                B[t, j] = 1.0 - W[code, o]
        if t == T:
            _fixed_point(t, lanes, C, B, Z, acc, dice)
            continue
        for n in range(1, 6):
            p0 = zero[n]
            for j in range(lanes):
                acc[j] = p0 * Z[j]
            for g in range(first[n], first[n + 1]):
                p = prob[g]
                t2 = t + step[g]
                if t2 > T:
                    t2 = T
                k = left[g]
                for j in range(lanes):
                    acc[j] += p * C[t2, k, j]
            for j in range(lanes):
                b = B[t, j]
                a = acc[j]
                C[t, n, j] = b if b > a else a
        for j in range(lanes):
            C[t, 0, j] = acc[j]  # hot dice: the roll of five without the choice to bank


@numba.njit(cache=True, nogil=True)
def _fixed_point(T, lanes, C, B, Z, acc, dice):
    """The row ``t = T``: every outcome stays in it, so iterate (hot dice, the only loop, is rare)."""
    first, prob, _, left, zero = dice
    for n in range(6):
        for j in range(lanes):
            C[T, n, j] = 0.0
    for _ in range(1000):
        change = 0.0
        for n in range(1, 6):
            p0 = zero[n]
            for j in range(lanes):
                acc[j] = p0 * Z[j]
            for g in range(first[n], first[n + 1]):
                p = prob[g]
                k = left[g]
                for j in range(lanes):
                    acc[j] += p * C[T, k, j]
            for j in range(lanes):
                b = B[T, j]
                a = acc[j]
                v = b if b > a else a
                d = abs(v - C[T, n, j])
                if d > change:
                    change = d
                C[T, n, j] = v
        for j in range(lanes):
            d = abs(acc[j] - C[T, 0, j])
            if d > change:
                change = d
            C[T, 0, j] = acc[j]
        if change < 1e-16:
            break


@numba.njit(cache=True, nogil=True)
def _row(m, olo, ohi, L, U, tmax, tables):
    """Mover ``m`` against opponents ``olo..ohi``: ``L`` from ``U``, then ``U`` from ``L``; the largest changes."""
    lanes = ohi - olo
    C = np.empty((tmax + 1, 6, lanes))
    B = np.empty((tmax + 1, lanes))
    turn(m, olo, ohi, U, C, B, tables)
    change_l = _store_start(C, L, m, olo, lanes)
    turn(m, olo, ohi, L, C, B, tables)
    change_u = _store_start(C, U, m, olo, lanes)
    return change_l, change_u


@numba.njit(cache=True, nogil=True)
def _store_start(C, X, m, olo, lanes):
    """Writes the turn's start values into ``X[olo:olo+lanes, m]``; returns the largest change."""
    change = 0.0
    for j in range(lanes):
        v = C[0, 0, j]
        d = abs(v - X[olo + j, m])
        if d > change:
            change = d
        X[olo + j, m] = v
    return change


@numba.njit(cache=True, nogil=True)
def sweep(rows, L, U, tmax, tables, row_from, row_to, settled):
    """One Gauss–Seidel sweep over ``rows[row_from:row_to]`` for both bounds; returns their largest changes.

    A row ``(m0, m1, o0, o1)`` solves the turns of movers ``m0..m1`` against the opponents ``o0..o1`` (the
    lanes). ``L`` (from below) is updated from ``U`` and ``U`` from ``L``: the value operator reverses order (the
    next value is one minus the opponent's), so a lower bound comes from an upper one and vice versa. ``tables``
    are the ones :func:`turn` reads.

    Lanes whose bounds are already within ``settled`` of each other are left out (only the span between the
    first and the last unsettled lane is solved): from 0 and 1 the lower bounds only rise and the upper ones only
    fall, so such a value is known to ``settled`` for good. (A parallel version over the movers of a row was
    measured 3x slower in CPU time on the shared 2-core machine under load: threads spin while others run.)
    """
    change_l = 0.0
    change_u = 0.0
    for q in range(row_from, row_to):
        m0, m1, olo, ohi = rows[q, 0], rows[q, 1], rows[q, 2], rows[q, 3]
        for m in range(m0, m1):
            first = ohi
            last = olo
            for o in range(olo, ohi):
                if U[o, m] - L[o, m] > settled:
                    if o < first:
                        first = o
                    last = o + 1
            if first >= last:
                continue
            cl, cu = _row(m, first, last, L, U, tmax, tables)
            change_l = max(change_l, cl)
            change_u = max(change_u, cu)
    return change_l, change_u
