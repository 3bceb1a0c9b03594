"""Variant-2-like rules solved level by level by value iteration from both ends on the compiled turn
(:mod:`variant2_kernel`).

Levels (:func:`variant2_space.levels`) are solved one after the other: each reads only itself and finished
levels. Within one, Gauss–Seidel sweeps set ``L = T(U)`` and ``U = T(L)`` (movers by descending score) until the
bounds meet within ``tol`` — or stop moving while apart: optimal play from there never ends (both players refuse
to climb onto the barrel, where the other would knock them back), and the bounds are what is known. Finished
levels go to a checkpoint (at most once every ``checkpoint_every`` seconds, and at the end): the same call
resumes from it.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver import variant2_kernel
from dicehall.thousand.solver.size import FullState
from dicehall.thousand.solver.variant2_space import (
    Variant2Space,
    build_variant2_space,
    kernel_tables,
    levels,
    schedule,
)

FloatArray = npt.NDArray[np.float64]


class Level(NamedTuple):
    number: int
    """Its place in :func:`variant2_space.levels`."""
    openings: tuple[int, int]
    """The two players' opening scores (−1: not opened)."""
    positions: int
    sweeps: int
    gap: float
    """The largest difference between the bounds left (≤ tol: solved)."""
    residual: float
    """The largest change of either bound in the last sweep, a plain one (max |T(V) − V|)."""
    converged: bool
    """The bounds met, or stopped moving (endless play: ``gap`` > tol)."""
    cpu_seconds: float


@dataclasses.dataclass
class Variant2Table:
    space: Variant2Space
    lower: FloatArray  # lower[b, a]: (mover a, opponent b)
    upper: FloatArray
    levels: list[Level]
    complete: bool

    def bounds(self, mover: FullState, opponent: FullState) -> tuple[float, float]:
        a, b = self.space.index[mover], self.space.index[opponent]
        return float(self.lower[b, a]), float(self.upper[b, a])

    @functools.cached_property
    def middle(self) -> FloatArray:
        """The middle of the bounds, every position (what the player from the table plays by)."""
        return (self.lower + self.upper) / 2

    def value(self, mover: int, opponent: int) -> float:
        """The mover's win chance (the middle of the bounds: where play is endless, half-way)."""
        return float(self.lower[opponent, mover] + self.upper[opponent, mover]) / 2


Report = Callable[[Level, int], None]
"""Called after each level with it and the number of levels."""


def _checkpoint_key(rules: ThousandRules, tol: float) -> str:
    return json.dumps({"rules": repr(rules), "tol": tol})


def solve(
    rules: ThousandRules,
    tol: float = 1e-10,
    *,
    checkpoint: Path | None = None,
    checkpoint_every: float = 0.0,
    only: Sequence[int] | None = None,
    max_levels: int | None = None,
    max_sweeps: int = 20_000,
    group: int = 16,
    report: Report | None = None,
) -> Variant2Table:
    """Both bounds of every position of ``rules`` (:func:`variant2.covers`), level by level. ``only``: solve
    just these levels (numbers in :func:`levels`; a timing sample: levels of two opened players read nothing
    else); ``max_levels``: stop after this many more (a resumable part)."""
    space = build_variant2_space(rules)
    tables = kernel_tables(space)
    size = space.size
    # zeros come from the system lazily: a sample of levels touches only its own pages
    L, U = np.zeros((size, size)), np.zeros((size, size))
    order = levels(space)
    done: list[Level] = []
    key = _checkpoint_key(rules, tol)
    if checkpoint is not None and checkpoint.exists() and only is None:
        with np.load(checkpoint) as saved:
            if str(saved["key"]) != key:
                raise ValueError(f"{checkpoint} holds another rule set's or tolerance's table")
            L[:], U[:] = saved["lower"], saved["upper"]
            done = [Level(**{**lv, "openings": tuple(lv["openings"])}) for lv in json.loads(str(saved["levels"]))]
    todo = list(only) if only is not None else list(range(len(done), len(order)))
    if max_levels is not None:
        todo = todo[:max_levels]
    saved_at = time.monotonic()
    for number in todo:
        ka, kb = order[number]
        a_lo, a_hi = int(space.key_lo[ka]), int(space.key_hi[ka])
        b_lo, b_hi = int(space.key_lo[kb]), int(space.key_hi[kb])
        cpu = time.process_time()
        for rows, cols in (((b_lo, b_hi), (a_lo, a_hi)), ((a_lo, a_hi), (b_lo, b_hi))):
            L[rows[0] : rows[1], cols[0] : cols[1]] = 0.0
            U[rows[0] : rows[1], cols[0] : cols[1]] = 1.0
        n = a_hi - a_lo + (0 if ka == kb else b_hi - b_lo)
        slopes = np.zeros((2, n, n))
        plan = (*schedule(space, (ka, kb), group), (a_lo, a_hi, b_lo))
        sweeps, gap, residual, converged = 0, 1.0, 1.0, False
        while sweeps < max_sweeps:
            change, gap = variant2_kernel.level_sweep(*plan, L, U, tables, slopes, True)
            sweeps += 1
            if change >= tol / 10 and not (gap <= tol and change < tol):
                continue
            # a plain sweep certifies it: its change is the residual max |T(V) - V| of both bounds
            residual, gap = variant2_kernel.level_sweep(*plan, L, U, tables, slopes, False)
            sweeps += 1
            if (gap <= tol and residual < tol) or residual < tol / 100:
                converged = True
                break
        level = Level(
            number,
            (space.keys[ka], space.keys[kb]),
            space.level_positions((ka, kb)),
            sweeps,
            float(gap),
            float(residual),
            converged,
            round(time.process_time() - cpu, 3),
        )
        done.append(level)
        if report is not None:
            report(level, len(order))
        if (
            checkpoint is not None
            and only is None
            and (time.monotonic() - saved_at >= checkpoint_every or number == todo[-1])
        ):
            _save(checkpoint, key, L, U, done)
            saved_at = time.monotonic()
    complete = only is None and len(done) == len(order)
    return Variant2Table(space, L, U, done, complete)


def _save(path: Path, key: str, L: FloatArray, U: FloatArray, done: list[Level]) -> None:
    tmp = path.with_name(path.name + ".part.npz")
    np.savez(tmp, key=key, lower=L, upper=U, levels=json.dumps([lv._asdict() for lv in done]))
    tmp.replace(path)
