"""Scenario tests of Variant 2, the yard house rules and the free set-aside option."""

from __future__ import annotations

import pytest

from dicehall.core.errors import IllegalActionError
from dicehall.core.game import CHANCE
from dicehall.thousand.state import BANK, ROLL

from .helpers import at, new, play

ZERO5 = "2,2,3,4,6"


# -- variant 2 ------------------------------------------------------------------------------------------------
def test_variant2_opening_75() -> None:
    s = play(new("variant2"), "5,5,5,1,2")  # 60
    assert s.bank_refusal() == "not opened: bank at least 75"
    play(s, "roll", "5", "roll", "5,2,3,3,4", "roll", "5,2,3,3")
    assert s.turn_total == 75 and s.bank_refusal() is None


def test_variant2_confirmation_roll_banks_the_turn() -> None:
    s = play(at([100, 0], "variant2"), "1,1,1,5,5")
    assert s.hot_dice and s.bank_refusal() == "hot dice: confirm by rolling all 5 dice"
    play(s, "roll")
    assert s.confirming
    play(s, "5,2,3,3,4")
    assert s.score == [215, 0] and s.player == 1 and s.current_player() == CHANCE
    assert any("confirmed" in e for e in s.events)


def test_variant2_zero_confirmation_loses_the_turn() -> None:
    s = play(at([100, 0], "variant2"), "1,1,1,5,5", "roll", ZERO5)
    assert s.score == [100, 0] and s.player == 1


def test_variant2_hot_confirmation_still_banks() -> None:
    s = play(at([100, 0], "variant2"), "1,1,1,5,5", "roll", "1,2,3,4,5")
    assert s.score == [335, 0]


def test_variant2_confirmation_below_the_opening_continues() -> None:
    s = play(new("variant2"), "1,1,5,2,3", "roll", "1,5")  # 40, hot
    play(s, "roll", "5,2,3,3,4")  # 45 < 75: cannot bank, the turn goes on
    assert s.player == 0 and s.turn_total == 45 and s.dice_in_hand == 4 and not s.hot_dice
    assert s.legal_actions() == (ROLL,)


def test_variant2_no_pits_overtaking_dump_truck_or_bolts() -> None:
    s = play(at([225, 0], "variant2"), "1,2,3,3,4", "bank")
    assert s.score == [235, 0]
    s = play(at([100, 150], "variant2"), "1,1,1,2,3", "bank")
    assert s.score == [200, 150]
    s = play(at([455, 0], "variant2"), "1,1,1,2,3", "bank")
    assert s.score == [555, 0]
    s = play(at([100, 0], "variant2", bolts=[2, 0]), ZERO5)
    assert s.bolts == [2, 0] and s.score == [100, 0]


def test_variant2_barrel_850_needs_150_no_attempt_limit() -> None:
    s = play(at([800, 0], "variant2"), "1,1,1,2,3", "bank")
    assert s.score == [850, 0] and s.on_barrel[0]
    s = at([850, 0], "variant2", on_barrel=[True, False], barrel_attempts=[10, 0])
    assert s.bank_refusal() is not None and s.min_bank() == 150
    play(s, ZERO5)
    assert s.on_barrel[0] and s.score[0] == 850 and s.falls[0] == 0
    s = play(at([850, 0], "variant2", on_barrel=[True, False]), "1,1,1,5,2", "roll", "1")  # 115, hot
    play(s, "roll", "1,1,1,2,3")  # confirmation: 215 banked from the barrel
    assert s.is_terminal() and s.score == [1065, 0]


def test_variant2_knock_back_to_opening_bank() -> None:
    s = at([850, 800], "variant2", on_barrel=[True, False], opening_scores=[90, 75], to_move=1)
    play(s, "1,1,1,2,3", "bank")
    assert s.score == [90, 850] and s.on_barrel == [False, True] and s.falls == [0, 0]


def test_variant2_opening_score_is_remembered() -> None:
    s = play(new("variant2"), "1,1,1,2,3", "bank")
    assert s.opening_score[0] == 100
    s = play(new("variant2", players=1, open_fail_penalty=50), ZERO5, ZERO5, ZERO5, "1,1,1,2,3", "bank")
    assert s.score == [50] and s.opening_score == [50]  # the score the opening bank left, debt included


# -- yard -----------------------------------------------------------------------------------------------------
def test_yard_four_of_a_kind_table() -> None:
    s = play(at([100, 0], "yard"), "1,1,1,1,2")
    assert s.turn_total == 500
    s = play(at([100, 0], "yard"), "3,3,3,3,2")
    assert s.turn_total == 150
    assert play(at([100, 0]), "1,1,1,1,2").turn_total == 200


def test_yard_golden_win() -> None:
    s = play(new("yard"), "1,1,1,1,1")
    assert s.is_terminal() and s.winner == 0 and s.returns() == [1.0, 0.0]
    classic = play(new(), "1,1,1,1,1")
    assert not classic.is_terminal() and classic.turn_total == 1000 and classic.hot_dice


def test_yard_three_rolls_per_turn() -> None:
    s = play(at([100, 0], "yard"), "5,2,3,3,4", "roll", "5,2,3,3", "roll", "5,2,3")
    assert s.turn_total == 15 and s.legal_actions() == (BANK,)
    with pytest.raises(IllegalActionError, match="at most 3 rolls per turn") as err:
        s.apply_action(ROLL)
    assert err.value.rule == "max-rolls"
    play(s, "bank")
    assert s.score == [115, 0]


def test_yard_out_of_rolls_below_the_minimum_ends_the_turn() -> None:
    s = play(new("yard"), "5,2,3,3,4", "roll", "5,2,3,3", "roll", "5,2,3")
    assert s.player == 1 and s.score == [0, 0] and s.current_player() == CHANCE


def test_yard_forced_rolls_do_not_count_against_the_limit() -> None:
    s = play(at([100, 0], "yard"), "5,2,3,3,4", "roll", "1,2,3,4", "roll", "1,5,5")
    assert s.turn_total == 35 and s.hot_dice and s.legal_actions() == (ROLL,)
    assert s.free_rolls == 3 and s.rolls_left == 0 and s.rolls_this_turn == 3
    play(s, "roll", "5,2,3,3,4")
    assert s.score == [140, 0]


def test_yard_hot_confirmation_must_be_confirmed_again() -> None:
    s = play(at([100, 0], "yard"), "1,1,1,5,5", "roll", "1,2,3,4,5")
    assert s.hot_dice and s.turn_total == 235 and s.player == 0 and s.legal_actions() == (ROLL,)
    play(s, "roll", ZERO5)
    assert s.score == [100, 0] and s.player == 1


def test_yard_straight_needs_confirmation() -> None:
    s = play(at([100, 0], "yard"), "2,3,4,5,6")
    assert s.hot_dice and s.bank_refusal() == "hot dice: confirm by rolling all 5 dice"


def test_yard_pair_on_two_dice_rolls_all_five_again() -> None:
    s = play(at([100, 0], "yard"), "1,1,1,2,3", "roll", "4,4")
    assert s.turn_total == 100 and s.player == 0 and s.hot_dice and s.dice_in_hand == 5
    play(s, "roll", "5,2,3,3,4")
    assert s.score == [205, 0]
    s = play(at([100, 0], "yard"), "1,1,1,2,3", "roll", "4,6")
    assert s.player == 1 and s.score == [100, 0]
    classic = play(at([100, 0]), "1,1,1,2,3", "roll", "4,4")
    assert classic.player == 1


def test_yard_landing_on_an_opponents_score_resets_them() -> None:
    s = play(at([100, 200, 300], "yard"), "1,1,1,2,3", "bank")
    assert s.score == [200, 0, 300]
    classic = play(at([100, 200, 300]), "1,1,1,2,3", "bank")
    assert classic.score == [200, 200, 300]


def test_yard_barrel_above_900_needs_exactly_1000() -> None:
    s = play(at([850, 0], "yard"), "1,1,1,2,3", "bank")
    assert s.score == [950, 0] and s.on_barrel[0]
    s = play(at([800, 0], "yard"), "1,1,1,2,3", "bank")
    assert s.score == [900, 0] and not s.on_barrel[0]
    s = play(at([950, 0], "yard", on_barrel=[True, False]), "1,5,2,3,3")
    assert s.bank_refusal() == "on the barrel: need exactly 50 this turn"
    s = play(at([950, 0], "yard", on_barrel=[True, False]), "5,5,5,2,3", "bank")
    assert s.is_terminal() and s.score == [1000, 0]


def test_yard_passing_1000_ends_the_turn_as_a_failed_attempt() -> None:
    s = play(at([950, 0], "yard", on_barrel=[True, False]), "1,1,1,2,3")
    assert s.player == 1 and s.score == [950, 0] and s.attempts == [1, 0]
    s = play(at([800, 0], "yard"), "1,1,1,1,2")
    assert s.player == 1 and s.score == [800, 0]
    s = play(at([900, 0], "yard"), "1,1,1,2,3", "bank")  # exactly 1000 from below the barrel
    assert s.is_terminal()


def test_yard_failed_barrel_costs_100_third_sets_zero() -> None:
    s = play(at([950, 0], "yard", on_barrel=[True, False], barrel_attempts=[2, 0]), ZERO5)
    assert s.score[0] == 850 and not s.on_barrel[0] and s.falls[0] == 1
    s = play(
        at([950, 0], "yard", on_barrel=[True, False], barrel_attempts=[2, 0], barrel_falls=[2, 0]), ZERO5
    )
    assert s.score[0] == 0


def test_yard_zero_first_roll_skips_next_turn() -> None:
    s = play(at([100, 100], "yard"), ZERO5)
    assert s.skip_next == [True, False] and s.player == 1
    play(s, "1,1,1,2,3", "bank")
    assert s.player == 1 and s.skip_next == [False, False] and "P1 skips a turn" in s.events
    # not before anyone has banked
    s = play(new("yard"), ZERO5)
    assert s.skip_next == [False, False]
    # not for a zero on a later roll
    s = play(at([100, 100], "yard"), "1,2,3,3,4", "roll", "2,3,4,6")
    assert s.skip_next == [False, False]
    # and not in classic
    assert play(at([100, 100]), ZERO5).skip_next == [False, False]


def test_yard_keeps_pits_and_bolts() -> None:
    assert at([225, 0], "yard").min_bank() == 75
    assert play(at([100, 0], "yard", bolts=[2, 0]), ZERO5).score[0] == 0


# -- free set-aside -------------------------------------------------------------------------------------------
def test_free_set_aside_player_chooses_combinations() -> None:
    s = play(at([100, 0], free_set_aside=True), "1,1,5,2,3")
    assert s.current_player() == 0 and s.turn_total == 0
    assert list(s.legal_actions()) == ["keep 1", "keep 5", "keep 1,1", "keep 1,5", "keep 1,1,5"]
    play(s, "keep 1")
    assert s.turn_total == 10 and s.dice_in_hand == 4 and s.legal_actions() == (ROLL, BANK)
    play(s, "roll", "1,1,1,5")
    play(s, "keep 1,1,1")
    assert s.turn_total == 110 and s.dice_in_hand == 1
    play(s, "bank")
    assert s.score == [210, 0]


def test_free_set_aside_single_combination_is_kept_automatically() -> None:
    s = play(at([100, 0], free_set_aside=True), "1,2,3,3,4")
    assert s.turn_total == 10 and s.legal_actions() == (ROLL, BANK)


def test_free_set_aside_refuses_non_scoring_keep() -> None:
    s = play(at([100, 0], free_set_aside=True), "1,1,5,2,3")
    before = s.signature()
    for bad in ("keep 2", "keep 1,2", "keep 1,1,1", "roll", "bank"):
        with pytest.raises(IllegalActionError) as err:
            s.apply_action(s.string_to_action(bad))
        assert s.signature() == before
        assert "keep" in str(err.value) or "choose" in str(err.value)


def test_variant2_knock_back_when_the_opening_bank_reached_the_barrel() -> None:
    s = at([850, 800], "variant2", on_barrel=[True, False], opening_scores=[850, 75], to_move=1)
    play(s, "1,1,1,2,3", "bank")
    assert s.score == [75, 850]


def test_yard_exact_reset_does_not_lift_negative_scores() -> None:
    s = play(at([-150, -50], "yard", opened=[True, True]), "1,1,1,2,3", "bank")
    assert s.score == [-50, -50]


def test_yard_a_reset_player_is_not_overtaken_too() -> None:
    """Ruling 12: from below 0 a bank that lands on an opponent's score passes the 0 it sends them to, but they
    were level with the banker, not overtaken: 0, not the overtaking penalty's -50."""
    s = play(at([-50, 50], "yard", opened=[True, True]), "1,1,1,2,3", "bank")
    assert s.score == [50, 0]
    s = play(at([-50, 50, 20], "yard", opened=[True, True, True]), "1,1,1,2,3", "bank")
    assert s.score == [50, 0, -30]  # the player at 20 was overtaken


def test_free_set_aside_after_a_confirmation_roll() -> None:
    s = play(
        at([100, 0], "variant2", free_set_aside=True), "1,1,1,5,5", "keep 1,1,1,5,5", "roll", "1,5,2,3,3"
    )
    assert s.keep_is_confirmation and s.current_player() == 0
    play(s, "keep 5")
    assert s.score == [215, 0] and s.player == 1
