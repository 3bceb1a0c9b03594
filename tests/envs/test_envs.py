"""The PettingZoo and Gymnasium environments: API checks, random rollouts, seed determinism, argument errors."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

import dicehall.envs  # noqa: F401  (registers the gymnasium ids)
from dicehall.core.agents import make_bot, parse_players
from dicehall.core.errors import IllegalActionError, PlayerSpecError, RuleConfigError
from dicehall.core.rng import agent_rng, game_seed
from dicehall.core.simulate import SimulationJob, run_games
from dicehall.envs import DicehallAEC, aec_env, gym_env
from dicehall.envs.thousand import KEEPS

AEC_CASES = [
    ("thousand", 2, {}),
    ("thousand", 8, {"preset": "yard"}),
    ("thousand", 3, {"options": {"free_set_aside": True}}),
    ("clever", 1, {}),
    ("clever", 4, {}),
    ("wurf", 2, {}),
    ("wurf", 5, {"preset": "match"}),
    ("wurf", 3, {"grid": 8, "powers": (0.3, 0.6)}),
]


def rollout(env: DicehallAEC, seed: int) -> list[tuple[str, int, float]]:
    """A random-policy game; returns what each agent did and was paid, in order."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trace: list[tuple[str, int, float]] = []
    for agent in env.agent_iter(max_iter=100_000):
        obs, reward, terminated, truncated, _ = env.last()
        assert env.observation_space(agent).contains(obs)
        if terminated or truncated:
            trace.append((agent, -1, float(reward)))
            env.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        trace.append((agent, action, float(reward)))
        env.step(action)
    assert not env.agents, "the game must end"
    return trace


@pytest.mark.parametrize(("game", "players", "kwargs"), AEC_CASES)
def test_aec_api_and_random_rollout(game: str, players: int, kwargs: dict[str, Any]) -> None:
    env = aec_env(game, players, **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter(
            "ignore"
        )  # api_test's hints about Dict observations (the PettingZoo classic format)
        api_test(env, num_cycles=200)
    trace = rollout(env, seed=3)
    finals = [r for _, a, r in trace if a == -1]
    assert len(finals) == players
    state = env.table.state
    assert state.is_terminal()
    assert finals == pytest.approx(state.returns())  # each agent's last reward is its return (others were 0)
    assert sum(finals) == pytest.approx(1.0)


@pytest.mark.parametrize(("game", "players", "kwargs"), [AEC_CASES[2], AEC_CASES[4], AEC_CASES[6]])
def test_aec_seed_determinism(game: str, players: int, kwargs: dict[str, Any]) -> None:
    a, b = aec_env(game, players, **kwargs), aec_env(game, players, **kwargs)
    first = rollout(a, 11)
    assert first == rollout(b, 11)
    assert a.table.state.scores() == b.table.state.scores()
    assert rollout(b, 12) != first  # another seed, another game
    assert rollout(b, 11) == first  # and a reset with the seed replays it


@pytest.mark.parametrize(
    ("game", "bots"), [("thousand", "bot:bold,bot:cautious"), ("clever", "bot:greedy,bot:random")]
)
def test_env_dice_are_the_simulation_dice(game: str, bots: str) -> None:
    """Bots playing through the environment with episode seed s play simulation game 0's game of that seed."""
    env = aec_env(game, 2)
    job = SimulationJob(game, env.table.rules, tuple(parse_players(bots)), seed=5)
    expected = run_games(job, range(1))[0]
    seed = game_seed(5, 0)
    env.reset(seed=seed)
    agents = [make_bot(game, spec.bot or "", env.table.rules) for spec in job.players]
    rng = agent_rng(seed)
    while env.agents:
        seat = env.possible_agents.index(env.agent_selection)
        if env.terminations[env.agent_selection]:
            env.step(None)
            continue
        choice = agents[seat].choose(env.table.state, rng)
        env.step(env.table.codec.index_of(choice))
    assert env.table.state.scores() == expected.scores
    assert env.table.state.returns() == expected.returns


def test_aec_refuses_a_masked_action_and_changes_nothing() -> None:
    env = aec_env("thousand", 2)
    env.reset(seed=1)
    obs = env.observe(env.agent_selection)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.observe(env.agent_selection)["observation"].copy()
    with pytest.raises(IllegalActionError) as err:
        env.step(illegal)
    assert err.value.rule
    assert np.array_equal(env.observe(env.agent_selection)["observation"], before)
    with pytest.raises(IllegalActionError, match="index"):
        env.step(10_000)


def test_free_set_aside_offers_keep_actions() -> None:
    env = aec_env("thousand", 2, options={"free_set_aside": True})
    env.reset(seed=5)
    seen = set()
    for _ in range(40):
        obs = env.observe(env.agent_selection)
        legal = np.flatnonzero(obs["action_mask"])
        seen.update(env.action_text(int(i)) for i in legal)
        env.step(int(legal[-1]))
        if env.terminations[env.agent_selection]:
            break
    assert seen & set(KEEPS)


def test_score_rewards_add_up_to_the_final_score() -> None:
    env = aec_env("clever", 2, reward="score")
    env.reset(seed=2)
    rng = np.random.default_rng(0)
    total = dict.fromkeys(env.possible_agents, 0.0)
    while env.agents:
        agent = env.agent_selection
        obs, reward, terminated, _, _ = env.last()
        total[agent] += reward
        env.step(None if terminated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert list(total.values()) == pytest.approx(env.table.state.scores())


@pytest.mark.parametrize(
    ("kwargs", "error", "text"),
    [
        ({"game": "thousand", "players": 2, "options": {"open_min": 7}}, RuleConfigError, "open_min"),
        ({"game": "thousand", "players": 2, "options": {"no_such": 1}}, RuleConfigError, "no_such"),
        ({"game": "clever", "players": 2, "preset": "nope"}, RuleConfigError, "preset"),
        ({"game": "wurf", "players": 6}, PlayerSpecError, "2–5"),
        ({"game": "clever", "players": 5}, PlayerSpecError, "1–4"),
        ({"game": "wurf", "players": 2, "grid": 0}, RuleConfigError, "grid"),
        ({"game": "wurf", "players": 2, "powers": (1.5,)}, RuleConfigError, "powers"),
        ({"game": "wurf", "players": 2, "reward": "score"}, RuleConfigError, "returns"),
        ({"game": "clever", "players": 2, "grid": 3}, RuleConfigError, "grid"),
        ({"game": "thousand", "players": 2, "reward": "money"}, RuleConfigError, "reward"),
    ],
)
def test_bad_arguments_are_refused(kwargs: dict[str, Any], error: type[Exception], text: str) -> None:
    with pytest.raises(error, match=text):
        aec_env(**kwargs)


GYM_CASES = [("clever", ()), ("thousand", "expert"), ("wurf", ["cautious", "random"])]


@pytest.mark.parametrize(("game", "opponents"), GYM_CASES)
def test_gym_check_env_and_rollouts(game: str, opponents: Any) -> None:
    env = gym_env(game, opponents)
    check_env(env, skip_render_check=True)

    def play(seed: int) -> tuple[list[float], list[float]]:
        obs, info = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        rewards: list[float] = []
        for _ in range(100_000):
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            obs, reward, terminated, _, info = env.step(action)
            assert env.observation_space.contains(obs)
            rewards.append(float(reward))
            if terminated:
                return rewards, info["scores"]
        raise AssertionError("the game did not end")

    first = play(21)
    assert first == play(21)
    if game == "clever":  # solo: the score-change rewards add up to the final score
        assert sum(first[0]) == pytest.approx(first[1][0])
    else:
        assert first[0][-1] in (0.0, 1.0) or 0.0 < first[0][-1] < 1.0
        assert all(r == 0.0 for r in first[0][:-1])


def test_gym_illegal_actions_penalty_or_raise() -> None:
    env = gym_env("thousand", "cautious")
    _, info = env.reset(seed=4)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == -1.0 and info["illegal_action"]["rule"]
    strict = gym_env("thousand", "cautious", on_illegal="raise")
    strict.reset(seed=4)
    with pytest.raises(IllegalActionError):
        strict.step(illegal)


def test_gym_bad_bot_and_registered_ids() -> None:
    import gymnasium

    with pytest.raises(PlayerSpecError, match="unknown bot"):
        gym_env("thousand", "nobody")
    env = gymnasium.make("dicehall/Clever-v0")
    obs, _ = env.reset(seed=0)
    assert obs.shape == env.observation_space.shape
