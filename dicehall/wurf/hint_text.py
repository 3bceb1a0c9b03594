"""The Wurf hint map in the terminal: a small text heat map (north at the top, as the board is drawn) that fits 80
columns, its scale in words, and the best throw marked."""

from __future__ import annotations

from dicehall.i18n import current, tr
from dicehall.wurf.actions import COLS, cell_of
from dicehall.wurf.hints import TIE, ThrowMap

SHADES = ".:-=+*#%@"
"""From the lowest value of the map to the highest: the shade of each aim point."""
BEST = "B"
DIE = "o"


def _shade(value: float, low: float, high: float) -> str:
    if high - low < TIE:
        return SHADES[len(SHADES) // 2]  # all equal: one middle shade
    k = int((value - low) / (high - low) * (len(SHADES) - 1) + 0.5)
    return SHADES[max(0, min(len(SHADES) - 1, k))]


def map_lines(m: ThrowMap, dice: list[tuple[float, float]]) -> list[str]:
    """The map as lines: each aim point two characters wide, ``B`` at the best throw, ``o`` where a die lies, the
    a–e columns under it and 5–1 rows beside it (the notation's cells), then the scale."""
    t = current()
    low, high = m.low, max(m.best_value, max((v for row in m.values for v in row), default=m.best_value))
    step = m.step
    best = (min(m.grid - 1, int(m.best.x // step)), min(m.grid - 1, int(m.best.y // step)))
    occupied = {(min(m.grid - 1, int(x // step)), min(m.grid - 1, int(y // step))) for x, y in dice}
    per_cell = max(1, m.grid // len(COLS))
    lines = []
    for row in reversed(range(m.grid)):
        label = str(row // per_cell + 1) if row % per_cell == per_cell - 1 else " "
        cells = []
        for col in range(m.grid):
            mark = (
                BEST
                if (col, row) == best
                else DIE
                if (col, row) in occupied
                else _shade(m.values[row][col], low, high)
            )
            cells.append(mark * 2)
        lines.append(f" {label} |{''.join(cells)}|")
    ruler = "".join(c.center(2 * per_cell) for c in COLS)
    lines.append(f"    {ruler}")
    if high - low < TIE:  # a flat map says so rather than showing a range of one value
        return [*lines, tr("wurf.hint.flat")]
    lines.append(
        tr(
            "wurf.hint.map_scale",
            low=t.fixed(low, 2),
            high=t.fixed(high, 2),
            shades=SHADES,
            best=BEST,
            die=DIE,
        )
    )
    return lines


def best_line(m: ThrowMap) -> str:
    t = current()
    return tr(
        "wurf.hint.best_line",
        cell=cell_of(m.best.x, m.best.y),
        x=t.fixed(m.best.x, 0),
        y=t.fixed(m.best.y, 0),
        power=t.fixed(m.best.power, 2),
        value=t.fixed(m.best_value, 2),
    )
