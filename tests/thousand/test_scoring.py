"""Roll scoring against an independent brute-force maximiser written from the digest's table."""

from __future__ import annotations

import itertools
from functools import cache

import pytest

from dicehall.thousand.scoring import CLASSIC_KINDS, YARD_KINDS, combos_of, score_roll
from dicehall.thousand.state import OUTCOMES, keep_options, roll_table

# The digest's tables, typed in again (not imported) so that a wrong entry in scoring.py is caught.
SINGLE = {1: 10, 5: 5}
CLASSIC = {
    3: {1: 100, 2: 20, 3: 30, 4: 40, 5: 50, 6: 60},
    4: {1: 200, 2: 40, 3: 60, 4: 80, 5: 100, 6: 120},
    5: {1: 1000, 2: 200, 3: 300, 4: 400, 5: 500, 6: 600},
}
YARD = {
    3: CLASSIC[3],
    4: {1: 500, 2: 100, 3: 150, 4: 200, 5: 250, 6: 300},
    5: {1: 1000, 2: 200, 3: 300, 4: 400, 5: 500, 6: 600},
}
STRAIGHTS = {(1, 2, 3, 4, 5): 125, (2, 3, 4, 5, 6): 250}


def unit_value(unit: tuple[int, ...], table: dict[int, dict[int, int]]) -> int | None:
    """Points of one scoring unit, or None if these dice do not form one."""
    if len(unit) == 1:
        return SINGLE.get(unit[0])
    if len(unit) == 5 and tuple(sorted(unit)) in STRAIGHTS:
        return STRAIGHTS[tuple(sorted(unit))]
    if len(unit) >= 3 and len(set(unit)) == 1:
        return table[len(unit)][unit[0]]
    return None


def brute_force(dice: tuple[int, ...], table: dict[int, dict[int, int]]) -> tuple[int, set[int]]:
    """Best points over every partition of the dice into scoring units and unused dice.

    Also returns the set of dice counts used by the optimal partitions (to check hot-dice detection).
    """

    @cache
    def best(rest: tuple[int, ...]) -> tuple[int, frozenset[int]]:
        if not rest:
            return 0, frozenset({0})
        first, others = rest[0], rest[1:]
        # the first die stays unused
        pts, used = best(others)
        options = [(pts, used)]
        # or it forms a unit with some of the others
        for size in range(0, len(others) + 1):
            for idx in itertools.combinations(range(len(others)), size):
                unit = (first, *(others[i] for i in idx))
                value = unit_value(unit, table)
                if value is None:
                    continue
                remaining = tuple(d for i, d in enumerate(others) if i not in idx)
                p2, u2 = best(remaining)
                options.append((value + p2, frozenset(u + len(unit) for u in u2)))
        top = max(p for p, _ in options)
        return top, frozenset().union(*(u for p, u in options if p == top))

    pts, used = best(dice)
    return pts, set(used)


@pytest.mark.parametrize(
    ("kinds", "table"), [(CLASSIC_KINDS, CLASSIC), (YARD_KINDS, YARD)], ids=["classic", "yard"]
)
@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_every_ordered_roll_matches_brute_force(
    kinds: tuple[tuple[int, int, int], ...], table: dict[int, dict[int, int]], n: int
) -> None:
    lookup = roll_table(kinds)
    rolls = list(itertools.product(range(1, 7), repeat=n))
    assert len(rolls) == 6**n
    for dice in rolls:
        expected, used_counts = brute_force(dice, table)
        got = score_roll(dice, kinds)
        assert got.points == expected, dice
        assert got.used in used_counts, dice
        # the engine's precomputed lookup agrees and sets aside exactly the scoring dice
        info = lookup[dice]
        assert info.points == expected
        assert sorted(info.kept) == sorted(d for c in got.combos for d in c.dice)
        assert len(info.kept) == got.used
        assert sum(c.points for c in got.combos) == expected


def test_digest_examples() -> None:
    assert score_roll((1, 1, 1, 1, 5)).points == 205
    assert score_roll((5, 5, 5, 5, 1)).points == 110
    assert score_roll((1, 2, 3, 4, 5)).points == 125
    assert score_roll((6, 5, 4, 3, 2)).points == 250
    assert score_roll((1, 5, 3, 3, 4)).points == 15
    assert score_roll((5, 5, 2)).points == 10
    assert score_roll((2, 3, 4, 6, 6)).points == 0
    assert score_roll((4, 4, 4, 2, 2)).points == 40
    # yard table: four 1s = 500, four of v = v*50, five of a kind = v*100 (five 1s 1000)
    assert score_roll((1, 1, 1, 1, 3), YARD_KINDS).points == 500
    assert score_roll((3, 3, 3, 3, 1), YARD_KINDS).points == 160
    assert score_roll((6, 6, 6, 6, 6), YARD_KINDS).points == 600
    assert score_roll((1, 1, 1, 1, 1), YARD_KINDS).points == 1000


def test_combos_of_lists_units() -> None:
    assert sorted(str(c) for c in combos_of((1, 1, 1, 1, 5))) == ["1111", "5"]
    assert [str(c) for c in combos_of((3, 4, 2, 5, 1))] == ["12345"]
    assert [c.kind for c in combos_of((1, 5, 2))] == ["single", "single"]


def test_die_out_of_range_is_refused() -> None:
    with pytest.raises(ValueError, match=r"1\.\.6"):
        score_roll((0, 1, 5))


def test_outcomes_and_keep_options() -> None:
    assert [len(OUTCOMES[k]) for k in range(6)] == [1, 6, 36, 216, 1296, 7776]
    opts = keep_options(combos_of((1, 1, 5, 2, 3)))
    assert opts == {
        "keep 1": (10, (1,)),
        "keep 5": (5, (5,)),
        "keep 1,1": (20, (1, 1)),
        "keep 1,5": (15, (1, 5)),
        "keep 1,1,5": (25, (1, 1, 5)),
    }
    # a straight is one unit: it is kept whole or not at all
    assert list(keep_options(combos_of((1, 2, 3, 4, 5)))) == ["keep 1,2,3,4,5"]
