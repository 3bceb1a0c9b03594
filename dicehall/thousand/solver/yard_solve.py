"""Yard-like rules solved by value iteration from both ends on the compiled turn (:mod:`yard_kernel`).

Every sweep sets ``L = T(U)`` and ``U = T(L)`` over all positions, flagged ones included, until the bounds meet
within ``tol`` (or stop moving: endless optimal play). This is the method of small rule sets (proved bounds);
the full yard table (13.5 million positions, ≈ 6 CPU-minutes a sweep) is policy iteration's (:mod:`yard_pi`).
:func:`policy_iteration_small` solves every position at once on the same exits, for the tests.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import numpy.typing as npt

from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver import yard_kernel
from dicehall.thousand.solver.size import FullState
from dicehall.thousand.solver.yard_space import YardSpace, build_yard_space, kernel_tables

FloatArray = npt.NDArray[np.float64]


@dataclasses.dataclass
class YardSolution:
    space: YardSpace
    lower: FloatArray  # lower[b, a]: (mover a, opponent b)
    upper: FloatArray
    lower_flagged: FloatArray  # the opponent b flagged to skip
    upper_flagged: FloatArray
    sweeps: int
    converged: bool

    def bounds(self, mover: FullState, opponent: FullState, flagged: bool = False) -> tuple[float, float]:
        a, b = self.space.index[mover], self.space.index[opponent]
        lo, hi = (self.lower_flagged, self.upper_flagged) if flagged else (self.lower, self.upper)
        return float(lo[b, a]), float(hi[b, a])

    @property
    def gap(self) -> float:
        flagged = self.space.flaggable.astype(bool)
        return max(
            float((self.upper - self.lower).max()),
            float((self.upper_flagged - self.lower_flagged)[flagged].max(initial=0.0)),
        )


def solve_small(rules: ThousandRules, floor: int, tol: float = 1e-10, max_sweeps: int = 2000) -> YardSolution:
    """Both bounds of every position of ``rules`` (a yard-like rule set: :func:`yard.covers`)."""
    space = build_yard_space(rules, floor)
    tables = kernel_tables(space)
    size = space.size
    L, U = np.zeros((size, size)), np.ones((size, size))
    LF, UF = np.zeros((size, size)), np.ones((size, size))
    skip = int(rules.skip_on_zero_first)
    sweeps = 0
    converged = False
    solution = YardSolution(space, L, U, LF, UF, 0, False)
    while sweeps < max_sweeps:
        change = yard_kernel.sweep(L, LF, U, UF, tables, space.flaggable, skip)
        sweeps += 1
        if (solution.gap <= tol and change < tol) or change < tol / 100:
            converged = True
            break
    solution.sweeps, solution.converged = sweeps, converged
    return solution


@dataclasses.dataclass
class YardValues:
    """One value per position (policy iteration): ``values[b, a]`` and ``flagged[b, a]`` as in :class:`YardSolution`."""

    space: YardSpace
    values: FloatArray
    flagged: FloatArray
    steps: int
    residual: float
    """max |T(V) − V| over every position (``T``: one optimally played turn)."""

    def value(self, mover: FullState, opponent: FullState, flagged: bool = False) -> float:
        a, b = self.space.index[mover], self.space.index[opponent]
        return float((self.flagged if flagged else self.values)[b, a])


def policy_iteration_small(
    rules: ThousandRules, floor: int, tol: float = 1e-12, max_steps: int = 60
) -> YardValues:
    """Policy iteration over every position at once (a sparse direct solve: small rule sets only): the turn
    played greedily for the values, where it ends (:func:`yard_kernel.flow`) as one linear system
    ``V − Σ own p·V + Σ their p·V = Σ their p + p(win)``, solved, until ``max |T(V) − V| <= tol``. The
    exits the full table's policy iteration would be built from, checked here against value iteration."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.linalg import spsolve

    space = build_yard_space(rules, floor)
    tables = kernel_tables(space)
    size = space.size
    half = size * size
    n = 2 * half  # with no skip rule the flagged half is never a position: its rows say V = 0
    width = space.bank_next.shape[1]
    rr = rules.max_rolls + 1 if rules.max_rolls else 1
    V = np.full(n, 0.5)
    sides = (0, 1) if rules.skip_on_zero_first else (0,)
    col = np.empty(width + 3, dtype=np.int64)
    same = np.empty(width + 3, dtype=np.int64)
    PB, PZ = np.empty(width), np.empty(4)
    residual = np.inf
    steps = 0
    while steps < max_steps:
        W, F = V[:half].reshape(size, size), V[half:].reshape(size, size)
        rows: list[int] = []
        cols: list[int] = []
        vals: list[float] = []
        rhs = np.zeros(n)
        residual = 0.0
        for flagged in sides:
            for m in range(size):
                B, Z = np.empty((width, size)), np.empty((3, size))
                D, RV = np.empty((width, 6, rr, size)), np.empty((width, 6, rr, size))
                H, start = np.empty((width, rr, size)), np.empty(size)
                yard_kernel.ends(m, 0, size, flagged, W, F, W, B, Z, tables)
                yard_kernel.turn(m, B, Z, D, H, RV, start, tables)
                for o in range(size):
                    i = flagged * half + o * size + m
                    residual = max(residual, abs(start[o] - V[i]))
                    yard_kernel.flow(m, B, RV, o, tables, PB, PZ)
                    yard_kernel.end_targets(m, o, flagged, tables, col, same)
                    rhs[i] = PZ[3]
                    for e, p in [*enumerate(PB), *((width + k, PZ[k]) for k in range(3))]:
                        if p == 0.0:
                            continue
                        c = int(col[e])
                        if c == -1:  # a win
                            rhs[i] += p
                            continue
                        rows.append(i)
                        cols.append(c)
                        vals.append(-p if same[e] else p)
                        if not same[e]:
                            rhs[i] += p
        if residual <= tol:
            break
        diag = np.arange(n)
        A = coo_matrix(
            (np.r_[np.ones(n), vals], (np.r_[diag, rows], np.r_[diag, cols])), shape=(n, n)
        ).tocsc()
        V = spsolve(A, rhs)
        steps += 1
    W, F = V[:half].reshape(size, size), V[half:].reshape(size, size)
    return YardValues(space, W.copy(), F.copy(), steps, float(residual))
