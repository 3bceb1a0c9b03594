"""The house rules valued by the exact table (dicehall/thousand/house_exact.py): when an event decided a game by
the win chance (hand-made valued games at each edge), and the values are ``bot:optimal``'s own arithmetic."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from dicehall.core.agents import make_bot
from dicehall.thousand.house_exact import ValuedGame, deciding_events, play_valued, undone_chance, win_chance
from dicehall.thousand.lead import BARREL, DUMP_TRUCK, PIT, LeadEvent
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver.bot import OptimalBot, table_for
from dicehall.thousand.state import ThousandState

CLASSIC = ThousandRules.from_preset("classic")


@pytest.fixture(autouse=True)
def private_cache(tmp_path: Path) -> Iterator[None]:
    """A fresh user data directory: the shipped classic table."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_DATA_HOME", str(tmp_path))
        yield


def finished(winner: int) -> ThousandState:
    state = ThousandState.from_position(
        CLASSIC, [880, 880], on_barrel=[winner == 0, winner == 1], to_move=winner
    )
    for move in ("1,1,1,1,2", "bank"):
        state.apply_action(state.string_to_action(move))
    assert state.winner == winner
    return state


def event(kind: int, seat: int, turn: int) -> LeadEvent:
    return LeadEvent(kind, seat, 0, turn, True, 0, 0)


def game(winner: int, events: list[tuple[LeadEvent, float, float]], seat0: list[float]) -> ValuedGame:
    """``seat0``: seat 0's win chance at the start of turns 1, 2, ..."""
    return ValuedGame(finished(winner), events, [(t + 1, c) for t, c in enumerate(seat0)])


def test_from_exactly_even_to_underdog_for_good_decides() -> None:
    e = event(PIT, 0, 2)
    assert deciding_events(game(1, [(e, 0.5, 0.4)], [0.55, 0.5, 0.4, 0.3, 0.2])) == [e]


def test_an_event_on_an_underdog_decides_nothing() -> None:
    e = event(BARREL, 0, 2)
    assert deciding_events(game(1, [(e, 0.49, 0.2)], [0.5, 0.49, 0.2, 0.1])) == []


def test_favourite_again_later_frees_the_event() -> None:
    e = event(BARREL, 0, 2)
    assert deciding_events(game(1, [(e, 0.6, 0.3)], [0.5, 0.6, 0.3, 0.5, 0.2])) == []


def test_the_hit_player_winning_anyway_was_not_decided_against() -> None:
    e = event(DUMP_TRUCK, 0, 2)
    assert deciding_events(game(0, [(e, 0.6, 0.3)], [0.5, 0.6, 0.3, 0.4])) == []


def test_seat_one_is_valued_from_its_own_side() -> None:
    e = event(PIT, 1, 2)  # seat 1's chance is 1 − seat 0's: 0.7 → 0.6 → 0.8 means 0.3, 0.4, 0.2 for seat 1
    assert deciding_events(game(0, [(e, 0.55, 0.4)], [0.5, 0.7, 0.6, 0.8])) == [e]


def test_the_last_turn_that_made_an_underdog_counts() -> None:
    first, second = event(DUMP_TRUCK, 0, 2), event(PIT, 0, 4)
    chances = [0.5, 0.6, 0.3, 0.35, 0.3, 0.2]  # the pit's undoing would have made them favourite again
    assert deciding_events(game(1, [(first, 0.6, 0.3), (second, 0.52, 0.3)], chances)) == [second]


def test_the_values_are_the_optimal_bots_arithmetic() -> None:
    """Each event's "after" is the win chance ``bot:optimal`` computes at the next turn's start (its own
    ``TurnValues``); "undone" moves only the hit player's state."""
    table = table_for(CLASSIC)
    agents = [make_bot("thousand", "optimal", CLASSIC) for _ in range(2)]
    kinds = set()
    for index in range(12):
        valued = play_valued(table, CLASSIC, 5, index, agents)
        assert valued.state.winner is not None
        assert valued.chances[-1][1] == (1.0 if valued.state.winner == 0 else 0.0)
        for e, before, after in valued.events:
            kinds.add(e.kind)
            assert 0.0 <= before <= 1.0 and 0.0 <= after <= 1.0
    assert {BARREL, PIT} <= kinds
    # one position by hand: knocked off the barrel, valued against the bot's own start-of-turn value
    state = ThousandState.from_position(CLASSIC, [880, 780], to_move=1, on_barrel=[True, False])
    state.follow_lead()
    for move in ("1,1,1,2,3", "bank"):
        state.apply_action(state.string_to_action(move))
    (knock,) = state.lead_watch.events if state.lead_watch else ()
    bot = OptimalBot(CLASSIC, table)
    near = 2 * table.max_error + 1e-6  # the shipped table: values within max_error of the exact ones
    assert win_chance(table, state, 0) == pytest.approx(bot.turn_values(state).start(), abs=near)
    undone = ThousandState.from_position(CLASSIC, [880, 880], to_move=0, on_barrel=[True, True])
    assert undone_chance(table, state, knock) == pytest.approx(bot.turn_values(undone).start(), abs=near)
