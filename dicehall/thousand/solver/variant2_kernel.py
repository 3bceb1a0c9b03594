# mypy: allow-untyped-defs
# (Numba compiles these for the array types it is called with; annotations would not be checked there)
"""Variant 2's turn compiled (Numba), for one mover against many opponents at once (the lanes, a slice of
opponent states): :class:`variant2.Turn` over the ends :meth:`variant2.Positions.ends` gives, on the tables of
:mod:`variant2_space`.

``B[t, lane]``: banking total ``t * STEP`` (``NEG`` where refused); ``RV[t, n, lane]``: rolling the ``n`` dice in
hand at that total; ``H[t, lane]``: the confirmation roll of five after hot dice. Totals only rise (those above
the top are kept at it), so the rows are solved from the top down; at the top a confirmation always banks.
The other way round, many movers against one opponent (:func:`column_ends`, :func:`lanes_turn`): each lane its own
smallest bank, the largest top for all, each lane's banks above its own top repeating its top's.
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
def turn(a, lanes, tables, B, Z, RV, H, out, RS, HS, slope):
    """Mover ``a``'s best turn against the ends ``B``, ``Z`` of ``lanes`` opponents: ``out[lane]``, and the roll
    values ``RV`` and confirmation rolls ``H`` of every row (a decision rolls where ``RV > B``). ``slope[lane]``
    (with ``RS``, ``HS`` for every row): the chance that the turn so played ends in a zero roll — the derivative
    of ``out`` by ``Z`` (no bank leads back to the position the zero roll leads to)."""
    need_of, top_of, _, _, _, dice = tables
    need = np.full(lanes, need_of[a])
    lanes_turn(top_of[a], need, lanes, dice, B, Z, RV, H, out, RS, HS, slope)


@numba.njit(cache=True, nogil=True)
def lanes_turn(top, need, lanes, dice, B, Z, RV, H, out, RS, HS, slope):
    """:func:`turn` with a smallest bank ``need[lane]`` a lane and totals kept at ``top``: lanes of different
    movers (:func:`column_ends`), each lane's banks past its own top extended by its top's."""
    first, prob, step, left, zero = dice
    for t in range(top, -1, -1):
        # the confirmation roll: a score banks from the minimum on, below it the turn goes on
        z = zero[5]
        for lane in range(lanes):
            H[t, lane] = z * Z[lane]
            HS[t, lane] = z
        for k in range(first[5], first[6]):
            p = prob[k]
            t2 = min(t + step[k], top)
            n2 = left[k]
            for lane in range(lanes):
                if t2 >= need[lane]:
                    v = B[t2, lane]
                    d = 0.0
                elif n2 == 0:
                    v = H[t2, lane]
                    d = HS[t2, lane]
                elif RV[t2, n2, lane] > B[t2, lane]:
                    v = RV[t2, n2, lane]
                    d = RS[t2, n2, lane]
                else:
                    v = B[t2, lane]
                    d = 0.0
                H[t, lane] += p * v
                HS[t, lane] += p * d
        for n in range(1, 6):
            z = zero[n]
            for lane in range(lanes):
                RV[t, n, lane] = z * Z[lane]
                RS[t, n, lane] = z
            for k in range(first[n], first[n + 1]):
                p = prob[k]
                t2 = min(t + step[k], top)
                n2 = left[k]
                if n2 == 0:
                    for lane in range(lanes):
                        RV[t, n, lane] += p * H[t2, lane]
                        RS[t, n, lane] += p * HS[t2, lane]
                else:
                    for lane in range(lanes):
                        r = RV[t2, n2, lane]
                        if r > B[t2, lane]:
                            RV[t, n, lane] += p * r
                            RS[t, n, lane] += p * RS[t2, n2, lane]
                        else:
                            RV[t, n, lane] += p * B[t2, lane]
    for lane in range(lanes):
        out[lane] = RV[0, 5, lane]
        slope[lane] = RS[0, 5, lane]


@numba.njit(cache=True, nogil=True, inline="always")
def _local(i, a_lo, a_hi, b_lo):
    """A state's place among the level's states (the first key's, then the other's)."""
    return i - a_lo if i < a_hi and i >= a_lo else a_hi - a_lo + i - b_lo


@numba.njit(cache=True, nogil=True)
def _mover(a, lo, hi, L, U, tables, work, S, pair, lv):
    """Both bounds of mover ``a`` against opponents ``lo..hi``, in place: ``L = T(U)``, then ``U = T(L)``.

    With ``pair``, each update is solved together with the position the zero roll leads to (the opponent to
    move, the same scores), linearised by the turns' zero-roll chances ``S`` (``S[0]`` of ``L``, ``S[1]`` of
    ``U``, by the level's local indices ``lv``): a Newton step on the two positions' zero-roll cycle, exact while
    the decisions stay the same (without it, players who both roll on for long converge slowly: ≈ 0.77 a sweep
    measured). Sweeps without ``pair`` are plain updates ``T``: their change is the residual."""
    B, Z, RV, H, out, RS, HS, slope = work
    a_lo, a_hi, b_lo = lv
    lanes = hi - lo
    change = 0.0
    gap = 0.0
    la = _local(a, a_lo, a_hi, b_lo)
    for side in range(2):
        R = U if side == 0 else L
        W = L if side == 0 else U
        ends(a, lo, hi, R, tables, B, Z)
        turn(a, lanes, tables, B, Z, RV, H, out, RS, HS, slope)
        for lane in range(lanes):
            b = lo + lane
            lb = _local(b, a_lo, a_hi, b_lo)
            x = out[lane]
            s = slope[lane]
            if pair > 1.0:
                # the partner (mover b) read this position's old value through its zero roll: the Newton step
                # amplifies the plain one by 1 / (1 - s u), at most ``pair``-fold (decisions that change make
                # the full step overshoot and cycle)
                u = S[1 - side, la, lb]
                old = W[b, a]
                x = old + (x - old) * min(pair, 1.0 / max(1.0 - s * u, 1e-12))
                R[a, b] -= u * (x - old)
            change = max(change, abs(x - W[b, a]))
            W[b, a] = x
            S[side, lb, la] = s
    for lane in range(lanes):
        b = lo + lane
        gap = max(gap, abs(U[b, a] - L[b, a]))
    return change, gap


@numba.njit(cache=True, nogil=True)
def _column(o, lo, hi, L, U, tables, work, need, S, pair, lv):
    """:func:`_mover` the other way round: movers ``lo..hi`` against opponent ``o``, one call of lanes
    (:func:`column_ends`)."""
    B, Z, RV, H, out, RS, HS, slope = work
    a_lo, a_hi, b_lo = lv
    lanes = hi - lo
    movers = np.arange(lo, hi)
    dice = tables[5]
    change = 0.0
    gap = 0.0
    lo_ = _local(o, a_lo, a_hi, b_lo)
    for side in range(2):
        R = U if side == 0 else L
        W = L if side == 0 else U
        top = column_ends(movers, o, R, tables, B, Z, need)
        lanes_turn(top, need, lanes, dice, B, Z, RV, H, out, RS, HS, slope)
        for lane in range(lanes - 1, -1, -1):
            m = lo + lane
            lm = _local(m, a_lo, a_hi, b_lo)
            x = out[lane]
            s = slope[lane]
            if pair > 1.0:
                u = S[1 - side, lm, lo_]  # the partner: mover o against m
                old = W[o, m]
                x = old + (x - old) * min(pair, 1.0 / max(1.0 - s * u, 1e-12))
                R[m, o] -= u * (x - old)
            change = max(change, abs(x - W[o, m]))
            W[o, m] = x
            S[side, lo_, lm] = s
    for lane in range(lanes):
        m = lo + lane
        gap = max(gap, abs(U[o, m] - L[o, m]))
    return change, gap


@numba.njit(cache=True, nogil=True)
def level_sweep(movers, lows, highs, lv, L, U, tables, S, pair):
    """One Gauss–Seidel sweep of both bounds over a level in the order of its schedule
    (:func:`variant2_space.schedule`: mover ``movers[k]`` against opponents ``lows[k]..highs[k]``). ``lv``: the
    level's keys' slices ``(a_lo, a_hi, b_lo)`` (the local indices of ``S``, the zero-roll chances of the level's
    turns, kept between sweeps: ``_mover``). Returns the largest change and the largest gap between the bounds."""
    width = tables[2].shape[1]
    lanes = np.max(highs - lows)
    work = (
        np.empty((width, lanes)),
        np.empty(lanes),
        np.empty((width, 6, lanes)),
        np.empty((width, lanes)),
        np.empty(lanes),
        np.empty((width, 6, lanes)),
        np.empty((width, lanes)),
        np.empty(lanes),
    )
    need = np.empty(lanes, dtype=np.int64)
    change = 0.0
    gap = 0.0
    for k in range(movers.shape[0]):
        if movers[k] < 0:  # movers lows..highs against opponent -1 - movers[k]: one call of lanes
            c, g = _column(-1 - movers[k], lows[k], highs[k], L, U, tables, work, need, S, pair, lv)
        else:
            c, g = _mover(movers[k], lows[k], highs[k], L, U, tables, work, S, pair, lv)
        change = max(change, c)
        gap = max(gap, g)
    return change, gap


@numba.njit(cache=True, nogil=True)
def _one(a, b, R, tables, work):
    """Mover ``a``'s turn against opponent ``b`` alone, reading ``R``: its value and its zero-roll chance."""
    B, Z, RV, H, out, RS, HS, slope = work
    ends(a, b, b + 1, R, tables, B, Z)
    turn(a, 1, tables, B, Z, RV, H, out, RS, HS, slope)
    return out[0], slope[0]


@numba.njit(cache=True, nogil=True)
def _pair(a, b, X, Y, tables, work, tol):
    """Solve together the position (mover ``a``, opponent ``b``) of the bound ``X`` and its zero roll's
    (mover ``b``, opponent ``a``) of the other bound ``Y`` (``X = T(Y)``, ``Y = T(X)`` on these two, all else
    fixed): Newton's method on the two turns, linear in each other's value with slope the zero-roll chance —
    exact once the decisions stop changing. Returns the iterations, or -1 where both turns roll on until a zero
    (their values depend only on each other: endless play, the bounds stay apart)."""
    for it in range(1, 60):
        x, y = X[b, a], Y[a, b]
        f1, s1 = _one(a, b, Y, tables, work)  # reads y through the zero roll
        f2, s2 = _one(b, a, X, tables, work)  # reads x
        det = 1.0 - s1 * s2
        if det < 1e-12:
            X[b, a], Y[a, b] = f1, f2
            return -1
        nx = (f1 - s1 * f2 + s1 * y - s1 * s2 * x) / det
        ny = f2 - s2 * (nx - x)
        X[b, a], Y[a, b] = nx, ny
        if abs(nx - x) < tol and abs(ny - y) < tol:
            return it
    return 60


@numba.njit(cache=True, nogil=True)
def ordered_pass(firsts, seconds, L, U, tables, tol):
    """The positions of a level where nobody is on the barrel, in one pass by descending sum of the scores (a
    bank raises the sum or climbs onto the barrel, solved before; a zero roll swaps the players, solved together
    by :func:`_pair`): each pair ``(firsts[k], seconds[k])`` with its swap, both bounds. Returns the most
    Newton iterations a pair took and how many pairs play on endlessly."""
    width = tables[2].shape[1]
    work = (
        np.empty((width, 1)),
        np.empty(1),
        np.empty((width, 6, 1)),
        np.empty((width, 1)),
        np.empty(1),
        np.empty((width, 6, 1)),
        np.empty((width, 1)),
        np.empty(1),
    )
    most = 0
    endless = 0
    for k in range(firsts.shape[0]):
        a, b = firsts[k], seconds[k]
        for side in range(2 if a != b else 1):
            it = _pair(a, b, L, U, tables, work, tol) if side == 0 else _pair(a, b, U, L, tables, work, tol)
            if it < 0:
                endless += 1
            most = max(most, it)
    return most, endless


@numba.njit(cache=True, nogil=True)
def column_ends(movers, o, R, tables, B, Z, need):
    """The ends of ``movers``' turns (one a lane) against opponent ``o``, from ``R``, for :func:`lanes_turn`:
    ``need`` each mover's smallest bank; returns the common top (the largest), each lane's banks past its own top
    being its top's — so that the rows above it repeat its top row, as its own turn keeps totals there."""
    need_of, top_of, bank_next, bank_knocks, knock_next, _ = tables
    k = knock_next[o]
    knocked = o if k < 0 else k
    top = 0
    for lane in range(movers.shape[0]):
        top = max(top, top_of[movers[lane]])
    for lane in range(movers.shape[0]):
        m = movers[lane]
        Z[lane] = 1.0 - R[m, o]
        need[lane] = need_of[m]
        tm = top_of[m]
        for t in range(tm + 1):
            code = bank_next[m, t]
            if t < need_of[m] or code == -2:
                B[t, lane] = NEG
            elif code == -1:
                B[t, lane] = 1.0
            elif bank_knocks[m, t]:
                B[t, lane] = 1.0 - R[code, knocked]
            else:
                B[t, lane] = 1.0 - R[code, o]
        for t in range(tm + 1, top + 1):
            B[t, lane] = B[tm, lane]
    return top


@numba.njit(cache=True, nogil=True)
def tiled_pass(plan, L, U, tables, tol):
    """:func:`ordered_pass` by tiles: each row ``(a, lo, hi, warm)`` of ``plan`` (:func:`variant2_space.tiles`)
    is mover ``a`` against opponents ``lo..hi`` together with those movers against ``a`` (the zero roll's swaps),
    each a call of lanes, started from the values of mover ``warm`` (5 points up; -1: none). Per bound pair
    (``X = T(Y)`` on the first, ``Y = T(X)`` on the swaps) Newton steps as in :func:`_pair`, lane by lane, until
    no value moves by ``tol``; within the tile a swap reads the banks of the first ones with a larger opponent
    score of the step before, so the lanes settle from the top down, and settled top lanes are left out of the
    next step. Returns the most steps a tile took and the pairs where both turns roll on until a zero roll."""
    width = tables[2].shape[1]
    lanes = 0
    for k in range(plan.shape[0]):
        lanes = max(lanes, plan[k, 2] - plan[k, 1])
    B, Z, RV, H = (
        np.empty((width, lanes)),
        np.empty(lanes),
        np.empty((width, 6, lanes)),
        np.empty((width, lanes)),
    )
    RS, HS = np.empty((width, 6, lanes)), np.empty((width, lanes))
    f1, s1, f2, s2 = np.empty(lanes), np.empty(lanes), np.empty(lanes), np.empty(lanes)
    need = np.empty(lanes, dtype=np.int64)
    dice = tables[5]
    most = 0
    endless = 0
    for k in range(plan.shape[0]):
        a, lo, top_lane, warm = plan[k, 0], plan[k, 1], plan[k, 2], plan[k, 3]
        for side in range(2):
            X = L if side == 0 else U
            Y = U if side == 0 else L
            if warm >= 0:  # start from the tile of the mover 5 points up: close, so fewer steps
                for b in range(lo, top_lane):
                    X[b, a], Y[a, b] = X[b, warm], Y[warm, b]
            hi = top_lane
            for it in range(1, 61):
                n = hi - lo
                movers = np.arange(lo, hi)
                ends(a, lo, hi, Y, tables, B, Z)  # mover a against lo..hi: reads the swaps through Y
                turn(a, n, tables, B, Z, RV, H, f1, RS, HS, s1)
                top = column_ends(movers, a, X, tables, B, Z, need)  # lo..hi against a: reads X
                lanes_turn(top, need, n, dice, B, Z, RV, H, f2, RS, HS, s2)
                moved = 0.0
                settled = hi  # the lanes from here up moved by less than tol: they read only lanes above
                for lane in range(n - 1, -1, -1):
                    b = lo + lane
                    x, y = X[b, a], Y[a, b]
                    det = 1.0 - s1[lane] * s2[lane]
                    if det < 1e-12:
                        nx, ny = f1[lane], f2[lane]
                        if it == 60:
                            endless += 1
                    else:
                        nx = (f1[lane] - s1[lane] * f2[lane] + s1[lane] * y - s1[lane] * s2[lane] * x) / det
                        ny = f2[lane] - s2[lane] * (nx - x)
                    moved = max(moved, abs(nx - x), abs(ny - y))
                    if moved < tol:
                        settled = b
                    X[b, a], Y[a, b] = nx, ny
                most = max(most, it)
                if moved < tol:
                    break
                hi = settled
    return most, endless
