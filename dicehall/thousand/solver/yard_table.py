"""Yard's exact table on disk: stored in the solver's cache beside the classic tables, keyed by the rules.

A yard-like rule set (:func:`is_yard`) is solved by :func:`yard_pi.solve_levels` (``dicehall solve thousand
--preset yard``: about 1.7 CPU-hours, 6 GB); its values are two tables, ``W`` and ``F`` (the opponent flagged to
skip their next turn), stored as one float32 vector ``[W.ravel(), F.ravel()]`` (``<key>.yard.npy``, 57 MB for
yard: too big to ship, so it is made on first use) with a JSON of the rules, the floor, the format and the run's
figures (``<key>.yard.json``). ``<key>.yard.npz`` is the run's checkpoint (its finished levels, float64).
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
from dicehall.thousand.solver.space import DEFAULT_FLOOR, SolveError
from dicehall.thousand.solver.yard import covers
from dicehall.thousand.solver.yard_pi import YardTable
from dicehall.thousand.solver.yard_space import YardSpace, build_yard_space

if TYPE_CHECKING:
    from dicehall.thousand.analysis import YardWinEvaluator
    from dicehall.thousand.solver.size import FullState
    from dicehall.thousand.solver.yard_bot import YardTableBot
    from dicehall.thousand.state import ThousandState

FORMAT = "yard-1"
"""The stored layout: float32 ``[W.ravel(), F.ravel()]``, ``X[b, a]`` = (mover ``a``, opponent ``b``)."""

# the full yard run (docs/thousand-solved.md, "Yard's model"), scaled by positions for other yard-like rules
YARD_POSITIONS = 13_525_911
YARD_CPU_HOURS = 1.7
YARD_LARGEST_LEVEL = 3_008_221  # as size.table_size counts it
YARD_PEAK_GB = 6.2


def is_yard(rules: ThousandRules) -> bool:
    """Rules that yard's model follows (:func:`yard.covers`) with every amount on the model's steps of 5."""
    amounts = [rules.target, rules.barrel_score, rules.overtake_penalty, rules.bolt_penalty]
    amounts += [rules.barrel_fall_penalty, rules.open_min, *(x for pit in rules.pits for x in pit)]
    return covers(rules) and all(a % STEP == 0 for a in amounts)


def rules_dict(rules: ThousandRules) -> dict[str, Any]:
    """What the values depend on (as :func:`solve.rules_key` hashes it: not the preset's name or the roll-off)."""
    data = rules.to_dict()
    for name in ("preset", "roll_off"):
        data.pop(name, None)
    return data


def yard_paths(rules: ThousandRules, floor: int = DEFAULT_FLOOR) -> tuple[Path, Path]:
    key = rules_key(rules, floor)
    return cache_dir() / f"{key}.yard.npy", cache_dir() / f"{key}.yard.json"


def yard_checkpoint_path(rules: ThousandRules, floor: int = DEFAULT_FLOOR) -> Path:
    """The finished levels of a run (``scripts/thousand_yard_solve.py`` writes the same file by default)."""
    return cache_dir() / f"{rules_key(rules, floor)}.yard.npz"


@dataclasses.dataclass
class StoredYard:
    """A stored yard table: its space and the float32 values ``[W.ravel(), F.ravel()]``."""

    space: YardSpace
    values: npt.NDArray[np.float32]
    info: dict[str, Any]
    kept: Any = dataclasses.field(default=None, repr=False, compare=False)
    """The decisions of the positions met so far (:class:`yard_bot.KeptDecisions`, made on first use)."""

    def value(self, mover: int, opponent: int, flagged: bool = False) -> float:
        size = self.space.size
        return float(self.values[flagged * size * size + opponent * size + mover])

    def note(self) -> Message | None:
        return None  # the exact table (float32)


def cost(rules: ThousandRules, floor: int = DEFAULT_FLOOR) -> tuple[int, float, float]:
    """Positions, CPU-hours and peak GB of solving ``rules``, scaled from the full yard run by the counts of
    :func:`size.table_size` (the matrix of the largest level and its GMRES basis are most of the memory)."""
    from dicehall.thousand.solver.size import table_size

    size = table_size(rules, floor)
    hours = YARD_CPU_HOURS * size.positions / YARD_POSITIONS
    gb = max(0.3, YARD_PEAK_GB * size.largest_level / YARD_LARGEST_LEVEL)
    return size.positions, hours, gb


def cost_message(rules: ThousandRules, floor: int = DEFAULT_FLOOR) -> Message:
    """What a solve will take, said before it starts."""
    return cost_words(*cost(rules, floor))


def save_yard_table(table: YardTable, floor: int, figures: dict[str, Any]) -> Path:
    """Store a finished table (every level solved) with the run's figures."""
    if not table.complete:
        raise SolveError("only a finished yard table (every level solved) is stored")
    values_path, info_path = yard_paths(table.space.rules, floor)
    values_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = values_path.with_suffix(".tmp.npy")
    np.save(tmp, table.values.astype(np.float32))
    tmp.replace(values_path)
    info = {
        **figures,
        "format": FORMAT,
        "skip_flag": True,
        "rules": rules_dict(table.space.rules),
        "floor": floor,
        "player_states": table.space.size,
    }
    info_path.write_text(json.dumps(info, indent=1))
    return values_path


_LOADED: Loaded[StoredYard] = Loaded()


def load_yard_table(rules: ThousandRules, floor: int = DEFAULT_FLOOR) -> StoredYard | None:
    """The stored table of ``rules``, or None where it has not been made on this machine. A file that is not a
    yard table of these rules (another format, no flag, other rules or floor, the wrong size) is refused
    (:class:`SolveError`, saying to make it again). Loaded once per process while the files stay the same."""
    values_path, info_path = yard_paths(rules, floor)

    def read(info: dict[str, Any]) -> StoredYard:
        refused = SolveError(Message("solve.thousand.yard_other_table", path=str(values_path)))
        if (
            info.get("format") != FORMAT
            or not info.get("skip_flag")
            or info.get("rules") != rules_dict(rules)
            or info.get("floor") != floor
        ):
            raise refused
        space = build_yard_space(rules, floor)
        values = np.load(values_path)
        if values.dtype != np.float32 or values.shape != (2 * space.size**2,):
            raise refused
        return StoredYard(space, values, info)

    return _LOADED.get(values_path, info_path, read)


def missing(rules: ThousandRules) -> SolveError:
    """The refusal of ``bot:optimal`` on yard-like rules whose table is not made yet, with what making it takes."""
    return missing_table(*cost(rules))


class YardModel(ExactModel):
    """Yard's model registered (:func:`exact.models`): its solve steps are :mod:`yard_cli`'s."""

    name = "yard"

    def covers(self, rules: ThousandRules) -> bool:
        return is_yard(rules)

    def load(self, rules: ThousandRules, floor: int = DEFAULT_FLOOR) -> StoredYard | None:
        return load_yard_table(rules, floor)

    def table_path(self, rules: ThousandRules, floor: int) -> Path:
        return yard_paths(rules, floor)[0]

    def checkpoint(self, rules: ThousandRules, floor: int) -> Path:
        return yard_checkpoint_path(rules, floor)

    def remove_checkpoint(self, rules: ThousandRules, floor: int) -> None:
        yard_checkpoint_path(rules, floor).unlink(missing_ok=True)

    def cost(self, rules: ThousandRules, floor: int = DEFAULT_FLOOR) -> tuple[int, float, float]:
        return cost(rules, floor)

    def bot(self, stored: StoredYard) -> YardTableBot:
        from dicehall.thousand.solver.yard_bot import KeptDecisions, YardTableBot

        if stored.kept is None:
            stored.kept = KeptDecisions()
        return YardTableBot(stored, stored.kept)

    def evaluator(self, rules: ThousandRules, stored: StoredYard) -> YardWinEvaluator:
        from dicehall.thousand.analysis import YardWinEvaluator

        return YardWinEvaluator(rules, stored)

    def mover_wins(
        self, stored: StoredYard, state: ThousandState, mover: FullState, other: FullState, other_seat: int
    ) -> float:
        """A position is (mover, opponent, the opponent flagged to skip), as ``yard_bot.position_of`` reads it."""
        from dicehall.thousand.solver.size import FullState

        space = stored.space
        me, them = (space.index[space.model.seat.canonical(FullState(*p[:5]))] for p in (mover, other))
        return stored.value(me, them, bool(state.skip_next[other_seat]))

    def solve(
        self,
        rules: ThousandRules,
        floor: int,
        tol: float,
        ckpt: Path,
        threads: int | None,
        report: Report | None,
    ) -> YardTable:
        from dicehall.thousand.solver import yard_cli

        return yard_cli.solve(rules, floor, tol, ckpt, threads, report)

    def summary(self, table: YardTable, floor: int, tol: float, seconds: float) -> dict[str, Any]:
        from dicehall.thousand.solver import yard_cli

        return yard_cli.summary(table, floor, tol, seconds)

    def save(self, table: YardTable, floor: int, figures: dict[str, Any]) -> Path:
        return save_yard_table(table, floor, figures)


MODEL = YardModel()
