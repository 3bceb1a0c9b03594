"""Scoring one roll of Dice 1000: always the combination of the roll's dice worth the most points.

>>> score_roll((1, 1, 1, 1, 5)).points
205
>>> score_roll((5, 5, 5, 5, 1)).points
110
>>> score_roll((1, 2, 3, 4, 5)).points
125
>>> score_roll((2, 3, 4, 6, 6)).points
0
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterable
from functools import cache

# kind_points[face][n] for n = 3, 4, 5 dice of a kind (index 0..2); faces 1..6 at index 1..6.
CLASSIC_KINDS: tuple[tuple[int, int, int], ...] = (
    (0, 0, 0),
    (100, 200, 1000),
    (20, 40, 200),
    (30, 60, 300),
    (40, 80, 400),
    (50, 100, 500),
    (60, 120, 600),
)
YARD_KINDS: tuple[tuple[int, int, int], ...] = (
    (0, 0, 0),
    (100, 500, 1000),
    (20, 100, 200),
    (30, 150, 300),
    (40, 200, 400),
    (50, 250, 500),
    (60, 300, 600),
)
SINGLES = (0, 10, 0, 0, 0, 5, 0)
LOW_STRAIGHT = 125
HIGH_STRAIGHT = 250


@dataclasses.dataclass(frozen=True)
class Combo:
    """One scoring unit of a roll: ``kind`` is 'single', 'kind' (n of a kind) or 'straight'."""

    kind: str
    dice: tuple[int, ...]
    points: int

    def __str__(self) -> str:
        return "".join(map(str, self.dice))


@dataclasses.dataclass(frozen=True)
class RollScore:
    """The best scoring of a roll: its points, the dice set aside, and its combinations."""

    points: int
    used: int
    combos: tuple[Combo, ...]

    @property
    def is_zero(self) -> bool:
        return self.points == 0


def combos_of(
    dice: Iterable[int], kinds: tuple[tuple[int, int, int], ...] = CLASSIC_KINDS
) -> tuple[Combo, ...]:
    """The combinations of the best scoring of ``dice`` (any order, 1–5 dice)."""
    return _best(tuple(sorted(dice)), kinds).combos


def score_roll(dice: Iterable[int], kinds: tuple[tuple[int, int, int], ...] = CLASSIC_KINDS) -> RollScore:
    return _best(tuple(sorted(dice)), kinds)


@cache
def _best(dice: tuple[int, ...], kinds: tuple[tuple[int, int, int], ...]) -> RollScore:
    counts = [0] * 7
    for d in dice:
        if not 1 <= d <= 6:
            raise ValueError(f"a die shows 1..6, not {d}")
        counts[d] += 1
    combos: list[Combo] = []
    for face in range(1, 7):
        n = counts[face]
        if n >= 3:
            combos.append(Combo("kind", (face,) * n, kinds[face][n - 3]))
        elif SINGLES[face]:
            combos.extend(Combo("single", (face,), SINGLES[face]) for _ in range(n))
    points = sum(c.points for c in combos)
    if len(dice) == 5:
        for straight, value in (((1, 2, 3, 4, 5), LOW_STRAIGHT), ((2, 3, 4, 5, 6), HIGH_STRAIGHT)):
            if dice == straight and value > points:
                combos, points = [Combo("straight", straight, value)], value
    return RollScore(points, sum(len(c.dice) for c in combos), tuple(combos))


def all_rolls(n: int) -> list[tuple[int, ...]]:
    """Every ordered roll of ``n`` dice (6**n of them)."""
    return list(itertools.product(range(1, 7), repeat=n))
