"""Real dice in the terminal: a move typed together with the dice it throws, and ``undo`` one step at a time.

At one keyboard every step of a real-dice game may be taken back, newest first: an entered outcome, or a
person's decision. A bot's decisions go back with the step they followed (the bot decides again on the dice
entered anew); a drawn outcome (a resumed game's earlier, rolled part) is where taking back stops.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from dicehall.core.record import Event


@dataclasses.dataclass(frozen=True)
class Entered:
    """A human turn's answer that throws and names the dice that fell: ``move`` (e.g. Dice 1000's ``roll``),
    then ``outcome`` (the chance action entered by the same seat)."""

    move: Any
    outcome: Any


def _step(event: Event, humans: Sequence[int]) -> str:
    """``"step"`` (a person's decision or an entered outcome), ``"bot"`` or ``"stop"`` (a drawn outcome)."""
    if event.actor == "chance":
        return "step" if event.entered_by is not None else "stop"
    return "step" if event.actor in humans else "bot"


def can_take_back(events: Sequence[Event], humans: Sequence[int]) -> bool:
    """Whether ``undo`` has a step to take back."""
    for event in reversed(events):
        kind = _step(event, humans)
        if kind != "bot":
            return kind == "step"
    return False


def take_back(events: list[Event], humans: Sequence[int]) -> list[Event]:
    """Remove the last step (with the bots' decisions after it) from ``events``; the events removed, newest
    first. The game is then where that step was taken: a person to decide or dice to enter."""
    if not can_take_back(events, humans):
        return []
    taken = []
    while events:
        event = events.pop()
        taken.append(event)
        if _step(event, humans) == "step":
            break
    return taken
