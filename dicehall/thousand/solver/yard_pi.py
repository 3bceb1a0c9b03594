"""Yard's exact table by policy iteration, one fall level after the other (the method of :mod:`pi`, on yard's
exits: :func:`yard_kernel.level_rows`).

Values are one vector ``V = [W.ravel(), F.ravel()]`` (:mod:`yard_space`: ``F`` the positions whose opponent is
flagged to skip). A level holds the positions whose players have a given pair of fall counts, both flags; falls
never go down, so a level reads only itself and the levels solved before it. Per level: the turn played greedily
for ``V`` gives the linear system of that policy (:class:`pi.RowSystem` built from yard's exits), solved by GMRES
preconditioned with one Gauss–Seidel sweep, until ``max |T(V) − V| <= tol``. The finished levels are kept in a
checkpoint (resumable). ``dicehall solve thousand`` runs it on yard-like rules (:mod:`yard_cli`) and stores the
table (:mod:`yard_table`).
"""

from __future__ import annotations

import functools
import itertools
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver import krylov, yard_kernel
from dicehall.thousand.solver.pi import RowSystem
from dicehall.thousand.solver.yard_space import YardSpace, build_yard_space, kernel_tables

Vec = npt.NDArray[np.float64]
LANES = 128
"""Opponents per kernel call (the turn's tables are ``LANES`` wide: 2 × 6 MB at yard's 261 totals)."""


class Side(NamedTuple):
    mlo: int
    mhi: int
    olo: int
    ohi: int
    flagged: int


def yard_levels(space: YardSpace) -> list[list[Side]]:
    """The levels in solving order (most falls first), each its sides: movers of one fall count against opponents
    of another, with and without the flag."""
    falls = space.falls_of
    count = int(falls.max()) + 1
    lo = np.searchsorted(falls, np.arange(count + 1))
    flags = (0, 1) if space.rules.skip_on_zero_first else (0,)
    pairs = sorted(
        ((a, b) for a in range(count) for b in range(a, count)),
        key=lambda ab: (-(ab[0] + ab[1]), -ab[1], -ab[0]),
    )
    out = []
    for a, b in pairs:
        sides = [(a, b)] if a == b else [(a, b), (b, a)]
        out.append(
            [
                Side(int(lo[fm]), int(lo[fm + 1]), int(lo[fo]), int(lo[fo + 1]), f)
                for fm, fo in sides
                for f in flags
            ]
        )
    return out


class _System(RowSystem):
    """One level's positions, their row slots and the rows of the current policy (:class:`pi.RowSystem`, built
    from yard's exits)."""

    def __init__(self, space: YardSpace, sides: list[Side]) -> None:
        size = space.size
        half = size * size
        self.space, self.sides = space, sides
        columns, widths, keys = [], [], []
        for s in sides:
            m = np.arange(s.mlo, s.mhi)[:, None]
            o = np.arange(s.olo, s.ohi)[None, :]
            columns.append((s.flagged * half + o * size + m).reshape(-1))
            widths.append(np.repeat(space.limit_of[s.mlo : s.mhi] + 4, s.ohi - s.olo))
            keys.append((space.score_of[m] + space.score_of[o]).reshape(-1))
        super().__init__(np.concatenate(widths), np.concatenate(keys))
        self.columns = np.concatenate(columns)
        self.local = np.full(2 * half, -1, dtype=np.int64)
        self.local[self.columns] = np.arange(self.n)

    def build(self, V: Vec, tables: tuple[object, ...], pool: ThreadPoolExecutor | None) -> None:
        jobs = [
            (s, m, a, min(a + LANES, s.ohi))
            for s in self.sides
            for m in range(s.mlo, s.mhi)
            for a in range(s.olo, s.ohi, LANES)
        ]

        def run(part: list[tuple[Side, int, int, int]]) -> None:
            for s, m, a, b in part:
                yard_kernel.level_rows(
                    m, a, b, s.flagged, V, self.local, tables, self.start, self.cols, self.vals, self.end,
                    self.diag, self.rhs, self.tv,
                )  # fmt: skip

        if pool is None:
            run(jobs)
        else:
            list(pool.map(run, [jobs[k::2] for k in range(2)]))
        self.split()


def warm_start(space: YardSpace, sys_: _System, V: Vec) -> None:
    """Start a level from the positions with one fall more for each player (solved before it), which play much
    alike (``pi.warm_start``); positions with an unopened player (no fall count to raise) start at ½."""
    seat = space.model.seat
    up = np.full(space.size, -1, dtype=np.int64)
    for i, p in enumerate(space.states):
        if p.opened:
            up[i] = space.index.get(seat.canonical(p._replace(falls=p.falls + 1)), -1)
    size = space.size
    half = size * size
    c = sys_.columns
    flag, rest = np.divmod(c, half)
    o, m = np.divmod(rest, size)
    um, uo = up[m], up[o]
    ok = (um >= 0) & (uo >= 0) & ((um != m) | (uo != o))  # the last fall count stays: not solved yet
    V[c] = 0.5
    V[c[ok]] = V[flag[ok] * half + uo[ok] * size + um[ok]]


class LevelStats(NamedTuple):
    positions: int
    steps: int
    residual: float
    gmres_iterations: int
    entries: int
    cpu_seconds: float


class YardTable(NamedTuple):
    space: YardSpace
    values: Vec  # [W.ravel(), F.ravel()]
    levels: list[LevelStats]
    complete: bool

    def value(self, mover: int, opponent: int, flagged: bool = False) -> float:
        size = self.space.size
        return float(self.values[flagged * size * size + opponent * size + mover])


Report = Callable[[int, int, int, float], None]
"""Called after each policy step: (level, levels, step, residual max |T(V) − V|)."""


def solve_levels(
    rules: ThousandRules,
    floor: int,
    tol: float = 1e-9,
    checkpoint: Path | None = None,
    threads: int = 2,
    max_levels: int | None = None,
    report: Report | None = None,
    max_steps: int = 60,
) -> YardTable:
    """Policy iteration level by level (resuming from ``checkpoint``, which keeps the finished levels);
    ``max_levels`` stops after that many levels of this run (complete=False)."""
    space = build_yard_space(rules, floor)
    tables = kernel_tables(space)
    plan = yard_levels(space)
    V = np.full(2 * space.size**2, 0.5)
    stats: list[LevelStats] = []
    if checkpoint is not None and checkpoint.exists():
        with np.load(checkpoint) as data:
            if data["values"].shape == V.shape:
                V[:] = data["values"]
                stats = [LevelStats(*(float(x) for x in row)) for row in data["levels"]]  # type: ignore[arg-type]
    pool = ThreadPoolExecutor(threads) if threads > 1 else None
    done_now = 0
    try:
        for li in range(len(stats), len(plan)):
            if max_levels is not None and done_now >= max_levels:
                break
            cpu0 = time.process_time()
            sys_ = _System(space, plan[li])
            warm_start(space, sys_, V)
            residual, iterations, entries, steps = float("inf"), 0, 0, 0
            for steps in itertools.count():
                sys_.build(V, tables, pool)
                residual = float(np.abs(sys_.tv - V[sys_.columns]).max())
                if report is not None:
                    report(li + 1, len(plan), steps, residual)
                if residual <= tol or steps >= max_steps:
                    break
                entries = max(entries, sys_.entries())
                out = krylov.gmres(
                    functools.partial(sys_.apply, pool=pool),
                    sys_.precond,
                    functools.partial(sys_.residual, pool=pool),
                    sys_.tv,
                    max(tol / 50, residual / 100),  # inexact while far from the fixed point
                )
                iterations += out.iterations
                V[sys_.columns] = out.x
            if residual > tol:
                raise RuntimeError(
                    f"level {li + 1} did not converge: residual {residual:.3g} after {steps} steps"
                )
            stats.append(LevelStats(sys_.n, steps, residual, iterations, entries, time.process_time() - cpu0))
            done_now += 1
            if checkpoint is not None:
                checkpoint.parent.mkdir(parents=True, exist_ok=True)
                tmp = checkpoint.with_suffix(".tmp.npz")
                np.savez(tmp, values=V, levels=np.array([list(s) for s in stats], dtype=np.float64))
                tmp.replace(checkpoint)
    finally:
        if pool is not None:
            pool.shutdown()
    return YardTable(space, V, stats, len(stats) == len(plan))
