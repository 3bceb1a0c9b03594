"""Fit the fast model's parameters from physics throws: ``python -m dicehall.wurf.arena.calibrate``.

Scenarios mix scattered and gathered arenas of 1–10 dice, aims near the dice or anywhere, every power and
spin, and some big throws into an empty arena. Each arena die gives one row (features → disturbed? left?
face changed?) and each thrown die one row (power → left? face?). Logistic weights are fitted by Newton's
method with a small ridge penalty.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from dicehall.wurf.arena.base import ARENA_MM, DIE_MM, DieRest, ThrowParams
from dicehall.wurf.arena.fast import (
    PARAMS_FILE,
    FastParams,
    arena_features,
    crowding,
    near_aim,
    thrown_features,
)
from dicehall.wurf.arena.physics import PhysicsArena
from dicehall.wurf.layout import gather_positions, inside, overlap

MOVED_MM = 2.0
"""An arena die that moved more than this (or changed face or left) counts as disturbed."""


def fit_logistic(x: np.ndarray, y: np.ndarray, ridge: float = 1e-2, iters: int = 50) -> np.ndarray:
    w = np.zeros(x.shape[1])
    for _ in range(iters):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ w, -30, 30)))
        g = x.T @ (p - y) + ridge * w
        h = (x * (p * (1 - p))[:, None]).T @ x + ridge * np.eye(x.shape[1])
        step = np.linalg.solve(h, g)
        w -= step
        if np.max(np.abs(step)) < 1e-7:
            break
    return w


LANDING_THROWS = 0.2
"""Lone dice thrown into an empty arena per calibration throw, for the landing spot."""


def collect_landing(throws: int, rng: np.random.Generator) -> list[Any]:
    """Rows of lone dice thrown anywhere into an empty arena (rows shaped like ``collect``'s thrown rows)."""
    phys = PhysicsArena()
    out = []
    for _ in range(throws):
        ax, ay = (float(v) for v in rng.uniform(20, 180, 2))
        params = ThrowParams(ax, ay, float(rng.random()), float(rng.random()))
        d = phys.throw([], 1, params, rng).dice[0]
        feats = thrown_features(params.power, 1, 0, ax, ay)
        out.append((feats, d.status, d.face, d.x - ax, d.y - ay, params.power, 1, ax, ay))
    return out


def fit_landing(
    lone: Sequence[Any], rows: Sequence[Any]
) -> tuple[tuple[float, ...], tuple[float, ...], float]:
    """Landing spot of a thrown die: forward drift (1, power, dice near the aim), scatter across and along
    (1, power each), and the share of an overshoot that rebounds off a wall.

    Drift and scatter come from lone dice thrown into an empty arena with no wall in reach (least squares on the
    offsets and on their absolute deviations); the rebound share from those that could reach the far wall, by
    matching the mean spot of the model's own draws (common normals) to physics; the shortening by dice near the
    aim from the calibration throws (``rows``) with no wall in reach."""
    p = np.array([r[5] for r in lone])
    ax, ay = np.array([r[7] for r in lone]), np.array([r[8] for r in lone])
    dx, dy = np.array([r[3] for r in lone]), np.array([r[4] for r in lone])
    clear = (ax > 50) & (ax < 150) & (ay < 80)
    b = np.vstack([np.ones(int(clear.sum())), p[clear]]).T
    to_sd = math.sqrt(math.pi / 2)  # mean absolute deviation → standard deviation of a Gaussian
    drift = np.linalg.lstsq(b, dy[clear], rcond=None)[0]
    sx = np.linalg.lstsq(b, np.abs(dx[clear]) * to_sd, rcond=None)[0]
    sy = np.linalg.lstsq(b, np.abs(dy[clear] - b @ drift) * to_sd, rcond=None)[0]
    rp, near = np.array([r[5] for r in rows]), np.array([r[0][4] for r in rows])
    rx, ry, rdy = (np.array([r[k] for r in rows]) for k in (7, 8, 4))
    room = (rx > 50) & (rx < 150) & (ry < 80)
    shortfall = rdy[room] - (drift[0] + drift[1] * rp[room])
    c = float(near[room] @ shortfall / max(1.0, float(near[room] @ near[room])))
    far = ay >= 80
    z = np.random.default_rng(1).standard_normal((int(far.sum()), 64))
    lo, hi = DIE_MM / 2, ARENA_MM - DIE_MM / 2
    base = (ay[far] + drift[0] + drift[1] * p[far])[:, None] + (sy[0] + sy[1] * p[far])[:, None] * z

    def miss(bounce: float) -> float:  # fast.rebound on arrays
        v = np.where(base > hi, hi - bounce * (base - hi), base)
        v = np.clip(np.where(v < lo, lo + bounce * (lo - v), v), lo, hi)
        return float(((v.mean(axis=1) - (ay[far] + dy[far])) ** 2).sum())

    bounce = min(np.linspace(0.0, 1.0, 41), key=miss)
    return (
        (float(drift[0]), float(drift[1]), c),
        (max(1.0, float(sx[0])), float(sx[1]), max(1.0, float(sy[0])), float(sy[1])),
        float(bounce),
    )


def random_arena(rng: np.random.Generator) -> list[DieRest]:
    n = int(rng.integers(1, 11))
    if rng.random() < 0.5:
        cx, cy = rng.uniform(40, 160, 2)
        spots = gather_positions(n, float(cx), float(cy))
        return [DieRest(int(rng.integers(2, 7)), x, y, 0.0) for x, y in spots]
    dice: list[DieRest] = []
    for _ in range(200):
        if len(dice) == n:
            break
        x, y, yaw = float(rng.uniform(15, 185)), float(rng.uniform(15, 185)), float(rng.uniform(0, 90))
        if inside(x, y) and not any(overlap((x, y, yaw), (d.x or 0, d.y or 0, d.yaw)) for d in dice):
            dice.append(DieRest(int(rng.integers(2, 7)), x, y, yaw))
    return dice


def scenario(rng: np.random.Generator) -> tuple[list[DieRest], int, ThrowParams]:
    if rng.random() < 0.1:
        return (
            [],
            int(rng.integers(2, 10)),
            ThrowParams(float(rng.uniform(50, 150)), float(rng.uniform(50, 150)), rng.random(), rng.random()),
        )
    arena = random_arena(rng)
    if rng.random() < 0.7:
        t = arena[int(rng.integers(len(arena)))]
        assert t.x is not None and t.y is not None
        ax = float(np.clip(t.x + rng.normal(0, 20), 0, ARENA_MM))
        ay = float(np.clip(t.y - abs(rng.normal(10, 20)), 0, ARENA_MM))
    else:
        ax, ay = (float(v) for v in rng.uniform(10, 190, 2))
    return arena, 1, ThrowParams(ax, ay, float(rng.random()), float(rng.random()))


def collect(throws: int, seed: int = 20261122) -> dict[str, list[Any]]:
    phys = PhysicsArena()
    rng = np.random.default_rng(seed)
    rows: dict[str, list[Any]] = {"arena": [], "thrown": [], "landing": []}
    for _ in range(throws):
        arena, n_thrown, params = scenario(rng)
        res = phys.throw(arena, n_thrown, params, rng)
        crowd = crowding(arena)
        for k, (before, after) in enumerate(zip(arena, res.dice, strict=False)):
            assert before.x is not None and before.y is not None
            dist = math.hypot(before.x - params.x, before.y - params.y)
            feats = arena_features(dist, params.power, params.spin, crowd[k], n_thrown)
            left = after.status in ("out", "rim")
            moved = left or after.face != before.face or after.status == "cocked"
            moved = moved or math.hypot(after.x - before.x, after.y - before.y) > MOVED_MM
            push = 0.0 if left else math.hypot(after.x - before.x, after.y - before.y)
            changed = (not left) and after.face != before.face
            opposite = changed and after.face == 7 - before.face
            rows["arena"].append(
                (feats, moved, left, after.status == "cocked", changed, opposite, push, params.power)
            )
        for after in res.dice[len(arena) :]:
            rows["thrown"].append(
                (
                    thrown_features(
                        params.power, n_thrown, near_aim(arena, params.x, params.y), params.x, params.y
                    ),
                    after.status,
                    after.face,
                    after.x - params.x,
                    after.y - params.y,
                    params.power,
                    n_thrown,
                    params.x,
                    params.y,
                )
            )
    rows["landing"] = collect_landing(int(throws * LANDING_THROWS), rng)
    return rows


def fit(rows: dict[str, list[Any]], throws: int, seconds: float) -> FastParams:
    ar = rows["arena"]
    xa = np.array([r[0] for r in ar])
    moved = np.array([r[1] for r in ar], dtype=float)
    hit = fit_logistic(xa, moved)
    dm = moved.astype(bool)
    left = np.array([r[2] for r in ar], dtype=float)
    hit_leave = fit_logistic(xa[dm], left[dm])
    stay = dm & ~left.astype(bool)
    cocked = np.array([r[3] for r in ar], dtype=float)
    changed = np.array([r[4] for r in ar], dtype=float)
    hit_change = fit_logistic(xa[stay], changed[stay])
    opp = np.array([r[5] for r in ar], dtype=float)
    opposite_share = float(opp.sum() / max(1.0, changed.sum()))
    push = np.array([r[6] for r in ar])
    pw = np.array([r[7] for r in ar])
    a = np.vstack([np.ones(stay.sum()), pw[stay]]).T
    push_fit = np.linalg.lstsq(a, push[stay], rcond=None)[0]

    th = rows["thrown"]
    xt = np.array([r[0] for r in th])
    status = [r[1] for r in th]
    t_left = np.array([s in ("out", "rim") for s in status], dtype=float)
    thrown_leave = fit_logistic(xt, t_left)
    rim_share = float(sum(s == "rim" for s in status) / max(1.0, t_left.sum()))
    landed = [r for r in th if r[1] in ("arena", "cocked")]
    t_cocked = float(sum(r[1] == "cocked" for r in landed) / max(1, len(landed)))
    faces = np.bincount([r[2] for r in landed if r[1] == "arena"], minlength=7)[1:].astype(float)
    drift, scatter, bounce = fit_landing(
        [r for r in rows["landing"] if r[1] == "arena"], [r for r in landed if r[6] == 1 and r[1] == "arena"]
    )
    return FastParams(
        thrown_leave=tuple(float(v) for v in thrown_leave),
        thrown_rim_share=rim_share,
        thrown_cocked=t_cocked,
        face_probs=tuple(float(v / faces.sum()) for v in faces),
        drift=drift,
        scatter=scatter,
        bounce=bounce,
        hit=tuple(float(v) for v in hit),
        hit_leave=tuple(float(v) for v in hit_leave),
        hit_cocked=float(cocked[dm & ~left.astype(bool)].mean()) if stay.any() else 0.0,
        hit_change=tuple(float(v) for v in hit_change),
        opposite_share=opposite_share,
        push=(max(0.5, float(push_fit[0])), float(push_fit[1])),
        meta={
            "physics_throws": throws,
            "arena_rows": len(ar),
            "thrown_rows": len(th),
            "landing_rows": len(rows["landing"]),
            "seconds": round(seconds, 1),
            "features_arena": "1, d, d^2, power, d*power, spin, crowd, ln(n_thrown) with d = distance/100 mm",
            "features_thrown": "1, power, power^2, ln(n_thrown), near, near*power, north, north^2, side, side^2, north*power (near = arena dice within 45 mm of the aim; north/side = aim distance to the north/nearest side wall /100 mm)",
        },
    )


def refit(throws: int, out: Path = PARAMS_FILE, seed: int = 20261122) -> FastParams:
    t0 = time.perf_counter()
    rows = collect(throws, seed)
    params = fit(rows, throws, time.perf_counter() - t0)
    params.save(out)
    return params


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--throws", type=int, default=4000, help="physics throws to fit from")
    ap.add_argument("--seed", type=int, default=20261122)
    ap.add_argument("--out", type=Path, default=PARAMS_FILE)
    args = ap.parse_args(argv)
    p = refit(args.throws, args.out, args.seed)
    print(f"wrote {args.out}: {p.meta}")


if __name__ == "__main__":
    main()
