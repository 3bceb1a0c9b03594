"""Bitmask tables the engine uses, computed once from the sheet data in :mod:`dicehall.clever.sheet`."""

from __future__ import annotations

from dicehall.clever import sheet as S

Origin = tuple[str, int]
"""Where a bonus comes from: a place and its number counted from 1 (``("yellow_row", 3)``, ``("green", 7)``,
``("round", 4)``); the place is also the message id's last part (``clever.origin.yellow_row``)."""


def popcount(x: int) -> int:
    return x.bit_count()


def _grid_groups(
    grid: S.CrossGrid,
) -> tuple[list[list[tuple[int, int, Origin]]], list[int], list[int], int]:
    """Per slot (r * cols + c): the (group mask, bonus, origin) it belongs to, rows then columns then diagonals.

    Also returns the row masks, the column masks and the printed-cross mask.
    """
    cols = grid.cols
    slots = grid.rows * cols
    cells = set(grid.cells())

    def mask_of(pairs: list[tuple[int, int]]) -> int:
        m = 0
        for r, c in pairs:
            if (r, c) in cells:
                m |= 1 << (r * cols + c)
        return m

    rows = [mask_of([(r, c) for c in range(cols)]) for r in range(grid.rows)]
    columns = [mask_of([(r, c) for r in range(grid.rows)]) for c in range(cols)]
    printed = mask_of(sorted(grid.printed))
    groups: list[list[tuple[int, int, Origin]]] = [[] for _ in range(slots)]
    named: list[tuple[int, int | None, Origin]] = [
        (m, b, (f"{grid.name}_row", i + 1))
        for i, (m, b) in enumerate(zip(rows, grid.row_bonuses, strict=True))
    ]
    named += [
        (m, b, (f"{grid.name}_column", i + 1))
        for i, (m, b) in enumerate(zip(columns, grid.column_bonuses, strict=True))
    ]
    named += [
        (mask_of(list(cells_)), b, (f"{grid.name}_diagonal", i + 1))
        for i, (cells_, b) in enumerate(grid.diagonals)
    ]
    for mask, bonus, origin in named:
        if bonus is None:
            continue
        for slot in range(slots):
            if mask >> slot & 1:
                groups[slot].append((mask, bonus, origin))
    return groups, rows, columns, printed


_yg, Y_ROWS, Y_COLS, Y_PRINTED = _grid_groups(S.YELLOW_AREA)
Y_CELL_GROUPS: tuple[tuple[tuple[int, int, Origin], ...], ...] = tuple(tuple(g) for g in _yg)
Y_VALUES: tuple[int, ...] = tuple(v or 0 for row in S.YELLOW_AREA.values for v in row)
Y_BY_VALUE: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i, x in enumerate(Y_VALUES) if x == v and not Y_PRINTED >> i & 1) for v in range(7)
)
Y_COL_POINTS: tuple[tuple[int, int], ...] = tuple(zip(Y_COLS, S.YELLOW_AREA.column_points or (), strict=True))
Y_DIAGONALS: tuple[int, ...] = tuple(
    sum(1 << (r * S.YELLOW_AREA.cols + c) for r, c in cells) for cells, _ in S.YELLOW_AREA.diagonals
)

_bg, B_ROWS, B_COLS, _ = _grid_groups(S.BLUE_AREA)
B_CELL_GROUPS: tuple[tuple[tuple[int, int, Origin], ...], ...] = tuple(tuple(g) for g in _bg)
B_VALUES: tuple[int, ...] = tuple(v or 0 for row in S.BLUE_AREA.values for v in row)
B_BY_SUM: tuple[int, ...] = tuple(B_VALUES.index(s) if s in B_VALUES and s else -1 for s in range(13))
B_POINTS: tuple[int, ...] = (0, *(S.BLUE_AREA.count_points or ()))

G_MIN = S.GREEN_AREA.minimums
G_POINTS: tuple[int, ...] = (0, *S.GREEN_AREA.points)
G_BONUS: tuple[int, ...] = tuple(b or 0 for b in S.GREEN_AREA.bonuses)
O_MULT = S.ORANGE_AREA.multipliers
O_BONUS: tuple[int, ...] = tuple(b or 0 for b in S.ORANGE_AREA.bonuses)
P_BONUS: tuple[int, ...] = tuple(b or 0 for b in S.PURPLE_AREA.bonuses)
G_ORIGIN: tuple[Origin, ...] = tuple(("green", i + 1) for i in range(len(G_BONUS)))
O_ORIGIN: tuple[Origin, ...] = tuple(("orange", i + 1) for i in range(len(O_BONUS)))
P_ORIGIN: tuple[Origin, ...] = tuple(("purple", i + 1) for i in range(len(P_BONUS)))
ROUND_ORIGIN: tuple[Origin, ...] = tuple(("round", i + 1) for i in range(len(S.ROUND_BONUSES)))
ORIGIN_PLACES: tuple[str, ...] = tuple(
    sorted(
        {o[0] for groups in (*Y_CELL_GROUPS, *B_CELL_GROUPS) for _, _, o in groups}
        | {"green", "orange", "purple", "round"}
    )
)
"""Every place a bonus can come from (each has its message ``clever.origin.<place>``)."""


def yellow_label(cell: int) -> str:
    return f"r{cell // 4 + 1}c{cell % 4 + 1}"


def blue_label(slot: int) -> str:
    return f"r{slot // 4 + 1}c{slot % 4 + 1}"
