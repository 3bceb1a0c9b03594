"""What the tests of the exact models besides classic's share (``test_solver_yard*.py``,
``test_solver_variant2*.py``): a private data directory per test module (so a stored table lives in it, and no
evaluator made before it is kept), the module's table made once there, made-up values of positions, and the
checks alike for every model: ``bot:optimal`` and the hints without the table, analysed games that add up, the
value of a turn graph explored through the engine (self-play at the table's chance: ``helpers.py``)."""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt
import pytest

from dicehall.core import analysis
from dicehall.core.agents import make_bot
from dicehall.core.analysis import analyze, evaluator_for
from dicehall.core.record import GameRecord
from dicehall.i18n import translator
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver.space import SolveError
from dicehall.thousand.state import ThousandState

T = TypeVar("T")


def private_data(name: str) -> tuple[Any, Any]:
    """The fixtures ``data_home`` (a data directory for the module) and an autouse one pointing
    ``XDG_DATA_HOME`` at it for every test: ``data_home, private_cache = private_data("yard-data")``."""

    @pytest.fixture(scope="module")
    def data_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
        return tmp_path_factory.mktemp(name)

    @pytest.fixture(autouse=True)
    def private_cache(data_home: Path) -> Iterator[None]:
        with pytest.MonkeyPatch.context() as mp:
            mp.setenv("XDG_DATA_HOME", str(data_home))
            analysis._MADE.clear()  # an evaluator made before the table would be kept
            yield
            analysis._MADE.clear()

    return data_home, private_cache


def made_in(data_home: Path, make: Callable[[], T]) -> T:
    """``make()`` with ``data_home`` as the data directory (for a module-scoped fixture, before any test's)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_DATA_HOME", str(data_home))
        return make()


class RandomValues:
    """A made-up value of every position (the same one each time it is asked): ends valued with it are equal only
    if they lead to the same positions."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.values: dict[Hashable, float] = {}

    def __call__(self, pos: Hashable) -> float:
        if pos not in self.values:
            self.values[pos] = self.rng.random()
        return self.values[pos]


def check_bot_refused_without_the_table(rules: ThousandRules, tmp_path: Path) -> None:
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_DATA_HOME", str(tmp_path))
        with pytest.raises(SolveError) as refused:
            make_bot("thousand", "optimal", rules)
        assert refused.value.msgid == "solve.thousand.yard_missing"
        assert "dicehall solve thousand" in refused.value.localized("pl")


def check_hints_without_the_table(rules: ThousandRules, tmp_path: Path) -> None:
    """Without the table the hints are the turn's points, and their note says how to make it."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_DATA_HOME", str(tmp_path))
        analysis._MADE.clear()
        evaluator = evaluator_for("thousand", rules, 2)
        assert evaluator.unit == "points"
        assert "dicehall solve thousand" in str(evaluator.note)
        assert "точная таблица этих правил" in translator("ru").message(evaluator.note)


def check_analysed_games_add_up(
    rules: ThousandRules, seen: Callable[[ThousandState], int], games: int = 8
) -> int:
    """Best moves by the table against random ones: the best side loses nothing, and each seat's value changes
    over the game by its luck minus the losses (the other seat's counted against it). ``seen`` counts what the state
    after each action shows; the total is returned."""
    evaluator = evaluator_for("thousand", rules, 2)
    decided = theirs = 0.0
    count = 0
    for seed in range(games):
        rng = np.random.default_rng(seed)
        state = ThousandState(rules, 2)
        record = GameRecord.start("thousand", rules, ["a", "b"])
        while not state.is_terminal():
            seat = state.current_player()
            if seat < 0:
                action = state.sample_chance(rng)
            elif seat == 0:
                action = max(evaluator.decision_values(state), key=lambda av: av[1])[0]
            else:
                legal = list(state.legal_actions())
                action = legal[int(rng.integers(len(legal)))]
            record.add(state, action)
            state.apply_action(action)
            count += seen(state)
        record.finish(state)
        a = analyze(record, evaluator)
        me, other = a.totals
        assert me.loss == 0.0 and (me.inaccuracies, me.mistakes, me.blunders) == (0, 0, 0)
        decided += me.decisions
        theirs += other.loss
        signed = sum((1.0 if s.seat == 0 else -1.0) * (s.luck - s.loss) for s in a.steps)
        assert a.series[-1][0] - a.series[0][0] == pytest.approx(signed, abs=1e-3)
        assert a.series[-1] == [100.0 * r for r in record.result["returns"]]  # type: ignore[index]
    assert decided > 10 and theirs > 0
    return count


def graph_value(graph: Any, ends: dict[int, npt.NDArray[np.float64]], size: int) -> npt.NDArray[np.float64]:
    """The value at the start of a turn graph explored through the engine (``graph.nodes``: (is a roll, edges of
    (chance, target)), ``graph.start``) for ``size`` positions at once: an end ``t < 0`` valued ``ends[t]``, a roll
    by its chances, a decision by its best."""
    vals: list[npt.NDArray[np.float64]] = []
    for is_roll, edges in graph.nodes:
        parts = [ends[t] if t < 0 else vals[t] for _, t in edges]
        if is_roll:
            acc = np.zeros(size)
            for (p, _), x in zip(edges, parts, strict=True):
                acc += p * x
            vals.append(acc)
        else:
            vals.append(np.maximum.reduce(parts))
    return vals[graph.start]
