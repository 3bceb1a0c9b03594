"""Variant 2's exact table on disk: stored in the solver's cache beside the classic and yard tables, keyed by the
rules (the pattern of :mod:`yard_table`, whose rules' dictionary and refusals it shares).

A variant-2-like rule set (:func:`is_variant2`) is solved by :func:`variant2_solve.solve` (``dicehall solve
thousand --preset variant2``); the values played from are the middle of the two bounds, stored as one float32
array ``X[b, a]`` = (mover ``a``, opponent ``b``) (``<key>.variant2.npy``, 0.6 GB for variant 2: too big to ship,
so it is made on first use, memory-mapped when read) with a JSON of the rules, the format and the run's figures
(``<key>.variant2.json``). The run's checkpoint is ``<key>.variant2-run.json`` (its finished levels) beside the
two bounds it keeps on disk (``….lower.npy``, ``….upper.npy``, float64).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from dicehall.i18n.message import Message
from dicehall.thousand.dp import STEP
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver.exact import ExactModel, Loaded, Report, cost_words, missing_table
from dicehall.thousand.solver.solve import cache_dir, rules_key
from dicehall.thousand.solver.space import SolveError
from dicehall.thousand.solver.variant2 import FLOOR, covers
from dicehall.thousand.solver.variant2_solve import Variant2Table, checkpoint_files
from dicehall.thousand.solver.variant2_space import Variant2Space, build_variant2_space, levels
from dicehall.thousand.solver.yard_table import rules_dict

if TYPE_CHECKING:
    from dicehall.thousand.analysis import Variant2WinEvaluator
    from dicehall.thousand.solver.size import FullState
    from dicehall.thousand.solver.variant2_bot import Variant2TableBot
    from dicehall.thousand.state import ThousandState

FORMAT = "variant2-1"
"""The stored layout: float32 ``X[b, a]``, the middle of the bounds of (mover ``a``, opponent ``b``)."""

EXACT = Message("solve.thousand.variant2_exact")
"""The model's approximation: none (scores never go below 0 under these rules)."""

US_PER_POSITION = 89.7
"""CPU microseconds a position of the level solve with the ordered pass by tiles and the barrel's movers by 4
(docs/thousand-solved.md, "Variant 2's model": the 12 sampled levels)."""
PROCESS_GB = 0.2
"""Memory besides the two float64 bounds (the process and the compiled kernels)."""


def is_variant2(rules: ThousandRules) -> bool:
    """Rules that variant 2's model follows (:func:`variant2.covers`) with every amount on its steps of 5."""
    amounts = [rules.target, rules.barrel_score, rules.open_min, *(x for pit in rules.pits for x in pit)]
    return covers(rules) and all(a % STEP == 0 for a in amounts)


def variant2_paths(rules: ThousandRules) -> tuple[Path, Path]:
    key = rules_key(rules, FLOOR)
    return cache_dir() / f"{key}.variant2.npy", cache_dir() / f"{key}.variant2.json"


def variant2_checkpoint_path(rules: ThousandRules) -> Path:
    """The finished levels of a run (the bounds beside it: :func:`variant2_solve.checkpoint_files`)."""
    return cache_dir() / f"{rules_key(rules, FLOOR)}.variant2-run.json"


@dataclasses.dataclass
class StoredVariant2:
    """A stored variant 2 table: its space and the float32 middle values ``X[b, a]``."""

    space: Variant2Space
    middle: npt.NDArray[np.float32]
    info: dict[str, Any]

    def value(self, mover: int, opponent: int) -> float:
        return float(self.middle[opponent, mover])


def cost(rules: ThousandRules) -> tuple[int, float, float]:
    """Positions, CPU-hours and peak GB of solving ``rules``: the measured cost per position, and the two float64
    bounds of every position (kept on disk, memory-mapped: the page cache holds them)."""
    space = build_variant2_space(rules)
    positions = sum(space.level_positions(lv) for lv in levels(space))
    hours = US_PER_POSITION * 1e-6 * positions / 3600
    gb = PROCESS_GB + 2 * 8 * space.size**2 / 1e9
    return positions, hours, gb


def cost_message(rules: ThousandRules) -> Message:
    """What a solve will take, said before it starts (the words yard's solve says)."""
    return cost_words(*cost(rules))


def save_variant2_table(table: Variant2Table, figures: dict[str, Any]) -> Path:
    """Store a finished table (every level solved) with the run's figures."""
    if not table.complete:
        raise SolveError("only a finished variant 2 table (every level solved) is stored")
    values_path, info_path = variant2_paths(table.space.rules)
    values_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = values_path.with_suffix(".tmp.npy")
    out = np.lib.format.open_memmap(tmp, mode="w+", dtype=np.float32, shape=table.lower.shape)
    for lo in range(0, out.shape[0], 1024):  # row blocks: the full bounds are 1.2 GB each
        out[lo : lo + 1024] = (table.lower[lo : lo + 1024] + table.upper[lo : lo + 1024]) / 2
    out.flush()
    del out
    tmp.replace(values_path)
    info = {
        **figures,
        "format": FORMAT,
        "rules": rules_dict(table.space.rules),
        "player_states": table.space.size,
    }
    info_path.write_text(json.dumps(info, indent=1))
    return values_path


_LOADED: Loaded[StoredVariant2] = Loaded()


def load_variant2_table(rules: ThousandRules) -> StoredVariant2 | None:
    """The stored table of ``rules``, or None where it has not been made on this machine. A file that is not a
    variant 2 table of these rules (another format, other rules, the wrong size) is refused (:class:`SolveError`,
    saying to make it again). Loaded once per process (memory-mapped) while the files stay the same."""
    values_path, info_path = variant2_paths(rules)

    def read(info: dict[str, Any]) -> StoredVariant2:
        refused = SolveError(Message("solve.thousand.yard_other_table", path=str(values_path)))
        if info.get("format") != FORMAT or info.get("rules") != rules_dict(rules):
            raise refused
        space = build_variant2_space(rules)
        try:
            values = np.asarray(np.load(values_path, mmap_mode="r"))  # a plain array for the kernels
        except ValueError:
            raise refused from None
        if values.dtype != np.float32 or values.shape != (space.size, space.size):
            raise refused
        return StoredVariant2(space, values, info)

    return _LOADED.get(values_path, info_path, read)


def remove_checkpoint(rules: ThousandRules) -> None:
    for path in checkpoint_files(variant2_checkpoint_path(rules)):
        path.unlink(missing_ok=True)


def missing(rules: ThousandRules) -> SolveError:
    """The refusal of ``bot:optimal`` on variant-2-like rules whose table is not made yet, with what making it
    takes (the words of yard's)."""
    return missing_table(*cost(rules))


class Variant2Model(ExactModel):
    """Variant 2's model registered (:func:`exact.models`): no score floor (scores never go below 0 under these
    rules: ``--floor`` is not read); its solve steps are :mod:`variant2_cli`'s."""

    name = "variant2"
    approximation = EXACT

    def covers(self, rules: ThousandRules) -> bool:
        return is_variant2(rules)

    def load(self, rules: ThousandRules, floor: int = FLOOR) -> StoredVariant2 | None:
        return load_variant2_table(rules)

    def table_path(self, rules: ThousandRules, floor: int) -> Path:
        return variant2_paths(rules)[0]

    def checkpoint(self, rules: ThousandRules, floor: int) -> Path:
        return variant2_checkpoint_path(rules)

    def remove_checkpoint(self, rules: ThousandRules, floor: int) -> None:
        remove_checkpoint(rules)

    def cost(self, rules: ThousandRules, floor: int = FLOOR) -> tuple[int, float, float]:
        return cost(rules)

    def bot(self, stored: StoredVariant2) -> Variant2TableBot:
        from dicehall.thousand.solver.variant2_bot import Variant2TableBot

        return Variant2TableBot(stored)

    def evaluator(self, rules: ThousandRules, stored: StoredVariant2) -> Variant2WinEvaluator:
        from dicehall.thousand.analysis import Variant2WinEvaluator

        return Variant2WinEvaluator(rules, stored)

    def mover_wins(
        self,
        stored: StoredVariant2,
        state: ThousandState,
        mover: FullState,
        other: FullState,
        other_seat: int,
    ) -> float:
        """A position is (mover, opponent), each seat as ``variant2_bot.seat_of`` makes it."""
        from dicehall.thousand.solver.size import FullState

        space = stored.space
        seats = (FullState(p.score, p.opened, opening=p.opening) for p in (mover, other))
        me, them = (space.index[space.model.seat.canonical(p)] for p in seats)
        return stored.value(me, them)

    def solve(
        self,
        rules: ThousandRules,
        floor: int,
        tol: float,
        ckpt: Path,
        threads: int | None,
        report: Report | None,
    ) -> Variant2Table:
        from dicehall.thousand.solver import variant2_cli

        return variant2_cli.solve(rules, tol, ckpt, report)

    def summary(self, table: Variant2Table, floor: int, tol: float, seconds: float) -> dict[str, Any]:
        from dicehall.thousand.solver import variant2_cli

        return variant2_cli.summary(table, tol, seconds)

    def save(self, table: Variant2Table, floor: int, figures: dict[str, Any]) -> Path:
        return save_variant2_table(table, figures)


MODEL = Variant2Model()
