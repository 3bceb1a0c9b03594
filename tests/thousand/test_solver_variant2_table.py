"""Variant 2's exact table wired in (``solver/variant2_table.py``, ``variant2_cli.py``, ``bot:optimal``, hints and
analysis), on the tiny variant 2 of ``test_solver_variant2`` (target 100, barrel 60, opening 20: 2,025 positions).

- The stored table: saved and loaded it equals the middle of the solved bounds, keyed by the rules; a file of
  other rules, another format or the wrong size is refused with the words to make it again.
- ``dicehall solve thousand`` on variant 2 rules: says its cost first, resumes from a checkpoint of finished levels
  (refusing one of another tolerance with what to do), stores the table, then reports it as cached.
- ``bot:optimal`` through the normal bot lookup: refused with what to do while there is no table; with one it
  decides as the model's turn over the table's values and against itself wins first at the table's chance.
- Hints and analysis: win % equal to the model's turn over the table at a hand-made position (the confirmation
  roll after hot dice valued as one); without the table, the turn's points with the note saying how to make it;
  analysed games of the table's best moves against random ones add up.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from dicehall.cli import _register_games, app
from dicehall.core.agents import make_bot
from dicehall.core.analysis import evaluator_for, position_hints
from dicehall.core.rng import agent_rng, seeded_rng
from dicehall.core.simulate import play_game
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver import variant2_table
from dicehall.thousand.solver.size import FullState
from dicehall.thousand.solver.space import SolveError
from dicehall.thousand.solver.variant2 import Position
from dicehall.thousand.solver.variant2_bot import Variant2TableBot
from dicehall.thousand.solver.variant2_solve import checkpoint_files, solve
from dicehall.thousand.state import BANK, ROLL, ThousandState
from dicehall.thousand.tables import DECIDING

from .exact_tables import (
    check_analysed_games_add_up,
    check_bot_refused_without_the_table,
    check_hints_without_the_table,
    made_in,
    private_data,
)
from .helpers import assert_optimal_self_play_wins_first_at
from .test_solver_variant2 import engine_position, sampled_positions

_register_games()
runner = CliRunner()
TINY_SET = {"target": 100, "open_min": 20, "barrel_score": 60}
TINY = ThousandRules.from_preset("variant2", TINY_SET)
TINY_ARGS = ["--preset", "variant2"] + [a for k, v in TINY_SET.items() for a in ("--set", f"{k}={v}")]
TOL = 1e-11


data_home, private_cache = private_data("variant2-data")


@pytest.fixture(scope="module")
def stored(data_home: Path) -> variant2_table.StoredVariant2:
    table = made_in(data_home, lambda: solve(TINY, tol=TOL))
    made_in(data_home, lambda: variant2_table.save_variant2_table(table, {"tolerance": TOL}))
    found = made_in(data_home, lambda: variant2_table.load_variant2_table(TINY))
    assert found is not None
    assert np.array_equal(found.middle, ((table.lower + table.upper) / 2).astype(np.float32))
    return found


def model_value(stored: variant2_table.StoredVariant2) -> object:
    index = stored.space.index

    def value(pos: Position) -> float:
        return stored.value(index[pos.mover], index[pos.opponent])

    return value


# -- the stored table ----------------------------------------------------------------------------------------------
def test_the_stored_table_is_keyed_by_the_rules_and_refuses_another(
    stored: variant2_table.StoredVariant2,
) -> None:
    size = stored.space.size
    assert stored.middle.dtype == np.float32 and stored.middle.shape == (size, size) == (45, 45)
    start = stored.space.start
    assert stored.value(start, start) == pytest.approx(0.5523532019, abs=1e-7)
    assert stored.info["format"] == variant2_table.FORMAT
    assert (
        variant2_table.load_variant2_table(ThousandRules.from_preset("variant2", {**TINY_SET, "target": 105}))
        is None
    )
    assert variant2_table.load_variant2_table(ThousandRules.from_preset("variant2")) is None  # another key
    values_path, info_path = variant2_table.variant2_paths(TINY)
    good = info_path.read_text()
    whole = np.array(stored.middle)  # a copy: the stored values are mapped from the file

    def write(values: np.ndarray) -> None:  # a new file, as the store writes it (the mapped one stays whole)
        tmp = values_path.with_suffix(".test.npy")
        np.save(tmp, values)
        tmp.replace(values_path)

    try:
        for change in ({"rules": {**json.loads(good)["rules"], "target": 105}}, {"format": "yard-1"}):
            info_path.write_text(json.dumps({**json.loads(good), **change}))
            with pytest.raises(SolveError) as refused:
                variant2_table.load_variant2_table(TINY)
            assert refused.value.msgid == "solve.thousand.yard_other_table"
            assert "--fresh" in str(refused.value) and str(values_path) in str(refused.value)
        info_path.write_text(good)
        write(whole[:-1])  # a table of another size
        with pytest.raises(SolveError, match="not made for these rules") as wrong:
            variant2_table.load_variant2_table(TINY)
        assert "постройте её заново" in wrong.value.localized("ru")
    finally:
        info_path.write_text(good)
        write(whole)
    again = variant2_table.load_variant2_table(TINY)
    assert again is not None and np.array_equal(again.middle, stored.middle)


# -- the command ---------------------------------------------------------------------------------------------------
def test_the_command_says_its_cost_resumes_stores_and_then_reports_the_cached_table(tmp_path: Path) -> None:
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_DATA_HOME", str(tmp_path))
        ckpt = variant2_table.variant2_checkpoint_path(TINY)
        ckpt.parent.mkdir(parents=True)
        # as if stopped after 10 levels, at the command's tolerance (its default)
        part = solve(TINY, 1e-9, checkpoint=ckpt, max_levels=10)
        assert not part.complete and len(part.levels) == 10
        other = runner.invoke(app, ["solve", "thousand", *TINY_ARGS, "--tol", "1e-10", "--lang", "pl"])
        assert other.exit_code == 2 and "--fresh" in other.output and "dokładnością" in other.output
        assert ckpt.exists()  # kept: the refusal changes nothing
        result = runner.invoke(app, ["solve", "thousand", *TINY_ARGS])
        assert result.exit_code == 0, result.output
        out = " ".join(result.output.split())
        assert out.index("Making the exact table of these rules (2025 positions)") < out.index(
            "level 45 of 45"
        )
        assert "first player wins with probability 0.55235" in out
        assert not any(p.exists() for p in (ckpt, *checkpoint_files(ckpt)))
        saved = variant2_table.load_variant2_table(TINY)
        assert saved is not None
        # the finished levels were not solved again: their figures are the first run's
        assert saved.info["level_cpu_seconds"][:10] == [lv.cpu_seconds for lv in part.levels]
        full = solve(TINY, 1e-9)
        assert np.abs(saved.middle - full.middle).max() < 1e-7
        cached = runner.invoke(app, ["solve", "thousand", *TINY_ARGS, "--json"])
        assert cached.exit_code == 0, cached.output
        figures = json.loads(cached.stdout)
        assert figures["cached"] and figures["player_states"] == 45 and figures["states"] == 2025
        assert figures["win_probability_first"] == pytest.approx(
            full.value(full.space.start, full.space.start)
        )
        refused = runner.invoke(app, ["solve", "thousand", *TINY_ARGS, "--policy", "--lang", "uk"])
        assert refused.exit_code == 2 and "--policy" in refused.output and "без них" in refused.output


def test_the_cost_of_the_full_variant2_is_said_in_hours() -> None:
    message = variant2_table.cost_message(ThousandRules.from_preset("variant2"))
    assert message.msgid == "solve.thousand.yard_cost_hours"
    assert message.params["positions"] == 149_964_516
    hours = variant2_table.US_PER_POSITION * 149_964_516 / 3.6e9
    assert message.params["hours"] == round(hours, 1) and message.params["memory"] == 2.6


# -- bot:optimal ---------------------------------------------------------------------------------------------------
def test_bot_optimal_without_the_table_says_how_to_make_it(tmp_path: Path) -> None:
    check_bot_refused_without_the_table(TINY, tmp_path)


def test_bot_optimal_plays_variant2_from_the_table_and_wins_first_at_its_chance(
    stored: variant2_table.StoredVariant2,
) -> None:
    bot = make_bot("thousand", "optimal", TINY)
    assert isinstance(bot, Variant2TableBot) and np.array_equal(bot.table.middle, stored.middle)
    space = stored.space
    value = model_value(stored)
    rng = np.random.default_rng(0)
    checked = 0
    for pos in sampled_positions(space.model, 6, seed=4):
        turn = space.model.turn(pos, value)  # type: ignore[arg-type]
        for t, n in itertools.product(range(turn.top // 5 + 1), range(1, 6)):
            total = t * 5
            if abs(turn.roll(total, n, confirm=False) - turn.bank(total)) < 1e-9:
                continue  # a tie: either is best
            s = engine_position(TINY, pos.mover, pos.opponent)
            s.phase, s.turn_total, s.in_hand = DECIDING, total, n
            if BANK not in s.legal_actions() or ROLL not in s.legal_actions():
                continue
            assert bot.choose(s, rng) == (ROLL if turn.decide(total, n) else BANK), (pos, t, n)
            checked += 1
    assert checked > 200
    # self-play through the bot lookup: the first player's share within the 99 % interval of the table's chance
    assert_optimal_self_play_wins_first_at(
        TINY, stored.value(space.start, space.start), games=3000, stream=2626
    )


def test_bot_optimal_with_three_players_plays_against_the_leader(
    stored: variant2_table.StoredVariant2,
) -> None:
    bot = make_bot("thousand", "optimal", TINY)
    assert isinstance(bot, Variant2TableBot)
    s = ThousandState.from_position(
        TINY, [30, 45, 20], opened=[True, True, True], opening_scores=[20, 25, 20]
    )
    s.phase, s.turn_total, s.in_hand = DECIDING, 15, 3
    index = stored.space.index
    mover, leader = index[FullState(30, True, opening=20)], index[FullState(45, True, opening=25)]
    assert bot.turn(s) is not None and bot._key == (mover, leader)
    state = ThousandState(TINY, 3)
    bots = [make_bot("thousand", "optimal", TINY) for _ in range(3)]
    play_game(state, bots, seeded_rng(3), agent_rng(3))
    assert state.is_terminal()


# -- hints and analysis --------------------------------------------------------------------------------------------
def test_hints_and_analysis_read_the_table(stored: variant2_table.StoredVariant2) -> None:
    mover, other = FullState(30, True, opening=20), FullState(45, True, opening=25)
    pos = Position(mover, other)
    assert stored.space.model.holds(pos)
    turn = stored.space.model.turn(pos, model_value(stored))  # type: ignore[arg-type]
    evaluator = evaluator_for("thousand", TINY, 2)
    assert evaluator.unit == "win%" and evaluator.note == ""
    s = engine_position(TINY, mover, other)
    assert s.is_chance_node()
    assert evaluator.values(s)[0] == pytest.approx(100 * turn.value, abs=1e-9)
    index = stored.space.index
    assert turn.value == pytest.approx(stored.value(index[mover], index[other]), abs=1e-6)  # its fixed point
    # a decision with 3 dice in hand at 15: roll or bank, as the model's turn values them
    d = s.clone()
    d.phase, d.turn_total, d.in_hand = DECIDING, 15, 3
    hints = position_hints("thousand", TINY, 2, d)
    got = {h.move: h.value for h in hints.options}
    assert got["roll"] == pytest.approx(100 * turn.roll(15, 3, confirm=False), abs=1e-9)
    assert got["bank"] == pytest.approx(100 * turn.bank(15), abs=1e-9)
    assert [h.move for h in hints.options if h.best] == ["roll" if turn.decide(15, 3) else "bank"]
    d.apply_action(ROLL)
    assert evaluator.chance_value(d)[0] == pytest.approx(100 * turn.roll(15, 3, confirm=False), abs=1e-9)
    # hot dice at 10 (opened: a scoring confirmation banks): the forced roll of five is the confirmation roll, worth
    # other than a free roll of five
    h = s.clone()
    h.phase, h.turn_total, h.in_hand, h.hot_dice = DECIDING, 10, 5, True
    confirm = turn.roll(10, 5, confirm=True)
    assert abs(confirm - turn.roll(10, 5, confirm=False)) > 1e-4
    assert dict(evaluator.decision_values(h))[ROLL] == pytest.approx(100 * confirm, abs=1e-9)
    h.apply_action(ROLL)
    assert h.confirming
    assert evaluator.chance_value(h)[0] == pytest.approx(100 * confirm, abs=1e-9)


def test_hints_without_the_table_are_the_turns_points_and_say_how_to_make_it(tmp_path: Path) -> None:
    check_hints_without_the_table(TINY, tmp_path)


def test_analysis_of_variant2_games_adds_up_and_the_tables_side_loses_nothing(
    stored: variant2_table.StoredVariant2,
) -> None:
    """Best moves by the table against random ones add up (:func:`check_analysed_games_add_up`); the values at
    a roll (the first roll, a roll of the dice in hand, the confirmation roll) are the expectations of the values
    after it, and the games meet the confirmation roll."""
    assert check_analysed_games_add_up(TINY, lambda s: int(s.confirming)) > 0
