"""Simultaneous seats on a live table: while a game's :meth:`~dicehall.core.game.State.simultaneous_seats` names
several seats, each of them chooses on its own branch of the position. Nothing is committed (nor shown to the other
seats) until every seat of the group is done; then the manager applies the choices to the table, seat by seat in
the game's order, as ordinary events.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from dicehall.core.game import State


@dataclasses.dataclass
class Together:
    group: tuple[int, ...]
    branches: dict[int, State[Any]]
    """Each seat's own position: the table's, with this seat to move and its choices so far applied."""
    actions: dict[int, list[Any]]
    moves: dict[int, list[str]]
    """Each seat's choices so far in notation (private to that seat until the group is done)."""

    @classmethod
    def open(cls, state: State[Any]) -> Together | None:
        """The simultaneous phase starting at ``state``, or None when only one seat chooses now."""
        group = tuple(state.simultaneous_seats())
        if len(group) < 2:
            return None
        branches = {seat: state.simultaneous_branch(seat) for seat in group}
        return cls(group, branches, {s: [] for s in group}, {s: [] for s in group})

    def choosing(self, seat: int) -> bool:
        return seat in self.branches and self.branches[seat].current_player() == seat

    def pending(self) -> list[int]:
        """Seats still choosing (the others are done)."""
        return [s for s in self.group if self.choosing(s)]

    def public(self) -> dict[str, Any]:
        """What everybody may know: who chooses in this phase and who has not finished (never what was chosen)."""
        return {"seats": list(self.group), "waiting_for": self.pending()}

    def steps(self) -> list[tuple[int, Any]]:
        """Every seat's choices in the group's order: what the table commits once nobody is pending."""
        return [(seat, a) for seat in self.group for a in self.actions[seat]]
