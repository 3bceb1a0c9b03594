"""A tiny pig-like dice game used only by the web tests, to show the server is game-neutral.

Each turn a player rolls a die (a chance event) any number of times; a 1 loses the turn total, ``stop`` banks it.
First to ``target`` wins. It is registered into the core registry as ``tinytest`` by the tests.
"""

from __future__ import annotations

import dataclasses
import sys
import types
from typing import Any, ClassVar

import numpy as np

from dicehall.core import game as core_game
from dicehall.core.agents import Agent, register_bot
from dicehall.core.errors import IllegalActionError, NotationError
from dicehall.core.game import CHANCE, TERMINAL, Game, State
from dicehall.core.rules import RuleSet, option

NAME = "tinytest"


@dataclasses.dataclass(frozen=True)
class TinyRules(RuleSet):
    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {"short": {"target": 12}, "long": {"target": 40}}
    DEFAULT_PRESET: ClassVar[str] = "short"
    target: int = option(12, "points needed to win")


class TinyState(State[str]):
    game_name = NAME

    def __init__(self, rules: TinyRules, n: int) -> None:
        self.rules, self.n = rules, n
        self.totals = [0] * n
        self.turn = 0
        self.player = 0
        self.rolling = False
        self.over = False

    @property
    def num_players(self) -> int:
        return self.n

    def current_player(self) -> int:
        return TERMINAL if self.over else CHANCE if self.rolling else self.player

    def legal_actions(self) -> list[str]:
        if self.over:
            return []
        if self.rolling:
            return [f"d{i}" for i in range(1, 7)]
        return ["roll", "stop"] if self.turn else ["roll"]

    def sample_chance(self, rng: np.random.Generator) -> str:
        return f"d{int(rng.integers(1, 7))}"

    def apply_action(self, action: str) -> None:
        if action not in self.legal_actions():
            raise IllegalActionError(
                f"{action!r} is not legal now", rule="stop-needs-points" if action == "stop" else "turn-order"
            )
        if self.rolling:
            self.rolling = False
            face = int(action[1:])
            if face == 1:
                self.turn = 0
                self.player = (self.player + 1) % self.n
            else:
                self.turn += face
        elif action == "roll":
            self.rolling = True
        else:
            self.totals[self.player] += self.turn
            self.turn = 0
            if self.totals[self.player] >= self.rules.target:
                self.over = True
            else:
                self.player = (self.player + 1) % self.n

    def clone(self) -> TinyState:
        c = TinyState(self.rules, self.n)
        c.totals, c.turn, c.player, c.rolling, c.over = (
            list(self.totals),
            self.turn,
            self.player,
            self.rolling,
            self.over,
        )
        return c

    def returns(self) -> list[float]:
        if not self.over:
            return [0.0] * self.n
        return [1.0 if i == self.player else 0.0 for i in range(self.n)]

    def scores(self) -> list[float]:
        return [float(t) for t in self.totals]

    def action_to_string(self, action: str) -> str:
        return action

    def string_to_action(self, text: str) -> str:
        t = text.strip().lower()
        if t not in ("roll", "stop") and not (len(t) == 2 and t[0] == "d" and t[1] in "123456"):
            raise NotationError(f"cannot read {text!r}: write roll, stop or d1..d6")
        return t

    def render(self) -> str:
        return f"totals {self.totals}, turn {self.turn}, player {self.player}"

    def public_view(self, viewer: int | None = None) -> dict[str, Any]:
        cp = self.current_player()
        return {
            "current_player": None if cp == TERMINAL else "chance" if cp == CHANCE else cp,
            "legal_actions": list(self.legal_actions()),
            "terminal": self.over,
            "scores": self.scores(),
            "winners": self.winners() if self.over else [],
            "turn_total": self.turn,
        }


class TinyGame(Game[TinyRules]):
    name = NAME
    title = "Tiny test game"
    rules_type = TinyRules
    min_players = 1
    max_players = 4

    def new_initial_state(self, rules: TinyRules, num_players: int) -> TinyState:
        return TinyState(rules, num_players)


class Greedy(Agent):
    name = "greedy"

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules

    def choose(self, state: State[Any], rng: np.random.Generator) -> Any:
        assert isinstance(state, TinyState)
        return "stop" if state.turn >= 6 else "roll"


class Sleepy(Greedy):
    """Thinks far longer than any budget (the pool must cut it off and play a fallback)."""

    name = "sleepy"

    def choose(self, state: State[Any], rng: np.random.Generator) -> Any:
        import time

        time.sleep(60)
        return super().choose(state, rng)


class Broken(Greedy):
    """Raises on every move (the server must log it and play a fallback)."""

    name = "broken"

    def choose(self, state: State[Any], rng: np.random.Generator) -> Any:
        raise RuntimeError("bot bug")


def install() -> None:
    """Register the game and its bot the way a real game package is found (dicehall.<name>.bots)."""
    core_game._GAMES[NAME] = f"{__name__}:TinyGame"
    pkg = types.ModuleType(f"dicehall.{NAME}")
    bots = types.ModuleType(f"dicehall.{NAME}.bots")
    sys.modules.setdefault(pkg.__name__, pkg)
    sys.modules.setdefault(bots.__name__, bots)
    register_bot(NAME, "greedy", "rolls until 6 points, then stops")(Greedy)
    register_bot(NAME, "sleepy", "thinks for a minute")(Sleepy)
    register_bot(NAME, "broken", "raises")(Broken)


def uninstall() -> None:
    """Leave the registries as they were, so that other test packages never see this game."""
    from dicehall.core import agents

    core_game._GAMES.pop(NAME, None)
    agents._BOTS.pop(NAME, None)
    for mod in (f"dicehall.{NAME}.bots", f"dicehall.{NAME}"):
        sys.modules.pop(mod, None)
