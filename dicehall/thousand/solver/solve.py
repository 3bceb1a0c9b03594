"""Value iteration for two-player Dice 1000, from both ends, with checkpoints and a cached result table.

``L`` starts at 0 and ``U`` at 1; each Gauss–Seidel sweep sets ``L = T(U)`` and ``U = T(L)`` (``T``, the value of
a turn played optimally, is order-reversing: the next value is one minus the opponent's). Every ``L`` is then a
lower and every ``U`` an upper bound of the win probability under optimal play by both. When both stop moving
(largest change below ``tol / 100``) and still differ by more than ``tol``, optimal play can go on for ever from
those positions: they are named, and no single number is given for them. Otherwise the run stops once no value
changed by ``tol`` or more in the last sweep and the bounds meet within ``tol`` everywhere.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import os
import resource
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from dicehall.core.errors import DicehallError
from dicehall.i18n.message import Message
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver import kernel
from dicehall.thousand.solver.space import (
    DEFAULT_FLOOR,
    DEFAULT_MAX_SWEEPS,
    DEFAULT_TOL,
    Level,
    SolveError,
    Space,
    build_space,
    dice_table,
    levels,
    schedule,
    turn_tables,
)

SOLVER_VERSION = 2
PROVE_POSITIONS = 400_000
"""``method = "auto"``: rule sets up to this many positions are solved by value iteration from both ends (bounds
proved, endless play detected); larger ones (classic) by policy iteration (a fixed point within the tolerance;
endless play counts as a draw)."""

Progress = Callable[[int, float, float, float, str], None]
"""Called during each sweep with (sweeps so far, largest change, largest gap of the level or NaN while the sweep
runs, fraction of the sweep done, the level: "falls 2/2, level 1 of 6")."""


def _level_label(falls: tuple[int, int] | list[int], n: int, total: int) -> str:
    """The progress label of a level (a message: the CLI says it in the reader's language)."""
    return Message("solve.thousand.level", mine=falls[0], theirs=falls[1], n=n, total=total)


def cache_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("dicehall")) / "thousand-solver"


def rules_key(rules: ThousandRules, floor: int) -> str:
    """A short hash of everything the values depend on (the roll-off and the preset name do not count)."""
    data = rules.to_dict()
    for name in ("preset", "roll_off"):
        data.pop(name, None)
    data["floor"] = floor
    data["solver"] = SOLVER_VERSION
    text = json.dumps(data, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


class LevelStats(NamedTuple):
    falls: tuple[int, int]
    positions: int
    sweeps: int  # value iteration: sweeps; policy iteration: improvement steps
    extra: dict[str, Any] | None = None


@dataclasses.dataclass
class Solution:
    """The result of a solve: both bounds of every position and the figures of the run."""

    space: Space
    lower: npt.NDArray[np.float64]  # W layout: lower[b, a] is position (mover a, opponent b)
    upper: npt.NDArray[np.float64]
    sweeps: int
    max_change: float
    seconds: float
    peak_memory_mb: float
    tol: float
    converged: bool
    levels: list[LevelStats] = dataclasses.field(default_factory=list)
    cpu_seconds: float = 0.0
    method: str = "value iteration"
    residual: float | None = None
    """Policy iteration: max |T(V) − V| over all positions (``T``: one optimally played turn)."""

    @property
    def bounded(self) -> bool:
        """Value iteration from both ends: ``lower`` and ``upper`` are proved bounds (policy iteration: one value)."""
        return self.method == "value iteration"

    @property
    def sweep_equivalents(self) -> float:
        """Sweeps over all positions that the level sweeps amount to (the cost in units of one full sweep)."""
        if not self.levels:
            return float(self.sweeps)
        return sum(lv.sweeps * lv.positions for lv in self.levels) / self.space.positions

    @property
    def gap(self) -> float:
        return float((self.upper - self.lower).max())

    @property
    def exact(self) -> bool:
        """Both bounds meet (within ``tol``) everywhere: one win probability per position."""
        return self.converged and self.gap <= self.tol

    def bounds(self, mover: int, opponent: int) -> tuple[float, float]:
        return float(self.lower[opponent, mover]), float(self.upper[opponent, mover])

    def value(self, mover: int, opponent: int) -> float | None:
        lo, hi = self.bounds(mover, opponent)
        return (lo + hi) / 2 if self.converged and hi - lo <= self.tol else None

    def undecided(self, limit: int = 20) -> list[dict[str, Any]]:
        """Positions whose bounds do not meet (endless optimal play), widest first."""
        gap = self.upper - self.lower
        flat = np.argsort(gap, axis=None)[::-1][:limit]
        out = []
        for f in flat:
            b, a = divmod(int(f), self.space.size)
            if gap[b, a] <= self.tol:
                break
            out.append(
                {
                    "mover": self.space.states[a]._asdict(),
                    "opponent": self.space.states[b]._asdict(),
                    "lower": float(self.lower[b, a]),
                    "upper": float(self.upper[b, a]),
                }
            )
        return out

    def summary(self) -> dict[str, Any]:
        s = self.space
        lo, hi = self.bounds(s.start, s.start)
        return {
            "win_probability_first": self.value(s.start, s.start),
            "win_probability_first_bounds": [lo, hi] if self.bounded else None,
            "method": self.method,
            "residual": self.residual,
            "endless_play": (
                "positions whose optimal play may not end are listed with their bounds (no single value)"
                if self.bounded
                else "a fixed point of the optimal turn within the residual; play that never ends counts as a "
                "draw (1/2 each) — bounds are not proved by this method"
            ),
            "gap": self.gap if self.bounded else None,
            "exact": self.exact,
            "converged": self.converged,
            "states": s.positions,
            "player_states": s.size,
            "turn_states": int(((s.top + 1) * 6).sum()) * s.size,
            "sweeps": self.sweeps,
            "sweep_equivalents": round(self.sweep_equivalents, 2),
            "levels": [
                {"falls": list(lv.falls), "positions": lv.positions, "sweeps": lv.sweeps, **(lv.extra or {})}
                for lv in self.levels
            ],
            "max_change": self.max_change,
            "tolerance": self.tol,
            "seconds": round(self.seconds, 2),
            "cpu_seconds": round(self.cpu_seconds, 2),
            "peak_memory_mb": round(self.peak_memory_mb, 1),
            "score_floor": s.floor,
            "approximation": (
                f"scores below {s.floor} are kept at {s.floor} (the only approximation; see docs/thousand-solved.md)"
            ),
            "undecided_positions": self.undecided(),
        }


def default_threads() -> int:
    """Two threads where there are two CPUs: the sweep scales to two, and the machine has no more to give."""
    return max(1, min(2, os.cpu_count() or 1))


def peak_memory_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def solve(
    rules: ThousandRules,
    *,
    floor: int = DEFAULT_FLOOR,
    tol: float = DEFAULT_TOL,
    max_sweeps: int = DEFAULT_MAX_SWEEPS,
    progress: Progress | None = None,
    checkpoint: Path | None = None,
    checkpoint_seconds: float = 60.0,
    threads: int | None = None,
    by_level: bool = True,
    skip_settled: bool = True,
    method: str = "auto",
) -> Solution:
    """Solve ``rules`` for two players (resuming from ``checkpoint`` when it holds an unfinished run).

    ``method``: ``"vi"`` value iteration from both ends (proved bounds; endless play named), ``"pi"`` policy
    iteration per level (:mod:`pi`; a fixed point within ``tol``, endless play a draw), ``"auto"``: ``"vi"`` up
    to :data:`PROVE_POSITIONS` positions, else ``"pi"``.

    ``by_level`` solves one fall level after the other (:func:`levels`, most falls first); without it every
    sweep covers all positions (the plain order, kept for the tests). A level is done when its bounds meet within
    ``tol / 2`` and no value moved by ``tol`` in its last sweep (or nothing moves any more: endless play).
    ``max_sweeps`` applies per level. ``skip_settled`` leaves out positions whose bounds already meet within
    ``tol / 4`` (off: the plain iteration, for the tests).

    ``threads`` (default: up to 2, the CPUs there are) sweep interleaved rows at once. Rows may read what another
    thread is writing: any mix of old and new bounds is still a pair of bounds, so the result does not depend on
    the interleaving (only the number of sweeps may)."""
    if method not in ("auto", "vi", "pi"):
        raise SolveError(f"unknown method {method!r}: choose auto, vi or pi")
    try:
        space = build_space(rules, floor)
    except DicehallError as exc:
        raise SolveError(str(exc)) from None
    if method == "pi" or (method == "auto" and space.positions > PROVE_POSITIONS):
        return _solve_pi(space, tol, progress, checkpoint, threads)
    dice = dice_table(rules)
    size = space.size
    plan = levels(space) if by_level else [Level((0, 0), schedule(space), [(0, size, 0, size)])]
    tmax = int(space.top.max())
    start = time.perf_counter()
    cpu_start = time.process_time()
    cpu_spent = 0.0
    lower = np.zeros((size, size))
    upper = np.ones((size, size))
    level_sweeps = np.zeros(len(plan), dtype=np.int64)
    first_level = 0
    spent = 0.0
    if checkpoint is not None and checkpoint.exists():
        with np.load(checkpoint) as data:
            if (
                "lower" in data
                and data["lower"].shape == lower.shape
                and data["level_sweeps"].shape == level_sweeps.shape
            ):
                lower[:] = data["lower"]
                upper[:] = data["upper"]
                level_sweeps[:] = data["level_sweeps"]
                first_level = int(data["level"])
                spent = float(data["seconds"])
                cpu_spent = float(data["cpu_seconds"]) if "cpu_seconds" in data else 0.0
    tables = turn_tables(space, dice)
    # a position whose bounds are within tol / 4 is done for good (they only move towards each other)
    settled = tol / 4 if skip_settled else -1.0
    threads = default_threads() if threads is None else max(1, threads)
    pool = ThreadPoolExecutor(threads) if threads > 1 else None

    def run_part(part: npt.NDArray[np.int64], a: int, b: int) -> tuple[float, float]:
        a, b = min(a, len(part)), min(b, len(part))
        return kernel.sweep(part, lower, upper, tmax, tables, a, b, settled)  # type: ignore[no-any-return]

    def level_gap(level: Level) -> float:
        return max(float((upper[a:b, c:d] - lower[a:b, c:d]).max()) for a, b, c, d in level.blocks)

    last_save = time.perf_counter()
    converged = True
    change = 0.0
    try:
        for li in range(first_level, len(plan)):
            level = plan[li]
            label = _level_label(level.falls, li + 1, len(plan))
            parts = [np.ascontiguousarray(level.rows[k::threads]) for k in range(threads)]
            n_rows = len(parts[0])
            # a sweep is cut into chunks so that the progress bar moves and Ctrl-C is answered
            chunk = max(1, n_rows // 50)
            while True:
                if level_sweeps[li] >= max_sweeps:
                    converged = False
                    break
                change = 0.0
                for first in range(0, n_rows, chunk):
                    last = first + chunk
                    if pool is None:
                        results = [run_part(parts[0], first, last)]
                    else:
                        results = list(pool.map(run_part, parts, [first] * threads, [last] * threads))
                    change = max(change, *(max(r) for r in results))
                    if progress is not None:
                        done = min(last, n_rows) / n_rows
                        progress(int(level_sweeps.sum()), change, float("nan"), done, label)
                level_sweeps[li] += 1
                gap = level_gap(level)
                if progress is not None:
                    progress(int(level_sweeps.sum()), change, gap, 1.0, label)
                if checkpoint is not None and time.perf_counter() - last_save > checkpoint_seconds:
                    elapsed = (
                        spent + time.perf_counter() - start,
                        cpu_spent + time.process_time() - cpu_start,
                    )
                    _save_checkpoint(checkpoint, lower, upper, level_sweeps, li, *elapsed)
                    last_save = time.perf_counter()
                # done when the bounds meet (a certified value), or when nothing moves any more (endless optimal
                # play somewhere if they still differ): a level is never stopped at an arbitrary sweep
                if (gap <= tol / 2 and change < tol) or change < tol / 100:
                    break
            if not converged:
                break
    finally:
        if pool is not None:
            pool.shutdown()
    seconds = spent + time.perf_counter() - start
    cpu_seconds = cpu_spent + time.process_time() - cpu_start
    if checkpoint is not None:
        if converged:
            checkpoint.unlink(missing_ok=True)
        else:  # stopped at --max-sweeps: keep the state so that a longer run goes on from here
            _save_checkpoint(checkpoint, lower, upper, level_sweeps, li, seconds, cpu_seconds)
    stats = [
        LevelStats(lv.falls, sum((b - a) * (d - c) for a, b, c, d in lv.blocks), int(n))
        for lv, n in zip(plan, level_sweeps, strict=True)
    ]
    return Solution(
        space,
        lower,
        upper,
        int(level_sweeps.sum()),
        change,
        seconds,
        peak_memory_mb(),
        tol,
        converged,
        stats,
        cpu_seconds,
    )


def _solve_pi(
    space: Space,
    tol: float,
    progress: Progress | None,
    checkpoint: Path | None,
    threads: int | None,
) -> Solution:
    """Policy iteration level by level (:func:`pi.solve_level`); the checkpoint keeps the finished levels."""
    from dicehall.thousand.solver import pi

    size = space.size
    plan = levels(space)
    tables = turn_tables(space, dice_table(space.rules))
    W = np.full((size, size), 0.5)
    stats: list[LevelStats] = []
    spent = cpu_spent = 0.0
    if checkpoint is not None and checkpoint.exists():
        with np.load(checkpoint, allow_pickle=False) as data:
            if "pi_values" in data and data["pi_values"].shape == W.shape:
                W[:] = data["pi_values"]
                stats = [LevelStats(*json.loads(x)) for x in json.loads(str(data["pi_levels"]))]
                spent, cpu_spent = float(data["seconds"]), float(data["cpu_seconds"])
                stats = [LevelStats(tuple(s.falls), s.positions, s.sweeps, s.extra) for s in stats]  # type: ignore[arg-type]
    start = time.perf_counter()
    cpu_start = time.process_time()
    threads = default_threads() if threads is None else max(1, threads)
    pool = ThreadPoolExecutor(threads) if threads > 1 else None
    sizes = [sum((b - a) * (d - c) for a, b, c, d in lv.blocks) for lv in plan]
    converged = True
    residual = max(((s.extra or {}).get("residual", 0.0) for s in stats), default=0.0)
    try:
        for li in range(len(stats), len(plan)):
            level = plan[li]
            label = _level_label(level.falls, li + 1, len(plan))
            done = sum(sizes[:li]) / space.positions
            steps_before = sum(s.sweeps for s in stats)

            def step(
                k: int,
                res: float,
                _f: float,
                label: str = label,
                done: float = done,
                base: int = steps_before,
            ) -> None:
                if progress is not None:
                    progress(base + k, res, float("nan"), done, label)

            cpu0 = time.process_time()
            pi.warm_start(space, level, W)
            result = pi.solve_level(space, level, W, tables, tol, pool, step)
            extra = {
                "residual": result.residual,
                "gmres_iterations": result.gmres_iterations,
                "q_entries": result.entries,
                "cpu_seconds": round(time.process_time() - cpu0, 1),
            }
            stats.append(LevelStats(level.falls, sizes[li], result.steps, extra))
            residual = max(residual, result.residual)
            if not result.converged:
                converged = False
                break
            if checkpoint is not None and li + 1 < len(plan):
                _save_pi_checkpoint(
                    checkpoint,
                    W,
                    stats,
                    spent + time.perf_counter() - start,
                    cpu_spent + time.process_time() - cpu_start,
                )
    finally:
        if pool is not None:
            pool.shutdown()
    seconds = spent + time.perf_counter() - start
    cpu_seconds = cpu_spent + time.process_time() - cpu_start
    if checkpoint is not None and converged:
        checkpoint.unlink(missing_ok=True)
    if progress is not None:
        progress(sum(s.sweeps for s in stats), residual, 0.0, 1.0, Message("solve.thousand.done"))
    return Solution(
        space,
        W,
        W,
        sum(s.sweeps for s in stats),
        residual,
        seconds,
        peak_memory_mb(),
        tol,
        converged,
        stats,
        cpu_seconds,
        method="policy iteration",
        residual=residual,
    )


def _save_pi_checkpoint(
    path: Path, W: npt.NDArray[np.float64], stats: list[LevelStats], seconds: float, cpu_seconds: float
) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npz")
    levels_json = json.dumps([json.dumps(list(s)) for s in stats])
    np.savez(tmp, pi_values=W, pi_levels=np.array(levels_json), seconds=seconds, cpu_seconds=cpu_seconds)
    tmp.replace(path)


def _save_checkpoint(
    path: Path,
    lower: npt.NDArray[np.float64],
    upper: npt.NDArray[np.float64],
    level_sweeps: npt.NDArray[np.int64],
    level: int,
    seconds: float,
    cpu_seconds: float,
) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npz")
    np.savez(
        tmp,
        lower=lower,
        upper=upper,
        level_sweeps=level_sweeps,
        level=level,
        seconds=seconds,
        cpu_seconds=cpu_seconds,
    )
    tmp.replace(path)


# -- the cached table ---------------------------------------------------------------------------------------------
@dataclasses.dataclass
class Table:
    """Solved values of a rule set as stored in the cache: float32 values (the bounds' midpoint) and the space."""

    space: Space
    values: npt.NDArray[np.float32]  # W layout
    info: dict[str, Any]
    shipped: bool = False
    """Read from the compact table shipped in the package (:mod:`compact`): values within ``max_error``."""
    decisions: Any = dataclasses.field(default=None, repr=False, compare=False)
    """The optimal decisions of the positions met so far (:class:`decide.Decisions`, made on first use)."""

    def value(self, mover: int, opponent: int) -> float:
        return float(self.values[opponent, mover])

    @property
    def max_error(self) -> float:
        """The largest difference from the exact solved values (0: the solved table itself, float32)."""
        return float(self.info.get("max_error", 0.0)) if self.shipped else 0.0

    def note(self) -> Message | None:
        """Which table this is, for the bot's help, hints and analysis notes (None: the exact one)."""
        if not self.shipped:
            return None
        # in percentage points, rounded up to the 3 decimals a locale's number format shows
        return Message("solve.thousand.shipped_note", error=math.ceil(self.max_error * 1e5) / 1000)


def table_paths(rules: ThousandRules, floor: int = DEFAULT_FLOOR) -> tuple[Path, Path]:
    key = rules_key(rules, floor)
    d = cache_dir()
    return d / f"{key}.npy", d / f"{key}.json"


def save_table(solution: Solution) -> Path:
    """Store a solved table (only an exact one: both bounds meet everywhere) in the user data directory."""
    if not solution.exact:
        raise SolveError("only a solve whose bounds meet everywhere is stored as a table")
    values_path, info_path = table_paths(solution.space.rules, solution.space.floor)
    values_path.parent.mkdir(parents=True, exist_ok=True)
    mid = ((solution.lower + solution.upper) / 2).astype(np.float32)
    np.save(values_path, mid)
    info = solution.summary()
    info["rules"] = solution.space.rules.to_dict()
    info_path.write_text(json.dumps(info, indent=1))
    return values_path


_LOADED: dict[tuple[str, int, int], Table] = {}
_LOADED_KEEP = 4
"""Tables kept loaded per process (classic's is 19 MB): a simulation makes its bots anew for every chunk of games,
and building classic's space alone takes about two seconds."""


def load_table(rules: ThousandRules, floor: int = DEFAULT_FLOOR) -> Table | None:
    """The cached table of ``rules``, or None when it has not been solved on this machine (see :func:`find_table`
    for the shipped one). Loaded once per process while the file stays the same (its size and time)."""
    values_path, info_path = table_paths(rules, floor)
    if not values_path.exists() or not info_path.exists():
        return None
    stat = values_path.stat()
    key = (str(values_path), stat.st_mtime_ns, stat.st_size)
    found = _LOADED.get(key)
    if found is not None:
        return found
    space = build_space(rules, floor)
    values = np.load(values_path)
    if values.shape != (space.size, space.size):
        return None
    found = Table(space, values, json.loads(info_path.read_text()))
    if len(_LOADED) >= _LOADED_KEEP:
        del _LOADED[next(iter(_LOADED))]
    _LOADED[key] = found
    return found


def checkpoint_path(rules: ThousandRules, floor: int = DEFAULT_FLOOR) -> Path:
    return cache_dir() / f"{rules_key(rules, floor)}.checkpoint.npz"


_SHIPPED: dict[tuple[str, int], Table] = {}


def shipped_table(rules: ThousandRules, floor: int = DEFAULT_FLOOR) -> Table | None:
    """The compact table shipped in the package for ``rules`` (classic), decoded once per process; None for any
    other rules or floor (the file's header names the rules it was solved for)."""
    from dicehall.thousand.solver import compact

    path = compact.shipped_path()
    if floor != DEFAULT_FLOOR or not path.exists():
        return None
    key = (json.dumps(compact.rules_dict(rules), sort_keys=True), floor)
    found = _SHIPPED.get(key)
    if found is not None:
        return found
    header = compact.read_header(path)
    if header["rules"] != compact.rules_dict(rules) or header["floor"] != floor:
        return None
    space = build_space(rules, floor)
    values, header = compact.decode(path, space)
    info = {**header.get("solved", {}), "max_error": header["max_error"], "shipped": str(path)}
    found = _SHIPPED[key] = Table(space, values, info, shipped=True)
    return found


def find_table(rules: ThousandRules, floor: int = DEFAULT_FLOOR) -> Table | None:
    """The exact table solved on this machine, else the shipped compact one (classic), else None."""
    return load_table(rules, floor) or shipped_table(rules, floor)
