"""Illegal moves, notation, views: clear errors that change nothing."""

from __future__ import annotations

import json

import numpy as np
import pytest

from dicehall.core.errors import IllegalActionError, NotationError
from dicehall.core.game import TERMINAL
from dicehall.thousand.state import BANK, ROLL, parse_action

from .helpers import at, new, play


def refused(state, action, match: str, rule: str | None = None) -> None:  # type: ignore[no-untyped-def]
    before = state.signature()
    view = json.dumps(state.public_view())
    with pytest.raises(IllegalActionError, match=match) as err:
        state.apply_action(action)
    if rule is not None:
        assert err.value.rule == rule
    assert state.signature() == before
    assert json.dumps(state.public_view()) == view


def test_bank_when_refused_changes_nothing() -> None:
    refused(play(new(), "1,1,5,2,3"), BANK, "not opened: bank at least 50", "opening")
    refused(play(at([225, 0]), "1,2,3,3,4"), BANK, "in pit 200–300: bank at least 75", "pit")


def test_moves_after_the_game_is_over() -> None:
    s = play(at([880, 0], on_barrel=[True, False]), "1,1,1,1,2", "bank")
    assert s.current_player() == TERMINAL and s.legal_actions() == ()
    refused(s, ROLL, "the game is over", "game-over")
    refused(s, (1, 2, 3, 4, 5), "the game is over", "game-over")
    with pytest.raises(IllegalActionError):
        s.sample_chance(np.random.default_rng(0))


def test_wrong_dice_count() -> None:
    refused(new(), (1, 2, 3), "5 dice are to be rolled, got 3 values", "dice-count")
    s = play(new(), "1,1,5,2,3", "roll")
    refused(s, (1, 2, 3, 4, 5), "2 dice are to be rolled, got 5", "dice-count")
    s = play(at([100, 0]), "1,1,5,5,2", "roll")
    refused(s, (1, 1), "1 die is to be rolled", "dice-count")


def test_dice_values_out_of_range() -> None:
    refused(new(), (7, 1, 1, 1, 1), r"a die shows 1\.\.6", "dice-values")
    refused(new(), (0, 1, 1, 1, 1), r"a die shows 1\.\.6", "dice-values")
    refused(new(), ("1", 1, 1, 1, 1), r"a die shows 1\.\.6", "dice-values")  # type: ignore[arg-type]
    with pytest.raises(NotationError, match=r"1\.\.6, not 7"):
        new().string_to_action("7,1,1,1,1")


def test_decision_at_a_chance_node_and_dice_at_a_decision() -> None:
    refused(new(), ROLL, "the dice are to be rolled now", "turn-order")
    refused(new(), BANK, "the dice are to be rolled now", "turn-order")
    s = play(new(), "1,1,5,2,3")
    refused(s, (1, 2), "decides now: roll or bank", "turn-order")
    refused(s, "keep 1", "decides now: roll or bank", "turn-order")


def test_notation_round_trip_and_errors() -> None:
    s = new()
    assert s.string_to_action(" Roll ") == ROLL
    assert s.string_to_action("BANK") == BANK
    assert s.string_to_action("keep 5,1") == "keep 1,5"
    assert s.string_to_action("3,1,5,5,2") == (3, 1, 5, 5, 2)
    assert s.string_to_action("31552") == (3, 1, 5, 5, 2)
    assert s.string_to_action("3 1 5") == (3, 1, 5)
    for action in [ROLL, BANK, "keep 1,5", (3, 1, 5, 5, 2), (6,)]:
        assert s.string_to_action(s.action_to_string(action)) == action
    for bad, msg in [
        ("", "expected roll, bank"),
        ("jump", "cannot read 'jump'"),
        ("keep", "keep needs dice"),
        ("1,2,3,4,5,6", "at most 5 dice"),
        ("1,x", "cannot read 'x'"),
    ]:
        with pytest.raises(NotationError, match=msg):
            parse_action(bad)


def test_chance_outcomes_exact_distribution() -> None:
    s = new()
    outs = s.chance_outcomes()
    assert len(outs) == 7776 and len({a for a, _ in outs}) == 7776
    assert sum(p for _, p in outs) == pytest.approx(1.0)
    play(s, "1,1,5,2,3", "roll")
    outs = s.chance_outcomes()
    assert len(outs) == 36 and all(p == 1 / 36 for _, p in outs)
    assert list(s.legal_actions()) == [a for a, _ in outs]


def test_sample_chance_is_uniform_enough() -> None:
    s = new()
    rng = np.random.default_rng(5)
    counts = np.zeros(7)
    for _ in range(2000):
        for d in s.sample_chance(rng):  # type: ignore[union-attr]
            counts[d] += 1
    freq = counts[1:] / counts[1:].sum()
    assert np.all(np.abs(freq - 1 / 6) < 0.02)


def test_public_view_and_render() -> None:
    s = play(at([100, 120, 225]), "1,1,1,2,3", "bank")
    view = s.public_view()
    json.dumps(view)
    assert view["current_player"] == "chance" and view["legal_actions"] == [] and not view["terminal"]
    assert view["scores"] == [200, 70, 225]
    assert view["players"][2]["pit"] == [200, 300]
    assert "P2 overtaken: -50 (120 → 70)" in view["events"]
    play(s, "1,2,3,3,4")
    view = s.public_view()
    assert view["current_player"] == 1 and view["legal_actions"] == ["roll", "bank"]
    assert view["turn_total"] == 10 and view["dice_in_hand"] == 4 and view["set_aside"] == [1]
    assert view["last_roll"] == [1, 2, 3, 3, 4] and view["bank_refusal"] is None and view["can_bank"]
    text = s.render()
    assert "P1" in text and "200" in text and "pit 200–300" in text and "may bank" in text
    won = play(at([880, 0], on_barrel=[True, False]), "1,1,1,1,2", "bank")
    view = won.public_view()
    assert view["terminal"] and view["current_player"] is None and view["winners"] == [0]
    assert "P1 wins" in won.render()


def test_returns_and_scores() -> None:
    s = new(players=3)
    assert s.returns() == [0.0, 0.0, 0.0]  # a game stopped early: nobody won
    assert s.scores() == [0.0, 0.0, 0.0]
    st = play(new(), "1,1,1,2,3", "bank").stats()
    assert st["turns"] == 2 and st["rolls"] == 1


def test_from_position_checks_lengths() -> None:
    with pytest.raises(ValueError, match="one value per seat"):
        at([100, 0], on_barrel=[True])
    with pytest.raises(ValueError, match="to_move"):
        at([100, 0], to_move=2)
