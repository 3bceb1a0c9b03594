# mypy: allow-untyped-defs
# (Numba compiles these for the array types it is called with; annotations would not be checked there)
"""Compiled parts of policy iteration (see :mod:`dicehall.thousand.solver.pi`).

For fixed turn policies a fall level is a linear system: a position ``x``'s turn ends at next positions ``y``
(a bank at some total, or a burn) with chances ``Q[x, y]``, and ``V(x) = win(x) + Σ Q[x, y] (1 − V(y))``.
:func:`exits` builds the rows of ``Q`` for the policy greedy for the current values (the turn kernel's decisions)
by a forward pass over each turn; positions outside the level (finished levels) go into the right-hand side.
The rows are stored in slots of a fixed width per mover (``start[x]`` .. ``end[x]``).
"""

from __future__ import annotations

import numba
import numpy as np

from dicehall.thousand.solver import kernel


@numba.njit(cache=True, nogil=True)
def _level_index(sides, falls_of, m, o):
    """The level's index of position (mover ``m``, opponent ``o``), or -1 when it lies in another level."""
    fm = falls_of[m]
    fo = falls_of[o]
    for s in range(sides.shape[0]):
        if sides[s, 0] == fm and sides[s, 1] == fo:
            return sides[s, 6] + (m - sides[s, 2]) * (sides[s, 5] - sides[s, 4]) + (o - sides[s, 4])
    return -1


@numba.njit(cache=True, nogil=True)
def exits(
    side,
    m_from,
    m_to,
    sides,
    falls_of,
    W,
    tmax,
    start,
    cols,
    vals,
    end,
    diag,
    rhs,
    tv,
    marks,
    salt,
    reuse,
    tables,
):
    """Rows of ``Q`` for movers ``m_from..m_to`` of side ``sides[side]`` against all of its opponents.

    Writes ``Q``'s off-diagonal entries into the row slots, its diagonal into ``diag``, the right-hand side
    ``win + Σ_inside Q + Σ_outside Q (1 − V)`` into ``rhs`` and ``T(W)`` (the optimal turn's value) into ``tv``.

    ``marks[x]`` fingerprints position ``x``'s policy (the sum of ``salt`` over its banking decisions, wrapping
    64-bit: two different policies agree by chance about once in 2**64). With ``reuse``, rows whose policy is
    unchanged since the last build are kept as they are (a row depends on the policy only; the values of other
    levels in ``rhs`` do not change while a level is solved): only the span of opponents between the first and
    the last changed one is carried forward again. ``tables``: from
    :func:`~dicehall.thousand.solver.space.turn_tables`.
    """
    score_of, top, bank_next, bank_score, bank_climb, burn_next, ovt_next, knock_next, dice = tables
    first, prob, step, left, zero = dice
    o0 = sides[side, 4]
    o1 = sides[side, 5]
    n = o1 - o0
    C = np.empty((tmax + 1, 6, n))
    B = np.empty((tmax + 1, n))
    # buffers for the forward pass over the span of lanes it needs (compact: loops over range(w) from 0
    # vectorise, loops over range(lo, hi) were measured 1.6x slower)
    p_buf = np.empty((tmax + 1) * 6 * n)
    bank_buf = np.empty((tmax + 1) * n)
    dec_buf = np.empty((tmax + 1) * 6 * n, dtype=np.bool_)
    burn = np.empty(n)
    pv = np.empty(n)
    mark = np.empty(n, dtype=np.int64)
    for m in range(m_from, m_to):
        kernel.turn(m, o0, o1, W, C, B, tables)
        T = top[m]
        mark[:] = 0
        for t in range(T + 1):
            for nn in range(1, 6):
                h = salt[t * 6 + nn]
                for j in range(n):
                    # bank where banking is at least as good as rolling (the kernel's C is their maximum)
                    if B[t, j] >= 0.0 and not C[t, nn, j] > B[t, j]:
                        mark[j] += h
        lo = n
        hi = 0
        for j in range(n):
            x = _level_index(sides, falls_of, m, o0 + j)
            tv[x] = C[0, 0, j]
            if not reuse or marks[x] != mark[j]:
                marks[x] = mark[j]
                if j < lo:
                    lo = j
                hi = j + 1
        if lo >= hi:
            continue
        w = hi - lo
        P = p_buf[: (T + 1) * 6 * w].reshape((T + 1, 6, w))
        bank = bank_buf[: (T + 1) * w].reshape((T + 1, w))
        dec = dec_buf[: (T + 1) * 6 * w].reshape((T + 1, 6, w))
        for t in range(T + 1):
            for nn in range(1, 6):
                for i in range(w):
                    j = lo + i
                    dec[t, nn, i] = B[t, j] >= 0.0 and not C[t, nn, j] > B[t, j]
        # chance to stand at (turn total, dice in hand) under the greedy policy, carried forward lane by lane
        P[:] = 0.0
        bank[:] = 0.0
        burn[:w] = 0.0
        P[0, 0, :] = 1.0
        for t in range(T + 1):
            for _ in range(1000 if t == T else 1):  # the top row feeds itself (hot dice): until drained
                mass = 0.0
                for nn in range(1, 6):
                    row = 0.0
                    for i in range(w):
                        p = P[t, nn, i]
                        P[t, nn, i] = 0.0
                        if dec[t, nn, i]:
                            bank[t, i] += p
                            p = 0.0
                        pv[i] = p
                    if nn == 5:  # hot dice roll five dice too, without the choice to bank
                        for i in range(w):
                            pv[i] += P[t, 0, i]
                            P[t, 0, i] = 0.0
                    for i in range(w):
                        row += pv[i]
                    if row == 0.0:
                        continue
                    mass += row
                    z = zero[nn]
                    for i in range(w):
                        burn[i] += pv[i] * z
                    for g in range(first[nn], first[nn + 1]):
                        t2 = t + step[g]
                        if t2 > T:
                            t2 = T
                        k = left[g]
                        q = prob[g]
                        for i in range(w):
                            P[t2, k, i] += q * pv[i]
                if t < T or mass < 1e-20:
                    break
        mover_next = burn_next[m]
        for i in range(w):
            o = o0 + lo + i
            x = _level_index(sides, falls_of, m, o)
            k = start[x]
            r = 0.0
            dg = 0.0
            for t in range(-1, T + 1):
                if t == -1:
                    p = burn[i]
                    code = mover_next
                    o2 = o
                else:
                    p = bank[t, i]
                    if p == 0.0:
                        continue
                    code = bank_next[m, t]
                    if code == -1:  # a win
                        r += p
                        continue
                    o2 = o
                    if score_of[m] < score_of[o] < bank_score[m, t]:
                        o2 = ovt_next[o2]
                    if bank_climb[m, t] and knock_next[o2] >= 0:
                        o2 = knock_next[o2]
                if p == 0.0:
                    continue
                y = _level_index(sides, falls_of, o2, code)
                if y < 0:
                    r += p * (1.0 - W[code, o2])
                elif y == x:
                    dg += p
                    r += p
                else:
                    cols[k] = y
                    vals[k] = p
                    k += 1
                    r += p
            end[x] = k
            rhs[x] = r
            diag[x] = dg


@numba.njit(cache=True, nogil=True)
def matvec(v, order, start, end, cols, vals, diag, out, i_from, i_to):
    """``out = (I + Q) v`` for the rows ``order[i_from:i_to]`` (threads share the rows; the slots lie in
    ``order``, so this reads ``Q`` front to back)."""
    for i in range(i_from, i_to):
        x = order[i]
        acc = (1.0 + diag[x]) * v[x]
        for k in range(start[x], end[x]):
            acc += vals[k] * v[cols[k]]
        out[x] = acc


@numba.njit(cache=True, nogil=True)
def split_rows(rank, start, end, cols, vals, mid):
    """Reorders each row's entries so that those to positions earlier in the Gauss–Seidel order (``rank``)
    come first, ``start[x]..mid[x]``, and the later ones ``mid[x]..end[x]``."""
    for x in range(start.shape[0]):
        a = start[x]
        b = end[x] - 1
        r = rank[x]
        while a <= b:
            if rank[cols[a]] < r:
                a += 1
            else:
                c = cols[a]
                cols[a] = cols[b]
                cols[b] = c
                p = vals[a]
                vals[a] = vals[b]
                vals[b] = p
                b -= 1
        mid[x] = a


@numba.njit(cache=True, nogil=True)
def gauss_seidel(r, order, start, mid, cols, vals, diag, z):
    """``z`` solving ``(I + D + L) z = r``, ``L`` the entries to positions earlier in ``order`` (``start..mid``
    after :func:`split_rows`): one Gauss–Seidel sweep of the fixed policy from zero (the preconditioner)."""
    for i in range(order.shape[0]):
        x = order[i]
        acc = r[x]
        for k in range(start[x], mid[x]):
            acc -= vals[k] * z[cols[k]]
        z[x] = acc / (1.0 + diag[x])


@numba.njit(cache=True, nogil=True)
def later_part(r, z, order, mid, end, cols, vals, w, i_from, i_to):
    """``w = r + U z`` for the rows ``order[i_from:i_to]``, ``U`` the entries to later positions: with ``z`` from
    :func:`gauss_seidel` of ``r`` this is ``(I + Q) z`` (as ``(I + D + L) z = r``), so the preconditioned
    product costs one pass over ``Q`` instead of two (Eisenstat's trick)."""
    for i in range(i_from, i_to):
        x = order[i]
        acc = r[x]
        for k in range(mid[x], end[x]):
            acc += vals[k] * z[cols[k]]
        w[x] = acc
