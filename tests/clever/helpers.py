"""Helpers for Clever scenario tests: set up positions, roll chosen dice, play moves by notation."""

from __future__ import annotations

from dicehall.clever import actions as A
from dicehall.clever.game import CleverGame
from dicehall.clever.rules import CleverRules
from dicehall.clever.state import CleverState

LETTERS = "WYBGOP"


def new(n: int = 1, **overrides: object) -> CleverState:
    rules = CleverRules.from_preset("standard", overrides)
    return CleverGame().new_initial_state(rules, n)


def roll(s: CleverState, dice: str, platter: str = "") -> None:
    """Apply a dice outcome written like 'W3 Y5 B1' (only the dice being rolled)."""
    text = dice + (f" platter {platter}" if platter else "")
    s.apply_action(s.string_to_action(text))


def do(s: CleverState, *moves: str) -> None:
    for m in moves:
        s.apply_action(s.string_to_action(m))


def legal(s: CleverState) -> set[str]:
    return {s.action_to_string(a) for a in s.legal_actions()}


def snapshot(s: CleverState) -> str:
    """Everything a test needs to see that a refused move changed nothing."""
    return repr((s.public_view(), s.queue, s.plus_used, s.rolls, s.roll_mask, s.platter, s.field))


def die(letter: str) -> int:
    return LETTERS.index(letter)


def mark(s: CleverState, p: int, move: str, value: int = 0) -> None:
    """Enter a value on player ``p``'s sheet through the engine's own entry code, as if a die showing
    ``value`` had been taken (used to build positions quickly); bonus choices stay pending."""
    code = s.string_to_action(move)
    if value:
        s.values[A.die_of(code)] = value
    s.log = []
    s._enter(p, code)
    s._resolve()
