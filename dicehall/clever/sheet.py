"""The Ganz schön clever score sheet as data (digest: shared/rules/clever.md).

The sheet is built from four area kinds — a cross grid (yellow, blue), a threshold track (green), a write track
with multipliers (orange) and an ascending track (purple) — plus the action bars, the foxes and the round track.
The engine (``state.py``) precomputes its bitmask tables from these objects, never from literals of its own.
"""

from __future__ import annotations

import dataclasses

# Dice, in the order the engine and the notation use.
WHITE, YELLOW, BLUE, GREEN, ORANGE, PURPLE = range(6)
DICE = (WHITE, YELLOW, BLUE, GREEN, ORANGE, PURPLE)
DIE_NAMES = ("white", "yellow", "blue", "green", "orange", "purple")
DIE_LETTERS = ("W", "Y", "B", "G", "O", "P")

# Areas (white is no area).
AREA_YELLOW, AREA_BLUE, AREA_GREEN, AREA_ORANGE, AREA_PURPLE = range(5)
AREAS = (AREA_YELLOW, AREA_BLUE, AREA_GREEN, AREA_ORANGE, AREA_PURPLE)
AREA_NAMES = ("yellow", "blue", "green", "orange", "purple")
AREA_LETTERS = ("Y", "B", "G", "O", "P")
AREA_OF_DIE = {
    YELLOW: AREA_YELLOW,
    BLUE: AREA_BLUE,
    GREEN: AREA_GREEN,
    ORANGE: AREA_ORANGE,
    PURPLE: AREA_PURPLE,
}

# Bonus kinds.
YELLOW_X, BLUE_X, GREEN_X, ORANGE_4, ORANGE_5, ORANGE_6, PURPLE_6, REROLL, PLUS_ONE, FOX, BLACK = range(1, 12)
BONUS_NAMES = {
    YELLOW_X: "yellow X",
    BLUE_X: "blue X",
    GREEN_X: "green X",
    ORANGE_4: "orange 4",
    ORANGE_5: "orange 5",
    ORANGE_6: "orange 6",
    PURPLE_6: "purple 6",
    REROLL: "re-roll",
    PLUS_ONE: "+1",
    FOX: "fox",
    BLACK: "black X or black 6",
}
BONUS_SHORT = {
    YELLOW_X: "Y✗",
    BLUE_X: "B✗",
    GREEN_X: "G✗",
    ORANGE_4: "O4",
    ORANGE_5: "O5",
    ORANGE_6: "O6",
    PURPLE_6: "P6",
    REROLL: "↻",
    PLUS_ONE: "+1",
    FOX: "🦊",
    BLACK: "X/6",
}
ORANGE_NUMBER = {ORANGE_4: 4, ORANGE_5: 5, ORANGE_6: 6}


@dataclasses.dataclass(frozen=True)
class CrossGrid:
    """A grid of numbered cells crossed in any order; rows/columns/diagonals pay when complete.

    ``values[r][c]`` is the number printed in a cell, ``None`` where there is no cell; ``printed`` lists cells
    that start crossed. A column pays ``column_points`` at the end (if given) and/or ``column_bonuses`` at once.
    The area scores either by complete columns or by ``count_points[number of crosses - 1]``.
    """

    name: str
    values: tuple[tuple[int | None, ...], ...]
    printed: frozenset[tuple[int, int]]
    row_bonuses: tuple[int | None, ...]
    column_bonuses: tuple[int | None, ...]
    column_points: tuple[int, ...] | None
    diagonals: tuple[tuple[tuple[tuple[int, int], ...], int], ...]
    count_points: tuple[int, ...] | None
    partner_sum: bool  # True: the entered number is blue + white

    @property
    def rows(self) -> int:
        return len(self.values)

    @property
    def cols(self) -> int:
        return len(self.values[0])

    def cells(self) -> list[tuple[int, int]]:
        return [(r, c) for r in range(self.rows) for c in range(self.cols) if self.values[r][c] is not None]


@dataclasses.dataclass(frozen=True)
class ThresholdTrack:
    """Cells crossed left to right; the die must reach each cell's minimum; scores by the last crossed cell."""

    name: str
    minimums: tuple[int, ...]
    points: tuple[int, ...]
    bonuses: tuple[int | None, ...]


@dataclasses.dataclass(frozen=True)
class WriteTrack:
    """Values written left to right; some cells multiply the value; scores the sum of the stored values."""

    name: str
    multipliers: tuple[int, ...]
    bonuses: tuple[int | None, ...]


@dataclasses.dataclass(frozen=True)
class AscendingTrack:
    """Values written left to right, each strictly above the previous, except that anything follows ``reset``."""

    name: str
    length: int
    reset: int
    bonuses: tuple[int | None, ...]


# 0 marks a printed cross (a cell that starts crossed and shows no number).
YELLOW_AREA = CrossGrid(
    name="yellow",
    values=((3, 6, 5, 0), (2, 1, 0, 5), (1, 0, 2, 4), (0, 3, 4, 6)),
    printed=frozenset({(0, 3), (1, 2), (2, 1), (3, 0)}),
    row_bonuses=(BLUE_X, ORANGE_4, GREEN_X, FOX),
    column_bonuses=(None, None, None, None),
    column_points=(10, 14, 16, 20),
    diagonals=((((0, 0), (1, 1), (2, 2), (3, 3)), PLUS_ONE),),
    count_points=None,
    partner_sum=False,
)

BLUE_AREA = CrossGrid(
    name="blue",
    values=((None, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12)),
    printed=frozenset(),
    row_bonuses=(ORANGE_5, YELLOW_X, FOX),
    column_bonuses=(REROLL, GREEN_X, PURPLE_6, PLUS_ONE),
    column_points=None,
    diagonals=(),
    count_points=(1, 2, 4, 7, 11, 16, 22, 29, 37, 46, 56),
    partner_sum=True,
)

GREEN_AREA = ThresholdTrack(
    name="green",
    minimums=(1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 6),
    points=(1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66),
    bonuses=(None, None, None, PLUS_ONE, None, BLUE_X, FOX, None, PURPLE_6, REROLL, None),
)

ORANGE_AREA = WriteTrack(
    name="orange",
    multipliers=(1, 1, 1, 2, 1, 1, 2, 1, 2, 1, 3),
    bonuses=(None, None, REROLL, None, YELLOW_X, PLUS_ONE, None, FOX, None, PURPLE_6, None),
)

PURPLE_AREA = AscendingTrack(
    name="purple",
    length=11,
    reset=6,
    bonuses=(None, None, REROLL, BLUE_X, PLUS_ONE, YELLOW_X, FOX, REROLL, GREEN_X, ORANGE_6, PLUS_ONE),
)

ACTION_CIRCLES = 7
"""Each action bar (re-roll, +1) has seven circles."""

ROUND_BONUSES: tuple[int | None, ...] = (REROLL, PLUS_ONE, REROLL, BLACK, None, None)
"""What every player takes at the start of rounds 1–6 (round 4: black X or black 6)."""

ROUNDS_BY_PLAYERS = {1: 6, 2: 6, 3: 5, 4: 4}

SOLO_RATINGS: tuple[tuple[int, str], ...] = (
    (281, "You are the cleverest!"),
    (260, "Are you Einstein?"),
    (240, "A true genius!"),
    (220, "Impressive!"),
    (200, "Hats off!"),
    (180, "Great result!"),
    (160, "Very good"),
    (140, "Not bad, you could do better"),
    (-(10**9), "Think again!"),
)
"""(lowest score, rating), best first — the solo rating table."""


def solo_rating(points: int) -> str:
    for low, text in SOLO_RATINGS:
        if points >= low:
            return text
    return SOLO_RATINGS[-1][1]


def yellow_cell_value(r: int, c: int) -> int | None:
    """The printed number of a yellow cell; None for a printed cross."""
    if (r, c) in YELLOW_AREA.printed:
        return None
    return YELLOW_AREA.values[r][c]


def fox_sources() -> list[str]:
    """Where foxes come from (for the docs and the check that there are five)."""
    out = []
    for grid in (YELLOW_AREA, BLUE_AREA):
        out += [f"{grid.name} row {i + 1}" for i, b in enumerate(grid.row_bonuses) if b == FOX]
        out += [f"{grid.name} column {i + 1}" for i, b in enumerate(grid.column_bonuses) if b == FOX]
    for track in (GREEN_AREA, ORANGE_AREA, PURPLE_AREA):
        out += [f"{track.name} cell {i + 1}" for i, b in enumerate(track.bonuses) if b == FOX]
    return out


def action_sources(kind: int) -> int:
    """How many places on the sheet and round track give ``kind`` (re-roll or +1)."""
    n = sum(1 for b in ROUND_BONUSES if b == kind)
    for grid in (YELLOW_AREA, BLUE_AREA):
        n += sum(1 for b in grid.row_bonuses if b == kind)
        n += sum(1 for b in grid.column_bonuses if b == kind)
        n += sum(1 for _, b in grid.diagonals if b == kind)
    for track in (GREEN_AREA, ORANGE_AREA, PURPLE_AREA):
        n += sum(1 for b in track.bonuses if b == kind)
    return n


def max_area_points() -> int:
    """The highest possible sum of the five areas (344 per the digest)."""
    yellow = sum(YELLOW_AREA.column_points or ())
    blue = (BLUE_AREA.count_points or (0,))[-1]
    green = GREEN_AREA.points[-1]
    orange = 6 * sum(ORANGE_AREA.multipliers)
    purple = PURPLE_AREA.reset * PURPLE_AREA.length
    return yellow + blue + green + orange + purple
