"""PettingZoo AEC environments of the three games (layouts and spaces: ``docs/envs.md``).

>>> env = aec_env("thousand", players=3, preset="classic-open")
>>> env.reset(seed=7)
>>> obs, reward, terminated, truncated, info = env.last()
>>> env.agent_selection, obs["observation"].shape, int(obs["action_mask"].sum()) > 0
('player_0', (60,), True)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from dicehall.core.errors import RuleConfigError
from dicehall.core.game import TERMINAL
from dicehall.core.rng import live_seed
from dicehall.core.rules import RuleSet
from dicehall.envs.setup import OBS_HIGH, OBS_LOW, Table, next_seed

DEFAULT_PLAYERS = {"thousand": 2, "clever": 2, "wurf": 2}


class DicehallAEC(AECEnv[str, dict[str, np.ndarray], int]):  # type: ignore[misc]
    """One game of ``game`` for ``players`` agents ``player_0``…; the agent to move is the engine's.

    Observations are ``{"observation": float32 vector, "action_mask": int8 vector}`` (the mask is all zero for an
    agent not to move). Rewards are 0 until the game ends, then the game's returns (1 a win, 0 a loss, a share
    of a tie); ``reward="score"`` gives each step's change of every seat's score instead (Dice 1000, Clever).
    An action the mask forbids raises :class:`~dicehall.core.errors.IllegalActionError` and changes nothing.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo reads it from the class)
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
        "name": "dicehall_v0",
    }

    def __init__(
        self,
        game: str,
        players: int | None = None,
        preset: str | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        rules: RuleSet | None = None,
        reward: str = "returns",
        render_mode: str | None = None,
        **codec_args: Any,
    ) -> None:
        super().__init__()
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise RuleConfigError(
                f"render_mode must be ansi or human, got {render_mode!r}", option="render_mode"
            )
        self.render_mode = render_mode
        players = DEFAULT_PLAYERS.get(game, 2) if players is None else players
        self.table = Table(game, players, preset, options, rules, reward, codec_args)
        self.metadata = {**self.metadata, "name": f"dicehall_{self.table.game.name}_v0"}
        codec = self.table.codec
        self.possible_agents = [f"player_{i}" for i in range(self.table.num_players)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self._obs_space = spaces.Dict(
            {
                "observation": spaces.Box(OBS_LOW, OBS_HIGH, (codec.obs_size,), np.float32),
                "action_mask": spaces.Box(0, 1, (codec.num_actions,), np.int8),
            }
        )
        self._act_space = spaces.Discrete(codec.num_actions)
        self._seeds = np.random.default_rng(live_seed())
        self.episode_seed = 0

    # -- spaces -------------------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    # -- episode ------------------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game. ``seed`` fixes its dice (and seeds the stream later seedless resets draw from)."""
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
            self.episode_seed = int(seed)
        else:
            self.episode_seed = next_seed(self._seeds)
        self.table.new_game(self.episode_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._settle()

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self.table
        move = table.codec.decode(action, table.state)
        table.state.apply_action(move)
        table.roll()
        self._cumulative_rewards[agent] = 0.0
        self._settle()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _settle(self) -> None:
        """Rewards, terminations and the agent to move after the engine has moved on."""
        table = self.table
        self.rewards = {
            a: r for a, r in zip(self.possible_agents, table.rewards(), strict=True) if a in self.agents
        }
        player = table.state.current_player()
        if player == TERMINAL:
            self.terminations = dict.fromkeys(self.agents, True)
            for a in self.agents:
                self.infos[a] = {"scores": table.state.scores(), "returns": table.state.returns()}
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[player]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        table = self.table
        seat = self._seat[agent]
        to_move = table.state.current_player() == seat
        mask = table.codec.mask(table.state) if to_move else np.zeros(table.codec.num_actions, np.int8)
        return {"observation": table.observe(seat), "action_mask": mask}

    def render(self) -> str | None:
        text = self.table.state.render()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    def action_text(self, action: int) -> str:
        """The notation of table entry ``action`` (e.g. ``'keep 1,5'``, ``'W:Y.r1c1'``, ``'throw c3 p0.5'``)."""
        return self.table.codec.describe(action)


def aec_env(game: str, players: int | None = None, **kwargs: Any) -> DicehallAEC:
    """The AEC environment of ``game`` (``thousand``, ``clever``, ``wurf``); see :class:`DicehallAEC`."""
    return DicehallAEC(game, players, **kwargs)
