"""Agents: whoever chooses actions for a seat. Bots live in each game's ``bots`` module and register here (the
game object says which modules those are: :meth:`~dicehall.core.game.Game.load_bots`).

A ``--players`` list is comma separated: ``me`` (or any plain name) is a human at this terminal, ``bot:NAME``
a bot of that game.

>>> [s.label for s in parse_players("me,bot:expert")]
['me', 'bot:expert']
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

import numpy as np

from dicehall.core.errors import PlayerSpecError
from dicehall.core.game import State, get_game
from dicehall.core.rules import RuleSet


class Agent(ABC):
    """Chooses the action for the seat to move. Bots must only return legal actions."""

    name: str = "agent"

    @abstractmethod
    def choose(self, state: State[Any], rng: np.random.Generator) -> Any: ...


class RandomAgent(Agent):
    """Uniformly random among the legal actions (the ``random`` bot of every game)."""

    name = "random"

    def __init__(self, rules: RuleSet | None = None) -> None:
        self.rules = rules

    def choose(self, state: State[Any], rng: np.random.Generator) -> Any:
        actions = state.legal_actions()
        return actions[int(rng.integers(len(actions)))]


BotFactory = Callable[[RuleSet], Agent]
_BOTS: dict[str, dict[str, tuple[BotFactory, str]]] = {}


def register_bot(game: str, name: str, help_text: str) -> Callable[[BotFactory], BotFactory]:
    """Decorator registering a bot class or factory ``f(rules) -> Agent`` as ``bot:name`` for ``game``."""

    def deco(factory: BotFactory) -> BotFactory:
        _BOTS.setdefault(game, {})[name] = (factory, help_text)
        return factory

    return deco


def bots_for(game: str) -> dict[str, str]:
    """Bot names of ``game`` with their one-line descriptions."""
    get_game(game).load_bots()
    return {name: doc for name, (_, doc) in _BOTS.get(game, {}).items()}


def make_bot(game: str, name: str, rules: RuleSet) -> Agent:
    get_game(game).load_bots()
    table = _BOTS.get(game, {})
    if name not in table:
        raise PlayerSpecError(
            f"unknown bot {name!r} for {game}; choose one of: {', '.join(table) or '(none)'}"
        )
    return table[name][0](rules)


@dataclasses.dataclass(frozen=True)
class PlayerSpec:
    """One seat from a ``--players`` list."""

    label: str
    bot: str | None = None

    @property
    def is_human(self) -> bool:
        return self.bot is None


def parse_players(text: str) -> list[PlayerSpec]:
    items = [item.strip() for item in text.split(",")]
    if not text.strip() or any(not item for item in items):
        raise PlayerSpecError(f"--players needs a comma-separated list like 'me,bot:expert', got {text!r}")
    return [parse_seat(item) for item in items]


def parse_seat(item: str) -> PlayerSpec:
    """One seat: ``bot:NAME`` is a bot, anything else a person of that name (a name may hold a comma)."""
    if not item.startswith("bot:"):
        return PlayerSpec(item)
    if not item[4:]:
        raise PlayerSpecError("'bot:' needs a bot name, e.g. bot:expert")
    return PlayerSpec(item, item[4:])


def seat_names(specs: list[PlayerSpec]) -> list[str]:
    """Unique display names: repeated labels get a seat suffix (bot:bold#2)."""
    counts: dict[str, int] = {}
    for s in specs:
        counts[s.label] = counts.get(s.label, 0) + 1
    seen: dict[str, int] = {}
    names = []
    for s in specs:
        if counts[s.label] > 1:
            seen[s.label] = seen.get(s.label, 0) + 1
            names.append(f"{s.label}#{seen[s.label]}")
        else:
            names.append(s.label)
    return names
