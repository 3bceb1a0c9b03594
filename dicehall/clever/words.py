"""Clever's own words as messages (dice, areas, bonuses), for the engine's refusal reasons and the terminal.

>>> str(die(0)), str(area(2)), str(bonus(S.FOX))
('the white die', 'green', 'fox')
"""

from __future__ import annotations

from dicehall.clever import sheet as S
from dicehall.i18n.message import Message

BONUS_KEYS = {  # the bonus kinds by name: message ids and the web view's `kind`
    S.YELLOW_X: "yellow_x",
    S.BLUE_X: "blue_x",
    S.GREEN_X: "green_x",
    S.ORANGE_4: "orange_4",
    S.ORANGE_5: "orange_5",
    S.ORANGE_6: "orange_6",
    S.PURPLE_6: "purple_6",
    S.REROLL: "reroll",
    S.PLUS_ONE: "plus_one",
    S.FOX: "fox",
    S.BLACK: "black",
}


def die(d: int) -> Message:
    """``the white die`` (a die by its colour)."""
    return Message(f"clever.die.{S.DIE_NAMES[d]}")


def die_showing(d: int, value: int) -> Message:
    """``the white die (4)``."""
    return Message("clever.die_showing", die=die(d), value=value)


def area(a: int) -> Message:
    """An area of the sheet by its colour (``yellow``)."""
    return Message(f"clever.area.{S.AREA_NAMES[a]}")


def bonus(b: int) -> Message:
    """A bonus by its kind (``fox``, ``orange 4``)."""
    return Message(f"clever.bonus.{BONUS_KEYS[b]}")


def origin(o: tuple[str, int]) -> Message:
    """Where a bonus comes from, with its preposition (``from yellow row 3``, ``at the start of round 4``)."""
    return Message(f"clever.origin.{o[0]}", n=o[1])


def rating(points: int) -> Message:
    """The solo rating of a final score (the rulebook's table, best first)."""
    for i, (low, _) in enumerate(S.SOLO_RATINGS):
        if points >= low:
            return Message(f"clever.rating.{i}")
    return Message(f"clever.rating.{len(S.SOLO_RATINGS) - 1}")
