"""``dicehall simulate clever`` at the kernel's speed: whole blocks of ``bot:random`` or ``bot:master`` games
played, summed up and (on request) recorded from the kernel's trace (:mod:`dicehall.clever.kernel.block`).

The games are the plain loop's for the same seeds, game by game (``tests/clever/test_blocks.py``); a record
written here replays in the engine to the same result.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from dicehall.clever import actions as A
from dicehall.clever.kernel import compiled
from dicehall.clever.kernel import layout as L
from dicehall.clever.rules import CleverRules
from dicehall.clever.state import CleverState
from dicehall.core.agents import seat_names
from dicehall.core.game import CHANCE
from dicehall.core.record import Event, GameRecord
from dicehall.core.rng import game_seed, int_words
from dicehall.core.simulate import OutcomeBlock, SimulationJob

_NO_NET = (np.zeros((1, 1)), np.zeros(1), np.zeros((1, 1)), np.zeros(1), np.zeros(1), np.zeros(1))  # unused
_NO_ROLLS = np.zeros((6, 6), np.int64)
_NO_TAIL = np.zeros(1)  # random games read no look-ahead


def kernel(random: bool) -> tuple[Callable[..., None], Callable[..., np.ndarray]]:
    """``play_block`` and ``new_game``: for random games the ahead-of-time module where it is built from the
    current sources (no Numba to load), else Numba's (bot:master's always: its network's arithmetic stays with
    the just-in-time compiler it was measured with)."""
    module: Any = compiled.load() if random else None
    if module is None:
        from dicehall.clever.kernel import block as KB
        from dicehall.clever.kernel import rules as K

        return KB.play_block, K.new_game
    return module.play_block, module.new_game


def play(
    job: SimulationJob,
    indices: range,
    master: tuple[list[np.ndarray], tuple[np.ndarray, float, int, bool, np.ndarray] | None] | None = None,
) -> OutcomeBlock:
    """The games ``indices`` of ``job`` with every seat ``bot:random``, or with ``master`` = (weights, look-ahead
    arguments or None) every seat ``bot:master``."""
    rules = job.rules
    assert isinstance(rules, CleverRules)
    n = len(job.players)
    count = len(indices)
    scores = np.zeros((count, n), np.int64)
    shares = np.zeros((count, n))
    stats = np.zeros((count, len(L.STATS)))
    recording = job.save_dir is not None
    rows, width = (count, L.TRACE_PER_GAME) if recording else (0, 0)
    actors = np.zeros((rows, width), np.int64)
    codes = np.zeros((rows, width), np.int64)
    steps = np.zeros(rows, np.int64)
    if master is None:
        kind, net, look = L.RANDOM, list(_NO_NET), (_NO_ROLLS, 0.0, 0, False, _NO_TAIL)
    else:
        from dicehall.clever.kernel.search import TAIL_OFF

        kind, net, look = L.MASTER, master[0], master[1] or (_NO_ROLLS, 0.0, 0, False, TAIL_OFF)
    w1, b1, w2, b2, w3, b3 = net
    play_block, new_game = kernel(master is None)
    play_block(
        kind,
        int_words(job.seed),
        indices.start,
        new_game(n, CleverState(rules, n).rounds, rules.passive_fallback, rules.auto_single_choice),
        (w1, b1, w2, b2, w3, b3),
        *look,
        scores,
        shares,
        stats,
        actors,
        codes,
        steps,
    )
    if recording:
        _save(job, indices, actors, codes, steps, scores, shares)
    return OutcomeBlock(
        indices.start,
        shares,
        scores.astype(float),
        {key: stats[:, i] for i, key in enumerate(L.STATS)},
    )


def _save(
    job: SimulationJob,
    indices: range,
    actors: np.ndarray,
    codes: np.ndarray,
    steps: np.ndarray,
    scores: np.ndarray,
    shares: np.ndarray,
) -> None:
    """One record per game from its trace (``play_games`` names and fills them the same way)."""
    assert job.save_dir is not None
    names = seat_names(list(job.players))
    for j, index in enumerate(indices):
        record = GameRecord.start(job.game, job.rules, names, game_seed(job.seed, index))
        k = int(steps[j])
        record.events = [
            Event("chance" if actor == CHANCE else actor, A.to_string(code))
            for actor, code in zip(actors[j, :k].tolist(), codes[j, :k].tolist(), strict=True)
        ]
        returns = shares[j].tolist()
        best = max(returns)
        record.result = {
            "scores": scores[j].astype(float).tolist(),
            "returns": returns,
            "winners": [i for i, v in enumerate(returns) if v == best and v > 0],
        }
        record.save(Path(job.save_dir) / f"{job.game}-{job.seed}-{index:06d}.json")


def warm() -> None:
    """Compile (or load from Numba's cache) the block kernel: ``make kernels`` calls this once."""
    from dicehall.core.agents import parse_players

    rules = CleverRules.from_preset()
    play(SimulationJob("clever", rules, tuple(parse_players("bot:random")), 0), range(1))
