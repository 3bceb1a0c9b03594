"""Tables that fit the terminal: a value is never cut. Left alone, rich shortens what does not fit to ``…``
(``accur…``, ``+27.…``, ``bot:gree…``) because it narrows the widest columns below their longest word. :func:`fit`
gives each column at least its longest word (a number, a name) and shares out the rest, so text wraps between
words only; when even the longest words do not fit, it draws lighter borders, then leaves out the columns the
table names as the first to go."""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.console import Console
from rich.table import Table


def _ranges(table: Table, console: Console, width: int) -> list[tuple[int, int]]:
    options = console.options.update_width(width)
    out = []
    for column in table.columns:
        m = table._measure_column(console, options, column)  # (longest word, whole line), padding included
        out.append(
            (m.maximum if column.no_wrap else m.minimum, m.maximum)
        )  # a no_wrap column keeps its lines
    return out


def narrowest(table: Table, console: Console, width: int) -> int:
    """The fewest columns of the screen ``table`` can be drawn in without breaking a word."""
    return sum(lo for lo, _ in _ranges(table, console, width)) + table._extra_width


def fit(table: Table, console: Console, drop: Sequence[str] = (), width: int | None = None) -> Table:
    """``table`` made to fit ``width`` (default: the console's) without cutting a value: every column at least
    as wide as its longest word; if those are too wide together, no vertical borders; then the columns headed
    ``drop`` go, in that order."""
    width = width or console.width
    for column in table.columns:
        column.overflow = "fold"  # the last resort (a word wider than the terminal) breaks, never "…"
    if narrowest(table, console, width) > width:
        table.box = box.SIMPLE_HEAD
        table.show_edge = False
        table.pad_edge = False
    for header in drop:
        if narrowest(table, console, width) <= width:
            break
        table.columns[:] = [c for c in table.columns if str(c.header) != header]
        for index, column in enumerate(table.columns):
            column._index = index
    ranges = _ranges(table, console, width)
    room = width - table._extra_width
    if sum(hi for _, hi in ranges) <= room:
        return table  # fits as it is
    widths = [lo for lo, _ in ranges]
    spare = room - sum(widths)
    wants = [hi - lo for lo, hi in ranges]
    total = sum(wants)
    if spare > 0 and total:
        for i, want in enumerate(wants):
            widths[i] += want * spare // total
    for column, w, index in zip(table.columns, widths, range(len(widths)), strict=True):
        column.width = max(1, w - table._get_padding_width(index))
    return table
