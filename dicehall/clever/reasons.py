"""Why the seat deciding cannot take a die, or enter it on a cell, in the page's words (the view's ``refused``).

Not a second copy of the rules: which dice and cells are refused is the engine's ``legal_actions()``, and each
reason is the engine's own refusal (:meth:`CleverState.why_illegal`, what ``apply_action`` raises) with its
numbers, said as a ``clever.why.*`` message for a player (the die and area as ``clever.ui.*`` words).

>>> from dicehall.clever.rules import CleverRules
>>> s = CleverState(CleverRules.from_preset(None), 1)
>>> s.apply_action(A.roll({0: 1, 1: 2, 2: 3, 3: 4, 4: 5, 5: 6}))
>>> why = refused(s)
>>> first = why["cells"][0]
>>> str(Message.from_json(first["why"])), first["dice"], first["at"]
('This yellow cell needs a 3; the white die shows 1.', ['white'], ['yellow.r1c1', 'yellow.r4c2'])
>>> last = why["cells"][-1]
>>> str(Message.from_json(last["why"])), last["dice"], last["at"]
('The purple die can only go to its own colour: Purple (only the white die is wild).', ['purple'], ['yellow', 'blue', 'green', 'orange'])
"""

from __future__ import annotations

from functools import cache
from typing import Any

from dicehall.clever import actions as A
from dicehall.clever import sheet as S
from dicehall.clever.state import PH_PASSIVE_PICK, PH_PICK, PH_PLUS, CleverState
from dicehall.clever.tables import Y_PRINTED, yellow_label
from dicehall.i18n.message import Message

TARGETS: tuple[tuple[int, int], ...] = (
    *((S.AREA_YELLOW, c) for c in range(16) if not Y_PRINTED >> c & 1),
    *((S.AREA_BLUE, c) for c in range(1, 12)),  # (slot 0 is the blank blue + white box)
    (S.AREA_GREEN, 0),
    (S.AREA_ORANGE, 0),
    (S.AREA_PURPLE, 0),
)
"""Every cell a die may be entered on, as the page draws them (the tracks by their next cell)."""

_DIE_REFUSALS = {  # the engine's refusals of a die wherever it goes
    "clever.refusal.not_just_rolled": "clever.why.not_rolled",
    "clever.refusal.plus_taken": "clever.why.plus_used",
    "clever.refusal.not_for_passive": "clever.why.not_for_passive",
    "clever.refusal.field_die": "clever.why.platter_first",
}


def target_key(area: int, cell: int) -> str:
    """A cell as the page names it: ``yellow.r2c3``, ``blue.r1c2``, ``green``."""
    name = S.AREA_NAMES[area]
    return f"{name}.{yellow_label(cell)}" if area in (S.AREA_YELLOW, S.AREA_BLUE) else name


@cache  # (a view asks for the same few words hundreds of times)
def _die(d: int) -> Message:
    return Message(f"clever.ui.die.{S.DIE_NAMES[d]}")


@cache
def _area(a: int) -> Message:
    return Message(f"clever.ui.area.{S.AREA_NAMES[a]}")


def in_words(state: CleverState, action: int) -> Message:
    """The engine's refusal of the (illegal) entry ``action``, said for the player; a refusal this has no words
    for comes as the engine's own message (the page has those too)."""
    engine = state.why_illegal(action)
    d, area = A.die_of(action), A.area_of(action)
    if engine.msgid in _DIE_REFUSALS:
        return Message(_DIE_REFUSALS[engine.msgid], die=_die(d))
    if engine.msgid != "clever.refusal.move_reason":
        return engine
    reason = engine.params["reason"]
    rid, p = reason.msgid, reason.params
    value = state.values[d]
    if rid == "clever.refusal.wrong_area":
        return Message("clever.why.wrong_colour", die=_die(d), area=_area(S.AREA_OF_DIE[d]))
    if rid in ("clever.refusal.yellow_crossed", "clever.refusal.blue_crossed"):
        return Message("clever.why.crossed", area=_area(area))
    if rid == "clever.refusal.yellow_value":
        return Message("clever.why.yellow_needs", need=p["need"], die=_die(d), value=value)
    if rid == "clever.refusal.blue_value":
        return Message("clever.why.blue_needs", need=p["need"], sum=p["total"])
    if rid == "clever.refusal.green_value":
        return Message("clever.why.green_needs", need=p["need"], die=_die(d), value=value)
    if rid == "clever.refusal.purple_value":
        return Message("clever.why.purple_needs", last=p["last"], die=_die(d), value=value)
    if rid == "clever.refusal.full":
        return Message("clever.why.full", area=_area(area))
    return engine


def refused(state: CleverState) -> dict[str, Any] | None:
    """For the seat choosing a die now (None when nobody is): ``dice``, each die it cannot take with why, and
    ``cells``, the refused cells of the dice it can take grouped by reason (``[{"why", "dice", "at"}]``: the
    dice refused on the cells ``at`` for that reason, an area's name standing for all its cells)."""
    seat = state.current_player()
    if seat < 0 or state.choice_pending or state.phase not in (PH_PICK, PH_PLUS, PH_PASSIVE_PICK):
        return None
    kind = A.K_PLUS if state.phase == PH_PLUS else A.K_ENTRY
    legal = {a for a in state.legal_actions() if A.kind_of(a) == kind}
    dice: dict[str, Any] = {}
    cells: dict[str, dict[str, Any]] = {}  # by reason and cells: the dice refused there for that reason
    for d in S.DICE:
        name = S.DIE_NAMES[d]
        mine = [A.entry(d, area, cell, kind) for area, cell in TARGETS]
        if not legal.intersection(mine):
            why = in_words(state, mine[0])
            no_fit = why.msgid.startswith("clever.why.") and why.msgid not in _DIE_REFUSALS.values()
            dice[name] = Message("clever.why.no_fit", die=_die(d)).to_json() if no_fit else why.to_json()
            continue
        groups: dict[str, tuple[dict[str, Any], list[str]]] = {}
        for action, (area, cell) in zip(mine, TARGETS, strict=True):
            if action not in legal:
                said = in_words(state, action).to_json()
                groups.setdefault(repr(said), (said, []))[1].append(target_key(area, cell))
        for key, (said, keys) in groups.items():
            at = _whole_areas(keys)
            group = cells.setdefault(repr((key, at)), {"why": said, "dice": [], "at": at})
            group["dice"].append(name)
    return {"dice": dice, "cells": list(cells.values())}


_AREA_CELLS = {
    name: {target_key(a, c) for a, c in TARGETS if a == area} for area, name in enumerate(S.AREA_NAMES)
}


def _whole_areas(keys: list[str]) -> list[str]:
    """``keys`` with every area whose cells are all there said by its name (``"blue"``: each blue cell)."""
    have = set(keys)
    out: list[str] = []
    for name, cells in _AREA_CELLS.items():
        out += [name] if cells <= have else [k for k in keys if k in cells]
    return out
