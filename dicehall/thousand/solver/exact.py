"""The exact models besides classic's, each registered once in :func:`models`.

``bot:optimal`` (:func:`solver.bot.optimal_bot`), the hints' evaluator (:func:`thousand.analysis.make_evaluator`)
and ``dicehall solve thousand`` (:mod:`solver.cli`, driven by :mod:`solver.exact_cli`) ask :func:`model_for`
which model covers a rule set and go through it; classic's model (:mod:`solve`, :mod:`space`) serves every rule
set none covers. A model is a subclass of :class:`ExactModel` beside its table (``yard_table.YardModel``,
``variant2_table.Variant2Model``); a third is one more such class and one more entry in :func:`models`.
"""

from __future__ import annotations

import abc
import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, Protocol, TypeVar

from dicehall.i18n.message import Message
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver.space import DEFAULT_FLOOR, SolveError

if TYPE_CHECKING:
    from dicehall.thousand.analysis import WinEvaluator
    from dicehall.thousand.bots import ThousandBot
    from dicehall.thousand.solver.size import FullState
    from dicehall.thousand.state import ThousandState


class Stored(Protocol):
    """A stored table as loaded: its run's figures in ``info``."""

    @property
    def info(self) -> dict[str, Any]: ...


class LevelDone(NamedTuple):
    """A solve's progress, said after each level (the command's bar shows it)."""

    level: int  # counted from 1
    levels: int
    done: float  # the share of the work done
    sweeps: int
    change: float
    gap: float | None  # None: the method has no gap


Report = Callable[[LevelDone], None]


class ExactModel(abc.ABC):
    """One exact model: which rules it covers, its stored table, what making it costs, how it plays and judges
    from the table, and the steps ``dicehall solve thousand`` runs (:func:`exact_cli.solve_exact`)."""

    name: str
    approximation: Message | None = None
    """Said as the model's approximation instead of the summary's (a model without a score floor)."""

    @abc.abstractmethod
    def covers(self, rules: ThousandRules) -> bool: ...

    @abc.abstractmethod
    def load(self, rules: ThousandRules, floor: int = DEFAULT_FLOOR) -> Stored | None:
        """The stored table, None where it is not made yet; a file of other rules is refused (SolveError)."""

    @abc.abstractmethod
    def table_path(self, rules: ThousandRules, floor: int) -> Path: ...

    @abc.abstractmethod
    def checkpoint(self, rules: ThousandRules, floor: int) -> Path: ...

    @abc.abstractmethod
    def remove_checkpoint(self, rules: ThousandRules, floor: int) -> None: ...

    @abc.abstractmethod
    def cost(self, rules: ThousandRules, floor: int = DEFAULT_FLOOR) -> tuple[int, float, float]:
        """Positions, CPU-hours and peak GB of solving ``rules``."""

    def cost_message(self, rules: ThousandRules, floor: int = DEFAULT_FLOOR) -> Message:
        return cost_words(*self.cost(rules, floor))

    def missing(self, rules: ThousandRules) -> SolveError:
        """The refusal of ``bot:optimal`` while the table is not made, with what making it takes."""
        return missing_table(*self.cost(rules))

    @abc.abstractmethod
    def bot(self, stored: Any) -> ThousandBot: ...

    @abc.abstractmethod
    def evaluator(self, rules: ThousandRules, stored: Any) -> WinEvaluator: ...

    @abc.abstractmethod
    def mover_wins(
        self, stored: Any, state: ThousandState, mover: FullState, other: FullState, other_seat: int
    ) -> float:
        """The mover's win chance at the start of a turn of ``state`` with the two players ``mover`` and ``other``
        (either may differ from the state's own: the house-rule table values an event undone)."""

    @abc.abstractmethod
    def solve(
        self,
        rules: ThousandRules,
        floor: int,
        tol: float,
        ckpt: Path,
        threads: int | None,
        report: Report | None,
    ) -> Any:
        """Solve (resuming from ``ckpt``), telling ``report`` after each level."""

    @abc.abstractmethod
    def summary(self, table: Any, floor: int, tol: float, seconds: float) -> dict[str, Any]: ...

    @abc.abstractmethod
    def save(self, table: Any, floor: int, figures: dict[str, Any]) -> Path: ...


def models() -> tuple[ExactModel, ...]:
    """Every exact model but classic's (no rule set is covered by two: tests/thousand/test_solver_exact.py)."""
    from dicehall.thousand.solver import variant2_table, yard_table

    return (yard_table.MODEL, variant2_table.MODEL)


def model_for(rules: ThousandRules) -> ExactModel | None:
    """The model that covers ``rules``; None: classic's."""
    return next((m for m in models() if m.covers(rules)), None)


def cost_words(positions: int, hours: float, gb: float) -> Message:
    """What a solve will take, said before it starts."""
    size = {"positions": positions, "memory": round(gb, 1)}
    if hours >= 1:
        return Message("solve.thousand.yard_cost_hours", hours=round(hours, 1), **size)
    return Message("solve.thousand.yard_cost_minutes", minutes=max(1, math.ceil(hours * 60)), **size)


def missing_table(_positions: int, hours: float, gb: float) -> SolveError:
    return SolveError(Message("solve.thousand.yard_missing", hours=round(hours, 1), memory=round(gb, 1)))


T = TypeVar("T")


class Loaded(Generic[T]):
    """Tables loaded once per process while their two files stay the same (the last ``keep`` of them)."""

    def __init__(self, keep: int = 2) -> None:
        self.keep = keep
        self.found: dict[tuple[str, int, int, int, int], T] = {}

    def get(self, values_path: Path, info_path: Path, read: Callable[[dict[str, Any]], T]) -> T | None:
        """The table of the files (``read`` from the info's JSON on first use), None where they are not there."""
        if not values_path.exists() or not info_path.exists():
            return None
        stat, info_stat = values_path.stat(), info_path.stat()
        key = (str(values_path), stat.st_mtime_ns, stat.st_size, info_stat.st_mtime_ns, info_stat.st_size)
        found = self.found.get(key)
        if found is None:
            found = read(json.loads(info_path.read_text()))
            if len(self.found) >= self.keep:
                del self.found[next(iter(self.found))]
            self.found[key] = found
        return found

    def clear(self) -> None:
        self.found.clear()
