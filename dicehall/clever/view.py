"""``CleverState.public_view()``: a JSON-able picture of the position for graphical front ends."""

from __future__ import annotations

from typing import Any

from dicehall.clever import sheet as S
from dicehall.clever.state import PH_OVER, PH_PICK, CleverState
from dicehall.clever.tables import B_VALUES, Y_PRINTED, Y_VALUES, blue_label, yellow_label
from dicehall.clever.terminal import describe_action
from dicehall.core.game import CHANCE, TERMINAL


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


def public_view(state: CleverState) -> dict[str, Any]:
    cp = state.current_player()
    terminal = cp == TERMINAL
    legal = [] if terminal or cp == CHANCE else state.legal_actions()
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
    pending = state.pending_bonus()
    return {
        "game": "clever",
        "current_player": None if terminal else ("chance" if cp == CHANCE else cp),
        "legal_actions": [state.action_to_string(a) for a in legal],
        "legal_descriptions": [describe_action(state, a) for a in legal],
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
        "pending_bonus": None
        if pending is None
        else {"player": pending[0], "bonus": S.BONUS_NAMES[pending[1]]},
        "sheets": [sheet_view(state, p) for p in range(state.n)],
        "solo_rating": state.solo_rating() if terminal and state.n == 1 else None,
    }
