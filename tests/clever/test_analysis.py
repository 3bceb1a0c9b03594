"""Clever hints and analysis: expected final points from bot:master's learned values."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from dicehall.clever.analysis import ENUMERATE_LIMIT, CleverEvaluator
from dicehall.clever.game import CleverGame
from dicehall.clever.rules import CleverRules
from dicehall.clever.state import CleverState
from dicehall.core.analysis import analyze, evaluator_for, hints
from dicehall.core.record import GameRecord

from .helpers import new, roll


@pytest.fixture(scope="module")
def ev() -> CleverEvaluator:
    found = evaluator_for("clever", CleverRules.from_preset(), 1)
    assert isinstance(found, CleverEvaluator) and found.unit == "points"
    return found


def play(ev: CleverEvaluator, seats: int, seed: int, random_seats: tuple[int, ...] = ()) -> GameRecord:
    """A game where each seat plays the evaluator's best decision, except ``random_seats`` (uniform)."""
    rules = CleverRules.from_preset()
    rng = np.random.default_rng(seed)
    state = CleverGame().new_initial_state(rules, seats)
    record = GameRecord.start("clever", rules, [f"p{i}" for i in range(seats)])
    while not state.is_terminal():
        seat = state.current_player()
        action: Any
        if seat < 0:
            action = state.sample_chance(rng)
        elif seat in random_seats:
            legal = state.legal_actions()
            action = legal[int(rng.integers(len(legal)))]
        else:
            action = max(ev.decision_values(state), key=lambda av: av[1])[0]
        record.add(state, action)
        state.apply_action(action)
    record.finish(state)
    return record


def test_the_side_playing_the_best_decision_loses_nothing(ev: CleverEvaluator) -> None:
    solo = analyze(play(ev, 1, 11), ev)
    me = solo.totals[0]
    assert me.decisions > 20 and me.loss == 0.0 and me.accuracy == 100.0 and me.rolls > 15
    assert solo.series[-1] == solo.final_scores and len(solo.series) == len(solo.steps) + 1
    duel = analyze(play(ev, 2, 12, random_seats=(1,)), ev)
    assert duel.totals[0].loss == 0.0
    assert duel.totals[1].loss > 10 and duel.totals[1].blunders > 0 and duel.totals[1].accuracy < 90


def test_luck_is_the_value_after_the_roll_minus_the_expectation(ev: CleverEvaluator) -> None:
    a = analyze(play(ev, 1, 5), ev)
    for s in a.steps:
        if s.kind == "roll":
            assert s.expected == pytest.approx(a.series[s.n - 1][0])
            assert s.luck == pytest.approx(a.series[s.n][0] - s.expected)
    assert a.totals[0].luck == pytest.approx(sum(s.luck for s in a.steps if s.kind == "roll"))


def test_small_rolls_are_averaged_over_every_outcome(ev: CleverEvaluator) -> None:
    """Three dice left: the expectation equals the engine's outcomes applied one by one and averaged."""
    start = new(1)
    roll(start, "W1 Y2 B3 G4 O5 P6")
    small = []
    for action in start.legal_actions():  # a pick that leaves two to four dice to roll
        child = start.child(action)
        if child.is_chance_node() and 36 <= 6 ** bin(child.roll_mask).count("1") <= ENUMERATE_LIMIT:
            small.append(child)
    assert small
    state = small[0]
    brute = 0.0
    for code, p in state.chance_outcomes():
        child = state.clone()
        child.apply_action(code)
        brute += p * ev.values(child)[0]
    assert ev.chance_value(state)[0] == pytest.approx(brute, abs=1e-6)


def test_large_rolls_use_a_reproducible_sample(ev: CleverEvaluator) -> None:
    state: CleverState = new(1)
    first = ev.chance_value(state)
    assert ev.chance_value(state.clone()) == first
    assert 150 < first[0] < 350


def test_hints_list_every_legal_choice_and_mark_the_best(ev: CleverEvaluator) -> None:
    state = new(2)
    roll(state, "W3 Y5 B1 G4 O2 P6")
    h = hints(ev, state)
    assert sorted(o.move for o in h.options) == sorted(
        state.action_to_string(a) for a in state.legal_actions()
    )
    assert h.options[0].best and sum(o.best for o in h.options) == 1
    assert h.options[0].value == max(o.value for o in h.options)
    assert all(o.loss >= 0 for o in h.options)
