"""What an environment needs from a game: a fixed-size observation and a fixed discrete action table.

A :class:`Codec` is built once per environment (its sizes depend on the player count and on options such as the
Wurf aim grid) and is pure: it reads a :class:`~dicehall.core.game.State` and never changes it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np

from dicehall.core.errors import IllegalActionError
from dicehall.core.game import State


class Codec(ABC):
    """Observation encoder and action table of one game at one player count."""

    game: str
    num_players: int
    layout: tuple[tuple[str, int], ...]
    """The observation vector's parts in order: (name, length). Their lengths add up to :attr:`obs_size`."""

    def __init__(self, num_players: int, actions: Sequence[Any]) -> None:
        self.num_players = num_players
        self.actions: tuple[Any, ...] = tuple(actions)
        self._index: dict[Hashable, int] = {self.key(a): i for i, a in enumerate(self.actions)}
        if len(self._index) != len(self.actions):
            raise ValueError(f"{self.game}: the action table holds duplicates")

    @property
    def obs_size(self) -> int:
        return sum(n for _, n in self.layout)

    @property
    def num_actions(self) -> int:
        return len(self.actions)

    def key(self, action: Any) -> Hashable:
        """How an engine action is looked up in the table (the action itself when it is hashable)."""
        return action  # type: ignore[no-any-return]

    @abstractmethod
    def encode(self, state: State[Any], seat: int) -> np.ndarray:
        """The observation of ``seat`` (float32, length :attr:`obs_size`; seats rotated so ``seat`` comes first)."""

    def index_of(self, action: Any) -> int:
        """The table index of an engine action (e.g. a bot's choice, for imitation); ``KeyError`` if absent."""
        return self._index[self.key(action)]

    def engine_legal(self, state: State[Any]) -> Sequence[Any]:
        """The engine actions the table offers now (a game may offer more than the engine lists, e.g. aim)."""
        return state.legal_actions()

    def legal_indices(self, state: State[Any]) -> list[int]:
        out = []
        for action in self.engine_legal(state):
            index = self._index.get(self.key(action))
            if index is None:  # the table must cover every decision the engine can offer
                raise RuntimeError(
                    f"{self.game}: legal action {state.action_to_string(action)!r} has no index"
                )
            out.append(index)
        return out

    def mask(self, state: State[Any]) -> np.ndarray:
        mask = np.zeros(self.num_actions, dtype=np.int8)
        mask[self.legal_indices(state)] = 1
        return mask

    def decode(self, index: object, state: State[Any]) -> Any:
        """The engine action of table entry ``index``; :class:`IllegalActionError` when it is not legal now."""
        if isinstance(index, np.integer):
            index = int(index)
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < self.num_actions:
            raise IllegalActionError(
                f"an action is an index 0..{self.num_actions - 1} of the {self.game} action table, got {index!r}",
                rule="action-index",
            )
        if index not in self.legal_indices(state):
            action = self.actions[index]
            raise IllegalActionError(
                f"{self.describe(index)!r} is not legal now (see the action mask)",
                rule="legal-actions" if action is not None else "action-index",
            )
        return self.actions[index]

    def describe(self, index: int) -> str:
        """The action's text notation (for docs, errors and debugging)."""
        return str(self.actions[index])


def one_hot(size: int, index: int) -> list[float]:
    out = [0.0] * size
    if 0 <= index < size:
        out[index] = 1.0
    return out


def bits(value: int, count: int) -> list[float]:
    return [float(value >> i & 1) for i in range(count)]


def rotated(num_players: int, seat: int) -> list[int]:
    """Seats in the order an observation lists them: the observer first, then the following seats."""
    return [(seat + k) % num_players for k in range(num_players)]
