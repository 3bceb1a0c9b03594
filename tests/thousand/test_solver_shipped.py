"""The compact classic table shipped in the package: it decodes, fits classic, and ``bot:optimal``, hints and
analysis use it on a machine where classic has not been solved (the suite's user data directory is fresh)."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest

from dicehall.core.agents import make_bot
from dicehall.core.analysis import evaluator_for
from dicehall.thousand.analysis import WinEvaluator
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver import compact
from dicehall.thousand.solver.bot import OptimalBot
from dicehall.thousand.solver.solve import Table, load_table, shipped_table, solve
from dicehall.thousand.solver.space import build_space
from dicehall.thousand.state import ThousandState

from .test_solver import FLOOR, SMALL

CLASSIC = ThousandRules.from_preset("classic")
FIRST_PLAYER = 0.5031160587
"""The first player's chance under optimal play on classic (docs/thousand-solved.md; policy iteration)."""


@pytest.fixture(scope="module")
def classic() -> Table:
    tab = shipped_table(CLASSIC)
    assert tab is not None, "the shipped classic table is missing from the package"
    return tab


def test_the_shipped_file_is_small_and_names_its_rules() -> None:
    path = compact.shipped_path()
    assert path.stat().st_size <= 2_000_000
    header = compact.read_header(path)
    assert header["rules"] == compact.rules_dict(CLASSIC) and header["floor"] == -300
    assert header["bits"] == 16 and header["max_error"] <= 2.0**-17 + 1e-9


def test_the_shipped_table_decodes_with_classics_positions_and_known_values(classic: Table) -> None:
    space = classic.space
    assert classic.shipped and classic.values.shape == (space.size, space.size)
    assert space.positions == 4_853_209 and classic.info["states"] == space.positions
    v = classic.values
    assert np.isfinite(v).all() and v.min() >= 0.0 and v.max() <= 1.0
    start = classic.value(space.start, space.start)
    assert start == pytest.approx(FIRST_PLAYER, abs=classic.max_error + 1e-7)
    assert classic.info["win_probability_first"] == pytest.approx(FIRST_PLAYER, abs=1e-9)
    # whoever is ahead is more likely to win: 800 vs 0 (docs: 0.706) and 0 vs 800, both opened
    ahead, behind = space.state_of(800, True), space.state_of(0, True)
    assert classic.value(ahead, behind) == pytest.approx(0.706, abs=5e-4)
    assert classic.value(behind, ahead) < 0.35
    assert "±0.001 percentage points" in str(classic.note())


def test_other_rules_get_no_shipped_table_and_a_forged_one_is_refused(tmp_path: Path) -> None:
    assert shipped_table(ThousandRules.from_preset("classic", {"target": 900})) is None
    assert shipped_table(CLASSIC, floor=-200) is None
    # a compact file of other rules does not decode as classic (nor the other way round)
    solution = solve(SMALL, floor=FLOOR, threads=1)
    path = tmp_path / "small.npz"
    header = compact.export(solution.space, solution.lower, solution.summary(), path)
    values, _ = compact.decode(path, solution.space)
    assert np.abs(values - solution.lower).max() <= header["max_error"] + 1e-7
    assert header["max_error"] <= 2.0**-17
    with pytest.raises(compact.CompactError, match="other rules"):
        compact.decode(path, build_space(CLASSIC))
    with pytest.raises(compact.CompactError, match="other rules"):
        compact.decode(compact.shipped_path(), solution.space)
    path.write_bytes(b"not a table")
    with pytest.raises(compact.CompactError, match="not a compact"):
        compact.decode(path, solution.space)
    with pytest.raises(compact.CompactError, match="not a compact"):
        compact.read_header(path)


def test_optimal_bot_plays_classic_out_of_the_box_from_the_shipped_table(classic: Table) -> None:
    assert load_table(CLASSIC) is None  # a fresh user data directory: classic has not been solved here
    bot = make_bot("thousand", "optimal", CLASSIC)
    assert isinstance(bot, OptimalBot) and bot.table is classic
    rng = np.random.default_rng(16)
    decisions, spent = 0, 0.0
    for _ in range(3):
        state = ThousandState(CLASSIC, 2)
        for _ in range(20_000):
            if state.is_terminal():
                break
            if state.current_player() < 0:
                state.apply_action(state.sample_chance(rng))
                continue
            t0 = time.perf_counter()
            action = bot.choose(state, rng)
            spent += time.perf_counter() - t0
            decisions += 1
            assert action in state.legal_actions()
            state.apply_action(action)
        assert state.is_terminal()
    assert decisions > 100 and spent / decisions < 0.05  # generous: the machine is shared


def test_hints_and_analysis_on_classic_use_the_shipped_table_and_say_so(classic: Table) -> None:
    ev = evaluator_for("thousand", CLASSIC, 2)
    assert isinstance(ev, WinEvaluator) and ev.table is classic and ev.unit == "win%"
    assert "table shipped" in ev.note and "±0.001" in ev.note
    start = ev.values(ThousandState(CLASSIC, 2))
    assert start[0] == pytest.approx(100 * FIRST_PLAYER, abs=1e-3) and sum(start) == pytest.approx(100.0)
