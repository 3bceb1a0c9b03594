"""Resigning: ``State.resign`` in each game, its record event, replay and analysis (docs/thousand.md, clever.md,
wurf.md "Resigning")."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from dicehall.core.analysis import analyze
from dicehall.core.errors import IllegalActionError, RecordError
from dicehall.core.game import CHANCE, RESIGN, State, get_game
from dicehall.core.record import GameRecord, new_state, replay
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.state import ThousandState
from dicehall.thousand.tables import ROLL_OFF, ROLLING
from dicehall.wurf.actions import EndTurn, RealThrow


def _record(game: str, n: int, seed: int = 1) -> tuple[GameRecord, State[Any]]:
    rules = get_game(game).rules_type.from_preset(None)
    record = GameRecord.start(game, rules, [f"P{i + 1}" for i in range(n)], seed=seed)
    _, state = new_state(record)
    return record, state


def _step(record: GameRecord, state: State[Any], rng: np.random.Generator) -> None:
    if state.current_player() == CHANCE:
        action = state.sample_chance(rng)
    else:
        legal = list(state.legal_actions())
        action = legal[int(rng.integers(len(legal)))]
    record.add(state, action)
    state.apply_action(action)


def _play_until(
    record: GameRecord, state: State[Any], rng: np.random.Generator, done: Callable[[State[Any]], bool]
) -> None:
    for _ in range(10_000):
        if done(state):
            return
        _step(record, state, rng)
    raise AssertionError("the condition never came")


def _resign(record: GameRecord, state: State[Any], seat: int) -> None:
    record.add_resign(seat)
    state.resign(seat)


WHERE = {
    "decision": lambda s, steps: s.current_player() >= 0 and steps(),
    "out_of_turn": lambda s, steps: s.current_player() >= 0 and steps(),
    "chance": lambda s, steps: s.current_player() == CHANCE and steps(),
}


@pytest.mark.parametrize("where", ["decision", "out_of_turn", "chance"])
@pytest.mark.parametrize("n", [1, 2, 3])
@pytest.mark.parametrize("game", ["thousand", "clever", "wurf"])
def test_resign_replays_in_every_game(game: str, n: int, where: str) -> None:
    if n < get_game(game).min_players or (where == "out_of_turn" and n == 1):
        pytest.skip(f"{game} has no {n}-seat game to resign {where}")
    rng = np.random.default_rng(n * 7 + len(where))
    record, state = _record(game, n)
    count = iter(range(10_000))
    _play_until(record, state, rng, lambda s: WHERE[where](s, lambda: next(count) >= 6))
    mover = state.current_player()
    seat = (mover + 1) % n if where == "out_of_turn" else (mover if mover >= 0 else n - 1)
    scores_before = state.scores()
    _resign(record, state, seat)
    assert record.events[-1].actor == seat and record.events[-1].move == RESIGN
    assert seat not in state.seats_in()
    if n == 1:
        assert state.is_terminal() and state.winners() == []
        if game == "clever":
            assert state.scores() == scores_before  # the score stands
    elif n == 2:
        assert state.is_terminal() and state.winners() == [1 - seat]
    else:
        assert not state.is_terminal() and len(state.seats_in()) == 2
        if game == "thousand" and where == "decision":
            assert state.current_player() == CHANCE and state.roller() == (seat + 1) % n  # its turn ended
        _play_until(record, state, rng, lambda s: s.is_terminal())
        assert seat not in state.winners()
    record.finish(state)
    again = replay(record)  # replays the resign and checks the stored result
    assert again.returns() == state.returns() and again.scores() == state.scores()
    assert replay(GameRecord.loads(record.dumps())).returns() == state.returns()


def _thousand(scores: list[int], to_move: int = 0, **overrides: Any) -> ThousandState:
    return ThousandState.from_position(
        ThousandRules.from_preset("classic", overrides), scores, to_move=to_move
    )


def test_a_seat_out_is_skipped_and_never_wins() -> None:
    # Dice 1000: overtaking a seat out costs it nothing, and the next turn passes it by
    s = _thousand([190, 200, 300])
    s.resign(1)
    s.apply_action((1, 1, 5, 2, 3))
    s.apply_action("bank")
    assert s.score == [215, 200, 300]  # in, seat 1 would have lost 50 for being overtaken (200 → 150)
    assert s.player == 2 and s.phase == ROLLING
    # an exact landing does not reset a seat out
    s = _thousand([190, 215, 300], exact_reset=True)
    s.resign(1)
    s.apply_action((1, 1, 5, 2, 3))
    s.apply_action("bank")
    assert s.score[1] == 215
    # climbing the barrel knocks nobody out that is out
    s = ThousandState.from_position(
        ThousandRules.from_preset("classic"), [860, 880, 0], on_barrel=[False, True, False]
    )
    s.resign(1)
    s.apply_action((1, 1, 5, 2, 3))
    s.apply_action("bank")
    assert s.on_barrel == [True, True, False] and s.score[1] == 880 and s.falls[1] == 0
    # its own turn ends unbanked, with no bolt or penalty
    s = _thousand([100, 100, 100])
    s.apply_action((1, 1, 5, 2, 3))
    s.resign(0)
    assert s.score == [100, 100, 100] and s.bolts == [0, 0, 0] and s.player == 1 and s.phase == ROLLING
    # roll-off: the seat to roll next leaves, and a seat that rolled highest and then left does not start
    s = ThousandState(ThousandRules.from_preset("classic", {"roll_off": True}), 3)
    s.apply_action((6,))
    s.resign(1)
    assert s.phase == ROLL_OFF and s.player == 2 and s.roll_off_contenders == (0, 2)
    s.apply_action((3,))
    assert s.phase == ROLLING and s.player == 0
    s = ThousandState(ThousandRules.from_preset("classic", {"roll_off": True}), 3)
    s.apply_action((2,))
    s.apply_action((6,))
    s.resign(1)
    s.apply_action((3,))
    assert s.player == 2
    # Clever: a seat that resigned is never among the winners, even with the best sheet
    actions, winner = _clever_game_won_by_seat_0()
    record, state = _record("clever", 3)
    _resign(record, state, 0)
    for action in actions:
        state.apply_action(action)
    assert state.is_terminal()
    assert winner == [0] and 0 not in state.winner_seats() and state.winner_seats()
    # Der große Wurf: the seat's supply leaves the game, the arena stays, its turns are passed
    record, w = _record("wurf", 3)
    rng = np.random.default_rng(3)
    _play_until(record, w, rng, lambda s: s.current_player() == 1 and s.phase == "choice")
    arena, supply, box_out = list(w.arena), w.supply[2], w.out_of_game
    w.resign(2)
    assert w.arena == arena and w.supply[2] == 0 and w.out_of_game == box_out + supply and not w.alive[2]
    w.apply_action(EndTurn())
    assert w.current == 0  # seat 2 is passed by


def _clever_game_won_by_seat_0() -> tuple[list[Any], list[int]]:
    for seed in range(50):
        rng = np.random.default_rng(seed)
        record, state = _record("clever", 3)
        actions: list[Any] = []
        while not state.is_terminal():
            before = len(record.events)
            _step(record, state, rng)
            actions.append(state.string_to_action(record.events[before].move))
        if state.winner_seats() == [0]:
            return actions, [0]
    raise AssertionError("no seed gave seat 0 the win")


def test_last_seat_in_wins() -> None:
    s = _thousand([500, 900, 100])
    s.resign(0)
    assert not s.is_terminal()
    s.resign(1)
    assert s.is_terminal() and s.winners() == [2]  # the lowest score, but the last seat in
    s = _thousand([500, 900])
    s.resign(1)
    assert s.winners() == [0]
    s = ThousandState(ThousandRules.from_preset("classic"), 1)
    s.resign(0)
    assert s.is_terminal() and s.winners() == [] and s.returns() == [0.0]
    for game in ("clever", "wurf"):
        _, state = _record(game, 3)
        state.resign(2)
        state.resign(0)
        assert state.is_terminal() and state.winners() == [1], game
    wurf = get_game("wurf")
    match = wurf.new_initial_state(wurf.rules_type.from_preset(None, {"match": True}), 3)
    match.resign(1)
    match.resign(0)  # the rest of the match plays itself: seats 0 and 1 drop out of every later game
    assert match.is_terminal() and match.winners() == [2]


def test_a_seat_cannot_resign_twice_or_after_the_end() -> None:
    s = _thousand([0, 0, 0])
    s.resign(1)
    before = s.signature()
    for seat in (1, 3, -1, True):
        with pytest.raises(IllegalActionError) as err:
            s.resign(seat)  # type: ignore[arg-type]
        assert err.value.rule == "resign"
    assert s.signature() == before
    s.resign(0)
    with pytest.raises(IllegalActionError, match="over"):
        s.resign(2)


def test_record_with_a_resign_checks_its_result() -> None:
    rng = np.random.default_rng(5)
    record, state = _record("thousand", 2)
    _play_until(record, state, rng, lambda s: s.current_player() == 0)
    _resign(record, state, 1)  # out of turn
    record.finish(state)
    assert replay(record).winners() == [0]
    forged = GameRecord.from_json({**record.to_json(), "result": {**record.result, "winners": [1]}})
    with pytest.raises(RecordError, match="winners"):
        replay(forged)
    twice = GameRecord.from_json({**record.to_json(), "result": None})
    twice.add_resign(1)
    with pytest.raises(RecordError, match="over"):
        replay(twice)
    # a seat out moves no more
    record, state = _record("thousand", 3)
    _play_until(record, state, rng, lambda s: s.current_player() == 0)
    _resign(record, state, 1)
    data = record.to_json()
    data["events"].append({"n": len(data["events"]) + 1, "actor": 1, "move": "roll"})
    with pytest.raises(RecordError, match="turn"):
        replay(GameRecord.from_json(data))
    data["events"][-1]["move"] = RESIGN
    with pytest.raises(RecordError, match="resign"):
        replay(GameRecord.from_json(data))


def test_analysis_steps_over_a_resign() -> None:
    rng = np.random.default_rng(11)
    record, state = _record("thousand", 3)
    _play_until(record, state, rng, lambda s: s.current_player() == 1 and len(record.events) > 4)
    _resign(record, state, 2)
    _play_until(record, state, rng, lambda s: len(record.events) > 14)
    a = analyze(record)
    (step,) = [s for s in a.steps if s.kind == "resign"]
    assert step.seat == 2 and step.move == RESIGN and step.loss == 0 and step.luck == 0
    assert len(a.steps) == len(record.events)
    assert [s.n for s in a.steps] == list(range(1, len(record.events) + 1))


def test_wurf_drops_the_resigning_throwers_pending_real_throw() -> None:
    record, w = _record("wurf", 3)
    rng = np.random.default_rng(8)
    _play_until(record, w, rng, lambda s: s.current_player() == 1 and s.phase == "throw")
    w.apply_action(RealThrow())
    assert w.pending == RealThrow() and w.current_player() == CHANCE
    w.resign(1)
    assert w.pending is None and w.pending_count == 0 and w.phase == "throw" and w.current == 2
