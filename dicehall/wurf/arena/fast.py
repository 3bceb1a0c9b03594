"""The fast arena: a statistical model of a throw, calibrated from the physics model.

Per thrown die: P(leave the arena) is logistic in power; landing spot scatters around the aim point with a
forward drift; the face follows the fitted face frequencies. Per arena die: P(disturbed) is logistic in its
distance from the aim point, power, spin, how many dice crowd around it (how tightly they are gathered) and how
many dice are thrown; a disturbed die leaves the arena, is cocked, or stays with a changed face (to a
neighbouring face or the opposite one) with fitted probabilities, and is pushed away from the aim point.
The parameters live in ``fast_params.json`` and are refitted by ``python -m dicehall.wurf.arena.calibrate``.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from dicehall.wurf.arena.base import (
    ARENA_MM,
    DIE_MM,
    DieRest,
    DieResult,
    Status,
    ThrowParams,
    ThrowResult,
    fill_unknown_positions,
)

PARAMS_FILE = Path(__file__).with_name("fast_params.json")
CROWD_MM = 26.0
"""Another die whose centre is within this distance of a die counts as crowding it (gathered dice)."""
_LO, _HI = DIE_MM / 2, ARENA_MM - DIE_MM / 2
_U = 7  # uniforms drawn per die
_ADJACENT = {f: [g for g in range(1, 7) if g != f and g != 7 - f] for f in range(1, 7)}


def _sig(z: float) -> float:
    if z < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-z))


NEAR_MM = 45.0
"""Arena dice within this distance of the aim point are in the thrown die's way."""


def thrown_features(power: float, n_thrown: int, near: int, x: float, y: float) -> list[float]:
    north = (ARENA_MM - y) / 100.0  # room ahead of the aim point (throws fly north)
    side = min(x, ARENA_MM - x) / 100.0
    return [
        1.0,
        power,
        power * power,
        math.log(n_thrown),
        float(near),
        near * power,
        north,
        north * north,
        side,
        side * side,
        north * power,
    ]


def near_aim(arena: Sequence[DieRest], x: float, y: float) -> int:
    """How many arena dice lie within NEAR_MM of the aim point (capped at 3: more dice do not block more)."""
    return min(
        3,
        sum(
            1
            for d in arena
            if d.x is not None and d.y is not None and (d.x - x) ** 2 + (d.y - y) ** 2 <= NEAR_MM**2
        ),
    )


def arena_features(dist_mm: float, power: float, spin: float, crowd: int, n_thrown: int) -> list[float]:
    d = dist_mm / 100.0
    return [1.0, d, d * d, power, d * power, spin, float(crowd), math.log(n_thrown)]


def crowding(arena: Sequence[DieRest]) -> list[int]:
    """For each die, how many other dice lie within CROWD_MM (a measure of how tightly they are gathered)."""
    out = []
    for i, a in enumerate(arena):
        k = 0
        for j, b in enumerate(arena):
            if (
                i != j
                and a.x is not None
                and b.x is not None
                and a.y is not None
                and b.y is not None
                and (a.x - b.x) ** 2 + (a.y - b.y) ** 2 <= CROWD_MM**2
            ):
                k += 1
        out.append(k)
    return out


@dataclasses.dataclass(frozen=True)
class FastParams:
    thrown_leave: tuple[float, ...]  # logistic weights on thrown_features
    thrown_rim_share: float  # of the dice that leave, the share resting on the rim
    thrown_cocked: float
    face_probs: tuple[float, ...]  # X, 2..6 for a thrown die
    drift: tuple[float, float]  # forward drift (mm) = drift[0] + drift[1] * power
    scatter: tuple[float, float]  # sd (mm) of the landing spot = scatter[0] + scatter[1] * power
    hit: tuple[float, ...]  # logistic weights on arena_features: P(an arena die is disturbed)
    hit_leave: tuple[float, ...]  # logistic weights on arena_features: P(leave | disturbed)
    hit_cocked: float
    hit_change: tuple[float, ...]  # logistic weights on arena_features: P(face changes | disturbed, stays)
    opposite_share: float  # of changed faces, the share turning to the opposite face
    push: tuple[float, float]  # mean push (mm) of a disturbed die = push[0] + push[1] * power
    meta: dict[str, Any] = dataclasses.field(default_factory=dict, compare=False, hash=False)

    @classmethod
    def load(cls, path: Path = PARAMS_FILE) -> FastParams:
        raw = json.loads(path.read_text(encoding="utf-8"))
        fields = {f.name for f in dataclasses.fields(cls)}
        kw: dict[str, Any] = {}
        for k, v in raw.items():
            if k in fields:
                kw[k] = tuple(v) if isinstance(v, list) else v
        return cls(**kw)

    def save(self, path: Path = PARAMS_FILE) -> None:
        data = {k: list(v) if isinstance(v, tuple) else v for k, v in dataclasses.asdict(self).items()}
        path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def _dot(w: Sequence[float], f: Sequence[float]) -> float:
    return sum(a * b for a, b in zip(w, f, strict=True))


class FastArena:
    """The calibrated statistical arena model."""

    name = "fast"

    def __init__(self, params: FastParams) -> None:
        self.p = params
        cum = np.cumsum(params.face_probs)
        self._face_cum = [float(c / cum[-1]) for c in cum]

    @staticmethod
    @cache
    def default() -> FastArena:
        return FastArena(FastParams.load())

    def _face(self, u: float) -> int:
        for k, c in enumerate(self._face_cum):
            if u < c:
                return k + 1
        return 6

    def throw(
        self,
        arena: Sequence[DieRest],
        n_thrown: int,
        params: ThrowParams,
        rng: np.random.Generator,
        record_frames: bool = False,
    ) -> ThrowResult:
        p = self.p
        placed = fill_unknown_positions(arena)
        n_arena = len(placed)
        # One batch of uniforms and normals per throw keeps the model fast and deterministic.
        u = rng.random(_U * (n_arena + n_thrown) + 1).tolist()
        z = rng.standard_normal(2 * (n_arena + n_thrown) + 1).tolist()
        ui = zi = 0
        power, spin = params.power, params.spin
        results: list[DieResult] = []
        crowd = crowding(placed) if n_arena > 1 else [0] * n_arena
        for k, d in enumerate(placed):
            assert d.x is not None and d.y is not None
            dx, dy = d.x - params.x, d.y - params.y
            dist = math.hypot(dx, dy)
            feats = arena_features(dist, power, spin, crowd[k], max(1, n_thrown))
            if u[ui] >= _sig(_dot(p.hit, feats)):
                ui += _U
                results.append(DieResult("arena", d.face, d.x, d.y, d.yaw))
                continue
            if u[ui + 1] < _sig(_dot(p.hit_leave, feats)):
                ui += _U
                results.append(DieResult("out"))
                continue
            face = d.face
            if u[ui + 2] < _sig(_dot(p.hit_change, feats)):
                if u[ui + 3] < p.opposite_share:
                    face = 7 - face
                else:
                    face = _ADJACENT[face][min(3, int(u[ui + 3] * 4))]
            status: Status = "cocked" if u[ui + 4] < p.hit_cocked else "arena"
            # Pushed away from the aim point by an exponential distance.
            push = -(p.push[0] + p.push[1] * power) * math.log(1.0 - u[ui + 5])
            ang = math.atan2(dy, dx) + 0.5 * z[zi]
            yaw = round((d.yaw + 90 * u[ui + 6]) % 90, 1)
            ui += _U
            zi += 2
            nx = min(_HI, max(_LO, d.x + push * math.cos(ang)))
            ny = min(_HI, max(_LO, d.y + push * math.sin(ang)))
            results.append(DieResult(status, face, round(nx, 1), round(ny, 1), yaw))
        tl = _sig(
            _dot(
                p.thrown_leave,
                thrown_features(
                    power, max(1, n_thrown), near_aim(placed, params.x, params.y), params.x, params.y
                ),
            )
        )
        spread = (
            p.scatter[0] + p.scatter[1] * power + (10.0 * math.sqrt(n_thrown - 1) if n_thrown > 1 else 0.0)
        )
        drift = p.drift[0] + p.drift[1] * power
        for _ in range(n_thrown):
            if u[ui] < tl:
                results.append(DieResult("rim" if u[ui + 1] < p.thrown_rim_share else "out"))
                ui += _U
                continue
            face = self._face(u[ui + 2])
            status2: Status = "cocked" if u[ui + 3] < p.thrown_cocked else "arena"
            yaw = round(90 * u[ui + 4], 1)
            ui += _U
            nx = min(_HI, max(_LO, params.x + spread * z[zi]))
            ny = min(_HI, max(_LO, params.y + drift + spread * z[zi + 1]))
            zi += 2
            results.append(DieResult(status2, face, round(nx, 1), round(ny, 1), yaw))
        return ThrowResult(results)
