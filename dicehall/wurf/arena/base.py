"""The arena interface shared by the physics model and the fast statistical model.

Coordinates are millimetres in the arena frame: ``x`` runs west→east and ``y`` south→north over the inner floor
``[0, ARENA_MM] × [0, ARENA_MM]``; the thrower stands south of the box. ``yaw`` is the die's rotation about the
vertical in degrees. Faces are 1 (the X) to 6.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Literal, NamedTuple, Protocol

import numpy as np

ARENA_MM = 200.0
"""Inner arena floor: a square of this side (ruling: about 20 × 20 cm)."""
WALL_MM = 30.0
"""Height of the arena walls above the floor; their top is the rim."""
RIM_MM = 25.0
"""Width of the rim around the arena (the top of the box insert)."""
DIE_MM = 16.0
"""Edge of a die."""
MIN_GAP_MM = DIE_MM + 1.0
"""Smallest centre distance between two dice placed by hand (no stacking, no overlap)."""
WALL_CLEARANCE_MM = DIE_MM / 2 * 1.5
"""Smallest distance of a hand-placed die's centre from a wall (a die turned 45° still fits)."""

X = 1
"""The blank face."""
FACE_NAMES = {1: "X", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6"}

Status = Literal["arena", "out", "rim", "cocked"]


@dataclasses.dataclass(frozen=True)
class ThrowParams:
    """A player's throw: aim point on the floor (mm), power 0..1 (gentle lob to hard throw), spin 0..1."""

    x: float
    y: float
    power: float
    spin: float = 0.5


@dataclasses.dataclass(frozen=True)
class DieRest:
    """A die lying flat in the arena. ``x``/``y`` are ``None`` when unknown (referee mode)."""

    face: int
    x: float | None = None
    y: float | None = None
    yaw: float = 0.0


class DieResult(NamedTuple):
    """Where one die ended up. For ``cocked`` dice ``face`` is the leaning die's nearest face (the rules then
    re-throw it outside the arena; that re-throw is drawn by the game, not the arena model)."""

    status: Status
    face: int = 0
    x: float = 0.0
    y: float = 0.0
    yaw: float = 0.0
    quat: tuple[float, float, float, float] | None = None
    """Full orientation (w, x, y, z) where the model knows it (physics); records keep face and yaw."""


@dataclasses.dataclass
class ThrowResult:
    """Dice in input order: the arena dice first, then the thrown dice. ``frames`` (physics only) holds poses
    for playback: one array per frame of shape (dice, 7) = position in mm and quaternion (w, x, y, z)."""

    dice: list[DieResult]
    frames: list[np.ndarray] = dataclasses.field(default_factory=list)
    frame_dt: float = 0.0
    sim_time: float = 0.0


class ArenaModel(Protocol):
    name: str

    def throw(
        self,
        arena: Sequence[DieRest],
        n_thrown: int,
        params: ThrowParams,
        rng: np.random.Generator,
        record_frames: bool = False,
    ) -> ThrowResult:
        """Throw ``n_thrown`` dice into an arena holding ``arena``; deterministic for the state of ``rng``."""
        ...


def fill_unknown_positions(arena: Sequence[DieRest]) -> list[DieRest]:
    """Give dice of unknown position a deterministic spot on a grid (referee records have no positions)."""
    taken = [(d.x, d.y) for d in arena if d.x is not None and d.y is not None]
    out: list[DieRest] = []
    spots = [
        (30.0 + 35.0 * i, 30.0 + 35.0 * j) for j in range(5) for i in range(5)
    ]  # 25 spots, enough for 31 - 6 dice
    k = 0
    for d in arena:
        if d.x is not None and d.y is not None:
            out.append(d)
            continue
        while True:
            sx, sy = spots[k % len(spots)]
            k += 1
            if all((sx - tx) ** 2 + (sy - ty) ** 2 >= MIN_GAP_MM**2 for tx, ty in taken) or k > 60:
                break
        taken.append((sx, sy))
        out.append(DieRest(d.face, sx, sy, d.yaw))
    return out
