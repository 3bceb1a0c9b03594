"""Yard's exact table wired in (``solver/yard_table.py``, ``yard_cli.py``, ``bot:optimal``, hints and analysis), on
a tiny yard at the default floor (``WIRE``: target 40, a barrel at 30, no overtaking or bolt penalties, so that
no score goes below 0: 2,441 positions).

- The stored table: saved and loaded it equals the solved values (both flags), keyed by the rules; a file of other
  rules, of another format or without the flag is refused with the words to make it again.
- ``dicehall solve thousand`` on yard rules: says its cost first, resumes from a checkpoint of finished levels,
  stores the table (the figures of the levels solved before kept), then reports it as cached.
- ``bot:optimal`` through the normal bot lookup: refused with what to do while there is no table; with one it
  decides as the model's turn over the table's values, flag or not, and against itself wins first at the
  table's chance.
- Hints and analysis: win % equal to the model's turn over the table at a hand-made position with the flag set and
  not set; without the table, the turn's points with the note saying how to make it; analysed games of the
  table's best moves against random ones add up (each seat's change of value = its luck minus the losses).
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
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver import yard_table
from dicehall.thousand.solver.size import FullState
from dicehall.thousand.solver.space import DEFAULT_FLOOR, SolveError
from dicehall.thousand.solver.yard import Position
from dicehall.thousand.solver.yard_bot import YardTableBot
from dicehall.thousand.solver.yard_pi import solve_levels
from dicehall.thousand.state import BANK, ROLL
from dicehall.thousand.tables import DECIDING

from .exact_tables import (
    check_analysed_games_add_up,
    check_bot_refused_without_the_table,
    check_hints_without_the_table,
    made_in,
    private_data,
)
from .helpers import assert_optimal_self_play_wins_first_at
from .test_solver_yard import engine_position, sampled_positions

_register_games()
runner = CliRunner()
WIRE_SET = {
    "target": 40,
    "open_min": 10,
    "pits": [[15, 20]],
    "dump_truck_score": 25,
    "overtake_penalty": 0,
    "bolts_count": 2,
    "bolt_penalty": 0,
    "barrel_score": 30,
    "barrel_fall_penalty": 10,
    "barrel_attempts": 2,
    "barrel_falls_to_zero": 2,
}
WIRE = ThousandRules.from_preset("yard", WIRE_SET)
WIRE_ARGS = ["--preset", "yard"] + [
    a for k, v in WIRE_SET.items() for a in ("--set", f"{k}={json.dumps(v).replace(' ', '')}")
]


data_home, private_cache = private_data("yard-data")


@pytest.fixture(scope="module")
def stored(data_home: Path) -> yard_table.StoredYard:
    table = solve_levels(WIRE, DEFAULT_FLOOR, tol=1e-11)
    made_in(data_home, lambda: yard_table.save_yard_table(table, DEFAULT_FLOOR, {"tolerance": 1e-11}))
    found = made_in(data_home, lambda: yard_table.load_yard_table(WIRE))
    assert found is not None
    assert np.array_equal(found.values, table.values.astype(np.float32))
    return found


def model_value(stored: yard_table.StoredYard) -> object:
    index = stored.space.index

    def value(pos: Position) -> float:
        return stored.value(index[pos.mover], index[pos.opponent], pos.flagged)

    return value


# -- the stored table ----------------------------------------------------------------------------------------------
def test_the_stored_table_is_keyed_by_the_rules_and_refuses_another(stored: yard_table.StoredYard) -> None:
    space = stored.space
    size = space.size
    assert stored.values.dtype == np.float32 and stored.values.shape == (2 * size * size,)
    start = space.start
    # both halves hold values, and the flag changes them where an opponent can be flagged
    some = next(i for i in range(size) if space.flaggable[i] and space.states[i].opened)
    assert stored.value(start, some, True) != stored.value(start, some)
    assert stored.info["format"] == yard_table.FORMAT and stored.info["skip_flag"]
    other = ThousandRules.from_preset("yard", {**WIRE_SET, "dump_truck_score": 20})
    assert yard_table.load_yard_table(other) is None  # another key: not made
    assert yard_table.load_yard_table(WIRE, floor=-100) is None
    values_path, info_path = yard_table.yard_paths(WIRE)
    good = info_path.read_text()
    try:
        for change in (
            {"rules": {**json.loads(good)["rules"], "target": 50}},
            {"skip_flag": False},
            {"format": "classic"},
            {"floor": -100},
        ):
            info_path.write_text(json.dumps({**json.loads(good), **change}))
            with pytest.raises(SolveError) as refused:
                yard_table.load_yard_table(WIRE)
            assert refused.value.msgid == "solve.thousand.yard_other_table"
            assert "--fresh" in str(refused.value) and str(values_path) in str(refused.value)
        info_path.write_text(good)
        whole = np.load(values_path)
        np.save(values_path, whole[: size * size])  # a flag-less table (W only)
        with pytest.raises(SolveError, match="not made for these rules") as flagless:
            yard_table.load_yard_table(WIRE)
        assert "постройте её заново" in flagless.value.localized("ru")
    finally:
        info_path.write_text(good)
        np.save(values_path, stored.values)
    again = yard_table.load_yard_table(WIRE)
    assert again is not None and np.array_equal(again.values, stored.values)


# -- the command ---------------------------------------------------------------------------------------------------
def test_the_command_says_its_cost_resumes_stores_and_then_reports_the_cached_table(tmp_path: Path) -> None:
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_DATA_HOME", str(tmp_path))
        ckpt = yard_table.yard_checkpoint_path(WIRE)
        part = solve_levels(WIRE, DEFAULT_FLOOR, checkpoint=ckpt, max_levels=1)  # as if stopped after level 1
        assert not part.complete and len(part.levels) == 1
        result = runner.invoke(app, ["solve", "thousand", *WIRE_ARGS])
        assert result.exit_code == 0, result.output
        out = " ".join(result.output.split())
        assert out.index("Making the exact table of these rules (2441 positions)") < out.index("level 3 of 3")
        assert "first player wins with probability 0.53630" in out and not ckpt.exists()
        saved = yard_table.load_yard_table(WIRE)
        assert saved is not None
        # the finished level was not solved again: its figures are the first run's
        assert saved.info["levels"][0]["cpu_seconds"] == round(part.levels[0].cpu_seconds, 1)
        full = solve_levels(WIRE, DEFAULT_FLOOR)
        assert np.abs(saved.values - full.values).max() < 1e-7
        cached = runner.invoke(app, ["solve", "thousand", *WIRE_ARGS, "--json"])
        assert cached.exit_code == 0, cached.output
        figures = json.loads(cached.stdout)
        assert figures["cached"] and figures["skip_flag"] and figures["player_states"] == 37
        assert figures["win_probability_first"] == pytest.approx(
            full.value(full.space.start, full.space.start)
        )
        refused = runner.invoke(app, ["solve", "thousand", *WIRE_ARGS, "--policy", "--lang", "uk"])
        assert refused.exit_code == 2 and "--policy" in refused.output and "без них" in refused.output


def test_the_cost_of_the_full_yard_is_said_in_hours() -> None:
    message = yard_table.cost_message(ThousandRules.from_preset("yard"))
    assert message.msgid == "solve.thousand.yard_cost_hours"
    assert message.params["positions"] == 13_525_911
    assert message.params["hours"] == yard_table.YARD_CPU_HOURS
    assert message.params["memory"] == yard_table.YARD_PEAK_GB


# -- bot:optimal ---------------------------------------------------------------------------------------------------
def test_bot_optimal_without_the_table_says_how_to_make_it(tmp_path: Path) -> None:
    check_bot_refused_without_the_table(WIRE, tmp_path)


def test_bot_optimal_plays_yard_from_the_table_and_wins_first_at_its_chance(
    stored: yard_table.StoredYard,
) -> None:
    bot = make_bot("thousand", "optimal", WIRE)
    assert isinstance(bot, YardTableBot) and np.array_equal(bot.table.values, stored.values)
    space = stored.space
    value = model_value(stored)
    # every decision of sampled positions (the flag set and not) is the model's turn over the table's values
    positions = sampled_positions(space.model, 6, seed=4)
    assert any(p.flagged for p in positions) and any(not p.flagged for p in positions)
    rng = np.random.default_rng(0)
    checked = 0
    for pos in positions:
        turn = space.model.turn(pos, value)  # type: ignore[arg-type]
        for t, n, r in itertools.product(range(turn.top + 1), range(1, 6), range(turn.rr)):
            s = engine_position(WIRE, pos.mover, pos.opponent, pos.flagged)
            s.phase, s.turn_total, s.in_hand = DECIDING, t * 5, n
            s._free_rolls = r
            if BANK not in s.legal_actions() or ROLL not in s.legal_actions():
                continue
            want = ROLL if turn.decide(t * 5, n, r) else BANK
            assert bot.choose(s, rng) == want, (pos, t, n, r)
            checked += 1
    assert checked > 200
    # self-play through the bot lookup: the first player's share within the 99 % interval of the table's chance
    assert_optimal_self_play_wins_first_at(
        WIRE, stored.value(space.start, space.start), games=3000, stream=27
    )


# -- hints and analysis --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("flagged", [False, True], ids=["no-flag", "flag"])
def test_hints_and_analysis_read_the_table_with_the_flag(
    stored: yard_table.StoredYard, flagged: bool
) -> None:
    mover, other = FullState(10, True), FullState(5, True)
    pos = Position(mover, other, flagged)
    assert stored.space.model.holds(pos)
    turn = stored.space.model.turn(pos, model_value(stored))  # type: ignore[arg-type]
    evaluator = evaluator_for("thousand", WIRE, 2)
    assert evaluator.unit == "win%" and evaluator.note == ""
    s = engine_position(WIRE, mover, other, flagged)
    assert s.is_chance_node() and s.skip_next[1] == flagged
    assert evaluator.values(s)[0] == pytest.approx(100 * turn.value, abs=1e-9)
    index = stored.space.index
    table_value = stored.value(index[mover], index[other], flagged)
    assert turn.value == pytest.approx(table_value, abs=1e-6)  # the table is the turn's fixed point
    # the first roll scores with four dice left: roll or bank, as the model's turn values them
    for outcome in s.chance_outcomes():
        after = s.clone()
        after.apply_action(outcome[0])
        if after.phase == DECIDING and after.in_hand == 4 and BANK in after.legal_actions():
            s = after
            break
    t, ti = s.turn_total, s.turn_total // 5
    assert s.in_hand == 4 and s.free_rolls == 1
    hints = position_hints("thousand", WIRE, 2, s)
    got = {h.move: h.value for h in hints.options}
    assert got["roll"] == pytest.approx(100 * turn.rv[ti][4][1], abs=1e-9)
    assert got["bank"] == pytest.approx(100 * turn.ends.bank[ti], abs=1e-9)
    assert [h.move for h in hints.options if h.best] == ["roll" if turn.decide(t, 4, 1) else "bank"]
    s.apply_action(ROLL)
    assert evaluator.chance_value(s)[0] == pytest.approx(100 * turn.rv[ti][4][1], abs=1e-9)
    # the flag is read: the other value of the same seats differs
    unflagged = stored.space.model.turn(Position(mover, other, not flagged), model_value(stored))  # type: ignore[arg-type]
    assert abs(unflagged.value - turn.value) > 1e-4


def test_hints_without_the_table_are_the_turns_points_and_say_how_to_make_it(tmp_path: Path) -> None:
    check_hints_without_the_table(WIRE, tmp_path)


def test_analysis_of_yard_games_adds_up_and_the_tables_side_loses_nothing(
    stored: yard_table.StoredYard,
) -> None:
    """Best moves by the table against random ones add up (:func:`check_analysed_games_add_up`); the values at
    a roll (the first roll, a counted roll, the forced roll of five) are the expectations of the values after it,
    and the games meet the flag."""
    assert check_analysed_games_add_up(WIRE, lambda s: any(s.skip_next)) > 0
