"""The checks listed at the end of the digest (shared/rules/clever.md), one test each."""

from __future__ import annotations

import pytest

from dicehall.clever.state import PH_PLUS
from dicehall.core.errors import IllegalActionError

from .helpers import die, do, legal, mark, new, roll, snapshot


def test_orange_5_2_3_12_scores_22() -> None:
    s = new()
    for v in (5, 2, 3, 6):  # the 12 of the rulebook picture is a 6 on the ×2 cell
        mark(s, 0, "O:O", v)
    assert s.sheets[0].ovals == (5, 2, 3, 12)
    assert s.sheets[0].area_scores()[3] == 22


def test_orange_4_on_a_times_2_cell_is_written_8() -> None:
    s = new()
    for v in (1, 1, 1, 4):
        mark(s, 0, "O:O", v)
    assert s.sheets[0].ovals[3] == 8


def test_purple_2_5_6_3_scores_16() -> None:
    s = new()
    for v in (2, 5, 6, 3):
        mark(s, 0, "P:P", v)
    assert s.sheets[0].pvals == (2, 5, 6, 3)
    assert s.sheets[0].area_scores()[4] == 16


@pytest.mark.parametrize(("crosses", "points"), [(4, 7), (9, 37)])
def test_blue_points_by_crosses(crosses: int, points: int) -> None:
    s = new()
    labels = ["r1c2", "r1c3", "r1c4", "r2c1", "r2c2", "r2c3", "r2c4", "r3c1", "r3c2"]
    for lab in labels[:crosses]:
        mark(s, 0, f"B:B.{lab}")
        while s.choice_pending:  # row bonuses may ask for a cell; take the first offered
            s.apply_action(s.legal_actions()[0])
    assert s.sheets[0].bmask.bit_count() == crosses
    assert s.sheets[0].area_scores()[1] == points


def test_fox_is_worth_the_lowest_area() -> None:
    s = new()
    sh = s.sheets[0]
    sh.foxes = 2
    # yellow 10 (column 1), blue 5 crosses = 11, green 3 cells = 6, orange 5, purple 5
    for lab in ("r1c1", "r2c1", "r3c1"):
        mark(s, 0, f"Y:Y.{lab}")
    for lab in ("r1c2", "r1c3", "r2c1", "r2c2", "r3c4"):  # no row or column complete
        mark(s, 0, f"B:B.{lab}")
    for _ in range(3):
        mark(s, 0, "G:G", 6)
    mark(s, 0, "O:O", 5)
    mark(s, 0, "P:P", 5)
    assert sh.area_scores() == [10, 11, 6, 5, 5]
    assert sh.fox_points() == 2 * 5
    assert sh.total() == 37 + 10


def test_foxes_are_worth_nothing_when_an_area_scores_zero() -> None:
    s = new()
    sh = s.sheets[0]
    sh.foxes = 3
    mark(s, 0, "O:O", 6)
    mark(s, 0, "P:P", 6)
    assert sh.area_scores()[0] == 0
    assert sh.fox_points() == 0
    assert sh.total() == 12


def test_rulebook_example_turn() -> None:
    s = new()
    roll(s, "W5 Y1 B6 G6 O4 P3")
    do(s, "P:P")  # purple 3; the lower yellow 1 goes to the platter
    assert s.platter == 1 << die("Y")
    assert s.field == (die("P"),)
    assert s.roll_mask.bit_count() == 4  # she rolls the remaining four dice
    roll(s, "W4 B2 G1 O5")
    do(s, "W:P")  # white 4 as purple (4 > 3); blue 2 and green 1 go to the platter
    assert s.sheets[0].pvals == (3, 4)
    assert s.platter == (1 << die("Y")) | (1 << die("B")) | (1 << die("G"))
    assert s.roll_mask == 1 << die("O")  # only the orange die is left for the third roll
    roll(s, "O3")
    do(s, "O:O")
    assert s.sheets[0].ovals == (3,)
    assert s.field == (die("P"), die("W"), die("O"))
    assert s.roll_mask == 0


def test_rulebook_plus_one_example() -> None:
    s = new()
    s.sheets[0].p1_gain = 2  # Polina holds two +1 actions (round 1 gave a re-roll)
    roll(s, "W4 Y6 B3 G6 O6 P6")
    do(s, "G:G")  # W4 and B3 go to the platter
    roll(s, "Y6 O6 P6")
    do(s, "O:O")
    roll(s, "Y6 P6")
    do(s, "P:P")
    assert s.phase == PH_PLUS and s.actor == 0
    do(s, "+1 W:Y.r3c4")  # white 4 as yellow 4
    assert s.sheets[0].ymask >> 11 & 1
    before = snapshot(s)
    with pytest.raises(IllegalActionError, match="already taken by \\+1") as err:
        do(s, "+1 W:B.r2c3")
    assert err.value.rule == "plus-one"
    assert snapshot(s) == before
    assert "+1 B:B.r2c3" in legal(s)
    do(s, "+1 B:B.r2c3")  # blue 3 + white 4 = 7
    assert s.sheets[0].bmask >> 6 & 1
    assert s.sheets[0].plus_ones == 0


def test_theoretical_maximum_is_624() -> None:
    s = new()
    sh = s.sheets[0]
    sh.ymask = (1 << 16) - 1
    sh.bmask = ((1 << 12) - 1) & ~1
    sh.gcount = 11
    sh.ovals = tuple(6 * m for m in (1, 1, 1, 2, 1, 1, 2, 1, 2, 1, 3))
    sh.osum = sum(sh.ovals)
    sh.pvals = (6,) * 11
    sh.psum = 66
    sh.foxes = 5
    assert sh.area_scores() == [60, 56, 66, 96, 66]
    assert sum(sh.area_scores()) == 344
    assert sh.total() == 624
