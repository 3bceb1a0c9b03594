"""Random sources. Nothing in dicehall uses the global ``random`` module.

Simulation derives one independent stream per game from a root seed, so results do not depend on how games
are spread over processes:

>>> a = game_rng(7, 3).integers(1, 7, size=5).tolist()
>>> b = game_rng(7, 3).integers(1, 7, size=5).tolist()
>>> a == b
True
"""

from __future__ import annotations

import secrets

import numpy as np


def int_words(value: int) -> np.ndarray:
    """A non-negative int as NumPy's SeedSequence takes it: 32-bit words, least significant first, no high zeros."""
    if value < 0:
        raise ValueError("seeds are non-negative")
    words = [0] if value == 0 else []
    while value:
        words.append(value & 0xFFFFFFFF)
        value >>= 32
    return np.array(words, np.uint64)


def seeded_rng(seed: int) -> np.random.Generator:
    """A reproducible generator for ``seed``."""
    return np.random.default_rng(np.random.SeedSequence(seed))


def game_seed(seed: int, game_index: int) -> int:
    """The seed of game number ``game_index`` in a simulation rooted at ``seed`` (stored in its record)."""
    words = np.random.SeedSequence(seed, spawn_key=(game_index,)).generate_state(2, np.uint64)
    return (int(words[0]) << 64) | int(words[1])


def game_rng(seed: int, game_index: int) -> np.random.Generator:
    """The dice stream of game number ``game_index`` in a simulation rooted at ``seed``."""
    return seeded_rng(game_seed(seed, game_index))


def agent_rng(seed: int) -> np.random.Generator:
    """The bots' own stream for a game with dice seed ``seed``, independent of the dice."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(1,)))


def live_seed() -> int:
    """A fresh 128-bit seed from the operating system's secure source, for live play."""
    return secrets.randbits(128)


def live_rng() -> tuple[int, np.random.Generator]:
    """A generator for live play and the seed that reproduces it (kept in the record)."""
    seed = live_seed()
    return seed, seeded_rng(seed)
