"""Helpers for driving a Dice 1000 state with explicit moves in notation."""

from __future__ import annotations

from typing import Any

from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.state import ThousandState


def rules(preset: str = "classic", **overrides: Any) -> ThousandRules:
    return ThousandRules.from_preset(preset, overrides)


def new(preset: str = "classic", players: int = 2, **overrides: Any) -> ThousandState:
    return ThousandState(rules(preset, **overrides), players)


def at(scores: list[int], preset: str = "classic", to_move: int = 0, **kw: Any) -> ThousandState:
    """A position at the start of ``to_move``'s turn; keyword arguments split between rule overrides and
    :meth:`ThousandState.from_position` fields."""
    position_keys = {
        "opened",
        "on_barrel",
        "barrel_attempts",
        "barrel_falls",
        "bolts",
        "open_points",
        "opening_scores",
        "anyone_banked",
    }
    # ``bolts`` is both a rule (bool) and a per-seat count (list): a list means the position
    pos = {
        k: v
        for k, v in kw.items()
        if k in position_keys and (k == "anyone_banked" or not isinstance(v, bool | int))
    }
    over = {k: v for k, v in kw.items() if k not in pos}
    return ThousandState.from_position(rules(preset, **over), scores, to_move=to_move, **pos)


def play(state: ThousandState, *moves: str) -> ThousandState:
    """Apply each move (a decision or a dice outcome) in notation."""
    for move in moves:
        state.apply_action(state.string_to_action(move))
    return state
