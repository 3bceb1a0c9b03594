"""Hints and analysis (dicehall.core.analysis) with Dice 1000's evaluators: the solved table and the turn DP."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from dicehall.core.agents import make_bot
from dicehall.core.analysis import (
    WIN_THRESHOLDS,
    AnalysisError,
    Evaluator,
    accuracy,
    analyze,
    evaluator_for,
    hints,
)
from dicehall.core.errors import RecordError
from dicehall.core.game import State
from dicehall.core.record import Event, GameRecord
from dicehall.thousand.analysis import TurnPointsEvaluator, WinEvaluator, roll_off_chances
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver.solve import load_table, save_table, solve
from dicehall.thousand.state import BANK, ROLL, ThousandState

# small enough to be solved in a second or two (with a score floor of -20), big enough for real games
FLOOR = -20
SMALL = ThousandRules.from_preset(
    "classic",
    {
        "target": 100,
        "barrel": "none",
        "pits": [[50, 60]],
        "open_min": 20,
        "bolts_count": 2,
        "bolt_penalty": 20,
        "overtake_penalty": 10,
        "dump_truck_score": 55,
    },
)
UNSOLVED = ThousandRules.from_preset("classic-nobarrel")
"""No table here and too large to solve on first use (classic itself has the shipped table: win %)."""


@pytest.fixture(autouse=True, scope="module")
def private_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Solved tables go to a temporary user data directory, shared by the module."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data")))
        yield


@pytest.fixture(scope="module")
def win(private_cache: None) -> WinEvaluator:
    save_table(solve(SMALL, floor=FLOOR))
    table = load_table(SMALL, FLOOR)
    assert table is not None
    ev = WinEvaluator(SMALL, table)
    assert ev.unit == "win%" and ev.note == ""
    return ev


def best(ev: Evaluator, state: State[Any]) -> Any:
    return max(ev.decision_values(state), key=lambda av: av[1])[0]


def play(
    rules: ThousandRules, choose: list[Any], seed: int, roll_off: bool = False
) -> tuple[GameRecord, ThousandState]:
    """A whole 2-player game; ``choose[seat](state, rng)`` gives each decision."""
    rng = np.random.default_rng(seed)
    state = ThousandState(rules, 2)
    record = GameRecord.start("thousand", rules, ["a", "b"])
    while not state.is_terminal():
        seat = state.current_player()
        action = state.sample_chance(rng) if seat < 0 else choose[seat](state, rng)
        record.add(state, action)
        state.apply_action(action)
    record.finish(state)
    return record, state


def randomly(state: State[Any], rng: np.random.Generator) -> Any:
    legal = list(state.legal_actions())
    return legal[int(rng.integers(len(legal)))]


def signed_sums(analysis: Any, seat: int) -> float:
    """Sum of the seat's luck minus its losses, the other seat's counted against it (zero-sum values)."""
    total = 0.0
    for s in analysis.steps:
        sign = 1.0 if s.seat == seat else -1.0
        total += sign * (s.luck - s.loss)
    return total


def test_the_side_playing_the_tables_best_move_loses_nothing_and_the_values_add_up(win: WinEvaluator) -> None:
    mine = theirs = 0.0
    decided = 0
    for seed in range(6):
        record, _ = play(SMALL, [lambda s, r: best(win, s), randomly], seed)
        a = analyze(record, win)
        me, other = a.totals
        assert me.loss == 0.0 and me.accuracy == pytest.approx(100.0, abs=1e-3)
        assert (me.inaccuracies, me.mistakes, me.blunders) == (0, 0, 0)
        mine += me.loss
        theirs += other.loss
        decided += me.decisions
        # exact values: the change over the game is the luck minus the errors (float32 table: 1e-5)
        assert a.series[-1][0] - a.series[0][0] == pytest.approx(signed_sums(a, 0), abs=1e-3)
        assert a.series[-1] == [100.0 * r for r in record.result["returns"]]  # type: ignore[index]
        assert all(abs(v[0] + v[1] - 100.0) < 1e-6 for v in a.series)
    assert decided > 5 and theirs > 0


def test_a_hand_made_record_luck_and_chart(win: WinEvaluator) -> None:
    """Each roll's luck is the roller's value after it minus the value before (an expectation at a roll)."""
    events = [
        ("chance", "1,1,5,2,3"),  # 25, 2 in hand: below the opening minimum? no: open_min 20 → may bank
        (0, "roll"),
        ("chance", "2,3"),  # zero: 25 burnt
        ("chance", "1,5,5,5,2"),  # b: 10 + 50 = 60
        (1, "bank"),
        ("chance", "6,6,6,2,3"),
        (0, "roll"),
        ("chance", "1,4"),
        (0, "bank"),
    ]
    record = GameRecord("thousand", SMALL.preset, SMALL.overrides(), [{"name": "a"}, {"name": "b"}])
    record.events = [Event(actor, move) for actor, move in events]
    a = analyze(record, win)
    assert len(a.series) == len(events) + 1 and a.final_scores is None
    start = ThousandState(SMALL, 2)
    assert a.series[0] == pytest.approx(win.chance_value(start))
    rolls = [s for s in a.steps if s.kind == "roll"]
    assert [s.seat for s in rolls] == [0, 0, 1, 0, 0]
    for s in rolls:
        assert s.expected == pytest.approx(a.series[s.n - 1][s.seat])
        assert s.luck == pytest.approx(a.series[s.n][s.seat] - a.series[s.n - 1][s.seat])
    assert rolls[1].luck < 0 < rolls[2].luck  # a zero roll hurts a; b's 60 helps b
    for seat in (0, 1):
        assert a.totals[seat].luck == pytest.approx(sum(s.luck for s in rolls if s.seat == seat))
        assert a.totals[seat].rolls == sum(1 for s in rolls if s.seat == seat)
    decisions = [s for s in a.steps if s.kind == "decision"]
    assert [(s.n, s.move) for s in decisions] == [(2, "roll"), (5, "bank"), (7, "roll"), (9, "bank")]
    for s in decisions:
        assert s.loss == pytest.approx(s.best_value - s.value)
        assert s.klass == WIN_THRESHOLDS.classify(s.loss)
    assert a.series[0][0] - a.series[-1][0] == pytest.approx(-signed_sums(a, 0), abs=1e-3)


def test_a_roll_expectation_equals_the_average_over_every_outcome(win: WinEvaluator) -> None:
    """The table's value of a roll against the engine: apply each of the 6**n rolls and average."""
    for moves in ([], ["1,1,5,2,3", "roll"], ["2,3,4,6,6", "1,5,2,3,3", "roll", "1,2,3", "roll"]):
        state = ThousandState(SMALL, 2)
        for m in moves:
            state.apply_action(state.string_to_action(m))
        assert state.is_chance_node()
        outcomes = state.chance_outcomes()
        brute = np.zeros(2)
        for dice, p in outcomes:
            brute += p * np.array(win.values(state.child(dice)))
        assert win.chance_value(state) == pytest.approx(list(brute), abs=1e-4)


def test_turn_points_fallback_for_rules_without_a_table() -> None:
    ev = evaluator_for("thousand", UNSOLVED, 2)
    assert isinstance(ev, TurnPointsEvaluator) and ev.unit == "points"
    assert "not win %" in ev.note and "dicehall solve thousand" in ev.note
    three = evaluator_for("thousand", SMALL, 3)
    assert isinstance(three, TurnPointsEvaluator) and "2 players" in three.note
    expert = make_bot("thousand", "expert", UNSOLVED)
    record, _ = play(UNSOLVED, [expert.choose, randomly], 3)
    a = analyze(record, ev)
    assert a.unit == "points" and a.totals[0].loss == 0.0 and a.totals[1].loss > 0
    assert a.series[-1] == record.result["scores"]  # type: ignore[index]


def test_turn_points_roll_expectation_against_the_engine() -> None:
    rules = ThousandRules.from_preset("classic", {"bolts": False})
    ev = TurnPointsEvaluator(rules, "test")
    state = ThousandState(rules, 2)
    for m in ["1,1,5,2,3", "roll"]:
        state.apply_action(state.string_to_action(m))
    brute = np.zeros(2)
    for dice, p in state.chance_outcomes():
        brute += p * np.array(ev.values(state.child(dice)))
    # the roller's value is an exact expectation; the other seat's is its score until its own turn starts
    assert ev.chance_value(state)[0] == pytest.approx(brute[0], abs=1e-9)
    assert ev.chance_value(state)[1] == 0.0


def test_roll_off_chances() -> None:
    state = ThousandState(ThousandRules.from_preset("classic", {"roll_off": True}), 2)
    assert roll_off_chances(state) == pytest.approx({0: 0.5, 1: 0.5})
    state.apply_action((6,))
    assert roll_off_chances(state)[0] == pytest.approx(11 / 12)
    three = ThousandState(ThousandRules.from_preset("classic", {"roll_off": True}), 3)
    three.apply_action((1,))
    chances = roll_off_chances(three)
    assert chances[0] == pytest.approx(1 / 36 / 3) and sum(chances.values()) == pytest.approx(1.0)


def test_hints_list_every_legal_decision_and_mark_the_best(win: WinEvaluator) -> None:
    state = ThousandState(SMALL, 2)
    state.apply_action((1, 1, 5, 2, 3))
    h = hints(win, state)
    assert sorted(o.move for o in h.options) == sorted([ROLL, BANK])
    assert [o.best for o in h.options] == [True, False]
    assert h.options[0].value == max(v for _, v in win.decision_values(state))
    assert h.options[1].loss == pytest.approx(h.options[0].value - h.options[1].value)
    assert h.to_json()["options"][0]["best"] is True
    with pytest.raises(AnalysisError, match="dice are to be rolled"):
        hints(win, ThousandState(SMALL, 2))


def test_keep_choices_get_values_with_free_set_aside() -> None:
    rules = ThousandRules.from_preset("classic", {"free_set_aside": True})
    ev = evaluator_for("thousand", rules, 2)
    assert isinstance(ev, TurnPointsEvaluator) and "free_set_aside" in ev.note
    state = ThousandState(rules, 2)
    state.apply_action((1, 5, 5, 5, 2))
    h = hints(ev, state)
    assert {o.move for o in h.options} == set(state.legal_actions()) and sum(o.best for o in h.options) == 1


def test_accuracy_formulas() -> None:
    assert accuracy(0.0, "win%", WIN_THRESHOLDS) == pytest.approx(99.9999)
    assert accuracy(10.0, "win%", WIN_THRESHOLDS) == pytest.approx(63.6, abs=0.1)
    assert accuracy(4.0, "points", WIN_THRESHOLDS) == pytest.approx(50.0)


def test_bad_records_are_refused(win: WinEvaluator) -> None:
    record = GameRecord("thousand", SMALL.preset, SMALL.overrides(), [{"name": "a"}, {"name": "b"}])
    record.events = [Event("chance", "1,1,5,2,3"), Event(0, "bank"), Event(1, "roll")]
    with pytest.raises(RecordError, match="event 3: it is chance's turn"):
        analyze(record, win)
    record.events = [Event("chance", "1,1,5,2,3"), Event(0, "jump")]
    with pytest.raises(RecordError, match="event 2"):
        analyze(record, win)
    record.events = [Event("chance", "1,1,9,2,3")]
    with pytest.raises(RecordError, match="event 1: cannot read dice outcome"):
        analyze(record, win)
    with pytest.raises(AnalysisError, match="no analysis"):
        from dicehall.core.game import get_game

        wurf = get_game("wurf")
        evaluator_for("wurf", wurf.rules_type.from_preset(wurf.rules_type.DEFAULT_PRESET), 2)
