"""Dice 1000 for environments: the observation vector and the action table.

Actions (463): ``0`` roll, ``1`` bank, then every ``keep d,...`` (``free_set_aside``: the dice set aside, in
ascending order; 1–5 dice, 461 multisets). Observation: one block per seat, the observer's first, then the turn.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from dicehall.core.game import State
from dicehall.envs.codec import Codec, one_hot, rotated
from dicehall.thousand.state import BANK, ROLL, ThousandState

KEEPS = tuple(
    "keep " + ",".join(map(str, dice))
    for k in range(1, 6)
    for dice in itertools.combinations_with_replacement(range(1, 7), k)
)
SEAT_FIELDS = (
    "score / target",
    "opened",
    "in a pit",
    "on the barrel",
    "barrel turns used / limit (0 without a limit)",
    "barrel falls / 3 (capped at 1)",
    "bolts / bolts_count",
    "open-barrel points / open_points_limit",
    "skips the next turn",
    "failed openings / open_fail_every (capped at 1)",
    "is the turn player",
)
TURN_FIELDS = (
    "turn total / target",
    "minimum bank / target",
    "maximum bank / target (1 without a cap)",
    "can bank now",
    "hot dice (the next roll takes all 5)",
    "confirming (the pending roll confirms hot dice)",
    "choosing dice to keep (free_set_aside)",
    "free rolls left / max_rolls (1 without a limit)",
    "rolls this turn / 10 (capped at 1)",
)


class ThousandCodec(Codec):
    game = "thousand"

    def __init__(self, num_players: int) -> None:
        super().__init__(num_players, (ROLL, BANK, *KEEPS))
        self.layout = (
            ("seats", num_players * len(SEAT_FIELDS)),
            ("turn", len(TURN_FIELDS)),
            ("dice in hand, one-hot 0–5", 6),
            ("last roll: count of each face 1–6 / 5", 6),
            ("set aside: count of each face 1–6 / 5", 6),
        )

    def encode(self, state: State[Any], seat: int) -> np.ndarray:
        assert isinstance(state, ThousandState)
        r = state.rules
        target = float(r.target)
        out: list[float] = []
        for q in rotated(state.n, seat):
            out += (
                state.score[q] / target,
                float(state.opened[q]),
                float(r.pit_of(state.score[q]) is not None),
                float(state.on_barrel[q]),
                state.attempts[q] / r.barrel_attempts if r.barrel_attempts else 0.0,
                min(1.0, state.falls[q] / 3),
                state.bolts[q] / r.bolts_count if r.bolts_count else 0.0,
                state.points[q] / r.open_points_limit if r.open_points_limit else 0.0,
                float(state.skip_next[q]),
                min(1.0, state.open_fails[q] / r.open_fail_every),
                float(q == state.player and not state.is_terminal()),
            )
        limit = state.max_bank()
        left = state.rolls_left
        out += (
            state.turn_total / target,
            state.min_bank() / target,
            1.0 if limit is None else limit / target,
            float(state.can_bank()),
            float(state.hot_dice),
            float(state.confirming or state.keep_is_confirmation),
            float(state.pending_roll is not None),
            1.0 if left is None else left / r.max_rolls,
            min(1.0, state.rolls_this_turn / 10),
        )
        out += one_hot(6, state.dice_in_hand)
        out += _face_counts(state.last_roll or ())
        out += _face_counts(state.set_aside)
        return np.asarray(out, dtype=np.float32)


def _face_counts(dice: tuple[int, ...]) -> list[float]:
    counts = [0.0] * 6
    for d in dice:
        counts[d - 1] += 0.2
    return counts
