"""Clever's simultaneous seats: the passive players choose at the same time (and so does everybody's last +1).

A passive player takes a platter die (or passes), resolves the bonuses it fires and may use +1: all of it on their
own sheet, with dice nobody changes during the passive phase. So each passive player can choose on a copy of the
position in which it is their turn (:func:`simultaneous_branch`), and the record lists the choices in the usual
order (the players after the active one, clockwise), exactly as if they had been made in turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from dicehall.clever import state as C
from dicehall.core.errors import IllegalActionError

if TYPE_CHECKING:
    from dicehall.clever.state import CleverState

St = TypeVar("St", bound="CleverState")


def _context(state: CleverState) -> int | None:
    """``AFTER_PASSIVE`` in the passive phase, ``AFTER_END`` in the end-of-game +1 step, else ``None``."""
    if state.n < 2:
        return None
    if state.phase == C.PH_PASSIVE_PICK:
        return C.AFTER_PASSIVE
    if state.phase == C.PH_PLUS and state.after in (C.AFTER_PASSIVE, C.AFTER_END):
        return state.after
    return None


def simultaneous_seats(state: CleverState) -> tuple[int, ...]:
    if _context(state) is None:
        return ()
    group = (state.actor, *state.passive_order)
    return group if len(group) > 1 else ()


def simultaneous_branch(state: St, seat: int) -> St:
    """A copy in which ``seat`` chooses now, with the passive players before it skipped (their choices touch only
    their own sheets)."""
    group = simultaneous_seats(state)
    if seat not in group:
        now = list(group) or [state.current_player()]
        raise IllegalActionError(
            f"seat {seat} does not choose now (seats choosing now: {now})", rule="turn-order"
        )
    new = state.clone()
    if seat == group[0]:
        return new
    context = _context(state)
    new.queue = []  # bonuses pending now belong to the first seat's choice
    new.choice_pending = False
    new.log = []
    new._legal = None
    new.passive_order = group[group.index(seat) :]
    if context == C.AFTER_PASSIVE:
        new._next_passive()
    else:
        new._next_end_plus()
    new._legal = None
    return new
