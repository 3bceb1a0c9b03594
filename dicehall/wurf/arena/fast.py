"""The fast arena: a statistical model of a throw, calibrated from the physics model.

Per thrown die: P(leave the arena) is logistic in power; landing spot scatters around the aim point with a
forward drift (shorter when dice lie near the aim) and rebounds off the walls; the face follows the fitted face frequencies. Per arena die: P(disturbed) is logistic in its
distance from the aim point, power, spin, how many dice crowd around it (how tightly they are gathered) and how
many dice are thrown; a disturbed die leaves the arena, is cocked, or stays with a changed face (to a
neighbouring face or the opposite one) with fitted probabilities, and is pushed away from the aim point.
The parameters live in ``fast_params.json`` and are refitted by ``python -m dicehall.wurf.arena.calibrate``.
"""

from __future__ import annotations

import dataclasses
import json
import math
import operator
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

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
from dicehall.wurf.layout import free_spot

PARAMS_FILE = Path(__file__).with_name("fast_params.json")
CROWD_MM = 26.0
"""Another die whose centre is within this distance of a die counts as crowding it (gathered dice)."""
_LO, _HI = DIE_MM / 2, ARENA_MM - DIE_MM / 2
_U = 5  # uniforms drawn per thrown die
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
    pts = [(d.x, d.y) for d in arena if d.x is not None and d.y is not None]
    if len(pts) != len(arena):
        return crowding(fill_unknown_positions(arena))
    lim = CROWD_MM**2
    out = [0] * len(pts)
    for i in range(len(pts)):
        xi, yi = pts[i]
        for j in range(i + 1, len(pts)):
            xj, yj = pts[j]
            if (xi - xj) ** 2 + (yi - yj) ** 2 <= lim:
                out[i] += 1
                out[j] += 1
    return out


@dataclasses.dataclass(frozen=True)
class FastParams:
    thrown_leave: tuple[float, ...]  # logistic weights on thrown_features
    thrown_rim_share: float  # of the dice that leave, the share resting on the rim
    thrown_cocked: float
    face_probs: tuple[float, ...]  # X, 2..6 for a thrown die
    drift: tuple[
        float, ...
    ]  # forward drift (mm) = drift[0] + drift[1] * power + drift[2] * dice near the aim
    scatter: tuple[
        float, ...
    ]  # sd (mm) of the landing spot: across = [0] + [1] * power, along = [2] + [3] * power
    bounce: float  # a spot drawn beyond a wall comes back by this share of its overshoot (the die rebounds)
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
    return float(sum(map(operator.mul, w, f)))


class FastArena:
    """The calibrated statistical arena model."""

    name = "fast"

    def __init__(self, params: FastParams) -> None:
        self.p = params
        self._plans: dict[tuple[tuple[DieRest, ...], int, ThrowParams], _Plan] = {}
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

    def plan(self, arena: tuple[DieRest, ...], n_thrown: int, params: ThrowParams) -> _Plan:
        """Per-die probabilities for a layout and throw (cached: bots evaluate the same layout many times)."""
        key = (arena, n_thrown, params)
        hit = self._plans.get(key)
        if hit is not None:
            return hit
        p = self.p
        placed = fill_unknown_positions(arena)
        power, spin = params.power, params.spin
        crowd = crowding(placed) if len(placed) > 1 else [0] * len(placed)
        dice = []
        # arena_features written out: the terms that do not depend on the die are summed once per layout.
        lg = math.log(max(1, n_thrown))
        w_sets = (p.hit, p.hit_leave, p.hit_change)
        bases = [w[0] + w[3] * power + w[5] * spin + w[7] * lg for w in w_sets]
        for k, d in enumerate(placed):
            assert d.x is not None and d.y is not None
            dx, dy = d.x - params.x, d.y - params.y
            r = math.hypot(dx, dy) / 100.0
            c = float(crowd[k])
            ph, pl, pc = (
                _sig(b0 + w[1] * r + w[2] * r * r + w[4] * r * power + w[6] * c)
                for b0, w in zip(bases, w_sets, strict=True)
            )
            dice.append(
                _DiePlan(d, DieResult("arena", d.face, d.x, d.y, d.yaw), ph, pl, pc, math.atan2(dy, dx))
            )
        near = near_aim(placed, params.x, params.y)
        tl = _sig(_dot(p.thrown_leave, thrown_features(power, max(1, n_thrown), near, params.x, params.y)))
        bunch = 10.0 * math.sqrt(n_thrown - 1) if n_thrown > 1 else 0.0
        result = _Plan(
            tuple(dice),
            tl,
            p.scatter[0] + p.scatter[1] * power + bunch,
            p.scatter[2] + p.scatter[3] * power + bunch,
            p.drift[0] + p.drift[1] * power + p.drift[2] * near,
            p.push[0] + p.push[1] * power,
        )
        if len(self._plans) > 4096:
            self._plans.clear()
        self._plans[key] = result
        return result

    def throw(
        self,
        arena: Sequence[DieRest],
        n_thrown: int,
        params: ThrowParams,
        rng: np.random.Generator,
        record_frames: bool = False,
    ) -> ThrowResult:
        p = self.p
        plan = self.plan(tuple(arena), n_thrown, params)
        n_arena = len(plan.dice)
        # One batch of uniforms and normals per throw keeps the model fast and deterministic.
        u = rng.random(n_arena + _U * n_thrown + 1).tolist()
        results: list[DieResult] = []
        disturbed: list[int] = []
        for k, dp in enumerate(plan.dice):
            if u[k] < dp.p_hit:
                disturbed.append(k)
                results.append(dp.unchanged)  # replaced below
            else:
                results.append(dp.unchanged)
        if disturbed:
            v = rng.random(7 * len(disturbed)).tolist()
            z = rng.standard_normal(len(disturbed)).tolist()
            for j, k in enumerate(disturbed):
                dp = plan.dice[k]
                w = v[7 * j : 7 * j + 7]
                if w[0] < dp.p_leave:
                    results[k] = DieResult("out")
                    continue
                d = dp.die
                face = d.face
                if w[1] < dp.p_change:
                    face = 7 - face if w[2] < p.opposite_share else _ADJACENT[face][min(3, int(w[3] * 4))]
                status: Status = "cocked" if w[4] < p.hit_cocked else "arena"
                # Pushed away from the aim point by an exponential distance.
                push = -plan.push * math.log(1.0 - w[5])
                ang = dp.angle + 0.5 * z[j]
                assert d.x is not None and d.y is not None
                nx = min(_HI, max(_LO, d.x + push * math.cos(ang)))
                ny = min(_HI, max(_LO, d.y + push * math.sin(ang)))
                results[k] = DieResult(
                    status, face, round(nx, 1), round(ny, 1), round((d.yaw + 90 * w[6]) % 90, 1)
                )
        if n_thrown:
            zt = rng.standard_normal(2 * n_thrown).tolist()
            ui = n_arena
            for t in range(n_thrown):
                if u[ui] < plan.thrown_leave:
                    results.append(DieResult("rim" if u[ui + 1] < p.thrown_rim_share else "out"))
                else:
                    status2: Status = "cocked" if u[ui + 3] < p.thrown_cocked else "arena"
                    nx = rebound(params.x + plan.spread_x * zt[2 * t], p.bounce)
                    ny = rebound(params.y + plan.drift + plan.spread_y * zt[2 * t + 1], p.bounce)
                    results.append(
                        DieResult(
                            status2,
                            self._face(u[ui + 2]),
                            round(nx, 1),
                            round(ny, 1),
                            round(90 * u[ui + 4], 1),
                        )
                    )
                ui += _U
        return ThrowResult(_placed(results, disturbed, n_arena))

    def sample_faces(self, plan: _Plan, n_thrown: int, rng: np.random.Generator) -> list[int]:
        """Only the faces after a throw, for Monte Carlo: 0 = left the arena; a cocked die's face is its
        re-throw outside the arena (1..6, 1 = X). Same probabilities as :meth:`throw`, no positions."""
        p = self.p
        n_arena = len(plan.dice)
        u = rng.random(3 * (n_arena + n_thrown)).tolist()
        out: list[int] = []
        j = 0
        for dp in plan.dice:
            face = dp.die.face
            if u[j] < dp.p_hit:
                w = u[j + 1]
                if w < dp.p_leave:
                    face = 0
                else:
                    w2 = u[j + 2]
                    if w2 < dp.p_change:
                        # reuse the uniform's remainder for which face it turns to
                        r = w2 / dp.p_change
                        if r < p.opposite_share:
                            face = 7 - face
                        else:
                            r = (r - p.opposite_share) / (1.0 - p.opposite_share)
                            face = _ADJACENT[face][min(3, int(r * 4))]
            j += 3
            out.append(face)
        for _ in range(n_thrown):
            if u[j] < plan.thrown_leave:
                out.append(0)
            elif u[j + 1] < p.thrown_cocked:
                out.append(1 + min(5, int(u[j + 2] * 6)))
            else:
                out.append(self._face(u[j + 2]))
            j += 3
        return out


def rebound(v: float, bounce: float) -> float:
    """A landing coordinate drawn beyond a wall, brought back as a die rebounding off it (then kept on the floor)."""
    if v > _HI:
        v = _HI - bounce * (v - _HI)
    elif v < _LO:
        v = _LO + bounce * (_LO - v)
    return min(_HI, max(_LO, v))


def _placed(results: list[DieResult], disturbed: list[int], n_arena: int) -> list[DieResult]:
    """The drawn spots made physically possible: every die that moved (a disturbed arena die, a landed thrown die)
    goes to the free spot nearest its drawn one, after the dice that stayed put."""
    moved = set(disturbed) | set(range(n_arena, len(results)))
    taken = [
        (d.x, d.y, d.yaw) for k, d in enumerate(results) if k not in moved and d.status in ("arena", "cocked")
    ]
    for k in sorted(moved):
        d = results[k]
        if d.status not in ("arena", "cocked"):
            continue
        x, y = free_spot(d.x, d.y, d.yaw, taken)
        taken.append((x, y, d.yaw))
        if (x, y) != (d.x, d.y):
            results[k] = d._replace(x=round(x, 1), y=round(y, 1))
    return results


class _DiePlan(NamedTuple):
    die: DieRest
    unchanged: DieResult
    p_hit: float
    p_leave: float
    p_change: float
    angle: float  # direction from the aim point to the die (radians)


@dataclasses.dataclass(frozen=True)
class _Plan:
    dice: tuple[_DiePlan, ...]
    thrown_leave: float
    spread_x: float
    spread_y: float
    drift: float
    push: float
