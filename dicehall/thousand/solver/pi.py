"""Policy iteration per fall level: the method that solves classic (value iteration contracts too slowly there).

For fixed turn policies a level is the linear system ``(I + Q) V = rhs`` (:mod:`pi_kernel`); it is solved by
GMRES preconditioned with one Gauss–Seidel sweep of the fixed policy in descending order of the two scores (a
bank raises a score, so most successors come first). Then the policy is made greedy for the new values and the
level solved again, until the values are a fixed point of the optimal-turn operator ``T`` within the tolerance:
``max |T(V) − V|`` (the *residual*, reported) ``<= tol``.

Endless play: for a fixed policy, positions from which play never ends satisfy ``V = 1 − V`` — they count as
a draw (½ each). That is the convention of this method (documented in docs/thousand-solved.md); value iteration
from both ends (:mod:`solve`) is the method that proves bounds instead.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from dicehall.thousand.solver import krylov, pi_kernel
from dicehall.thousand.solver.space import Level, Space, TurnTables

Vec = npt.NDArray[np.float64]
Step = Callable[[int, float, float], None]
"""Called after each improvement step with (step, residual max |T(V) − V|, fraction of the build done)."""

MAX_STEPS = 60


class LevelResult(NamedTuple):
    steps: int
    residual: float
    gmres_iterations: int
    entries: int  # largest number of Q entries held at once
    converged: bool


class RowSystem:
    """``(I + Q) x = rhs`` with ``Q``'s rows in fixed slots laid out in Gauss–Seidel order (int32 columns, float64
    chances), and the products GMRES needs: the residual, the preconditioner (one Gauss–Seidel sweep of the
    fixed policy from zero) and ``(I + Q) M⁻¹ r`` in one pass. A model fills the rows (``start``, ``end``, ``cols``,
    ``vals``, ``diag``, ``rhs``) from its exits and calls :meth:`split` after each build: classic's turn
    (:class:`_System`, :func:`pi_kernel.exits`), yard's (``yard_pi``, ``yard_kernel.level_rows``)."""

    def __init__(self, widths: npt.NDArray[np.int64], order_key: npt.NDArray[np.int64]) -> None:
        """``widths``: the slots of each position's row; ``order_key``: higher first in the sweep (a bank raises a
        score, so most successors come first)."""
        self.n = len(widths)
        self.order = np.argsort(-order_key, kind="stable").astype(np.int64)
        # row slots laid out in that order: every pass over Q then reads it front to back
        self.start = np.zeros(self.n, dtype=np.int64)
        self.start[self.order[1:]] = np.cumsum(widths[self.order])[:-1]
        self.capacity = int(widths.sum())
        self.rank = np.empty(self.n, dtype=np.int64)
        self.rank[self.order] = np.arange(self.n)
        self.mid = np.zeros(self.n, dtype=np.int64)
        self.cols = np.empty(self.capacity, dtype=np.int32)
        self.vals = np.empty(self.capacity)
        self.end = np.zeros(self.n, dtype=np.int64)
        self.diag = np.zeros(self.n)
        self.rhs = np.zeros(self.n)
        self.tv = np.zeros(self.n)

    def entries(self) -> int:
        return int((self.end - self.start).sum())

    def split(self) -> None:
        """Each row's entries to earlier positions of the Gauss–Seidel order first (after every build)."""
        pi_kernel.split_rows(self.rank, self.start, self.end, self.cols, self.vals, self.mid)

    def _halves(self, pool: ThreadPoolExecutor | None, fn: Callable[[int, int], None]) -> None:
        """``fn(a, b)`` over the rows, in two halves at once where there is a pool (the kernels release the GIL)."""
        if pool is None:
            fn(0, self.n)
        else:
            h = self.n // 2
            list(pool.map(fn, (0, h), (h, self.n)))

    def residual(self, x: Vec, pool: ThreadPoolExecutor | None = None) -> Vec:
        """``rhs − (I + Q) x``."""
        out = np.empty(self.n)

        def part(a: int, b: int) -> None:
            pi_kernel.matvec(x, self.order, self.start, self.end, self.cols, self.vals, self.diag, out, a, b)

        self._halves(pool, part)
        return self.rhs - out

    def precond(self, r: Vec) -> Vec:
        """``M⁻¹ r``: one Gauss–Seidel sweep of the fixed policy from zero."""
        z = np.empty(self.n)
        pi_kernel.gauss_seidel(r, self.order, self.start, self.mid, self.cols, self.vals, self.diag, z)
        return z

    def apply(self, r: Vec, pool: ThreadPoolExecutor | None = None) -> Vec:
        """``(I + Q) M⁻¹ r`` in one pass over ``Q``."""
        r = np.ascontiguousarray(r)
        z = self.precond(r)
        w = np.empty(self.n)

        def part(a: int, b: int) -> None:
            pi_kernel.later_part(r, z, self.order, self.mid, self.end, self.cols, self.vals, w, a, b)

        self._halves(pool, part)
        return w


class _System(RowSystem):
    """The level's positions, their row slots and ``Q`` of the current policy."""

    def __init__(self, space: Space, level: Level) -> None:
        self.space = space
        sides = []
        off = 0
        for olo, ohi, mlo, mhi in level.blocks:
            sides.append((int(space.falls_of[mlo]), int(space.falls_of[olo]), mlo, mhi, olo, ohi, off))
            off += (mhi - mlo) * (ohi - olo)
        self.sides = np.array(sides, dtype=np.int64)
        widths = []
        order_key = []
        for _, _, mlo, mhi, olo, ohi, _ in sides:
            no = ohi - olo
            widths.append(np.repeat(space.top[mlo:mhi] + 2, no))
            sm = space.score_of[mlo:mhi][:, None]
            so = space.score_of[olo:ohi][None, :]
            order_key.append((sm + so).reshape(-1))
        super().__init__(np.concatenate(widths), np.concatenate(order_key))
        # fingerprints of each row's policy (see pi_kernel.exits): a build keeps the rows whose policy is unchanged
        self.marks = np.zeros(self.n, dtype=np.int64)
        self.salt = np.random.default_rng(16).integers(
            np.iinfo(np.int64).min, np.iinfo(np.int64).max, (int(space.top.max()) + 1) * 6, dtype=np.int64
        )
        self.built = False

    def values(self, W: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """The level's part of ``W`` as a vector in the level's index."""
        parts = []
        for _, _, mlo, mhi, olo, ohi, _ in self.sides:
            parts.append(W[olo:ohi, mlo:mhi].T.reshape(-1))
        return np.concatenate(parts)

    def store(self, W: npt.NDArray[np.float64], v: npt.NDArray[np.float64]) -> None:
        for _, _, mlo, mhi, olo, ohi, off in self.sides:
            nm, no = mhi - mlo, ohi - olo
            W[olo:ohi, mlo:mhi] = v[off : off + nm * no].reshape(nm, no).T

    def build(self, W: npt.NDArray[np.float64], tables: TurnTables, pool: ThreadPoolExecutor | None) -> None:
        """``Q``, ``rhs`` of the policy greedy for ``W``, and ``T(W)`` into ``tv``."""
        tmax = int(self.space.top.max())
        reuse = self.built
        jobs = []
        for s, (_, _, mlo, mhi, _, _, _) in enumerate(self.sides):
            # chunks of about equal work (a mover's turn costs about its top turn total) for the pool to share
            work = np.cumsum(self.space.top[mlo:mhi] + 2)
            parts = 8 if pool is not None else 1
            cuts = mlo + np.searchsorted(work, np.linspace(0, work[-1], parts + 1)[1:-1])
            bounds = [mlo, *(int(c) for c in cuts), mhi]
            jobs += [(s, a, b) for a, b in itertools.pairwise(bounds) if a < b]

        def run(job: tuple[int, int, int]) -> None:
            s, a, b = job
            pi_kernel.exits(
                s,
                a,
                b,
                self.sides,
                self.space.falls_of,
                W,
                tmax,
                self.start,
                self.cols,
                self.vals,
                self.end,
                self.diag,
                self.rhs,
                self.tv,
                self.marks,
                self.salt,
                reuse,
                tables,
            )

        if pool is None:
            for job in jobs:
                run(job)
        else:
            list(pool.map(run, jobs))
        self.built = True


def warm_start(space: Space, level: Level, W: npt.NDArray[np.float64]) -> None:
    """Start a level from the level with one fall more for each player (solved before it): the same scores with
    one fall more play much alike, so the first policy is nearly right. Positions with a player who has not
    opened (no fall count to raise) start at ½."""
    last = len(space.fall_lo) - 2
    up = np.full(space.size, -1, dtype=np.int64)
    for i, p in enumerate(space.states):
        if p.opened and p.falls < last:
            up[i] = space.index.get(space.canonical(p._replace(falls=p.falls + 1)), -1)
    if level.falls == (last, last):
        return
    for olo, ohi, mlo, mhi in level.blocks:
        mo, mm = up[olo:ohi], up[mlo:mhi]
        block = np.full((ohi - olo, mhi - mlo), 0.5)
        ok_o, ok_m = mo >= 0, mm >= 0
        block[np.ix_(ok_o, ok_m)] = W[np.ix_(mo[ok_o], mm[ok_m])]
        W[olo:ohi, mlo:mhi] = block


def solve_level(
    space: Space,
    level: Level,
    W: npt.NDArray[np.float64],
    tables: TurnTables,
    tol: float,
    pool: ThreadPoolExecutor | None = None,
    step: Step | None = None,
    max_steps: int = MAX_STEPS,
) -> LevelResult:
    """Policy iteration on one level of ``W`` (the levels it reads must be solved already); in place."""
    sys_ = _System(space, level)
    iterations = 0
    entries = 0
    residual = float("inf")
    for k in range(max_steps + 1):
        sys_.build(W, tables, pool)
        v = sys_.values(W)
        residual = float(np.abs(sys_.tv - v).max())
        if step is not None:
            step(k, residual, 1.0)
        if residual <= tol:
            return LevelResult(k, residual, iterations, entries, True)
        if k == max_steps:
            break
        entries = max(entries, sys_.entries())
        sys_.split()
        # inexact steps while far from the fixed point; the last ones solve to well below the tolerance
        target = max(tol / 50, residual / 100)
        # start from T(old values): the old values with one optimally played turn
        out = krylov.gmres(
            lambda r: sys_.apply(r, pool),
            sys_.precond,
            lambda x: sys_.residual(x, pool),
            sys_.tv,
            target,
        )
        iterations += out.iterations
        sys_.store(W, out.x)
    return LevelResult(max_steps, residual, iterations, entries, False)


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    t = time.process_time()
    out = fn()
    return out, time.process_time() - t
