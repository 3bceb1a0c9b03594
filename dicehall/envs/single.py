"""Gymnasium single-agent environments: Clever solo, Dice 1000 or Wurf against chosen bots.

>>> env = gym_env("clever")
>>> obs, info = env.reset(seed=1)
>>> obs.shape, info["action_mask"].shape
((110,), (187,))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from dicehall.core.agents import Agent, make_bot
from dicehall.core.errors import IllegalActionError, RuleConfigError
from dicehall.core.game import CHANCE, TERMINAL
from dicehall.core.rules import RuleSet
from dicehall.envs.setup import OBS_HIGH, OBS_LOW, Table, next_seed

ON_ILLEGAL = ("penalty", "raise")
_MAX_REDEALS = 100


class DicehallGym(gym.Env[np.ndarray, np.int64]):
    """The learner holds seat ``seat``; bots named in ``opponents`` hold the others (in seat order).

    Observation: the learner's vector (``docs/envs.md``); ``info["action_mask"]`` and :meth:`action_masks` give the
    legal actions. Reward: the learner's return when the game ends (``reward="returns"``, the default with
    opponents), or each step's change of its score (``reward="score"``, the default for Clever solo, where the
    return is always 1). An action outside the mask ends the episode with ``illegal_penalty`` (``on_illegal=
    "penalty"``, what generic RL code expects) or raises :class:`IllegalActionError` (``on_illegal="raise"``).
    """

    metadata = {"render_modes": ["ansi", "human"]}  # noqa: RUF012 (Gymnasium reads it from the class)

    def __init__(
        self,
        game: str,
        opponents: str | Sequence[str] = (),
        preset: str | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        seat: int = 0,
        rules: RuleSet | None = None,
        reward: str | None = None,
        on_illegal: str = "penalty",
        illegal_penalty: float = -1.0,
        render_mode: str | None = None,
        **codec_args: Any,
    ) -> None:
        names = [opponents] if isinstance(opponents, str) else list(opponents)
        players = 1 + len(names)
        if reward is None:
            reward = "score" if players == 1 else "returns"
        self.table = Table(game, players, preset, options, rules, reward, codec_args)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise RuleConfigError(f"seat must be a seat 0..{players - 1}, got {seat!r}", option="seat")
        if on_illegal not in ON_ILLEGAL:
            raise RuleConfigError(
                f"on_illegal must be penalty or raise, got {on_illegal!r}", option="on_illegal"
            )
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise RuleConfigError(
                f"render_mode must be ansi or human, got {render_mode!r}", option="render_mode"
            )
        self.seat = seat
        self.on_illegal = on_illegal
        self.illegal_penalty = float(illegal_penalty)
        self.render_mode = render_mode
        bots = iter(make_bot(game, name.removeprefix("bot:"), self.table.rules) for name in names)
        self.bots: list[Agent | None] = [None if s == seat else next(bots) for s in range(players)]
        codec = self.table.codec
        self.observation_space = spaces.Box(OBS_LOW, OBS_HIGH, (codec.obs_size,), np.float32)
        self.action_space = spaces.Discrete(codec.num_actions)
        self.episode_seed = 0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """A new game; ``seed`` fixes its dice and the bots' choices (and seeds later seedless resets)."""
        super().reset(seed=seed)
        self.episode_seed = int(seed) if seed is not None else next_seed(self.np_random)
        for _ in range(_MAX_REDEALS):
            self.table.new_game(self.episode_seed)
            self._play_others()
            if not self.table.state.is_terminal():
                break
            # the bots ended the game before the learner's first decision (e.g. a golden win): deal again
            self.episode_seed = next_seed(self.np_random)
        self.table.rewards()  # starts the score baseline after the bots' opening moves
        return self.table.observe(self.seat), self._info()

    def step(self, action: np.int64 | int) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        table = self.table
        if table.state.is_terminal():
            raise IllegalActionError("the game is over: call reset()", rule="game-over")
        try:
            move = table.codec.decode(action, table.state)
        except IllegalActionError as exc:
            if self.on_illegal == "raise":
                raise
            info = self._info()
            info["illegal_action"] = {"action": action, "rule": exc.rule, "message": str(exc)}
            return table.observe(self.seat), self.illegal_penalty, True, False, info
        table.state.apply_action(move)
        self._play_others()
        reward = table.rewards()[self.seat]
        terminated = table.state.is_terminal()
        if self.render_mode == "human":
            self.render()
        return table.observe(self.seat), reward, terminated, False, self._info()

    def _play_others(self) -> None:
        """Chance and the bots until the learner decides or the game ends."""
        table = self.table
        state = table.state
        while True:
            player = state.current_player()
            if player == CHANCE:
                state.sample_and_apply_chance(table.chance_rng)
            elif player == TERMINAL or player == self.seat:
                return
            else:
                bot = self.bots[player]
                assert bot is not None
                state.apply_action(bot.choose(state, table.bot_rng))

    def _info(self) -> dict[str, Any]:
        state = self.table.state
        info: dict[str, Any] = {"action_mask": self.action_masks(), "seed": self.episode_seed}
        if state.is_terminal():
            info["scores"] = state.scores()
            info["returns"] = state.returns()
        return info

    def action_masks(self) -> np.ndarray:
        """The legal actions as a 0/1 vector (the name ``sb3_contrib.MaskablePPO`` looks for)."""
        table = self.table
        if table.state.current_player() != self.seat:
            return np.zeros(table.codec.num_actions, np.int8)
        return table.codec.mask(table.state)

    def action_text(self, action: int) -> str:
        return self.table.codec.describe(action)

    def render(self) -> str | None:
        text = self.table.state.render()
        if self.render_mode == "human":
            print(text)
            return None
        return text


def gym_env(game: str, opponents: str | Sequence[str] = (), **kwargs: Any) -> DicehallGym:
    """A single-agent environment: ``gym_env("clever")`` (solo), ``gym_env("thousand", "expert")``,
    ``gym_env("wurf", ["cautious", "random"], grid=8)``; see :class:`DicehallGym`."""
    return DicehallGym(game, opponents, **kwargs)
