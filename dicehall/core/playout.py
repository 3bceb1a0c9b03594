"""Whole-game fast paths for bot simulation, registered by the modules that define the bots.

An engine knows nothing of bots, compiled kernels or solved tables. A module that has a faster way to finish a
bot game (a kernel for random play, a solved table, an inlined loop) registers it here on import, and
:func:`dicehall.core.simulate.play_game` asks :func:`play_out` before playing step by step.

A registered function ``fn(state, agents, chance_rng, bot_rng)`` must leave the state and both generators
exactly as the plain loop would, and return False, changing nothing, where it does not apply. Each one has a
differential test (docs/ARCHITECTURE.md lists them).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

PlayOut = Callable[[Any, Sequence[Any], np.random.Generator, np.random.Generator], bool]

_FOR_AGENT: dict[tuple[type, type], PlayOut] = {}
_FOR_ANY: dict[type, PlayOut] = {}


def register_playout(state_type: type, fn: PlayOut, *, agent_type: type | None = None) -> None:
    """Let ``fn`` finish games of ``state_type`` when every seat is exactly an ``agent_type`` (a subclass is
    another bot), or, without ``agent_type``, whoever the seats are (tried after the agent's own path)."""
    if agent_type is None:
        _FOR_ANY[state_type] = fn
    else:
        _FOR_AGENT[state_type, agent_type] = fn


def play_out(
    state: Any, agents: Sequence[Any], chance_rng: np.random.Generator, bot_rng: np.random.Generator
) -> bool:
    """Finish the game on a registered fast path; False, changing nothing, when none applies."""
    kinds = {type(agent) for agent in agents}
    if len(kinds) == 1:
        own = _FOR_AGENT.get((type(state), kinds.pop()))
        if own is not None and own(state, agents, chance_rng, bot_rng):
            return True
    general = _FOR_ANY.get(type(state))
    return general is not None and general(state, agents, chance_rng, bot_rng)


BlockPlay = Callable[[Any, Sequence[Any], range], Any]
"""``fn(job, agents, indices)``: the games numbered ``indices`` of a simulation job as one
:class:`~dicehall.core.simulate.OutcomeBlock`, or None where it does not apply."""

_BLOCKS: dict[tuple[str, type], BlockPlay] = {}


def register_block(game: str, fn: BlockPlay, *, agent_type: type) -> None:
    """Let ``fn`` play whole blocks of ``game``'s simulated games when every seat is exactly an ``agent_type``:
    the games must be those the plain loop plays for the same seeds (each such path has a differential test)."""
    _BLOCKS[game, agent_type] = fn


def block_player(game: str, agents: Sequence[Any]) -> BlockPlay | None:
    """The block path registered for these agents (all of one exact type), or None."""
    kinds = {type(agent) for agent in agents}
    if len(kinds) != 1:
        return None
    return _BLOCKS.get((game, kinds.pop()))
