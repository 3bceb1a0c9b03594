"""Random-simulation invariants over thousands of seeded games per preset, and hypothesis properties."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dicehall.core.agents import RandomAgent
from dicehall.core.game import CHANCE, TERMINAL
from dicehall.core.record import GameRecord, replay
from dicehall.core.rng import seeded_rng
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.state import BANK, OUTCOMES, ROLL, ThousandState

PRESETS = list(ThousandRules.PRESETS)


def policy(state: ThousandState, rng: np.random.Generator, greed: int) -> Any:
    """Bank once the turn total reaches ``greed`` (or few dice are left); random keeps; else roll."""
    legal = state.legal_actions()
    room = state.max_bank()
    enough = state.turn_total >= greed or (room is not None and state.turn_total + 50 > room)
    if BANK in legal and (enough or state.dice_in_hand <= 1 or ROLL not in legal):
        return BANK
    if ROLL in legal:
        return ROLL
    return legal[int(rng.integers(len(legal)))]


def check_step(state: ThousandState, full: bool = True) -> None:
    r = state.rules
    cur = state.current_player()
    assert cur != TERMINAL
    legal = state.legal_actions()
    assert len(legal) > 0
    if cur == CHANCE:
        assert legal is OUTCOMES[state.dice_in_hand]
    else:
        assert cur == state.player
        decide = ROLL in legal or BANK in legal
        if decide:
            assert (BANK in legal) == (state.bank_refusal() is None) == state.can_bank()
    assert state.turn_total % 5 == 0 and 1 <= state.dice_in_hand <= 5
    if not full:
        return
    for q in range(state.num_players):
        score = state.score[q]
        assert score % 5 == 0
        if not state.opened[q]:
            assert score <= 0
        assert 0 <= state.bolts[q] < r.bolts_count
        assert 0 <= state.points[q] < r.open_points_limit
        if r.barrel_attempts and r.barrel == "score":
            assert 0 <= state.attempts[q] < r.barrel_attempts
        if state.on_barrel[q]:
            assert r.barrel == "score" and r.barrel_score <= score < r.target
            if r.barrel_cap:
                assert score == r.barrel_score
        if r.dump_truck:
            assert score != r.dump_truck_score
        if r.barrel == "score" and r.barrel_cap and not state.on_barrel[q]:
            assert score < r.barrel_score


def check_terminal(state: ThousandState, golden: bool) -> None:
    r = state.rules
    assert state.legal_actions() == ()
    assert sum(state.returns()) == 1.0
    w = state.winner
    assert w is not None and state.winners() == [w]
    if not golden:
        score = state.score[w]
        if r.barrel == "open" or r.barrel_exact:
            assert score == r.target
        else:
            assert score >= r.target


def run(
    rules: ThousandRules, players: int, seed: int, greed: int, *, deep: bool = False, max_steps: int = 20_000
) -> tuple[ThousandState, GameRecord]:
    state = ThousandState(rules, players)
    dice = seeded_rng(seed)
    bot = seeded_rng(seed + 1_000_003)
    record = GameRecord.start("thousand", rules, [f"P{i + 1}" for i in range(players)], seed)
    golden = False
    for step in range(max_steps):
        cur = state.current_player()
        if cur == TERMINAL:
            break
        check_step(state, deep or bool(state.events))
        if cur == CHANCE:
            action = state.sample_chance(dice)
            assert action in set(state.legal_actions()) if deep and step % 97 == 0 else True
            if deep and step % 211 == 0:
                assert sum(p for _, p in state.chance_outcomes()) == pytest.approx(1.0)
        else:
            action = policy(state, bot, greed)
        before = state.score[:]
        mover = state.player
        if deep and step % 13 == 0:
            snap = state.signature()
            twin = state.clone()
            assert twin.signature() == snap
            twin.apply_action(action)
            assert state.signature() == snap  # the clone shares nothing mutable
            twin2 = state.clone()
            twin2.apply_action(action)
            assert twin2.signature() == twin.signature()
        record.add(state, action)
        state.apply_action(action)
        for q in range(players):
            if q != mover:
                assert state.score[q] <= before[q], "opponents' scores never rise"
        if cur == CHANCE and state.is_terminal() and state.last_roll == (1, 1, 1, 1, 1) and rules.golden_win:
            golden = True
    if state.is_terminal():
        check_terminal(state, golden)
        record.finish(state)
    return state, record


def _random_games_keep_invariants(preset: str, games: int) -> None:
    rules = ThousandRules.from_preset(preset)
    finished = 0
    for i in range(games):
        state, _ = run(rules, 2 + i % 3, seed=i, greed=(50, 100, 200, 350)[i % 4])
        finished += state.is_terminal()
    assert finished == games


@pytest.mark.parametrize("preset", PRESETS)
def test_random_games_keep_invariants(preset: str) -> None:
    _random_games_keep_invariants(preset, 240)  # every seat count with every greed, 20 times


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
def test_many_random_games_keep_invariants(preset: str) -> None:
    _random_games_keep_invariants(preset, 3000)


@pytest.mark.parametrize("preset", PRESETS)
def test_records_replay_and_clones_are_independent(preset: str) -> None:
    rules = ThousandRules.from_preset(preset)
    for i in range(25):
        state, record = run(rules, 1 + i % 4, seed=10_000 + i, greed=(50, 150, 300)[i % 3], deep=True)
        again = GameRecord.loads(record.dumps())
        replayed = replay(again)
        assert isinstance(replayed, ThousandState)
        assert replayed.signature() == state.signature()
        assert again.result is not None and again.result["scores"] == state.scores()
        # replaying part of the record gives the same position as the game had then
        half = len(record.events) // 2
        partial = replay(again, half)
        assert partial.turns <= state.turns


def test_random_agent_games_end() -> None:
    from dicehall.core.simulate import play_game

    for preset in PRESETS:
        rules = ThousandRules.from_preset(preset)
        for i in range(20):
            state = ThousandState(rules, 2)
            play_game(state, [RandomAgent(), RandomAgent()], seeded_rng(i), seeded_rng(i + 99))
            assert state.is_terminal()


rule_overrides = st.fixed_dictionaries(
    {},
    optional={
        "free_set_aside": st.booleans(),
        "roll_off": st.booleans(),
        "open_min": st.sampled_from([0, 50, 75, 100, 200]),
        "open_fail_penalty": st.sampled_from([0, 50, 100]),
        "hot_dice": st.sampled_from(["mandatory", "confirm"]),
        "max_rolls": st.sampled_from([0, 1, 2, 3, 5]),
        "pair_reroll": st.booleans(),
        "skip_on_zero_first": st.booleans(),
        "overtake_penalty": st.sampled_from([0, 50, 100]),
        "dump_truck": st.booleans(),
        "exact_reset": st.booleans(),
        "bolts": st.booleans(),
        "bolts_everywhere": st.booleans(),
        "bolts_count": st.integers(1, 4),
        "barrel": st.sampled_from(["none", "score", "open"]),
        "barrel_attempts": st.integers(0, 4),
        "barrel_falls_to_zero": st.integers(0, 3),
        "barrel_knock": st.sampled_from(["fall", "opening", "none"]),
        "open_points_limit": st.integers(1, 6),
        "open_fall_limit": st.integers(1, 3),
        "golden_win": st.booleans(),
        "scoring": st.sampled_from(["classic", "yard"]),
    },
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(PRESETS),
    overrides=rule_overrides,
    players=st.integers(1, 8),
    seed=st.integers(0, 2**32),
    greed=st.sampled_from([0, 50, 100, 250, 500]),
)
def test_any_valid_rule_set_keeps_invariants(
    preset: str, overrides: dict[str, Any], players: int, seed: int, greed: int
) -> None:
    rules = ThousandRules.from_preset(preset)
    try:
        rules = rules.with_overrides(overrides)
    except ValueError:
        return  # an impossible combination is refused by validate(), tested elsewhere
    state, record = run(rules, players, seed, greed, deep=True, max_steps=3000)
    assert replay(GameRecord.loads(record.dumps())).signature() == state.signature()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=1, max_size=5))
def test_notation_round_trips_any_roll(dice: list[int]) -> None:
    s = ThousandState(ThousandRules.from_preset("classic"), 1)
    t = tuple(dice)
    assert s.string_to_action(s.action_to_string(t)) == t


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
def test_many_games_slow(preset: str) -> None:
    rules = ThousandRules.from_preset(preset)
    for i in range(5000):
        state, record = run(
            rules, 2 + i % 4, seed=50_000 + i, greed=(50, 100, 200, 350)[i % 4], deep=i % 10 == 0
        )
        assert state.is_terminal()
        if i % 50 == 0:
            assert replay(GameRecord.loads(record.dumps())).signature() == state.signature()
