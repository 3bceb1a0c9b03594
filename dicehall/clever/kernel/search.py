"""Decision-time look-ahead for ``bot:master``: expectimax over the turn's next roll, the learned value at the leaves.

The value network is face-blind: after an active pick it sees how many dice are left to roll, not which colours.
So where a candidate action leads to another roll of the same turn (a pick with rolls left, a re-roll, a bonus
choice in between), :func:`choose_search` replaces that candidate's value by the mean, over a fixed set of rolls,
of the best afterstate value the player could then reach (one more decision, valued by the network). Only the
candidates within ``margin`` of the best plain value are looked at (at most ``width`` of them): elsewhere the
choice is clear and the look-ahead would not change it. The rolls are a fixed table (each die's faces exactly
uniform over the table), so the bot stays deterministic: the engine path and the kernel fast path play the
same game.
"""

from __future__ import annotations

import numpy as np

from dicehall.clever.kernel import rules as K
from dicehall.clever.kernel.layout import ACTIVE, PHASE, ROLLS, SIZE, N, njit
from dicehall.clever.kernel.net import (
    afterstate_values,
    best_value,
    decision_scratch,
    first_best,
    roll_to_decision,
)
from dicehall.core.game import CHANCE, TERMINAL


def roll_table(count: int, seed: int = 12) -> np.ndarray:
    """``count`` six-dice rolls (a multiple of 6) in which every die shows each face exactly ``count / 6`` times."""
    if count <= 0 or count % 6:
        raise ValueError(f"the look-ahead needs a positive multiple of 6 rolls, not {count}")
    rng = np.random.default_rng(seed)
    faces = np.repeat(np.arange(1, 7, dtype=np.int64), count // 6)
    return np.stack([rng.permutation(faces) for _ in range(6)], axis=1)


@njit
def next_roll_value(
    h: np.ndarray,
    p: int,
    rolls: np.ndarray,
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    w3: np.ndarray,
    b3: np.ndarray,
) -> float:
    """Mean over ``rolls`` of the best afterstate value ``p`` reaches by the decision after the roll at ``h``."""
    out, values = decision_scratch()
    rolled = np.empty(SIZE, np.int64)
    keys = np.zeros(6)
    acc = 0.0
    for r in range(rolls.shape[0]):
        rolled[:] = h
        K.apply(rolled, K.chance_code(rolled, rolls[r], keys))
        acc += best_value(rolled, p, w1, b1, w2, b2, w3, b3, out, values)
    return float(acc / rolls.shape[0])


@njit
def leads_to_roll(action: int, h: np.ndarray, p: int, every_roll: bool) -> bool:
    """Whether ``action`` (afterstate ``h``) leads to a roll after which ``p`` decides: one of the same turn, or
    with ``every_roll`` any (a new turn's first roll, the solo passive roll)."""
    if every_roll:
        return K.current_player(h) == CHANCE and (
            (h[PHASE] == K.PH_ROLL and h[ACTIVE] == p) or (h[PHASE] == K.PH_PASSIVE_ROLL and h[N] == 1)
        )
    return h[PHASE] == K.PH_ROLL and h[ACTIVE] == p and (h[ROLLS] > 0 or action == K.REROLL)


@njit
def choose_search(
    g: np.ndarray,
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    w3: np.ndarray,
    b3: np.ndarray,
    out: np.ndarray,
    values: np.ndarray,
    rolls: np.ndarray,
    margin: float,
    width: int,
    every_roll: bool,
) -> int:
    """Like :func:`net.choose`, with the next-roll look-ahead for the close candidates that lead to a roll."""
    p = K.current_player(g)
    k = afterstate_values(g, p, w1, b1, w2, b2, w3, b3, out, values)
    best = first_best(values, k)
    if k == 1 or width <= 0:
        return best
    h = np.empty(SIZE, np.int64)
    top = values[best]
    looked = 0
    for i in np.argsort(-values[:k]):
        if looked >= width or values[i] < top - margin:
            break
        h[:] = g
        K.apply(h, out[i])
        if leads_to_roll(out[i], h, p, every_roll):
            values[i] = next_roll_value(h, p, rolls, w1, b1, w2, b2, w3, b3)
            looked += 1
    if looked == 0:
        return best
    return first_best(values, k)


@njit
def play_search(
    g: np.ndarray,
    rng: np.random.Generator,
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    w3: np.ndarray,
    b3: np.ndarray,
    rolls: np.ndarray,
    margin: float,
    width: int,
    every_roll: bool,
) -> None:
    """Finish the game with every seat playing :func:`choose_search`; dice from ``rng``."""
    out, values = decision_scratch()
    while roll_to_decision(g, rng) != TERMINAL:
        pick = choose_search(g, w1, b1, w2, b2, w3, b3, out, values, rolls, margin, width, every_roll)
        K.apply(g, out[pick])
