"""Which house rule took the lead from a player for good: the facts behind "decided by" (docs/strategy.md,
"When a house rule decided a game").

A :class:`LeadWatch` rides along a game when asked (:meth:`ThousandState.follow_lead`); the state tells it of
every dump truck, barrel fall (own attempts, knocked off, the open barrel's points; under variant 2, which has no
falls, knocked back to the opening score) and every bank a pit refused
(a turn total the player could have banked but for the pit, after which the turn burned). An event *took the lead*
from the player it hit when, with its effect undone, that player was ahead of or level with every other and,
after it, behind one. It *decided the game* when that player then trailed at the end of every turn to the end
and lost. The last such event counts: one that hits a player already behind takes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, Self

DUMP_TRUCK, BARREL, PIT = 1, 2, 4
KINDS: dict[str, int] = {"dump_truck": DUMP_TRUCK, "barrel": BARREL, "pit": PIT}


class LeadEvent(NamedTuple):
    kind: int
    seat: int
    undone: int  # the seat's score with the event's effect undone (the refused bank allowed)
    turn: int
    took: bool  # it took the lead from the seat (it may still be regained later)
    attempts: int  # barrel: the seat's attempts and falls before the fall (else its current ones)
    falls: int


def best_other(scores: Sequence[int], out: Sequence[bool], seat: int) -> int | None:
    others = [s for q, s in enumerate(scores) if q != seat and not out[q]]
    return max(others) if others else None


class LeadWatch:
    __slots__ = ("events", "pit_refusals", "refused", "since", "took")

    def __init__(self, n: int) -> None:
        self.took = [0] * n  # per seat: the kinds that took the lead from it (in one turn), while it trails
        self.since = [-1] * n  # the turn they did
        self.refused = 0  # this turn's largest total a pit refused to bank (0: none)
        self.pit_refusals = 0
        self.events: list[LeadEvent] = []

    def copy(self) -> Self:
        new = type(self)(len(self.took))
        new.took, new.since, new.refused = self.took[:], self.since[:], self.refused
        new.pit_refusals, new.events = self.pit_refusals, self.events[:]
        return new

    def hit(
        self,
        kind: int,
        seat: int,
        undone: int,
        scores: Sequence[int],
        out: Sequence[bool],
        turn: int,
        attempts: int = 0,
        falls: int = 0,
    ) -> None:
        """An event of ``kind`` hit ``seat``; ``scores`` are as it left them."""
        best = best_other(scores, out, seat)
        took = best is not None and undone >= best > scores[seat]
        self.events.append(LeadEvent(kind, seat, undone, turn, took, attempts, falls))
        if took:
            if self.since[seat] != turn:  # an earlier event's lead was regained before this one took it
                self.took[seat], self.since[seat] = 0, turn
            self.took[seat] |= kind

    def turn_ended(self, scores: Sequence[int], out: Sequence[bool]) -> None:
        """At the end of a turn: a player level or ahead again was not kept behind by an earlier event."""
        for seat, kinds in enumerate(self.took):
            if kinds:
                best = best_other(scores, out, seat)
                if best is None or scores[seat] >= best:
                    self.took[seat] = 0
        self.refused = 0

    def decided(self, winner: int | None) -> int:
        """The kinds that decided the game (a bit mask of :data:`KINDS`): those that took the lead from a loser
        for good. None won (everyone resigned): none."""
        if winner is None:
            return 0
        mask = 0
        for seat, kinds in enumerate(self.took):
            if seat != winner:
                mask |= kinds
        return mask
