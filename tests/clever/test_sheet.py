"""Every printed number of the sheet against an independent copy of the digest's tables."""

from __future__ import annotations

from dicehall.clever import sheet as S
from dicehall.clever.tables import B_BY_SUM, B_POINTS, Y_BY_VALUE, Y_PRINTED

# Copied by hand from shared/rules/clever.md ("X" = printed cross, "--" = no cell).
DIGEST_YELLOW = [
    ["3", "6", "5", "X"],
    ["2", "1", "X", "5"],
    ["1", "X", "2", "4"],
    ["X", "3", "4", "6"],
]
DIGEST_YELLOW_ROWS = ["blue X", "orange 4", "green X", "fox"]
DIGEST_YELLOW_COLUMNS = [10, 14, 16, 20]
DIGEST_YELLOW_DIAGONAL = ([3, 1, 2, 6], "+1")
DIGEST_BLUE = [
    ["--", "2", "3", "4"],
    ["5", "6", "7", "8"],
    ["9", "10", "11", "12"],
]
DIGEST_BLUE_ROWS = ["orange 5", "yellow X", "fox"]
DIGEST_BLUE_COLUMNS = ["re-roll", "green X", "purple 6", "+1"]
DIGEST_BLUE_POINTS = [1, 2, 4, 7, 11, 16, 22, 29, 37, 46, 56]
DIGEST_GREEN_MIN = [1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 6]
DIGEST_GREEN_POINTS = [1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66]
DIGEST_GREEN_BONUS = ["–", "–", "–", "+1", "–", "blue X", "fox", "–", "purple 6", "re-roll", "–"]
DIGEST_ORANGE_MULT = ["", "", "", "×2", "", "", "×2", "", "×2", "", "×3"]
DIGEST_ORANGE_BONUS = ["–", "–", "re-roll", "–", "yellow X", "+1", "–", "fox", "–", "purple 6", "–"]
DIGEST_PURPLE_BONUS = [
    "–",
    "–",
    "re-roll",
    "blue X",
    "+1",
    "yellow X",
    "fox",
    "re-roll",
    "green X",
    "orange 6",
    "+1",
]
DIGEST_ROUND_TRACK = ["re-roll", "+1", "re-roll", "choose: black X or black 6", "–", "–"]
DIGEST_ROUNDS = {4: 4, 3: 5, 2: 6, 1: 6}
DIGEST_RATINGS = [
    (281, None, "You are the cleverest!"),
    (260, 280, "Are you Einstein?"),
    (240, 259, "A true genius!"),
    (220, 239, "Impressive!"),
    (200, 219, "Hats off!"),
    (180, 199, "Great result!"),
    (160, 179, "Very good"),
    (140, 159, "Not bad, you could do better"),
    (None, 139, "Think again!"),
]


def name(b: int | None) -> str:
    return "–" if b is None else S.BONUS_NAMES[b]


def test_yellow_grid_numbers_and_printed_crosses() -> None:
    for r in range(4):
        for c in range(4):
            printed = (r, c) in S.YELLOW_AREA.printed
            assert printed == bool(Y_PRINTED >> (r * 4 + c) & 1)
            want = DIGEST_YELLOW[r][c]
            got = "X" if printed else str(S.YELLOW_AREA.values[r][c])
            assert got == want, (r, c)


def test_yellow_groups() -> None:
    assert [name(b) for b in S.YELLOW_AREA.row_bonuses] == DIGEST_YELLOW_ROWS
    assert list(S.YELLOW_AREA.column_points or ()) == DIGEST_YELLOW_COLUMNS
    assert all(b is None for b in S.YELLOW_AREA.column_bonuses)
    ((cells, bonus),) = S.YELLOW_AREA.diagonals
    assert [S.YELLOW_AREA.values[r][c] for r, c in cells] == DIGEST_YELLOW_DIAGONAL[0]
    assert name(bonus) == DIGEST_YELLOW_DIAGONAL[1]
    # each value 1–6 appears exactly twice
    assert [len(Y_BY_VALUE[v]) for v in range(1, 7)] == [2] * 6


def test_blue_grid_and_points() -> None:
    for r in range(3):
        for c in range(4):
            v = S.BLUE_AREA.values[r][c]
            assert ("--" if v is None else str(v)) == DIGEST_BLUE[r][c]
    assert [name(b) for b in S.BLUE_AREA.row_bonuses] == DIGEST_BLUE_ROWS
    assert [name(b) for b in S.BLUE_AREA.column_bonuses] == DIGEST_BLUE_COLUMNS
    assert list(S.BLUE_AREA.count_points or ()) == DIGEST_BLUE_POINTS
    assert list(B_POINTS) == [0, *DIGEST_BLUE_POINTS]
    assert all(B_BY_SUM[s] >= 1 for s in range(2, 13))  # every sum 2–12 has exactly one cell


def test_green_orange_purple_tracks() -> None:
    assert list(S.GREEN_AREA.minimums) == DIGEST_GREEN_MIN
    assert list(S.GREEN_AREA.points) == DIGEST_GREEN_POINTS
    assert [name(b) for b in S.GREEN_AREA.bonuses] == DIGEST_GREEN_BONUS
    assert [f"×{m}" if m > 1 else "" for m in S.ORANGE_AREA.multipliers] == DIGEST_ORANGE_MULT
    assert [name(b) for b in S.ORANGE_AREA.bonuses] == DIGEST_ORANGE_BONUS
    assert [name(b) for b in S.PURPLE_AREA.bonuses] == DIGEST_PURPLE_BONUS
    assert S.PURPLE_AREA.length == 11 and S.PURPLE_AREA.reset == 6


def test_round_track_and_rounds() -> None:
    got = ["choose: black X or black 6" if b == S.BLACK else name(b) for b in S.ROUND_BONUSES]
    assert got == DIGEST_ROUND_TRACK
    assert DIGEST_ROUNDS == S.ROUNDS_BY_PLAYERS


def test_action_bars_have_seven_sources_each_and_five_foxes() -> None:
    assert S.ACTION_CIRCLES == 7
    assert S.action_sources(S.REROLL) == 7
    assert S.action_sources(S.PLUS_ONE) == 7
    assert S.fox_sources() == ["yellow row 4", "blue row 3", "green cell 7", "orange cell 8", "purple cell 7"]


def test_solo_rating_table() -> None:
    for low, high, text in DIGEST_RATINGS:
        if low is not None:
            assert S.solo_rating(low) == text
        if high is not None:
            assert S.solo_rating(high) == text
    assert S.solo_rating(0) == "Think again!"
    assert S.solo_rating(624) == "You are the cleverest!"


def test_maximum_area_points() -> None:
    assert S.max_area_points() == 344
