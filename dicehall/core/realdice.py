"""Real dice: the players throw their own dice and type in what fell; the engine only checks and scores.

Game-neutral: an entered outcome is the game's own chance notation (``3,1,5,5,2`` in Dice 1000,
``W3 Y5 B1 G6 O2 P4`` in Clever), read with ``string_to_action`` and refused by the engine's ``apply_action`` when
this roll cannot show it. Who types it is :meth:`~dicehall.core.game.State.roller`. Records mark such outcomes
with ``entered_by`` (see :class:`~dicehall.core.record.Event`). An entry may be taken back until the first
decision is taken on it (:func:`undoable_entry`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dicehall.core.errors import IllegalActionError, NotationError
from dicehall.core.game import CHANCE, State

DICE_MODES = ("rolled", "real")
"""Table option ``dice``: ``rolled`` (the server or program rolls) or ``real`` (the players enter their dice)."""


def read_entry(state: State[Any], text: str) -> Any:
    """The outcome typed in ``text``, checked against the roll now due; ``state`` is unchanged.

    Raises :class:`NotationError` for text that is no outcome and :class:`IllegalActionError` (naming the rule)
    when no dice are due or this roll cannot show it.
    """
    if state.current_player() != CHANCE:
        raise IllegalActionError(
            "no dice are to be thrown now: a player decides first", rule="real-dice-entry"
        )
    if not isinstance(text, str) or not text.strip():
        raise NotationError("type the dice that fell, in the game's notation")
    action = state.string_to_action(text)
    state.clone().apply_action(action)  # refuses an impossible outcome with the rule broken
    return action


def example_entry(state: State[Any]) -> str:
    """An outcome this roll could show, in notation (for prompts and help texts)."""
    import numpy as np

    return state.action_to_string(state.sample_chance(np.random.default_rng(0)))


def entry_seats(state: State[Any], humans: Sequence[int]) -> list[int]:
    """The seats that may type in the pending outcome: the roller when a human plays it, else every human seat."""
    roller = state.roller()
    if roller is not None and roller in humans:
        return [roller]
    return sorted(humans)


def undoable_entry(events: Sequence[tuple[int | str, int | None]]) -> int | None:
    """The index of the last event when it is an entered outcome no decision has followed, else ``None``.

    ``events`` are ``(actor, entered_by)`` pairs in order.
    """
    if not events:
        return None
    actor, entered_by = events[-1]
    if actor == "chance" and entered_by is not None:
        return len(events) - 1
    return None
