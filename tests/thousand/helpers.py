"""Helpers for driving a Dice 1000 state with explicit moves in notation."""

from __future__ import annotations

import math
from typing import Any

from dicehall.core.agents import make_bot
from dicehall.core.rng import agent_rng, game_seed, seeded_rng
from dicehall.core.simulate import play_game
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


def assert_optimal_self_play_wins_first_at(
    rules: ThousandRules, p: float, *, games: int, stream: int
) -> None:
    """Two ``bot:optimal`` play ``games`` seeded games (seed stream ``stream``): the first player's share of the
    wins lies in the 99% interval around the solver's probability ``p``."""
    bots = [make_bot("thousand", "optimal", rules), make_bot("thousand", "optimal", rules)]
    wins = 0.0
    for i in range(games):
        seed = game_seed(stream, i)
        state = ThousandState(rules, 2)
        play_game(state, bots, seeded_rng(seed), agent_rng(seed))
        wins += state.returns()[0]
    half_width = 2.576 * math.sqrt(p * (1 - p) / games)
    assert abs(wins / games - p) <= half_width, (wins / games, p, half_width)
