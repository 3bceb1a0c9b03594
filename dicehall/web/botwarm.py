"""Imported once by the bot workers' forkserver (never by the server): every installed game's code, its bots and
its default rules' precomputed tables, so that each forked worker starts warm and shares them copy-on-write."""

from __future__ import annotations

import contextlib

import numpy as np

from dicehall.core.agents import bots_for, make_bot
from dicehall.core.game import CHANCE, TERMINAL, game_names, get_game

WARM_BOTS = ("master",)
"""Bots whose first decision compiles code (Numba): one decision here, so that no worker pays it in a move."""


def warm() -> None:
    rng = np.random.default_rng(0)
    for name in game_names():
        with contextlib.suppress(Exception):  # a game that is not installed is simply not warmed
            game = get_game(name)
            game.load_bots()
            rules = game.rules_type.from_preset(None)
            state = game.new_initial_state(rules, game.min_players)
            for bot in WARM_BOTS:
                if bot not in bots_for(name):
                    continue
                agent = make_bot(name, bot, rules)
                probe = state.clone()
                while probe.current_player() == CHANCE:
                    probe.sample_and_apply_chance(rng)
                if probe.current_player() != TERMINAL:
                    agent.choose(probe, rng)


warm()
