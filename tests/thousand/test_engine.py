"""Scenario tests: every rule of the digest, driven with explicit dice (each fails if its rule were wrong)."""

from __future__ import annotations

import pytest

from dicehall.core.errors import IllegalActionError
from dicehall.core.game import CHANCE, get_game
from dicehall.thousand.state import BANK, ROLL, ThousandState

from .helpers import at, new, play

ZERO5 = "2,2,3,4,6"  # no 1, no 5, no triple, no straight


def test_game_registry() -> None:
    game = get_game("thousand")
    assert (game.name, game.title, game.min_players, game.max_players) == ("thousand", "Dice 1000", 1, 8)
    state = game.new_initial_state(game.rules_type.from_preset("classic"), 3)
    assert isinstance(state, ThousandState)
    assert state.current_player() == CHANCE and state.dice_in_hand == 5
    with pytest.raises(ValueError, match="1–8 players"):
        game.new_initial_state(game.rules_type.from_preset("classic"), 9)


# -- a turn ---------------------------------------------------------------------------------------------------
def test_scoring_dice_are_set_aside_automatically() -> None:
    s = play(new(), "1,1,5,2,3")
    assert (s.turn_total, s.dice_in_hand, s.set_aside, s.rolls_this_turn) == (25, 2, (1, 1, 5), 1)
    assert s.current_player() == 0
    assert [str(c) for c in s.last_combos] == ["1", "1", "5"]
    play(s, "roll", "5,4")
    assert (s.turn_total, s.dice_in_hand, s.set_aside) == (30, 1, (1, 1, 5, 5))
    assert s.current_player() == 0


def test_zero_roll_burns_the_turn_and_passes() -> None:
    s = play(at([100, 0]), "1,1,5,2,3", "roll", "4,6")
    assert s.current_player() == CHANCE and s.player == 1
    assert s.score == [100, 0]
    assert s.turn_total == 0 and s.dice_in_hand == 5
    assert any("burnt" in e for e in s.events)


def test_bank_adds_turn_total_and_passes() -> None:
    s = play(at([100, 0]), "1,1,5,2,3", "bank")
    assert s.score == [125, 0] and s.player == 1 and s.turns == 2


# -- opening --------------------------------------------------------------------------------------------------
def test_opening_minimum_50() -> None:
    s = play(new(), "1,1,5,5,2", "roll", "5", "roll", "1,2,2,3,4")
    assert s.turn_total == 45
    assert s.bank_refusal() == "not opened: bank at least 50"
    assert s.legal_actions() == (ROLL,)
    with pytest.raises(IllegalActionError, match="not opened: bank at least 50") as err:
        s.apply_action(BANK)
    assert err.value.rule == "opening"
    play(s, "roll", "5,2,3,4", "bank")
    assert s.score == [50, 0] and s.opened == [True, False]


def test_opening_minimum_is_per_rules() -> None:
    s = play(new(open_min=100), "1,1,5,5,5")  # 70, hot dice -> roll again
    play(s, "roll", "1,2,3,3,4")
    assert s.turn_total == 80 and s.bank_refusal() == "not opened: bank at least 100"


def test_failed_opening_penalty_every_third_turn() -> None:
    s = new(players=1, open_fail_penalty=50)
    play(s, ZERO5, ZERO5)
    assert s.score == [0]
    play(s, ZERO5)
    assert s.score == [-50] and s.open_fails == [3]
    play(s, ZERO5, ZERO5, ZERO5)
    assert s.score == [-100]
    play(s, "1,1,1,2,3", "bank")  # opening pays the debt off
    assert s.score == [0] and s.opened == [True]
    plain = play(new(players=1), ZERO5, ZERO5, ZERO5)
    assert plain.score == [0]  # no penalty by default


# -- pits -----------------------------------------------------------------------------------------------------
def test_pit_requires_climbing_out_in_one_bank() -> None:
    s = play(at([225, 0]), "5,5,5,1,2")
    assert s.turn_total == 60 and s.min_bank() == 75
    assert s.bank_refusal() == "in pit 200–300: bank at least 75"
    with pytest.raises(IllegalActionError, match="in pit 200–300: bank at least 75") as err:
        s.apply_action(BANK)
    assert err.value.rule == "pit"
    play(s, "roll", "1", "roll", "5,2,3,3,4", "bank")
    assert s.score == [300, 0]


def test_pit_need_near_the_top() -> None:
    assert at([295, 0]).min_bank() == 5
    assert at([295, 0]).bank_refusal() is not None
    assert new(players=1).min_bank() == 50


def test_second_pit_and_pit_bounds() -> None:
    assert at([640, 0]).bank_refusal() is not None
    assert at([640, 0]).min_bank() == 60
    s = play(at([640, 0]), "1,1,1,2,3")
    assert s.bank_refusal() is None
    assert at([300, 0]).min_bank() == 0  # the top of the pit is outside it
    assert at([200, 0]).min_bank() == 100  # the bottom is inside
    assert at([700, 0]).min_bank() == 0
    assert at([150, 0], pits=((100, 200),)).min_bank() == 50


def test_banking_into_a_pit_from_below_is_allowed() -> None:
    s = play(at([150, 0]), "1,1,1,2,3", "bank")
    assert s.score == [250, 0]


# -- overtaking -----------------------------------------------------------------------------------------------
def test_overtaking_several_opponents_equal_scores_do_not_count() -> None:
    s = play(at([100, 120, 130, 100, 200, 250]), "1,1,1,2,3", "bank")
    # 120 and 130 were above 100 and are below 200: -50 each; 100 (equal before) and 200 (equal after) are not
    assert s.score == [200, 70, 80, 100, 200, 250]
    assert sum("overtaken: -50" in e for e in s.events) == 2
    off = play(at([100, 120], overtake_penalty=0), "1,1,1,2,3", "bank")
    assert off.score == [200, 120]
    custom = play(at([100, 120], overtake_penalty=30), "1,1,1,2,3", "bank")
    assert custom.score == [200, 90]


# -- dump truck -----------------------------------------------------------------------------------------------
def test_dump_truck_on_bank() -> None:
    s = play(at([455, 0]), "1,1,1,2,3", "bank")
    assert s.score == [0, 0] and s.opened[0]
    assert "dump truck: P1 555 → 0" in s.events
    # no re-opening: 10 may be banked at once
    play(s, ZERO5, "1,2,3,3,4", "bank")
    assert s.score == [10, 0]
    off = play(at([455, 0], dump_truck=False), "1,1,1,2,3", "bank")
    assert off.score == [555, 0]


def test_dump_truck_when_pushed_by_overtaking() -> None:
    s = play(at([500, 605]), "1,1,1,1,2", "bank")  # 1111 = 200: 500 -> 700 overtakes 605 -> 555 -> 0
    assert s.score == [700, 0]


def test_dump_truck_when_pushed_by_bolts() -> None:
    s = play(at([655, 0], bolts=[2, 0], pits=()), ZERO5)
    assert s.score == [0, 0] and s.bolts == [0, 0]


# -- bolts ----------------------------------------------------------------------------------------------------
def test_bolts_every_third_costs_100() -> None:
    s = play(at([100, 0], bolts=[1, 0]), ZERO5)
    assert s.bolts[0] == 2 and s.score[0] == 100
    s = play(at([400, 0], bolts=[2, 0]), ZERO5)
    assert s.bolts[0] == 0 and s.score[0] == 300
    s = play(at([400, 0], bolts=[2, 0], bolt_penalty=50), ZERO5)
    assert s.score[0] == 350
    s = play(at([400, 0], bolts=[0, 0], bolts_count=1, bolt_penalty=50), ZERO5)
    assert s.score[0] == 350


def test_no_bolts_when_not_opened_in_pit_or_on_barrel() -> None:
    assert play(new(), ZERO5).bolts == [0, 0]
    assert play(at([225, 0]), ZERO5).bolts == [0, 0]
    assert play(at([880, 0], on_barrel=[True, False]), ZERO5).bolts == [0, 0]
    assert play(new(bolts_everywhere=True), ZERO5).bolts == [1, 0]
    assert play(at([225, 0], bolts_everywhere=True), ZERO5).bolts == [1, 0]
    assert play(at([100, 0], bolts=False), ZERO5).bolts == [0, 0]


# -- hot dice -------------------------------------------------------------------------------------------------
def test_hot_dice_roll_is_mandatory() -> None:
    s = play(at([100, 0]), "1,1,1,5,5")
    assert s.turn_total == 110 and s.dice_in_hand == 5 and s.hot_dice
    assert s.legal_actions() == (ROLL,)
    with pytest.raises(IllegalActionError, match="hot dice: the roll of all 5 dice is mandatory") as err:
        s.apply_action(BANK)
    assert err.value.rule == "hot-dice"
    play(s, "roll", "1,2,3,3,4", "bank")
    assert s.score == [220, 0]
    lost = play(at([100, 0]), "1,1,1,5,5", "roll", ZERO5)
    assert lost.score == [100, 0] and lost.player == 1


def test_hot_dice_over_several_rolls() -> None:
    s = play(at([100, 0]), "1,1,5,2,3", "roll", "1,5")
    assert s.hot_dice and s.turn_total == 40 and s.dice_in_hand == 5


# -- score barrel ---------------------------------------------------------------------------------------------
def test_score_barrel_climb_caps_at_880() -> None:
    s = play(at([800, 0]), "1,1,1,2,3", "bank")
    assert s.score == [880, 0] and s.on_barrel == [True, False]
    s = play(at([850, 0]), "1,1,1,1,2", "bank")  # 850 + 200 would pass 1000: still only the barrel
    assert s.score == [880, 0] and not s.is_terminal()
    s = play(at([800, 0]), "5,5,5,2,3", "bank")  # 850: below the barrel
    assert s.on_barrel == [False, False]


def test_score_barrel_needs_120_in_one_turn() -> None:
    s = play(at([880, 0], on_barrel=[True, False]), "1,1,1,2,3")
    assert s.bank_refusal() == "on the barrel: need at least 120 this turn"
    with pytest.raises(IllegalActionError, match="on the barrel: need at least 120 this turn") as err:
        s.apply_action(BANK)
    assert err.value.rule == "barrel"
    play(s, "roll", "1,5", "roll", "5,2,3,3,4")
    assert s.turn_total == 120
    play(s, "bank")
    assert s.is_terminal() and s.winner == 0 and s.score == [1000, 0]
    assert s.returns() == [1.0, 0.0] and s.winners() == [0]


def test_score_barrel_three_attempts_then_fall() -> None:
    s = at([880, 0], on_barrel=[True, False])
    play(s, ZERO5, ZERO5, ZERO5, ZERO5)
    assert s.on_barrel[0] and s.attempts[0] == 2 and s.score[0] == 880
    play(s, ZERO5)
    assert s.score[0] == 780 and not s.on_barrel[0] and s.falls[0] == 1 and s.attempts[0] == 0


def test_falling_off_the_barrel_gives_no_bolt() -> None:
    s = play(at([880, 0], on_barrel=[True, False], barrel_attempts=[2, 0], bolts=[2, 0]), ZERO5)
    assert s.score[0] == 780 and s.bolts[0] == 2


def test_barrel_falls_to_zero_can_be_disabled() -> None:
    s = play(
        at(
            [880, 0],
            on_barrel=[True, False],
            barrel_attempts=[2, 0],
            barrel_falls=[5, 0],
            barrel_falls_to_zero=0,
        ),
        ZERO5,
    )
    assert s.score[0] == 780


def test_third_fall_sets_score_to_zero() -> None:
    s = play(at([880, 0], on_barrel=[True, False], barrel_attempts=[2, 0], barrel_falls=[2, 0]), ZERO5)
    assert s.score[0] == 0 and s.falls[0] == 3 and s.opened[0]
    s = play(at([880, 0], on_barrel=[True, False], barrel_attempts=[2, 0], barrel_falls=[1, 0]), ZERO5)
    assert s.score[0] == 780


def test_barrel_options_attempts_and_penalty() -> None:
    s = play(at([880, 0], on_barrel=[True, False], barrel_attempts=1, barrel_fall_penalty=50), ZERO5)
    assert s.score[0] == 830 and s.falls[0] == 1
    s = play(at([900, 0], barrel_score=900), "1,1,1,2,3")
    assert s.bank_refusal() is None


def test_uncapped_score_barrel() -> None:
    s = play(at([850, 0], barrel_cap=False), "1,1,1,2,3", "bank")
    assert s.score == [950, 0] and s.on_barrel == [True, False]
    s = play(at([950, 0], barrel_cap=False, on_barrel=[True, False], to_move=1), "2,2,3,4,6")
    assert s.player == 0 and s.min_bank() == 50
    s = play(at([850, 0], barrel_cap=False), "1,1,1,1,2", "bank")  # 1050 straight from below: a win
    assert s.is_terminal() and s.score == [1050, 0]


def test_climbing_knocks_the_player_on_the_barrel_off() -> None:
    s = play(at([880, 800], on_barrel=[True, False], to_move=1), "1,1,1,2,3", "bank")
    assert s.score == [780, 880] and s.on_barrel == [False, True] and s.falls == [1, 0]
    s = play(at([880, 800], on_barrel=[True, False], barrel_falls=[2, 0], to_move=1), "1,1,1,2,3", "bank")
    assert s.score == [0, 880]
    s = play(at([880, 800], on_barrel=[True, False], to_move=1, barrel_knock="none"), "1,1,1,2,3", "bank")
    assert s.on_barrel == [True, True] and s.score == [880, 880]


# -- open barrel ----------------------------------------------------------------------------------------------
def test_open_barrel_exactly_1000_wins() -> None:
    s = play(at([900, 0], "classic-open"), "1,1,1,2,3", "bank")
    assert s.is_terminal() and s.score == [1000, 0]


def test_open_barrel_passing_1000_scores_a_point_and_ends_the_turn() -> None:
    s = play(at([950, 0], "classic-open"), "1,1,1,2,3")
    assert s.points == [1, 0] and s.score == [950, 0] and s.player == 1 and s.bolts == [0, 0]
    s = play(at([960, 0], "classic-open", opened=[False, False]), "1,1,1,2,3")
    assert s.points == [1, 0]  # even before opening


def test_open_barrel_six_points_make_a_fall() -> None:
    s = play(at([950, 0], "classic-open", open_points=[5, 0]), "1,1,1,2,3")
    assert s.score == [0, 0] and s.points == [0, 0] and s.falls == [1, 0]
    s = play(at([950, 0], "classic-open", open_points=[5, 0], open_fall_limit=2), "1,1,1,2,3")
    assert s.score == [850, 0]
    s = play(at([950, 0], "classic-open", open_points=[2, 0], open_points_limit=3), "1,1,1,2,3")
    assert s.score == [0, 0]


def test_open_barrel_has_no_climb() -> None:
    s = play(at([850, 0], "classic-open"), "1,1,1,2,3", "bank")
    assert s.score == [950, 0] and s.on_barrel == [False, False]


# -- no barrel ------------------------------------------------------------------------------------------------
def test_no_barrel_first_to_1000_wins() -> None:
    s = play(at([800, 0], "classic-nobarrel"), "1,1,1,2,3", "bank")
    assert s.score == [900, 0] and not s.is_terminal()
    s = play(at([950, 0], "classic-nobarrel"), "1,1,1,2,3", "bank")
    assert s.is_terminal() and s.score == [1050, 0] and s.winner == 0


# -- who starts -----------------------------------------------------------------------------------------------
def test_seat_zero_starts_without_roll_off() -> None:
    s = new(players=3)
    assert s.player == 0 and s.turns == 1 and s.roll_off_contenders == ()


def test_roll_off_highest_starts_ties_roll_again() -> None:
    s = new(players=3, roll_off=True)
    assert s.current_player() == CHANCE and s.turns == 0 and s.roll_off_contenders == (0, 1, 2)
    assert len(s.chance_outcomes()) == 6 and s.bank_refusal() == "the roll-off for the start is not over"
    play(s, "4", "6")
    assert s.player == 2 and s.roll_off_dice == [4, 6, None]
    play(s, "6")  # seats 1 and 2 tie at 6
    assert s.roll_off_contenders == (1, 2) and s.player == 1 and any("tie at 6" in e for e in s.events)
    play(s, "2", "5")
    assert s.roll_off_contenders == () and s.player == 2 and s.turns == 1 and s.dice_in_hand == 5
    assert "P3 starts" in s.events
    play(s, "1,1,1,2,3", "bank")
    assert s.score == [0, 0, 100] and s.player == 0  # play goes on round the table from the starter
    view = s.public_view()
    assert view["roll_off"] == {"contenders": [], "dice": [4, 2, 5]}


def test_roll_off_refuses_bad_dice() -> None:
    s = new(players=2, roll_off=True)
    before = s.signature()
    for bad in [(1, 2), (7,), "roll"]:
        with pytest.raises(IllegalActionError):
            s.apply_action(bad)  # type: ignore[arg-type]
        assert s.signature() == before
    assert (
        new(players=1, roll_off=True).current_player() == CHANCE and new(players=1, roll_off=True).turns == 1
    )


# -- numbers that are options ---------------------------------------------------------------------------------
def test_option_values_are_used() -> None:
    s = play(at([450, 0], dump_truck_score=550), "1,1,1,2,3", "bank")
    assert s.score == [0, 0]
    s = play(at([455, 0], dump_truck_score=550), "1,1,1,2,3", "bank")
    assert s.score == [555, 0]
    s = play(new(players=1, open_fail_penalty=100, open_fail_every=2), ZERO5, ZERO5)
    assert s.score == [-100]
    s = play(at([400, 0], "classic-nobarrel", target=500, pits=(), dump_truck=False), "1,1,1,2,3", "bank")
    assert s.is_terminal() and s.score == [500, 0]
    s = play(at([700, 0], barrel_score=800), "1,1,1,2,3", "bank")
    assert s.score == [800, 0] and s.on_barrel[0]
    assert play(at([800, 0], barrel_score=800, on_barrel=[True, False], to_move=1), ZERO5).min_bank() == 200
    s = play(at([100, 0], max_rolls=1), "1,2,3,3,4")
    assert s.legal_actions() == (BANK,)
