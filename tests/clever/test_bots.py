"""Bots: legal play, greedy well above random, expert above greedy (the big comparison is a slow test)."""

from __future__ import annotations

import numpy as np
import pytest

from dicehall.clever.bots import ExpertAgent, GreedyAgent, evaluate
from dicehall.clever.game import CleverGame
from dicehall.clever.rules import CleverRules
from dicehall.clever.state import CleverState
from dicehall.core.agents import Agent, bots_for, make_bot
from dicehall.core.simulate import play_game


def mean_score(bot: str, games: int, seed: int = 0, n: int = 1) -> float:
    rules = CleverRules.from_preset()
    agents: list[Agent] = [make_bot("clever", bot, rules) for _ in range(n)]
    total = 0.0
    for i in range(games):
        s = CleverGame().new_initial_state(rules, n)
        play_game(s, agents, np.random.default_rng(seed + i), np.random.default_rng(10**6 + seed + i))
        total += s.scores()[0]
    return total / games


def test_the_bots_are_registered() -> None:
    assert set(bots_for("clever")) == {"random", "greedy", "expert", "master"}


class CheckingAgent(Agent):
    """Wraps a bot and checks that every choice is legal."""

    def __init__(self, inner: Agent) -> None:
        self.inner = inner

    def choose(self, state, rng):  # type: ignore[no-untyped-def]
        a = self.inner.choose(state, rng)
        assert a in state.legal_actions()
        return a


@pytest.mark.parametrize(
    ("bot", "n", "games"), [("greedy", 1, 4), ("greedy", 3, 2), ("expert", 1, 1), ("expert", 2, 1)]
)
def test_bots_play_legal_moves_to_the_end(bot: str, n: int, games: int) -> None:
    rules = CleverRules.from_preset()
    for g in range(games):
        s = CleverGame().new_initial_state(rules, n)
        agents = [CheckingAgent(make_bot("clever", bot, rules)) for _ in range(n)]
        play_game(s, agents, np.random.default_rng(g), np.random.default_rng(g + 50))
        assert s.is_terminal()


def test_greedy_is_far_better_than_random() -> None:
    assert mean_score("greedy", 12) > mean_score("random", 12) + 50


def test_evaluate_is_the_score_once_the_game_is_over() -> None:
    s = CleverGame().new_initial_state(CleverRules.from_preset(), 1)
    play_game(s, [GreedyAgent()], np.random.default_rng(3), np.random.default_rng(4))
    assert isinstance(s, CleverState)
    assert evaluate(s, 0) == s.scores()[0]


def test_expert_looks_ahead_only_on_its_own_picks() -> None:
    # outside the active pick the expert decides exactly like greedy
    s = CleverGame().new_initial_state(CleverRules.from_preset(), 1)
    rng = np.random.default_rng(1)
    expert, greedy = ExpertAgent(samples=2), GreedyAgent()
    while s.round < 2:
        if s.is_chance_node():
            s.apply_action(s.sample_chance(rng))
        elif s.phase != 2:
            assert expert.choose(s, rng) == greedy.choose(s, rng)
            s.apply_action(greedy.choose(s, rng))
        else:
            s.apply_action(expert.choose(s, rng))


@pytest.mark.slow
@pytest.mark.timeout(1200)
def test_expert_beats_greedy_over_many_games() -> None:
    games = 100  # the same dice for both; deterministic for a given code version
    assert mean_score("expert", games, seed=5000) > mean_score("greedy", games, seed=5000) + 5
