"""The bots' rating anchors: a two-seat round robin of every bot level of a game, rated game by game.

Round ``r`` plays every pair of levels once, in a fixed order, the first-named level in seat ``r % 2``; game ``k``
of the run has the dice and bot seeds of ``game_seed(seed, k)``. Every level starts at a new player's skill and
is rated after each game with the same Plackett–Luce update players get. A level's anchor is its mu averaged over
the ends of the rounds of the run's second half (the last mu alone wanders by about its sigma, ~1, from game to
game); then the levels are moved together so that their mean is a new player's (25): a newcomer starts among the
bots, not above or below them all.
The same ``seed`` and ``games`` give the same table, which ``dicehall ratings anchors`` prints or writes.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from dicehall.core.agents import bots_for, make_bot
from dicehall.core.game import get_game
from dicehall.core.rating import MU, Skill, ranks_of, rate
from dicehall.core.rng import agent_rng, game_seed, seeded_rng
from dicehall.core.simulate import play_game

DEFAULT_SEED = 25


def round_robin_pairs(bots: list[str]) -> list[tuple[str, str]]:
    return list(itertools.combinations(bots, 2))


def compute_anchors(
    game_name: str,
    games: int,
    seed: int = DEFAULT_SEED,
    bots: list[str] | None = None,
    progress: Callable[[int], None] | None = None,
) -> dict[str, float]:
    """Each bot level's anchor mu after ``games`` rounds of the round robin (3 decimals)."""
    game = get_game(game_name)
    rules = game.rules_type.from_preset(None, dict(game.live_overrides))  # the web tables' default rules
    levels = list(bots or bots_for(game_name))
    agents = {b: make_bot(game_name, b, rules) for b in levels}
    skills = {b: Skill() for b in levels}
    sums = dict.fromkeys(levels, 0.0)
    counted = 0
    k = 0
    for r in range(games):
        for pair in round_robin_pairs(levels):
            seats = pair if r % 2 == 0 else pair[::-1]
            seed_k = game_seed(seed, k)
            state = game.new_initial_state(rules, 2)
            play_game(state, [agents[b] for b in seats], seeded_rng(seed_k), agent_rng(seed_k))
            ranks = ranks_of(state.scores(), state.winners())
            after = rate([skills[b] for b in seats], ranks)
            for b, s in zip(seats, after, strict=True):
                skills[b] = s
            k += 1
            if progress is not None:
                progress(1)
        if r >= games // 2:
            counted += 1
            for b in levels:
                sums[b] += skills[b].mu
    means = {b: sums[b] / counted for b in levels}
    shift = MU - sum(means.values()) / len(means)
    return {b: round(m + shift, 3) for b, m in means.items()}


def games_in(game_name: str, games: int, bots: list[str] | None = None) -> int:
    """How many games a run of ``games`` rounds plays (the progress bar's total)."""
    return games * len(round_robin_pairs(list(bots or bots_for(game_name))))
