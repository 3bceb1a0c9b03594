"""When a house rule decided a game (dicehall/thousand/lead.py; docs/strategy.md): hand-made games, each event
at the edge of the definition — level scores, a lead regained later, the hit player winning anyway."""

from __future__ import annotations

from typing import Any

from dicehall.thousand.lead import BARREL, DUMP_TRUCK, PIT
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.state import ThousandState

CLASSIC = ThousandRules.from_preset("classic")
# no barrel, a short game: one pit and the dump truck where classic has them
SHORT = ThousandRules.from_preset(
    "classic-nobarrel", {"target": 600, "pits": ((200, 300),), "dump_truck_score": 555}
)
WIN_FROM_ANYWHERE = ["6,6,6,6,6", "roll", "1,1,1,2,3", "bank"]  # 700 points
BURN = ["2,3,4,6,2"]


def play(rules: ThousandRules, scores: list[int], moves: list[str], **position: Any) -> ThousandState:
    state = ThousandState.from_position(rules, scores, **position)
    state.follow_lead()
    for move in moves:
        state.apply_action(state.string_to_action(move))
    return state


def decided(state: ThousandState) -> int:
    assert state.winner is not None and state.lead_watch is not None
    return state.lead_watch.decided(state.winner)


def test_the_dump_truck_that_took_the_lead_for_good_decided_the_game() -> None:
    # 555 would have led 500; at 0 the player trails to the end and loses
    state = play(SHORT, [455, 500], ["1,1,1,2,3", "bank", *WIN_FROM_ANYWHERE])
    assert state.winner == 1 and decided(state) == DUMP_TRUCK
    (event,) = state.lead_watch.events if state.lead_watch else ()
    assert (event.kind, event.seat, event.undone, event.took) == (DUMP_TRUCK, 0, 555, True)


def test_the_dump_truck_hit_player_who_wins_anyway_was_not_decided_against() -> None:
    state = play(SHORT, [455, 500], ["1,1,1,2,3", "bank", *BURN, *WIN_FROM_ANYWHERE])
    assert state.winner == 0 and decided(state) == 0


def test_a_lead_regained_later_frees_the_dump_truck_of_the_loss() -> None:
    # dumped from 555 to 0 behind 100; back ahead with 200 at the end of a turn; then beaten outright
    state = play(SHORT, [455, 100], ["1,1,1,2,3", "bank", *BURN, "1,1,1,1,2", "bank", *WIN_FROM_ANYWHERE])
    assert state.winner == 1 and decided(state) == 0


def test_a_dump_truck_on_a_player_already_behind_takes_nothing() -> None:
    state = play(SHORT, [455, 560], ["1,1,1,2,3", "bank", *WIN_FROM_ANYWHERE])
    assert state.winner == 1 and decided(state) == 0
    assert state.lead_watch is not None and not state.lead_watch.events[0].took


def test_a_bank_the_pit_refused_that_would_have_drawn_level_decided_the_game() -> None:
    # at 200 in the pit [200, 300) a bank needs 100: the 10 is refused, the turn burns; 210 would be level
    state = play(SHORT, [200, 210], ["1,2,3,4,6", "roll", "2,3,4,6", *WIN_FROM_ANYWHERE])
    assert state.winner == 1 and decided(state) == PIT
    assert state.lead_watch is not None and state.lead_watch.pit_refusals == 1


def test_a_refused_bank_that_would_still_have_trailed_decided_nothing() -> None:
    state = play(SHORT, [200, 215], ["1,2,3,4,6", "roll", "2,3,4,6", *WIN_FROM_ANYWHERE])
    assert state.winner == 1 and decided(state) == 0
    assert state.lead_watch is not None and state.lead_watch.pit_refusals == 1


def test_rolling_on_past_a_bank_the_pit_allowed_is_no_refusal() -> None:
    # 100 reaches the pit's top: the player could bank, chose to roll, and burned
    state = play(SHORT, [200, 210], ["1,1,1,2,3", "roll", "2,3", *WIN_FROM_ANYWHERE])
    assert state.winner == 1 and decided(state) == 0
    assert state.lead_watch is not None and state.lead_watch.pit_refusals == 0


def test_knocked_off_the_barrel_from_level_decided_the_game() -> None:
    # the other climbs to 880 and knocks the player (880 on the barrel) down to 780; the climber then wins
    state = play(
        CLASSIC,
        [880, 780],
        ["1,1,1,2,3", "bank", *BURN, "1,1,1,1,2", "bank"],
        to_move=1,
        on_barrel=[True, False],
    )
    assert state.winner == 1 and decided(state) == BARREL
    assert state.stats()["barrel_falls"] == 1


def test_variant_2s_knock_back_to_the_opening_score_is_the_barrels_event() -> None:
    # variant 2 has no falls: the other climbs onto the barrel and sends the player on it (850, opened at 500)
    # back to 500; the climber then wins from the barrel
    variant2 = ThousandRules.from_preset("variant2")
    moves = ["1,1,1,2,3", "bank", *BURN, "6,6,6,6,6", "roll", "1,1,1,2,3"]
    state = play(variant2, [850, 800], moves, to_move=1, on_barrel=[True, False], opening_scores=[500, 75])
    assert state.winner == 1 and decided(state) == BARREL
    (event,) = state.lead_watch.events if state.lead_watch else ()
    assert (event.kind, event.seat, event.undone, event.took) == (BARREL, 0, 850, True)
    assert (
        state.stats()["barrel_falls"] == 0
    )  # not a fall: the house-rule table counts it as the barrel's event


def test_a_fall_from_the_players_own_attempts_decided_the_game() -> None:
    # the third failed attempt: 880 → 780 behind 800; the other climbs and wins
    moves = [*BURN, "1,1,1,2,3", "bank", *BURN, "1,1,1,1,2", "bank"]
    state = play(CLASSIC, [880, 800], moves, on_barrel=[True, False], barrel_attempts=[2, 0])
    assert state.winner == 1 and decided(state) == BARREL


def test_the_last_event_that_took_the_lead_is_the_one_that_decided() -> None:
    # the dump truck takes the lead (555 ≥ 250 → 0); the player climbs to 200, still behind; then a pit refuses
    # 50 that would have drawn level at 250, and the turn burns: the pit took the lead last, and decided
    moves = ["1,1,1,2,3", "bank", *BURN, "1,1,1,1,2", "bank", *BURN, "5,5,5,2,3", "roll", "2,3"]
    state = play(SHORT, [455, 250], [*moves, *WIN_FROM_ANYWHERE])
    assert state.winner == 1 and decided(state) == PIT
    assert state.lead_watch is not None
    assert [(e.kind, e.took) for e in state.lead_watch.events] == [(DUMP_TRUCK, True), (PIT, True)]


def test_a_cloned_game_follows_its_own_lead() -> None:
    state = play(SHORT, [455, 500], ["1,1,1,2,3"])
    twin = state.clone()
    state.apply_action(state.string_to_action("bank"))
    assert state.lead_watch is not None and twin.lead_watch is not None
    assert len(state.lead_watch.events) == 1 and twin.lead_watch.events == []
