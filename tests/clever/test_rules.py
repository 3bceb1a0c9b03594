"""Scenario tests: one rule each, written so that a wrong rule makes them fail."""

from __future__ import annotations

import numpy as np
import pytest

from dicehall.clever import sheet as S
from dicehall.clever.state import AFTER_END, PH_OVER, PH_PASSIVE_PICK, PH_PICK, PH_PLUS, PH_ROLL, CleverState
from dicehall.core.errors import IllegalActionError, NotationError

from .helpers import die, do, legal, mark, new, roll, snapshot


def choose_all_first(s: CleverState) -> None:
    while s.choice_pending:
        s.apply_action(s.legal_actions()[0])


def bit(d: str) -> int:
    return 1 << die(d)


# -- bonuses --------------------------------------------------------------------------------------------
def test_yellow_x_from_orange_cell_5_asks_for_a_yellow_cell() -> None:
    s = new()
    for v in (1, 1, 1, 1):
        mark(s, 0, "O:O", v)
    choose_all_first(s)  # orange cell 3 gives a re-roll (no choice)
    mark(s, 0, "O:O", 1)
    assert s.pending_bonus() == (0, S.YELLOW_X, ("orange", 5))
    options = legal(s)
    assert len(options) == 12 and all(o.startswith("X Y.") for o in options)
    do(s, "X Y.r4c4")
    assert s.sheets[0].ymask >> 15 & 1
    assert not s.choice_pending


def test_blue_x_from_green_cell_6_asks_for_a_blue_cell() -> None:
    s = new()
    s.sheets[0].gcount = 5
    mark(s, 0, "G:G", 1)  # cell 6 has minimum 1
    assert s.pending_bonus() == (0, S.BLUE_X, ("green", 6))
    assert len(legal(s)) == 11
    do(s, "X B.r3c4")
    assert s.sheets[0].bmask == 1 << 11


@pytest.mark.parametrize(
    ("moves", "check"),
    [
        # yellow row 3 (1, 2, 4 + printed X) → green X
        (["Y:Y.r3c1", "Y:Y.r3c3", "Y:Y.r3c4"], lambda sh: sh.gcount == 1),
        # yellow row 2 (2, 1, 5 + printed X) → orange 4
        (["Y:Y.r2c1", "Y:Y.r2c2", "Y:Y.r2c4"], lambda sh: sh.ovals == (4,)),
        # yellow row 4 (3, 4, 6 + printed X) → fox
        (["Y:Y.r4c2", "Y:Y.r4c3", "Y:Y.r4c4"], lambda sh: sh.foxes == 1),
        # yellow diagonal 3, 1, 2, 6 → +1
        (["Y:Y.r1c1", "Y:Y.r2c2", "Y:Y.r3c3", "Y:Y.r4c4"], lambda sh: sh.p1_gain == 1),
        # blue row 1 (2, 3, 4) → orange 5
        (["B:B.r1c2", "B:B.r1c3", "B:B.r1c4"], lambda sh: sh.ovals == (5,)),
        # blue row 3 (9, 10, 11, 12) → fox
        (["B:B.r3c1", "B:B.r3c2", "B:B.r3c3", "B:B.r3c4"], lambda sh: sh.foxes == 1),
        # blue column 3 (3, 7, 11) → purple 6
        (["B:B.r1c3", "B:B.r2c3", "B:B.r3c3"], lambda sh: sh.pvals == (6,)),
        # blue column 1 has only two cells (5, 9) → re-roll (round 1 already gave one)
        (["B:B.r2c1", "B:B.r3c1"], lambda sh: sh.rr_gain == 2),
        # blue column 4 (4, 8, 12) → +1
        (["B:B.r1c4", "B:B.r2c4", "B:B.r3c4"], lambda sh: sh.p1_gain == 1),
        # blue column 2 (2, 6, 10) → green X
        (["B:B.r1c2", "B:B.r2c2", "B:B.r3c2"], lambda sh: sh.gcount == 1),
    ],
)
def test_grid_bonuses(moves: list[str], check: object) -> None:
    s = new()
    for m in moves:
        assert not s.choice_pending
        mark(s, 0, m)
    assert callable(check) and check(s.sheets[0])


def test_blue_column_1_has_exactly_two_cells() -> None:
    s = new()
    mark(s, 0, "B:B.r2c1")
    assert s.sheets[0].rr_gain == 1  # only the round-1 re-roll so far
    mark(s, 0, "B:B.r3c1")
    assert s.sheets[0].rr_gain == 2
    assert s.sheets[0].area_scores()[1] == 2
    with pytest.raises(NotationError):
        s.string_to_action("B:B.r1c1")  # the top-left slot is no cell


@pytest.mark.parametrize(
    ("cells", "bonus", "check"),
    [
        (4, S.PLUS_ONE, lambda sh: sh.p1_gain == 1),
        (7, S.FOX, lambda sh: sh.foxes == 1),
        (10, S.REROLL, lambda sh: sh.rr_gain == 2),
    ],
)
def test_green_cell_bonuses(cells: int, bonus: int, check: object) -> None:
    s = new()
    s.sheets[0].gcount = cells - 1
    mark(s, 0, "G:G", 6)
    assert s.log == [(0, bonus, 1, ("green", cells))]
    assert callable(check) and check(s.sheets[0])


def test_green_cell_9_gives_purple_6_and_orange_cell_10_gives_purple_6() -> None:
    s = new()
    s.sheets[0].gcount = 8
    mark(s, 0, "G:G", 6)
    assert s.sheets[0].pvals == (6,)
    s.sheets[0].ovals = (1,) * 9
    mark(s, 0, "O:O", 2)
    assert s.sheets[0].pvals == (6, 6)


@pytest.mark.parametrize(
    ("index", "check"),
    [
        (3, lambda sh: sh.rr_gain == 2),
        (6, lambda sh: sh.p1_gain == 1),
        (8, lambda sh: sh.foxes == 1),
    ],
)
def test_orange_cell_bonuses(index: int, check: object) -> None:
    s = new()
    s.sheets[0].ovals = (1,) * (index - 1)
    mark(s, 0, "O:O", 3)
    assert callable(check) and check(s.sheets[0])


@pytest.mark.parametrize(
    ("index", "bonus"),
    [
        (3, S.REROLL),
        (4, S.BLUE_X),
        (5, S.PLUS_ONE),
        (6, S.YELLOW_X),
        (7, S.FOX),
        (8, S.REROLL),
        (9, S.GREEN_X),
        (10, S.ORANGE_6),
        (11, S.PLUS_ONE),
    ],
)
def test_purple_cell_bonuses(index: int, bonus: int) -> None:
    s = new()
    sh = s.sheets[0]
    sh.pvals = (1,) * (index - 1)
    sh.plast = 6  # anything may follow
    before = (sh.rr_gain, sh.p1_gain, sh.foxes, sh.gcount, sh.ovals)
    mark(s, 0, "P:P", 2)
    if bonus in (S.BLUE_X, S.YELLOW_X):
        assert s.pending_bonus() == (0, bonus, ("purple", index))
        return
    after = (sh.rr_gain, sh.p1_gain, sh.foxes, sh.gcount, sh.ovals)
    expected = {
        S.REROLL: (before[0] + 1, *before[1:]),
        S.PLUS_ONE: (before[0], before[1] + 1, *before[2:]),
        S.FOX: (*before[:2], before[2] + 1, *before[3:]),
        S.GREEN_X: (*before[:3], before[3] + 1, before[4]),
        S.ORANGE_6: (*before[:4], (6,)),
    }[bonus]
    assert after == expected


def test_chain_of_four_bonuses_in_firing_order() -> None:
    s = new()
    sh = s.sheets[0]
    sh.pvals = (1, 2, 3, 4, 5, 6, 1, 2)
    sh.plast = 2
    sh.psum = sum(sh.pvals)
    sh.gcount = 5
    sh.bmask = (1 << 2) | (1 << 6)  # blue 3 and 7 crossed
    mark(s, 0, "P:P", 3)  # purple cell 9 → green X → green cell 6 → blue X (a choice)
    assert sh.gcount == 6
    assert s.pending_bonus() == (0, S.BLUE_X, ("green", 6))
    do(s, "X B.r3c3")  # blue 11 completes column 3 → purple 6 → purple cell 10 → orange 6
    assert sh.pvals == (1, 2, 3, 4, 5, 6, 1, 2, 3, 6)
    assert sh.ovals == (6,)
    assert [(b, o) for _, b, _, o in s.log] == [
        (S.BLUE_X, ("green", 6)),
        (S.PURPLE_6, ("blue_column", 3)),
        (S.ORANGE_6, ("purple", 10)),
    ]


def test_bonuses_fired_together_resolve_in_the_order_they_fired() -> None:
    s = new()
    for m in ("Y:Y.r1c1", "Y:Y.r2c2", "Y:Y.r3c3", "Y:Y.r4c2", "Y:Y.r4c3"):
        mark(s, 0, m)
    mark(s, 0, "Y:Y.r4c4")  # completes row 4 (fox) and the diagonal (+1): row first
    assert [(b, o) for _, b, _, o in s.log] == [
        (S.FOX, ("yellow_row", 4)),
        (S.PLUS_ONE, ("yellow_diagonal", 1)),
    ]


def test_a_bonus_that_cannot_be_applied_is_lost() -> None:
    s = new()
    sh = s.sheets[0]
    sh.gcount = 11
    for m in ("Y:Y.r3c1", "Y:Y.r3c3", "Y:Y.r3c4"):
        mark(s, 0, m)
    assert s.log == [(0, S.GREEN_X, 0, ("yellow_row", 3))]
    assert sh.gcount == 11
    sh.ovals = (1,) * 11
    for m in ("Y:Y.r2c1", "Y:Y.r2c2", "Y:Y.r2c4"):
        mark(s, 0, m)
    assert s.log == [(0, S.ORANGE_4, 0, ("yellow_row", 2))]
    assert sh.ovals == (1,) * 11


def test_a_yellow_x_with_a_full_yellow_area_is_lost() -> None:
    s = new()
    sh = s.sheets[0]
    sh.ymask = (1 << 16) - 1
    sh.ovals = (1,) * 4
    mark(s, 0, "O:O", 2)
    assert s.log == [(0, S.YELLOW_X, 0, ("orange", 5))]
    assert not s.choice_pending


def test_a_single_possible_cell_is_crossed_at_once() -> None:
    s = new()
    sh = s.sheets[0]
    sh.ymask = ((1 << 16) - 1) & ~(1 << 13)  # only yellow 3 at r4c2 open
    sh.ovals = (1,) * 4
    mark(s, 0, "O:O", 2)
    assert sh.ymask >> 13 & 1 and not s.choice_pending
    t = new(auto_single_choice=False)
    t.sheets[0].ymask = ((1 << 16) - 1) & ~(1 << 13)
    t.sheets[0].ovals = (1,) * 4
    mark(t, 0, "O:O", 2)
    assert legal(t) == {"X Y.r4c2"}


# -- yellow / blue / purple / orange areas ------------------------------------------------------------
def test_yellow_row_and_column_completion_count_printed_crosses() -> None:
    s = new()
    for m in ("Y:Y.r1c1", "Y:Y.r1c2"):
        mark(s, 0, m)
    assert not s.choice_pending
    mark(s, 0, "Y:Y.r1c3")  # row 1 = 3, 6, 5 and the printed X
    assert s.pending_bonus() == (0, S.BLUE_X, ("yellow_row", 1))
    s.queue.clear()
    s.choice_pending = False
    assert s.sheets[0].area_scores()[0] == 0
    mark(s, 0, "Y:Y.r2c1")
    mark(s, 0, "Y:Y.r3c1")  # column 1 = 3, 2, 1 and the printed X
    assert s.sheets[0].area_scores()[0] == 10


def test_yellow_takes_the_value_of_the_yellow_or_white_die_only() -> None:
    s = new()
    roll(s, "W3 Y3 B1 G1 O1 P1")
    opts = legal(s)
    assert {"Y:Y.r1c1", "Y:Y.r4c2", "W:Y.r1c1", "W:Y.r4c2"} <= opts
    assert not any(o.startswith(("G:Y", "B:Y", "O:Y", "P:Y")) for o in opts)


def test_blue_is_blue_plus_white_wherever_white_is() -> None:
    s = new()
    roll(s, "W2 Y6 B5 G6 O6 P6")
    do(s, "Y:Y.r1c2")  # white 2 and blue 5 go to the platter
    assert s.platter == bit("W") | bit("B")
    s2 = new(2)
    # second player, passive, may take the blue die: 5 + 2 = 7
    roll(s2, "W2 Y6 B5 G6 O6 P6")
    do(s2, "Y:Y.r1c2")
    roll(s2, "G6 O6 P6")
    do(s2, "G:G")
    roll(s2, "O6 P6")
    do(s2, "O:O")
    assert s2.phase == PH_PASSIVE_PICK and s2.actor == 1
    assert {"B:B.r2c3", "W:B.r2c3"} <= legal(s2)


def test_purple_resets_after_6() -> None:
    s = new()
    mark(s, 0, "P:P", 5)
    roll(s, "W1 Y1 B1 G1 O1 P3")
    assert "P:P" not in legal(s)  # 3 is not above 5
    with pytest.raises(IllegalActionError):
        do(s, "P:P")
    s = new()
    for v in (5, 6):
        mark(s, 0, "P:P", v)
    roll(s, "W1 Y1 B1 G1 O1 P1")
    assert "P:P" in legal(s)  # anything may follow a 6
    do(s, "P:P")
    assert s.sheets[0].pvals == (5, 6, 1)
    s = new()
    mark(s, 0, "P:P", 6)
    roll(s, "W1 Y1 B1 G1 O1 P6")
    assert "P:P" in legal(s)  # 6 after 6 too


def test_green_needs_the_minimum_and_green_x_ignores_it() -> None:
    s = new()
    s.sheets[0].gcount = 4  # next cell needs at least 5
    roll(s, "W4 Y1 B1 G4 O1 P1")
    assert "G:G" not in legal(s) and "W:G" not in legal(s)
    s.sheets[0].gcount = 10  # next cell needs a 6; a green X crosses it anyway
    for m in ("Y:Y.r3c1", "Y:Y.r3c3", "Y:Y.r3c4"):
        mark(s, 0, m)
    assert s.sheets[0].gcount == 11


def test_orange_multipliers_apply_to_bonus_numbers() -> None:
    s = new()
    sh = s.sheets[0]
    sh.ovals = (1, 1, 1)
    sh.osum = 3
    for m in ("Y:Y.r2c1", "Y:Y.r2c2", "Y:Y.r2c4"):  # orange 4 into the ×2 cell
        mark(s, 0, m)
    assert sh.ovals == (1, 1, 1, 8)
    sh.ovals = (1,) * 10
    sh.osum = 10
    for m in ("B:B.r1c2", "B:B.r1c3", "B:B.r1c4"):  # orange 5 into the ×3 cell
        mark(s, 0, m)
    assert sh.ovals[-1] == 15
    assert sh.area_scores()[3] == 25


# -- the active turn --------------------------------------------------------------------------------------
def test_strictly_lower_dice_go_to_the_platter() -> None:
    s = new()
    roll(s, "W3 Y3 B2 G4 O1 P5")
    do(s, "Y:Y.r1c1")
    assert s.platter == bit("B") | bit("O")  # the equal white 3 stays in the roll
    assert s.roll_mask == bit("W") | bit("G") | bit("P")


def test_no_dice_left_ends_the_turn_early() -> None:
    s = new()
    roll(s, "W1 Y1 B1 G1 O1 P6")
    do(s, "P:P")
    assert s.roll_mask == 0
    assert s.current_player() != 0 or s.phase != PH_PICK
    assert s.field == (die("P"),)
    assert s.platter == 0b011111


def test_reroll_rerolls_all_dice_just_rolled() -> None:
    s = new()
    assert s.sheets[0].rerolls == 1  # round 1 bonus
    roll(s, "W1 Y1 B1 G1 O1 P1")
    do(s, "reroll")
    assert s.phase == PH_ROLL and s.roll_mask == 0b111111 and s.sheets[0].rerolls == 0
    with pytest.raises(IllegalActionError) as err:
        roll(s, "W1 Y1 B1")  # never a subset
    assert err.value.rule == "roll-dice"
    roll(s, "W6 Y6 B6 G6 O6 P6")
    assert "reroll" not in legal(s)
    before = snapshot(s)
    with pytest.raises(IllegalActionError) as err2:
        do(s, "reroll")
    assert err2.value.rule == "re-roll"
    assert snapshot(s) == before


def test_forfeited_roll_counts_and_the_same_dice_are_rolled_again() -> None:
    s = new()
    sh = s.sheets[0]
    sh.ymask = (1 << 16) - 1
    sh.bmask = ((1 << 12) - 1) & ~1 & ~(1 << 11)  # only blue 12 open
    sh.gcount = 11
    sh.ovals = (1,) * 11
    sh.pvals = (1,) * 11
    roll(s, "W1 Y2 B1 G3 O4 P5")
    assert legal(s) == {"forfeit", "reroll"}
    before = snapshot(s)
    with pytest.raises(IllegalActionError):
        do(s, "O:O")
    assert snapshot(s) == before
    do(s, "forfeit")
    assert s.rolls == 1 and s.phase == PH_ROLL and s.roll_mask == 0b111111 and s.field == ()
    roll(s, "W6 Y2 B6 G3 O4 P5")
    do(s, "W:B.r3c4")  # 6 + 6 = 12
    assert s.rolls == 2
    # a third forfeit ends the turn: every die left goes to the platter
    s2 = new()
    for attr, val in (("ymask", (1 << 16) - 1), ("bmask", ((1 << 12) - 1) & ~1), ("gcount", 11)):
        setattr(s2.sheets[0], attr, val)
    s2.sheets[0].ovals = (1,) * 11
    s2.sheets[0].pvals = (1,) * 11
    s2.sheets[0].rr_used = 1
    for _ in range(3):
        roll(s2, "W1 Y2 B1 G3 O4 P5")
        assert legal(s2) == {"forfeit"}
        do(s2, "forfeit")
    assert s2.platter == 0b111111 and s2.field == ()


def test_a_die_that_cannot_be_entered_cannot_be_chosen() -> None:
    s = new()
    s.sheets[0].gcount = 4
    roll(s, "W1 Y1 B1 G2 O1 P1")
    before = snapshot(s)
    with pytest.raises(IllegalActionError) as err:
        do(s, "G:G")
    assert err.value.rule == "enter-die"
    assert snapshot(s) == before


def test_a_die_on_the_platter_cannot_be_picked_by_the_active_player() -> None:
    s = new()
    roll(s, "W1 Y6 B1 G1 O1 P1")
    do(s, "Y:Y.r1c2")
    assert s.roll_mask == 0  # everything else was lower
    s = new()
    roll(s, "W1 Y3 B4 G5 O6 P2")
    do(s, "Y:Y.r1c1")
    roll(s, "B4 G5 O6")
    before = snapshot(s)
    with pytest.raises(IllegalActionError, match="not just rolled") as err:
        do(s, "P:P")
    assert err.value.rule == "enter-die"
    assert snapshot(s) == before


# -- +1 ----------------------------------------------------------------------------------------------------
def _to_active_plus(s: CleverState) -> None:
    roll(s, "W4 Y6 B3 G6 O6 P6")
    do(s, "G:G")
    roll(s, "Y6 O6 P6")
    do(s, "O:O")
    roll(s, "Y6 P6")
    do(s, "P:P")


def test_plus_one_may_take_a_die_used_earlier_in_the_turn_but_not_twice() -> None:
    s = new()
    s.sheets[0].p1_gain = 3
    _to_active_plus(s)
    assert s.phase == PH_PLUS
    do(s, "+1 G:G")  # the green 6 already entered this turn
    assert s.sheets[0].gcount == 2
    assert not any(o.startswith("+1 G:") for o in legal(s))
    before = snapshot(s)
    with pytest.raises(IllegalActionError) as err:
        do(s, "+1 G:G")
    assert err.value.rule == "plus-one"
    assert snapshot(s) == before
    do(s, "+1 O:O")  # another die is fine
    assert s.sheets[0].ovals == (6, 6)


def test_plus_one_only_at_the_end_of_ones_own_turn() -> None:
    s = new()
    s.sheets[0].p1_gain = 1
    roll(s, "W4 Y6 B3 G6 O6 P6")
    with pytest.raises(IllegalActionError) as err:
        do(s, "+1 O:O")
    assert err.value.rule == "plus-one"


def test_stop_keeps_the_plus_ones() -> None:
    s = new()
    s.sheets[0].p1_gain = 1
    _to_active_plus(s)
    do(s, "stop")
    assert s.sheets[0].plus_ones == 1
    assert s.phase in (4, PH_PASSIVE_PICK)  # the solo passive roll is next


def test_end_of_game_plus_one() -> None:
    s = new(rounds=1)
    s.sheets[0].p1_gain = 2
    _to_active_plus(s)
    do(s, "stop")
    roll(s, "W2 Y5 B1 G3 O6 P6", platter="W,B,G")
    assert s.phase == PH_PASSIVE_PICK
    do(s, "pass")
    assert s.phase == PH_PLUS
    do(s, "+1 W:O")
    do(s, "stop")
    # the game's last turn is over; remaining +1 may still be used on the last dice
    assert s.phase == PH_PLUS and s.after == AFTER_END and s.current_player() == 0
    assert not any(o.startswith("+1 W:") for o in legal(s))
    assert "reroll" not in legal(s)
    do(s, "+1 Y:Y.r1c3")
    assert s.phase == PH_OVER
    assert s.sheets[0].plus_ones == 0
    assert s.returns() == [1.0]


# -- passive players -------------------------------------------------------------------------------------
def _blocked_passive(fallback: bool = True, usable_platter: bool = False) -> CleverState:
    s = new(2, passive_fallback=fallback)
    p1 = s.sheets[1]
    p1.ovals = (1,) * 11
    p1.pvals = (4,)
    p1.plast = 4
    p1.gcount = 0 if usable_platter else 4
    for cell in (4, 5, 8, 10):  # yellow 1s and 2s
        p1.ymask |= 1 << cell
    p1.bmask |= 1 << 1  # blue 2
    roll(s, "W1 Y2 B1 G2 O6 P6")
    do(s, "O:O")  # W1 Y2 B1 G2 to the platter
    roll(s, "P5")
    do(s, "P:P")
    if fallback or usable_platter:
        assert s.phase == PH_PASSIVE_PICK and s.actor == 1
    return s


def test_passive_fallback_to_a_field_die_when_no_platter_die_fits() -> None:
    s = _blocked_passive()
    assert legal(s) == {"P:P", "pass"}  # the active player's purple 5 from the field
    do(s, "P:P")
    assert s.sheets[1].pvals == (4, 5)


def test_passive_fallback_refused_while_a_platter_die_fits() -> None:
    s = _blocked_passive(usable_platter=True)
    assert "G:G" in legal(s)
    before = snapshot(s)
    with pytest.raises(IllegalActionError, match="only when no platter die") as err:
        do(s, "P:P")
    assert err.value.rule == "passive-fallback"
    assert snapshot(s) == before


def test_no_fallback_rule_and_solo_have_no_field_dice_for_passive_players() -> None:
    s = _blocked_passive(fallback=False)
    # nothing to take: player 2 goes straight on (no +1), the next turn begins
    assert s.phase == PH_ROLL and s.active == 1


def test_passive_players_never_reroll_and_may_share_a_die() -> None:
    s = new(3)
    roll(s, "W1 Y1 B1 G1 O5 P6")
    do(s, "P:P")  # everything to the platter
    assert s.phase == PH_PASSIVE_PICK and s.actor == 1
    assert "reroll" not in legal(s)
    with pytest.raises(IllegalActionError) as err:
        do(s, "reroll")
    assert err.value.rule == "re-roll"
    do(s, "O:O")
    assert s.phase == PH_PASSIVE_PICK and s.actor == 2
    do(s, "O:O")  # the same die again
    assert s.sheets[1].ovals == (5,) and s.sheets[2].ovals == (5,)
    assert s.active == 1  # next turn: player 2 is active


def test_solo_passive_roll_puts_the_three_lowest_on_the_platter() -> None:
    s = new()
    roll(s, "W1 Y1 B1 G1 O1 P6")
    do(s, "P:P")
    before = snapshot(s)
    with pytest.raises(IllegalActionError) as err:
        roll(s, "W2 Y5 B1 G3 O6 P6", platter="W,B,Y")  # Y5 is not among the three lowest
    assert err.value.rule == "solo-platter"
    assert snapshot(s) == before
    roll(s, "W2 Y5 B1 G3 O6 P6", platter="W,B,G")
    assert s.platter == bit("W") | bit("B") | bit("G")
    assert legal(s) == {"W:Y.r2c1", "W:Y.r3c3", "W:B.r1c3", "W:G", "W:O", "W:P", "B:B.r1c3", "G:G", "pass"}


def test_solo_platter_ties_are_broken_at_random() -> None:
    seen = set()
    for seed in range(40):
        s = new()
        roll(s, "W1 Y1 B1 G1 O1 P6")
        do(s, "P:P")
        s.sheets[0].p1_gain = 0
        # force a tie: the sampler decides which of the equal dice go to the platter
        rng = np.random.default_rng(seed)
        while True:
            code = s.sample_chance(rng)
            vals = [(code >> (3 * d)) & 7 for d in range(6)]
            if sorted(vals)[2] == sorted(vals)[3]:
                break
        s.apply_action(code)
        seen.add(s.platter)
        assert s.platter.bit_count() == 3
    assert len(seen) > 10


# -- rounds, round track, end, ties ----------------------------------------------------------------------
@pytest.mark.parametrize(("n", "rounds"), [(1, 6), (2, 6), (3, 5), (4, 4)])
def test_rounds_by_player_count(n: int, rounds: int) -> None:
    s = new(n)
    assert s.rounds == rounds
    rng = np.random.default_rng(n)
    turns = set()
    while not s.is_terminal():
        turns.add((s.round, s.active))
        a = s.sample_chance(rng) if s.is_chance_node() else s.legal_actions()[-1]
        s.apply_action(a)
    assert turns == {(r, p) for r in range(1, rounds + 1) for p in range(n)}


def test_round_bonuses_and_the_round_4_choice() -> None:
    s = new(2)
    assert [sh.rr_gain for sh in s.sheets] == [1, 1]  # round 1: re-roll for everyone
    rng = np.random.default_rng(5)
    while s.round < 4:
        a = s.sample_chance(rng) if s.is_chance_node() else s.legal_actions()[-1]
        s.apply_action(a)
    assert [sh.p1_gain >= 1 for sh in s.sheets] == [True, True]
    assert s.pending_bonus() == (0, S.BLACK, ("round", 4)) and s.current_player() == 0
    opts = legal(s)
    assert {"black O", "black P"} <= opts
    assert any(o.startswith("black Y.") for o in opts) or all(s.sheets[0].ymask >> c & 1 for c in range(16))
    ovals = s.sheets[0].ovals
    do(s, "black O")
    assert len(s.sheets[0].ovals) == len(ovals) + 1 and s.sheets[0].ovals[-1] % 6 == 0
    assert s.pending_bonus() == (1, S.BLACK, ("round", 4)) and s.current_player() == 1
    pvals = s.sheets[1].pvals
    do(s, "black P")
    assert s.sheets[1].pvals == (*pvals, 6)
    assert s.is_chance_node()


def test_black_x_on_green_ignores_the_minimum() -> None:
    s = new()
    s.sheets[0].gcount = 10
    s.queue.append((0, S.BLACK, ("round", 4)))
    s._resolve()
    assert "black G" in legal(s)
    do(s, "black G")
    assert s.sheets[0].gcount == 11


def test_tie_break_highest_single_area_then_shared() -> None:
    s = new(2)
    a, b = s.sheets
    a.ovals, a.osum = (10,), 10  # total 10, best area 10
    b.pvals, b.psum, b.plast = (4,), 4, 4
    b.ovals, b.osum = (6,), 6  # total 10, best area 6
    s.phase = PH_OVER
    assert s.scores() == [10.0, 10.0]
    assert s.returns() == [1.0, 0.0]
    assert s.winners() == [0]
    b.ovals, b.osum, b.pvals, b.psum = (10,), 10, (), 0
    assert s.returns() == [0.5, 0.5]
    assert s.winners() == [0, 1]


def test_all_fox_arithmetic() -> None:
    s = new()
    sh = s.sheets[0]
    # one fox from each of the five places
    for m in ("Y:Y.r4c2", "Y:Y.r4c3", "Y:Y.r4c4"):
        mark(s, 0, m)
    for m in ("B:B.r3c1", "B:B.r3c2", "B:B.r3c3", "B:B.r3c4"):
        mark(s, 0, m)
    choose_all_first(s)
    sh.gcount = 6
    mark(s, 0, "G:G", 6)
    sh.ovals, sh.osum = (1,) * 7, 7
    mark(s, 0, "O:O", 1)
    sh.pvals, sh.plast, sh.psum = (1,) * 6, 6, 6
    mark(s, 0, "P:P", 1)
    choose_all_first(s)
    assert sh.foxes == 5
    areas = sh.area_scores()
    assert sh.fox_points() == 5 * min(areas)
    assert sh.total() == sum(areas) + 5 * min(areas)


def test_illegal_moves_and_bad_notation_change_nothing() -> None:
    s = new()
    before = snapshot(s)
    with pytest.raises(IllegalActionError) as err:
        do(s, "W:O")  # the dice must be rolled first
    assert err.value.rule == "chance"
    with pytest.raises(NotationError):
        s.string_to_action("W:Y.r1c4")  # a printed cross is no cell
    with pytest.raises(NotationError):
        s.string_to_action("W9")
    with pytest.raises(IllegalActionError) as err2:
        roll(s, "W1 Y1 B1 G1 O1")  # the purple die is missing
    assert err2.value.rule == "roll-dice"
    assert snapshot(s) == before
    roll(s, "W1 Y1 B1 G1 O1 P1")
    with pytest.raises(IllegalActionError, match="needs a 3"):
        do(s, "Y:Y.r1c1")  # yellow 1 is not a 3
    with pytest.raises(IllegalActionError) as err3:
        do(s, "X Y.r1c1")
    assert err3.value.rule == "legal-actions"


def test_chance_outcomes_are_exact() -> None:
    s = new()
    outs = s.chance_outcomes()
    assert len(outs) == 6**6 and abs(sum(p for _, p in outs) - 1) < 1e-9
    roll(s, "W3 Y3 B2 G4 O1 P5")
    do(s, "Y:Y.r1c1")
    outs = s.chance_outcomes()
    assert len(outs) == 6**3  # W, G and P are left to roll
    s = new()
    roll(s, "W1 Y1 B1 G1 O1 P6")
    do(s, "P:P")
    outs = s.chance_outcomes()
    assert abs(sum(p for _, p in outs) - 1) < 1e-9
    by_values: dict[int, list[float]] = {}
    for code, p in outs:
        by_values.setdefault(code & ((1 << 18) - 1), []).append(p)
    assert len(by_values) == 6**6
    all_ones = sum(1 << (3 * d) for d in range(6))
    assert len(by_values[all_ones]) == 20  # six equal dice: any three of them, equally likely
    for code, _ in outs[:: len(outs) // 50]:
        s.clone().apply_action(code)  # every listed outcome is accepted


def test_non_codes_are_refused() -> None:
    s = new()
    for bad in ("W1", None, -3, 2.5):
        with pytest.raises(IllegalActionError):
            s.apply_action(bad)  # type: ignore[arg-type]


def test_refusals_say_why() -> None:
    s = new()
    mark(s, 0, "P:P", 5)
    s.sheets[0].gcount = 4
    roll(s, "W2 Y1 B3 G4 O1 P3")
    cases = {
        "G:Y.r2c2": "only white is wild",
        "P:P": "purple needs more than 5",
        "G:G": "needs at least 5",
        "B:B.r2c4": r"blue \+ white = 5, but blue r2c4 is 8",
        "W:Y.r1c1": "needs a 3",
    }
    for move, words in cases.items():
        before = snapshot(s)
        with pytest.raises(IllegalActionError, match=words):
            do(s, move)
        assert snapshot(s) == before
    mark(s, 0, "Y:Y.r2c2")
    s._legal = None
    with pytest.raises(IllegalActionError, match="already crossed"):
        do(s, "Y:Y.r2c2")
