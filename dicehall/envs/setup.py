"""What the PettingZoo and Gymnasium environments share: argument checks, the game, its rules, its codec.

Chance is handled inside: dice (and Wurf throw outcomes) are drawn from the episode's seeded generator, exactly as
``dicehall simulate`` draws them for a game of the same seed (:func:`~dicehall.core.rng.seeded_rng`), and bots
draw from :func:`~dicehall.core.rng.agent_rng` of that seed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from dicehall.core.errors import RuleConfigError
from dicehall.core.game import CHANCE, State, get_game
from dicehall.core.rng import agent_rng, seeded_rng
from dicehall.core.rules import RuleSet
from dicehall.envs.codec import Codec

REWARDS = ("returns", "score")
OBS_LOW, OBS_HIGH = -1.0, 2.0
"""Every observation entry is clipped to this range (nearly all lie in 0–1; scores may pass the target)."""


def make_codec(game: str, num_players: int, **kwargs: Any) -> Codec:
    if game == "thousand":
        from dicehall.envs.thousand import ThousandCodec

        _no_extra(game, kwargs)
        return ThousandCodec(num_players)
    if game == "clever":
        from dicehall.envs.clever import CleverCodec

        _no_extra(game, kwargs)
        return CleverCodec(num_players)
    from dicehall.envs.wurf import WurfCodec

    return WurfCodec(num_players, **kwargs)


def _no_extra(game: str, kwargs: Mapping[str, Any]) -> None:
    if kwargs:
        raise RuleConfigError(
            f"{game} environments take no {', '.join(sorted(kwargs))} (grid and powers are Wurf's)",
            option=sorted(kwargs)[0],
        )


class Table:
    """One game in progress for an environment: rules, state, seeded dice, the codec, score-based rewards."""

    def __init__(
        self,
        game: str,
        players: int,
        preset: str | None,
        options: Mapping[str, Any] | None,
        rules: RuleSet | None,
        reward: str,
        codec_args: Mapping[str, Any],
    ) -> None:
        self.game = get_game(game)
        self.num_players = self.game.check_player_count(players)
        if rules is not None:
            if preset is not None or options:
                raise RuleConfigError("give either rules or preset/options, not both")
            self.game.check_rules(rules)
            self.rules = rules
        else:
            if options is not None and not isinstance(options, Mapping):
                raise RuleConfigError(
                    f"options must be a mapping of rule options, got {type(options).__name__}"
                )
            self.rules = self.game.rules_type.from_preset(preset, dict(options or {}))
        if reward not in REWARDS:
            raise RuleConfigError(
                f"reward must be one of {', '.join(REWARDS)}; got {reward!r}", option="reward"
            )
        if reward == "score" and game == "wurf":
            raise RuleConfigError(
                "Wurf scores are dice left (fewer is better): use reward='returns'", option="reward"
            )
        self.reward = reward
        self.codec = make_codec(self.game.name, self.num_players, **codec_args)
        self.state: State[Any] = self.game.new_initial_state(self.rules, self.num_players)
        self.chance_rng = seeded_rng(0)
        self.bot_rng = agent_rng(0)
        self._scores = [0.0] * self.num_players

    def new_game(self, seed: int) -> None:
        self.state = self.game.new_initial_state(self.rules, self.num_players)
        self.chance_rng = seeded_rng(seed)
        self.bot_rng = agent_rng(seed)
        self._scores = self.state.scores()
        self.roll()

    def roll(self) -> None:
        """Play out every chance node until a player decides or the game ends."""
        state = self.state
        while state.current_player() == CHANCE:
            state.sample_and_apply_chance(self.chance_rng)

    def observe(self, seat: int) -> np.ndarray:
        out: np.ndarray = np.clip(self.codec.encode(self.state, seat), OBS_LOW, OBS_HIGH)
        return out

    def rewards(self) -> list[float]:
        """Each seat's reward for the last step: its return once the game is over, or its change of score."""
        if self.reward == "score":
            now = self.state.scores()
            out = [a - b for a, b in zip(now, self._scores, strict=True)]
            self._scores = now
            return out
        if self.state.is_terminal():
            return [float(r) for r in self.state.returns()]
        return [0.0] * self.num_players


def next_seed(rng: np.random.Generator) -> int:
    """An episode seed drawn from an environment's seed stream (64 bits)."""
    return int(rng.integers(0, 2**63 - 1))
