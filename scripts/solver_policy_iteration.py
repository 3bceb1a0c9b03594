"""Prototype behind docs/thousand-solved.md ("Policy iteration per level"): policy iteration on classic's ``{2,2}``
fall level (both players have fallen twice), the level value iteration converges slowest on.

It starts from the midpoint of the bounds in the classic checkpoint that ``dicehall solve thousand --preset
classic`` leaves (interrupt it once ``{2,2}`` has had some sweeps; the level reads no other level), and prints per
improvement step: the entries of ``Q`` (each position's chance to end its turn at each next position), CPU seconds
to build and to solve ``(I + Q) V = 1`` with GMRES, the residual, the largest change and the share of values
inside the checkpoint's bounds. Not part of the product: it holds ``Q`` in memory (≈ 2 GB) and is not tuned.

Usage: PYTHONPATH=. python scripts/solver_policy_iteration.py [STEPS]
"""

from __future__ import annotations

import sys
import time

import numba
import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver import kernel
from dicehall.thousand.solver.solve import checkpoint_path
from dicehall.thousand.solver.space import PlayerState, build_space, dice_table, turn_tables


@numba.njit(cache=False)
def level_exits(c, e, W, tmax, tabs, rows_out, cols_out, vals_out, win_out):
    """``Q`` of the positions with movers and opponents in ``c..e`` under the policy greedy for ``W``."""
    score_of, top, bank_next, bank_score, bank_climb, burn_next, ovt_next, knock_next = tabs[:8]
    first, prob, step, left, zero = tabs[8:]
    n = e - c
    k = 0
    for m in range(c, e):
        C = np.empty((tmax + 1, 6, n))
        B = np.empty((tmax + 1, n))
        kernel.turn(m, c, e, W, C, B, *tabs)
        T = top[m]
        P = np.zeros((T + 1, 6, n))  # chance to stand at (turn total, dice in hand)
        bank = np.zeros((T + 1, n))
        burn = np.zeros(n)
        P[0, 0, :] = 1.0
        for t in range(T + 1):
            for _ in range(200 if t == T else 1):  # the top row feeds itself (hot dice): repeat until drained
                mass = 0.0
                for nn in range(6):
                    for j in range(n):
                        p = P[t, nn, j]
                        if p == 0.0:
                            continue
                        P[t, nn, j] = 0.0
                        mass += p
                        if nn > 0 and B[t, j] >= 0 and not C[t, nn, j] > B[t, j]:
                            bank[t, j] += p
                            continue
                        d = 5 if nn == 0 else nn
                        burn[j] += p * zero[d]
                        for g in range(first[d], first[d + 1]):
                            P[min(t + step[g], T), left[g], j] += p * prob[g]
                if t < T or mass < 1e-18:
                    break
        for j in range(n):
            o = c + j
            x = (m - c) * n + j
            rows_out[k] = x
            cols_out[k] = (o - c) * n + (burn_next[m] - c)
            vals_out[k] = burn[j]
            k += 1
            for t in range(T + 1):
                p = bank[t, j]
                if p == 0.0:
                    continue
                code = bank_next[m, t]
                if code == -1:
                    win_out[x] += p
                    continue
                o2 = o
                if score_of[m] < score_of[o] < bank_score[m, t]:
                    o2 = ovt_next[o2]
                if bank_climb[m, t] and knock_next[o2] >= 0:
                    o2 = knock_next[o2]
                rows_out[k] = x
                cols_out[k] = (o2 - c) * n + (code - c)
                vals_out[k] = p
                k += 1
    return k


def main(steps: int) -> None:
    rules = ThousandRules.from_preset("classic")
    space = build_space(rules)
    tabs = turn_tables(space, dice_table(rules))
    c, e = int(space.fall_lo[2]), int(space.fall_lo[3])
    n = e - c
    with np.load(checkpoint_path(rules)) as data:
        lower, upper = data["lower"], data["upper"]
    W = (lower + upper) / 2
    tmax = int(space.top.max())
    cap = int(n * (space.top[c:e] + 2).sum())
    start = space.index[space.canonical(PlayerState(0, True, 0, 2, 0))] - c
    for it in range(steps):
        t0 = time.process_time()
        rows, cols, vals = np.empty(cap, np.int64), np.empty(cap, np.int64), np.empty(cap)
        win = np.zeros(n * n)
        k = level_exits(c, e, W, tmax, tabs, rows, cols, vals, win)
        t1 = time.process_time()
        A = sp.identity(n * n, format="csr") + sp.csr_matrix(
            (vals[:k], (rows[:k], cols[:k])), shape=(n * n, n * n)
        )
        del rows, cols, vals
        rhs = np.ones(n * n)  # V(x) = win + sum_e p_e (1 - V(y_e)) with win + sum_e p_e = 1
        x0 = W[c:e, c:e].T.reshape(-1)  # index (m - c) * n + (o - c) holds W[o, m]
        v, info = spla.gmres(A, rhs, x0=x0, rtol=1e-13, restart=60, maxiter=400)
        t2 = time.process_time()
        new = v.reshape(n, n).T
        inside = ((new >= lower[c:e, c:e] - 1e-9) & (new <= upper[c:e, c:e] + 1e-9)).mean()
        print(
            f"step {it}: {k:,} entries, build {t1 - t0:.1f} CPU-s, GMRES {t2 - t1:.1f} CPU-s (info {info}), "
            f"residual {np.abs(A @ v - rhs).max():.1e}, change {np.abs(new - W[c:e, c:e]).max():.1e}, "
            f"inside the bounds {inside:.4f}, mover at 0 vs 0 {new[start, start]:.10f}",
            flush=True,
        )
        W[c:e, c:e] = new


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 4)
