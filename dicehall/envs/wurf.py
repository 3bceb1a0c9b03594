"""Der große Wurf for environments: the observation vector and a discretised throw space.

Actions: a throw at the centre of each cell of a ``grid × grid`` aim grid (row by row from the thrower's side,
``a1`` first) with each of the ``powers``, spin 0.5 — ``grid² × len(powers)`` entries — then ``gather`` (push the
arena dice into a tight block around their centroid, once per throw) and ``end`` (end the turn after a throw in
which every number differed). The default 5 × 5 grid with powers 0.2, 0.5, 0.8 is exactly the engine's own list of
legal actions (77 entries); a finer grid or other powers are throws the engine accepts just the same.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np

from dicehall.core.errors import RuleConfigError
from dicehall.core.game import State
from dicehall.envs.codec import Codec, one_hot, rotated
from dicehall.wurf import actions as act
from dicehall.wurf.actions import EndTurn, Rearrange, Throw
from dicehall.wurf.arena.base import ARENA_MM
from dicehall.wurf.rules import TOTAL_DICE
from dicehall.wurf.state import AIM_POWERS, CHOICE, THROW, WurfState

GATHER = "gather"
ARENA_SLOTS = TOTAL_DICE
DIE_FIELDS = ("present", "face X", "face 2", "face 3", "face 4", "face 5", "face 6", "x / 200 mm", "y / 200 mm",
              "sin yaw", "cos yaw")  # fmt: skip


class WurfCodec(Codec):
    game = "wurf"

    def __init__(self, num_players: int, grid: int = act.CELLS, powers: Sequence[float] = AIM_POWERS) -> None:
        if not isinstance(grid, int) or isinstance(grid, bool) or not 1 <= grid <= 20:
            raise RuleConfigError(f"the aim grid must be 1–20 cells a side, got {grid!r}", option="grid")
        powers = tuple(powers)
        if not powers or any(
            isinstance(p, bool) or not isinstance(p, int | float) or not 0.0 <= p <= 1.0 for p in powers
        ):
            raise RuleConfigError(f"throw powers are numbers within 0–1, got {powers!r}", option="powers")
        cell = ARENA_MM / grid
        throws = [
            Throw((col + 0.5) * cell, (row + 0.5) * cell, float(p), 0.5)
            for row in range(grid)
            for col in range(grid)
            for p in powers
        ]
        self.grid = grid
        self.powers = powers
        super().__init__(num_players, (*throws, GATHER, EndTurn()))
        self.layout = (
            (
                "seats (observer first), each: dice in supply / 15, still in this game, match points / 5",
                3 * num_players,
            ),
            (
                "turn: observer to move, big throw next, rearranged, after a throw (may end), throws this turn / 10",
                5,
            ),
            ("dice: in the next throw / 15, out of the game / 31, in the box / 31, in the arena / 31", 4),
            ("match: game number / games", 1),
            (
                f"arena dice in engine order, {ARENA_SLOTS} slots × ({', '.join(DIE_FIELDS)})",
                ARENA_SLOTS * 11,
            ),
        )

    def key(self, action: Any) -> Hashable:
        if isinstance(action, Rearrange):
            return GATHER
        return action  # type: ignore[no-any-return]

    def engine_legal(self, state: State[Any]) -> Sequence[Any]:
        assert isinstance(state, WurfState)
        if state.phase not in (THROW, CHOICE):
            return []
        out: list[Any] = [a for a in self.actions if isinstance(a, Throw)]
        if not state.rearranged and len(state.arena) >= 2 and state.gather_action() is not None:
            out.append(GATHER)
        if state.phase == CHOICE:
            out.append(EndTurn())
        return out

    def decode(self, index: object, state: State[Any]) -> Any:
        action = super().decode(index, state)
        if action == GATHER:
            assert isinstance(state, WurfState)
            return state.gather_action()
        return action

    def describe(self, index: int) -> str:
        action = self.actions[index]
        return action if isinstance(action, str) else act.to_string(action)

    def encode(self, state: State[Any], seat: int) -> np.ndarray:
        assert isinstance(state, WurfState)
        out: list[float] = []
        for q in rotated(state.num_players, seat):
            out += (state.supply[q] / 15, float(state.alive[q]), state.match_points[q] / 5)
        playing = state.phase in (THROW, CHOICE)
        out += (
            float(playing and state.current == seat),
            float(state.big_next),
            float(state.rearranged),
            float(state.phase == CHOICE),
            min(1.0, state.throws_this_turn / 10),
        )
        out += (
            state.throw_count() / 15 if playing else 0.0,
            state.out_of_game / TOTAL_DICE,
            state.box() / TOTAL_DICE,
            len(state.arena) / TOTAL_DICE,
        )
        out.append(min(state.game_index + 1, state.games_total) / state.games_total)
        for k in range(ARENA_SLOTS):
            if k < len(state.arena):
                d = state.arena[k]
                yaw = math.radians(d.yaw)
                out.append(1.0)
                out += one_hot(6, d.face - 1)
                out += (
                    (d.x if d.x is not None else ARENA_MM / 2) / ARENA_MM,
                    (d.y if d.y is not None else ARENA_MM / 2) / ARENA_MM,
                    math.sin(yaw),
                    math.cos(yaw),
                )
            else:
                out += [0.0] * 11
        return np.asarray(out, dtype=np.float32)
