"""Imported once by the bot workers' forkserver (never by the server): every installed game's code, its bots and
its default rules' precomputed tables, so that each forked worker starts warm and shares them copy-on-write."""

from __future__ import annotations

import contextlib
import importlib

from dicehall.core.game import game_names, get_game


def warm() -> None:
    for name in game_names():
        with contextlib.suppress(Exception):  # a game that is not installed is simply not warmed
            game = get_game(name)
            importlib.import_module(f"dicehall.{name}.bots")
            game.new_initial_state(game.rules_type.from_preset(None), game.min_players)


warm()
