"""The optimal policy in words a player can use: banking thresholds read from a solved table.

A threshold is the smallest turn total from which the mover banks with ``n`` dice in hand ("with 2 dice, bank
from 300 on; below, roll"). Optimal play need not be a pure threshold (the dump truck, a pit's edge or an
opponent just ahead make some totals worse than smaller ones); where it rolls again above its threshold, the
line says so.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from dicehall.i18n import Translator, current
from dicehall.thousand.dp import STEP
from dicehall.thousand.solver.policy import TurnValues
from dicehall.thousand.solver.space import PlayerState, Space


def bank_from(tv: TurnValues, dice: int) -> tuple[int | None, bool]:
    """(the smallest turn total at which banking with ``dice`` in hand is optimal or None, whether it rolls
    again at some larger total)."""
    first = None
    rolls_above = False
    for ti in range(tv.top + 1):
        total = ti * STEP
        if tv.bank(total) is None:
            continue
        roll = tv.should_roll(total, dice)
        if first is None and not roll:
            first = total
        elif first is not None and roll:
            rolls_above = True
    return first, rolls_above


def _index(space: Space, score: int, opened: bool = True) -> int | None:
    return space.index.get(space.canonical(PlayerState(score, opened)))


def thresholds_for(
    space: Space, values: npt.NDArray[np.floating], own: PlayerState, other: PlayerState
) -> dict[str, Any]:
    m = space.index[space.canonical(own)]
    o = space.index[space.canonical(other)]
    tv = TurnValues(space, values, m, o)
    row: dict[str, Any] = {"own": own.score, "opponent": other.score, "win": tv.start()}
    for n in range(1, 6):
        first, above = bank_from(tv, n)
        row[f"dice{n}"] = first
        row[f"dice{n}_not_threshold"] = above
    return row


def policy_table(space: Space, values: npt.NDArray[np.floating]) -> list[dict[str, Any]]:
    """Thresholds for opened players without bolts or falls at a grid of scores, and for the opening turn."""
    rows = []
    start = PlayerState(0, False)
    rows.append(thresholds_for(space, values, start, start))
    top = int(space.scores.max())
    step = 100 if top >= 800 else max(STEP, round(top / 8 / STEP) * STEP)  # about 9 scores a side
    grid = [s for s in range(0, top + 1, step) if _index(space, s) is not None]
    for own in grid:
        for other in grid:
            rows.append(thresholds_for(space, values, PlayerState(own, True), PlayerState(other, True)))
    return rows


def policy_words(space: Space, values: npt.NDArray[np.floating], t: Translator | None = None) -> list[str]:
    """The optimal policy as sentences in ``t``'s language (the current one by default): the opening turn, then
    banking thresholds by own and opponent's score."""
    t = t or current()
    rows = policy_table(space, values)

    def fmt(row: dict[str, Any]) -> str:
        parts = []
        for n in range(5, 0, -1):
            first = row[f"dice{n}"]
            said = t("solve.thousand.policy.never") if first is None else t.number(first)
            mark = "*" if row[f"dice{n}_not_threshold"] else ""
            parts.append(f"{n}: {said}{mark}")
        return ", ".join(parts)

    opening = rows[0]
    out = [
        t(
            "solve.thousand.policy.opening",
            need=t.number(space.rules.open_min),
            thresholds=fmt(opening),
            win=t.fixed(opening["win"], 4),
        ),
        t("solve.thousand.policy.opened"),
    ]
    for row in rows[1:]:
        own, other = t.number(row["own"]), t.number(row["opponent"])
        line = t("solve.thousand.policy.row", own=f"{own:>4}", opponent=f"{other:>4}", thresholds=fmt(row))
        out.append(f"  {line}  ({t('solve.thousand.policy.win', win=t.fixed(row['win'], 3))})")
    return out
