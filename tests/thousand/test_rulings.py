"""Rulings settled in docs/thousand.md where the option docs and the rules digest could be read two ways.

Each scenario fails if the engine followed the other reading.
"""

from __future__ import annotations

import pytest

from dicehall.core.errors import RuleConfigError
from dicehall.thousand.rules import ThousandRules

from .helpers import at, play

ZERO5 = "2,2,3,4,6"
# A score barrel at 655 (under 1000 by 245) so that a fall's -100 lands exactly on the dump truck at 555.
LOW_BARREL = {"barrel_score": 655, "target": 900, "pits": ((200, 300),)}


def test_dump_truck_after_a_barrel_fall_not_only_after_a_bank() -> None:
    s = play(at([655, 0], on_barrel=[True, False], barrel_attempts=[2, 0], **LOW_BARREL), ZERO5)
    assert s.falls[0] == 1 and s.score == [0, 0] and s.opened[0]
    assert any("dump truck" in e for e in s.events)


def test_dump_truck_after_a_knock_off_from_the_barrel() -> None:
    # P2 climbs onto the barrel (555 + 100 = 655): P1 falls 655 -> 555 and the dump truck takes it.
    s = at([655, 555], to_move=1, on_barrel=[True, False], **LOW_BARREL)
    play(s, "1,1,1,2,3", "bank")
    assert s.score == [0, 655] and s.on_barrel == [False, True] and s.falls == [1, 0]


def test_dump_truck_is_not_a_passage() -> None:
    s = play(at([500, 0], pits=()), "1,1,1,2,3", "bank")  # 500 -> 600 passes 555: nothing happens
    assert s.score == [600, 0]


@pytest.mark.parametrize("earlier_falls", [2, 3, 5])
def test_third_and_every_later_fall_sets_the_score_to_zero(earlier_falls: int) -> None:
    s = play(
        at([880, 0], on_barrel=[True, False], barrel_attempts=[2, 0], barrel_falls=[earlier_falls, 0]), ZERO5
    )
    assert s.score == [0, 0] and s.falls[0] == earlier_falls + 1 and s.opened[0]


def test_falls_are_counted_per_player() -> None:
    s = play(at([880, 0], on_barrel=[True, False], barrel_attempts=[2, 0], barrel_falls=[1, 2]), ZERO5)
    assert s.score == [780, 0]  # P1's second fall; P2's two falls do not count for P1


def test_nonsense_rule_sets_are_refused_with_the_reason() -> None:
    for overrides, message in [
        ({"barrel_score": 45}, "barrel_score must be above the opening minimum 50"),
        (
            {"open_min": 100, "barrel_score": 100, "target": 300, "pits": [], "dump_truck": False},
            "above the opening",
        ),
        ({"pits": [[850, 900]]}, r"pit \[850, 900\] reaches past the barrel at 880"),
        ({"dump_truck_score": 880}, "dump_truck_score must be below the barrel at 880, got 880"),
        ({"dump_truck_score": 557}, "dump_truck_score must be a multiple of 5, got 557"),
        ({"barrel": "none", "dump_truck_score": 1000}, "dump_truck_score must be below the target at 1000"),
        ({"barrel_score": 600, "pits": [[200, 300]]}, "leaves 400 to make in one turn"),
        ({"pits": [[100, 500]]}, r"pit \[100, 500\] is 400 wide; at most 300"),
        ({"bolts_count": 1}, "bolt_penalty 100 every 1 bolts is more than 50 a bolt"),
        ({"target": 1003}, "target must be a multiple of 5"),
    ]:
        with pytest.raises(RuleConfigError, match=message):
            ThousandRules.from_preset("classic", overrides)
    # the same values are fine where the rule they clash with is off
    assert (
        ThousandRules.from_preset("classic", {"dump_truck": False, "dump_truck_score": 995}).dump_truck_score
        == 995
    )
    assert ThousandRules.from_preset("classic", {"bolts": False, "bolts_count": 1}).bolt_penalty == 100


def test_yard_a_zero_confirmation_roll_does_not_skip_and_two_flags_are_spent_together() -> None:
    # ruling 13: only the turn's first roll flags — a straight (hot) then a zero confirmation roll does not
    s = play(at([100, 100], "yard"), "1,2,3,4,5", "roll", ZERO5)
    assert s.player == 1 and s.skip_next == [False, False]
    # P1 is flagged; P2's zero first roll flags P2 too: both are spent and P1 plays next
    s = play(at([100, 100], "yard"), ZERO5)
    assert s.skip_next == [True, False] and s.player == 1
    play(s, ZERO5)
    assert s.player == 0 and s.skip_next == [False, False]
