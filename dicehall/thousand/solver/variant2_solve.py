"""Variant-2-like rules solved level by level by value iteration from both ends on the compiled turn
(:mod:`variant2_kernel`).

Levels (:func:`variant2_space.levels`) are solved one after the other: each reads only itself and finished
levels. Both bounds start at 0 and 1 (``L = T(U)``, ``U = T(L)``); within a level:

1. the positions with a player on the barrel are swept until they settle: the only ones a bank can lead back to
   (a climb knocks the player on the barrel back to their opening score), a few hundred a level;
2. every other position in one pass: a bank raises the banker's score or climbs (solved in 1.), a zero roll
   swaps the players: each such pair solved together by Newton's method — by tiles (one mover against a group of
   opponents and the swaps, :func:`variant2_space.tiles`, each a call of lanes) or pair by pair by descending
   sum of the scores;
3. plain sweeps over the whole level certify it (the largest change of the first is the residual
   ``max |T(V) − V|``); should they not settle at once they go on with the speed-ups of 1. (:class:`_Speedup`).
   ``ordered=False`` leaves 2. out (sweeps only: measured slower, docs/thousand-solved.md).

Where the bounds stop moving while apart, optimal play from there never ends (both roll on until a zero roll),
and the bounds are what is known. The speed-ups keep the bounds from proving bounds along the way; the result is
certified by the residual. Finished levels go to a checkpoint (the bounds on disk as sparse arrays, and a list of
the finished levels, at most once every ``checkpoint_every`` seconds and at the end): the same call resumes.
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

from dicehall.i18n.message import Message
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver import variant2_kernel
from dicehall.thousand.solver.size import FullState
from dicehall.thousand.solver.space import SolveError
from dicehall.thousand.solver.variant2_space import (
    Variant2Space,
    barrel_schedule,
    build_variant2_space,
    kernel_tables,
    levels,
    ordered_pairs,
    schedule,
    tiles,
)

FloatArray = npt.NDArray[np.float64]


class Level(NamedTuple):
    number: int
    """Its place in :func:`variant2_space.levels`."""
    openings: tuple[int, int]
    """The two players' opening scores (−1: not opened)."""
    positions: int
    barrel_sweeps: int
    """Sweeps over the positions with a player on the barrel (a few hundred positions a level)."""
    newton: int
    """The most Newton iterations a pair of positions (a zero roll's swap) took in the ordered pass."""
    endless: int
    """Pairs where both players roll on until a zero roll (their bounds stay apart)."""
    sweeps: int
    """Sweeps over the whole level (the first certifies the result; more only where it did not)."""
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
    group: int = 64,
    ordered: bool = True,
    tile: int = 16,
    columns: int = 4,
    report: Report | None = None,
) -> Variant2Table:
    """Both bounds of every position of ``rules`` (:func:`variant2.covers`), level by level. ``only``: solve
    just these levels (numbers in :func:`levels`; a timing sample: levels of two opened players read nothing
    else); ``max_levels``: stop after this many more (a resumable part). ``tile``: the ordered pass by tiles of
    this many opponents (:func:`variant2_kernel.tiled_pass`); 0: pair by pair (:func:`variant2_kernel.ordered_pass`,
    about 2× slower). ``columns``: the barrel's sweeps take the movers below an opponent on the barrel this many
    at a time, by descending score (one call of lanes, :func:`variant2_kernel.column_ends`); 0: one by one."""
    space = build_variant2_space(rules)
    tables = kernel_tables(space)
    size = space.size
    done: list[Level] = []
    key = _checkpoint_key(rules, tol)
    if checkpoint is not None and only is None:
        L, U, done = _open(checkpoint, key, size)
    else:  # zeros come from the system lazily: a sample of levels touches only its own pages
        L, U = np.zeros((size, size)), np.zeros((size, size))
    order = levels(space)
    todo = list(only) if only is not None else list(range(len(done), len(order)))
    if max_levels is not None:
        todo = todo[:max_levels]
    saved_at = time.monotonic()
    try:
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
            local = (a_lo, a_hi, b_lo)
            blocks = [(slice(b_lo, b_hi), slice(a_lo, a_hi))]
            if ka != kb:
                blocks.append((slice(a_lo, a_hi), slice(b_lo, b_hi)))
            # 1. the positions with a player on the barrel: the knock-back's cycles, swept until they settle
            plan = (*barrel_schedule(space, (ka, kb), group, columns), local)
            speed = _Speedup(L, U, blocks)
            barrel_sweeps = 0
            while barrel_sweeps < max_sweeps:
                change, gap = variant2_kernel.level_sweep(*plan, L, U, tables, slopes, speed.pair)
                barrel_sweeps += 1
                speed.after_sweep(change)
                if change < tol / 100 or (change < tol / 10 and gap <= tol / 10):
                    break
            # 2. the rest in one pass: nothing there is read again but through a zero roll's swap
            newton, endless = 0, 0
            if ordered and tile:
                plan_tiles = tiles(space, (ka, kb), tile)
                newton, endless = variant2_kernel.tiled_pass(plan_tiles, L, U, tables, tol / 100)
            elif ordered:
                firsts, seconds = ordered_pairs(space, (ka, kb))
                newton, endless = variant2_kernel.ordered_pass(firsts, seconds, L, U, tables, tol / 100)
            # 3. plain sweeps certify it (their largest change is the residual max |T(V) - V| of both bounds), and
            # go on with the speed-ups from 1. should they not
            plan = (*schedule(space, (ka, kb), group), local)
            speed = _Speedup(L, U, blocks)
            sweeps, gap, residual, converged = 0, 1.0, 1.0, False
            while sweeps < max_sweeps:
                residual, gap = variant2_kernel.level_sweep(*plan, L, U, tables, slopes, 0.0)
                sweeps += 1
                if (gap <= tol and residual < tol) or residual < tol / 100:
                    converged = True
                    break
                change, gap = variant2_kernel.level_sweep(*plan, L, U, tables, slopes, speed.pair)
                sweeps += 1
                speed.after_sweep(change)
            level = Level(
                number,
                (space.keys[ka], space.keys[kb]),
                space.level_positions((ka, kb)),
                barrel_sweeps,
                int(newton),
                int(endless),
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
    except KeyboardInterrupt:  # the levels finished so far are kept: the same call goes on from there
        if checkpoint is not None and only is None:
            _save(checkpoint, key, L, U, done)
        raise
    complete = only is None and len(done) == len(order)
    return Variant2Table(space, L, U, done, complete)


class _Speedup:
    """What makes a level's sweeps converge faster than plain value iteration (measured on sampled levels of
    variant 2: 36–79 sweeps where plain sweeps took 212–2,192):

    - the zero-roll pairs (``variant2_kernel._mover``): each update's step amplified by the Newton factor of the
      pair, at most ``pair``-fold — 2 converges, 2.5 and more made some levels cycle; it is halved towards 1
      whenever the largest change has not halved in 30 sweeps;
    - the knock-back cycles (a climb sends the other player back down, and the climbs repeat): where the
      largest change has shrunk by the same ratio ρ three sweeps running, the level's values are moved on by the
      geometric rest of the last change, ``Δ ρ / (1 − ρ)`` (clipped to [0, 1]).

    Neither keeps the bounds proved bounds; the plain sweep that ends a level certifies the result instead (its
    largest change is the residual ``max |T(V) − V|`` of both)."""

    def __init__(self, L: FloatArray, U: FloatArray, blocks: list[tuple[slice, slice]]) -> None:
        self.L, self.U, self.blocks = L, U, blocks
        self.pair = 2.0
        self.best, self.since_best = np.inf, 0
        self.restart()

    def restart(self) -> None:
        self.previous: FloatArray | None = None
        self.delta: FloatArray | None = None
        self.ratios: list[float] = []
        self.since_jump = 0

    def _values(self) -> FloatArray:
        return np.concatenate([X[b].ravel() for X in (self.L, self.U) for b in self.blocks])

    def _set(self, values: FloatArray) -> None:
        k = 0
        for X in (self.L, self.U):
            for b in self.blocks:
                shape = X[b].shape
                X[b] = values[k : k + shape[0] * shape[1]].reshape(shape)
                k += shape[0] * shape[1]

    def after_sweep(self, change: float) -> None:
        if change < self.best / 2:
            self.best, self.since_best = change, 0
        else:
            self.since_best += 1
            if self.since_best >= 30 and self.pair > 1.0:
                self.pair = 1.0 + (self.pair - 1.0) / 2 if self.pair > 1.1 else 0.0
                self.best, self.since_best = change, 0
        values = self._values()
        self.since_jump += 1
        if self.previous is not None:
            delta = values - self.previous
            size = float(np.abs(delta).max())
            if self.delta is not None:
                before = float(np.abs(self.delta).max())
                self.ratios.append(size / before if before > 0 else 0.0)
            r = self.ratios[-3:]
            if (
                len(r) == 3
                and self.since_jump >= 4
                and 0.3 < r[2] < 1.0
                and abs(r[2] - r[1]) < 0.01 * r[2]
                and abs(r[1] - r[0]) < 0.01 * r[2]
            ):
                values = np.clip(values + delta * (r[2] / (1.0 - r[2])), 0.0, 1.0)
                self._set(values)
                self.since_jump = 0
                self.ratios.clear()
            self.delta = delta
        self.previous = values


def _paths(checkpoint: Path) -> tuple[Path, Path]:
    return checkpoint.with_name(checkpoint.name + ".lower.npy"), checkpoint.with_name(
        checkpoint.name + ".upper.npy"
    )


def checkpoint_files(checkpoint: Path) -> tuple[Path, Path, Path]:
    """Every file of a run's checkpoint: the list of finished levels and the two bounds."""
    return (checkpoint, *_paths(checkpoint))


def _open(checkpoint: Path, key: str, size: int) -> tuple[FloatArray, FloatArray, list[Level]]:
    """The bounds as arrays on disk next to ``checkpoint`` (a JSON file of the finished levels): what is never
    written stays a hole in the file, so a fresh table takes no room, and the finished levels are the checkpoint
    once flushed. A level cut short is solved again from the start."""
    lower, upper = _paths(checkpoint)
    if checkpoint.exists():
        saved = json.loads(checkpoint.read_text())
        if saved["key"] != key:
            raise SolveError(Message("solve.thousand.variant2_other_run", path=str(checkpoint)))
        done = [Level(**{**lv, "openings": tuple(lv["openings"])}) for lv in saved["levels"]]
        L = np.load(lower, mmap_mode="r+")
        U = np.load(upper, mmap_mode="r+")
        return L, U, done
    L = np.lib.format.open_memmap(lower, mode="w+", dtype=np.float64, shape=(size, size))
    U = np.lib.format.open_memmap(upper, mode="w+", dtype=np.float64, shape=(size, size))
    return L, U, []


def _save(path: Path, key: str, L: FloatArray, U: FloatArray, done: list[Level]) -> None:
    for X in (L, U):
        if isinstance(X, np.memmap):
            X.flush()
    tmp = path.with_name(path.name + ".part")
    tmp.write_text(json.dumps({"key": key, "levels": [lv._asdict() for lv in done]}))
    tmp.replace(path)
