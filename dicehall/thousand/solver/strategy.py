"""The solved strategy of two-player Dice 1000 as maps: what the strategy page and ``dicehall strategy`` show.

For a grid of own × opponent's scores (players opened; the barrel's score as the last column) and a few
*situations* of the mover (nothing special, one bolt short of the penalty, one fall short of dropping to 0):
the mover's win probability at the start of the turn and, for each number of dice in hand, the banking
threshold — the smallest turn total at which banking is optimal — with a flag where optimal play rolls again
at some larger total (not a pure threshold). The barrel gets its own small map: win chance by attempt and falls.
Everything is read from a solved table (the shipped compact one for classic) through :class:`TurnValues`, the
arithmetic ``bot:optimal`` plays by.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from dicehall.core.errors import DicehallError
from dicehall.i18n.message import Message
from dicehall.thousand.dp import STEP
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver.policy import TurnValues
from dicehall.thousand.solver.solve import Table, find_table
from dicehall.thousand.solver.space import PlayerState

SITUATIONS = ("plain", "bolts", "falls")
"""plain: no bolts or falls; bolts: the mover one bolt short of the penalty; falls: one fall short of 0."""
DEFAULT_STEP = 50
WIN_DIGITS = 4


class StrategyError(DicehallError):
    """The strategy maps were asked of something they cannot show (rules without a table, a bad step)."""


def score_axis(table: Table, step: int) -> list[int]:
    """Scores every ``step`` from 0 below the barrel (or the target), then the barrel's own score."""
    rules = table.space.rules
    if step <= 0 or step % STEP:
        raise StrategyError(Message("strategy.refusal.step", step=step, unit=STEP))
    top = rules.barrel_score if rules.barrel == "score" else rules.target
    out = [s for s in range(0, top, step) if table.space.index.get(PlayerState(s, True)) is not None]
    if rules.barrel == "score":
        out.append(rules.barrel_score)
    return out


def mover_state(rules: ThousandRules, score: int, situation: str) -> PlayerState:
    if situation == "bolts":
        return PlayerState(score, True, bolts=max(rules.bolts_count - 1, 0))
    if situation == "falls":
        return PlayerState(score, True, falls=max(rules.barrel_falls_to_zero - 1, 0))
    if situation != "plain":
        raise StrategyError(Message("strategy.refusal.situation", choices=", ".join(SITUATIONS)))
    return PlayerState(score, True)


def _ranges(totals: list[int]) -> list[list[int]]:
    """[[first, last], ...] of runs of totals a STEP apart."""
    out: list[list[int]] = []
    for t in totals:
        if out and t == out[-1][1] + STEP:
            out[-1][1] = t
        else:
            out.append([t, t])
    return out


def thresholds(
    tv: TurnValues, score: int, dump: int | None
) -> tuple[list[int | None], int, list[list[list[int]]]]:
    """For 1..5 dice in hand: the smallest turn total at which banking is optimal (None: never before the top
    row); a bit mask (bit ``n - 1``) of the dice counts where optimal play rolls again at a larger total other
    than the one landing on the dump truck's score (``score`` is the mover's); and those larger totals where it
    rolls (the dump truck's included), as ranges."""
    bank = tv.B[: tv.top + 1]
    allowed = bank >= 0
    out: list[int | None] = []
    mixed = 0
    rolls_above: list[list[list[int]]] = []
    for n in range(1, 6):
        banks = allowed & ~(tv.C[: tv.top + 1, n] > bank)  # should_roll's rule: ties bank
        if not banks.any():
            out.append(None)
            rolls_above.append([])
            continue
        first = int(np.argmax(banks))
        out.append(first * STEP)
        rolled = [int(t) * STEP for t in np.flatnonzero(allowed & ~banks) if t > first]
        if any(score + t != dump for t in rolled):
            mixed |= 1 << (n - 1)
        rolls_above.append(_ranges(rolled))
    return out, mixed, rolls_above


def cell(
    table: Table, own: PlayerState, other: PlayerState
) -> tuple[float, list[int | None], int, list[list[list[int]]]]:
    """(the mover's win probability at the turn's start, thresholds for 1..5 dice, the not-a-threshold mask,
    the totals above each threshold where optimal play rolls)."""
    space = table.space
    r = space.rules
    tv = TurnValues(
        space, table.values, space.index[space.canonical(own)], space.index[space.canonical(other)]
    )
    bank, mixed, rolls = thresholds(tv, own.score, r.dump_truck_score if r.dump_truck else None)
    return tv.start(), bank, mixed, rolls


def situation_map(table: Table, scores: list[int], situation: str) -> dict[str, Any]:
    rules = table.space.rules
    win, bank, mixed, rolls = [], [], [], []
    for own in scores:
        w_row, b_row, m_row, r_row = [], [], [], []
        for other in scores:
            w, b, m, e = cell(table, mover_state(rules, own, situation), PlayerState(other, True))
            w_row.append(round(w, WIN_DIGITS))
            b_row.append(b)
            m_row.append(m)
            r_row.append(e)
        win.append(w_row)
        bank.append(b_row)
        mixed.append(m_row)
        rolls.append(r_row)
    return {"win": win, "bank": bank, "mixed": mixed, "rolls_above": rolls}


def barrel_map(table: Table, scores: list[int]) -> dict[str, Any] | None:
    """Win chance on the barrel by (attempt, falls so far) × opponent's score; None without attempts."""
    r = table.space.rules
    if r.barrel != "score" or not r.barrel_attempts:
        return None
    rows = [
        {"attempt": a + 1, "falls": f}
        for f in range(max(r.barrel_falls_to_zero, 1))
        for a in range(r.barrel_attempts)
    ]
    win = [
        [
            round(
                cell(
                    table,
                    PlayerState(r.barrel_score, True, 0, row["falls"], row["attempt"] - 1),
                    PlayerState(o, True),
                )[0],
                WIN_DIGITS,
            )
            for o in scores
        ]
        for row in rows
    ]
    return {"rows": rows, "win": win}


def opening_row(table: Table, scores: list[int]) -> dict[str, Any]:
    """The mover who has not opened yet (score 0) against each opponent's score."""
    win, bank, mixed, rolls = [], [], [], []
    for other in scores:
        w, b, m, e = cell(table, PlayerState(0, False), PlayerState(other, True))
        win.append(round(w, WIN_DIGITS))
        bank.append(b)
        mixed.append(m)
        rolls.append(e)
    return {"win": win, "bank": bank, "mixed": mixed, "rolls_above": rolls}


def strategy(
    table: Table, step: int = DEFAULT_STEP, situations: tuple[str, ...] = SITUATIONS
) -> dict[str, Any]:
    """Every map of the strategy page for ``table``'s rules, as plain JSON-able data."""
    r = table.space.rules
    scores = score_axis(table, step)
    return {
        "preset": r.preset,
        "step": step,
        "scores": scores,
        "rules": {
            "target": r.target,
            "open_min": r.open_min,
            "pits": [list(p) for p in r.pits],
            "barrel": r.barrel_score if r.barrel == "score" else None,
            "barrel_attempts": r.barrel_attempts,
            "barrel_fall_penalty": r.barrel_fall_penalty,
            "barrel_falls_to_zero": r.barrel_falls_to_zero,
            "bolts_count": r.bolts_count if r.bolts else 0,
            "bolt_penalty": r.bolt_penalty,
            "dump_truck": r.dump_truck_score if r.dump_truck else None,
            "overtake_penalty": r.overtake_penalty,
        },
        "shipped": table.shipped,
        "max_error": table.max_error,
        "first_player": round(table.value(table.space.start, table.space.start), 6),
        "situations": {s: situation_map(table, scores, s) for s in situations},
        "opening": opening_row(table, scores),
        "on_barrel": barrel_map(table, scores),
    }


def classic_table() -> Table:
    table = find_table(ThousandRules.from_preset("classic"))
    if table is None:  # the package ships classic's table: only a broken install gets here
        raise StrategyError(Message("strategy.refusal.no_table"))
    return table


@functools.cache
def classic_strategy(step: int = DEFAULT_STEP) -> dict[str, Any]:
    """Classic's maps, computed once per process (about a second after the table is loaded)."""
    return strategy(classic_table(), step)
