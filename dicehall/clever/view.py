"""``CleverState.public_view()``: a JSON-able picture of the position for graphical front ends.

Besides the position it carries the sheet's printed layout (from :mod:`dicehall.clever.sheet`), so the browser
draws the sheet from the same data the engine scores by, and every phase, bonus and rating as an id the browser
words in the reader's language (the English ``phase`` and ``legal_descriptions`` are for other clients).
"""

from __future__ import annotations

from typing import Any

from dicehall.clever import sheet as S
from dicehall.clever.reasons import refused
from dicehall.clever.state import (
    AFTER_ACTIVE,
    AFTER_END,
    PH_OVER,
    PH_PASSIVE_PICK,
    PH_PASSIVE_ROLL,
    PH_PICK,
    PH_PLUS,
    PH_ROLL,
    PH_WAIT,
    CleverState,
)
from dicehall.clever.tables import B_VALUES, Y_PRINTED, Y_VALUES, Origin, blue_label, yellow_label
from dicehall.clever.terminal import describe_action
from dicehall.clever.words import BONUS_KEYS
from dicehall.core.game import CHANCE, TERMINAL

STEPS = {
    PH_ROLL: "roll",
    PH_PICK: "pick",
    PH_PLUS: "plus",
    PH_PASSIVE_ROLL: "passive_roll",
    PH_PASSIVE_PICK: "passive_pick",
    PH_OVER: "over",
    PH_WAIT: "wait",
}


def _bonus(kind: int | None) -> str | None:
    return None if kind is None else BONUS_KEYS[kind]


def _origin(origin: Origin) -> dict[str, Any]:
    """Where a bonus is printed: ``{"place": "yellow_row", "n": 3}`` (worded by ``clever.origin.<place>``)."""
    return {"place": origin[0], "n": origin[1]}


def _pending(entry: tuple[int, int, Origin]) -> dict[str, Any]:
    p, kind, origin = entry
    return {"player": p, "bonus": S.BONUS_NAMES[kind], "kind": BONUS_KEYS[kind], "origin": _origin(origin)}


def _grid_layout(grid: S.CrossGrid) -> dict[str, Any]:
    return {
        "values": [
            [None if (r, c) in grid.printed else v for c, v in enumerate(row)]
            for r, row in enumerate(grid.values)
        ],
        "printed": [[r, c] for r, c in sorted(grid.printed)],
        "row_bonuses": [_bonus(b) for b in grid.row_bonuses],
        "column_bonuses": [_bonus(b) for b in grid.column_bonuses],
        "column_points": list(grid.column_points) if grid.column_points else None,
        "diagonals": [
            {"cells": [[r, c] for r, c in cells], "bonus": _bonus(b)} for cells, b in grid.diagonals
        ],
        "count_points": list(grid.count_points) if grid.count_points else None,
    }


LAYOUT: dict[str, Any] = {
    "yellow": _grid_layout(S.YELLOW_AREA),
    "blue": _grid_layout(S.BLUE_AREA),
    "green": {
        "minimums": list(S.GREEN_AREA.minimums),
        "points": list(S.GREEN_AREA.points),
        "bonuses": [_bonus(b) for b in S.GREEN_AREA.bonuses],
    },
    "orange": {
        "multipliers": list(S.ORANGE_AREA.multipliers),
        "bonuses": [_bonus(b) for b in S.ORANGE_AREA.bonuses],
    },
    "purple": {
        "length": S.PURPLE_AREA.length,
        "reset": S.PURPLE_AREA.reset,
        "bonuses": [_bonus(b) for b in S.PURPLE_AREA.bonuses],
    },
    "action_circles": S.ACTION_CIRCLES,
    "round_bonuses": [_bonus(b) for b in S.ROUND_BONUSES],
    "solo_ratings": [low for low, _ in S.SOLO_RATINGS[:-1]],
}
"""The printed sheet (the same for every player and every position)."""


def solo_rank(points: int) -> int:
    """The solo rating as its row in the rulebook's table (0 = best)."""
    return next(i for i, (low, _) in enumerate(S.SOLO_RATINGS) if points >= low)


def sheet_view(state: CleverState, p: int) -> dict[str, Any]:
    sh = state.sheets[p]
    areas = sh.area_scores()
    return {
        "yellow": [
            {
                "cell": yellow_label(i),
                "value": None if Y_PRINTED >> i & 1 else Y_VALUES[i],
                "printed": bool(Y_PRINTED >> i & 1),
                "crossed": bool(sh.ymask >> i & 1),
            }
            for i in range(16)
        ],
        "blue": [
            {"cell": blue_label(i), "value": B_VALUES[i], "crossed": bool(sh.bmask >> i & 1)}
            for i in range(1, 12)
        ],
        "green": {"crossed": sh.gcount, "minimums": list(S.GREEN_AREA.minimums)},
        "orange": {"written": list(sh.ovals), "multipliers": list(S.ORANGE_AREA.multipliers)},
        "purple": {"written": list(sh.pvals)},
        "rerolls": {"gained": sh.rr_gain, "used": sh.rr_used, "circles": S.ACTION_CIRCLES},
        "plus_ones": {"gained": sh.p1_gain, "used": sh.p1_used, "circles": S.ACTION_CIRCLES},
        "foxes": sh.foxes,
        "area_scores": dict(zip(S.AREA_NAMES, areas, strict=True)),
        "fox_points": sh.fox_points(),
        "total": sh.total(),
    }


def public_view(real: CleverState, viewer: int | None = None) -> dict[str, Any]:
    """The position as seat ``viewer`` sees it (None: a spectator): while passive players (or everybody's last +1)
    choose at once, the others' choices show only when all have chosen (:meth:`CleverState.seen_by`); the seat to
    move sees its own, with its moves."""
    state = real.seen_by(viewer)
    cp = state.current_player()
    terminal = cp == TERMINAL
    mover_hidden = state is not real and cp in real.hidden_from(viewer) and real.began_choosing(cp)
    legal = [] if terminal or cp == CHANCE or mover_hidden else real.legal_actions()
    dice = []
    for d in range(6):
        if state.roll_mask >> d & 1:
            where = "rolled" if state.phase == PH_PICK else "to_roll"
        elif state.platter >> d & 1:
            where = "platter"
        elif d in state.field:
            where = "field"
        else:
            where = "unused"
        dice.append({"die": S.DIE_NAMES[d], "value": state.values[d] or None, "where": where})
    chain = state.bonus_chain()
    step = "bonus" if state.choice_pending else STEPS[state.phase]
    plus_after = None
    if state.phase == PH_PLUS:
        plus_after = (
            "active" if state.after == AFTER_ACTIVE else "end" if state.after == AFTER_END else "passive"
        )
    return {
        "game": "clever",
        "current_player": None if terminal else ("chance" if cp == CHANCE else cp),
        "legal_actions": [state.action_to_string(a) for a in legal],
        "legal_descriptions": [describe_action(real, a) for a in legal],
        "refused": refused(real) if legal else None,
        "terminal": terminal,
        "scores": state.scores(),
        "winners": state.winners() if state.phase == PH_OVER else [],
        "round": state.round,
        "rounds": state.rounds,
        "active": state.active,
        "phase": state.describe_phase(),
        "rolls_done": state.rolls,
        "dice": dice,
        "fields": [S.DIE_NAMES[d] for d in state.field],
        "pending_bonus": _pending(chain[0]) if chain else None,
        "bonus_chain": [_pending(e) for e in chain[1:]],  # the same player's bonuses queued behind it
        "step": step,
        "plus_after": plus_after,
        "next_seats": list(state.passive_order) if step in ("plus", "passive_pick") else [],
        "plus_used": [
            [S.DIE_NAMES[d] for d in range(6) if state.plus_used[p] >> d & 1] for p in range(state.n)
        ],
        "bonuses": [
            {"player": p, "bonus": BONUS_KEYS[b], "applied": bool(ok), "origin": _origin(o)}
            for p, b, ok, o in state.log
        ],
        "sheets": [sheet_view(state, p) for p in range(state.n)],
        "layout": LAYOUT,
        "solo_rating": state.solo_rating() if terminal and state.n == 1 and not state.resigned[0] else None,
        "resigned": state.resigned[:],
        "solo_rank": solo_rank(int(state.sheets[0].total()))
        if terminal and state.n == 1 and not state.resigned[0]
        else None,
    }
