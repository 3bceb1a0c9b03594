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
import math
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from dicehall.i18n.message import Message
from dicehall.thousand.dp import STEP
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver.solve import SolveError, cache_dir, rules_key
from dicehall.thousand.solver.space import DEFAULT_FLOOR
from dicehall.thousand.solver.yard import covers
from dicehall.thousand.solver.yard_pi import YardTable
from dicehall.thousand.solver.yard_space import YardSpace, build_yard_space

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
    positions, hours, gb = cost(rules, floor)
    size = {"positions": positions, "memory": round(gb, 1)}
    if hours >= 1:
        return Message("solve.thousand.yard_cost_hours", hours=round(hours, 1), **size)
    return Message("solve.thousand.yard_cost_minutes", minutes=max(1, math.ceil(hours * 60)), **size)


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


_LOADED: dict[tuple[str, int, int, int, int], StoredYard] = {}
_LOADED_KEEP = 2


def load_yard_table(rules: ThousandRules, floor: int = DEFAULT_FLOOR) -> StoredYard | None:
    """The stored table of ``rules``, or None where it has not been made on this machine. A file that is not a
    yard table of these rules (another format, no flag, other rules or floor, the wrong size) is refused
    (:class:`SolveError`, saying to make it again). Loaded once per process while the files stay the same."""
    values_path, info_path = yard_paths(rules, floor)
    if not values_path.exists() or not info_path.exists():
        return None
    stat, info_stat = values_path.stat(), info_path.stat()
    key = (str(values_path), stat.st_mtime_ns, stat.st_size, info_stat.st_mtime_ns, info_stat.st_size)
    found = _LOADED.get(key)
    if found is not None:
        return found
    info = json.loads(info_path.read_text())
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
    found = StoredYard(space, values, info)
    if len(_LOADED) >= _LOADED_KEEP:
        del _LOADED[next(iter(_LOADED))]
    _LOADED[key] = found
    return found


def missing(rules: ThousandRules) -> SolveError:
    """The refusal of ``bot:optimal`` on yard-like rules whose table is not made yet, with what making it takes."""
    _, hours, gb = cost(rules)
    return SolveError(Message("solve.thousand.yard_missing", hours=round(hours, 1), memory=round(gb, 1)))
