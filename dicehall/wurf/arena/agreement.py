"""Compare outcome frequencies of the fast model with the physics model on fixed scenarios.

Used by the agreement tests and printable with ``python -m dicehall.wurf.arena.agreement``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from dicehall.wurf.arena.base import ArenaModel, DieRest, ThrowParams
from dicehall.wurf.layout import gather_positions


def _block(n: int, cx: float, cy: float, faces: Sequence[int]) -> list[DieRest]:
    return [DieRest(faces[k % len(faces)], x, y, 0.0) for k, (x, y) in enumerate(gather_positions(n, cx, cy))]


SCENARIOS: dict[str, tuple[list[DieRest], int, ThrowParams]] = {
    "lone die, medium": ([], 1, ThrowParams(100, 100, 0.5, 0.5)),
    "gathered 4, gentle, short": (_block(4, 100, 110, (2, 3, 4, 5)), 1, ThrowParams(100, 90, 0.25, 0.5)),
    "gathered 6, hard, short": (_block(6, 100, 110, (2, 3, 4, 5, 6)), 1, ThrowParams(100, 92, 0.85, 0.5)),
    "scattered 5, medium": (
        [
            DieRest(f, x, y, 0.0)
            for f, (x, y) in zip(
                (2, 3, 4, 5, 6), ((40, 40), (160, 40), (100, 100), (40, 160), (160, 160)), strict=True
            )
        ],
        1,
        ThrowParams(100, 80, 0.5, 0.5),
    ),
    "big throw of 6": ([], 6, ThrowParams(100, 100, 0.5, 0.5)),
}

METRICS = ("thrown_left", "arena_left", "arena_changed", "take")


def frequencies(model: ArenaModel, scenario: str, throws: int, seed: int) -> dict[str, float]:
    """Per-scenario rates: thrown dice leaving, arena dice leaving, arena dice changing face, P(a take)."""
    arena, n_thrown, params = SCENARIOS[scenario]
    rng = np.random.default_rng(seed)
    counts = dict.fromkeys(METRICS, 0.0)
    for _ in range(throws):
        res = model.throw(arena, n_thrown, params, rng)
        faces = []
        for before, after in zip(arena, res.dice, strict=False):
            left = after.status in ("out", "rim")
            counts["arena_left"] += left
            counts["arena_changed"] += (not left) and after.face != before.face
            if not left:
                faces.append(after.face)
        for after in res.dice[len(arena) :]:
            counts["thrown_left"] += after.status in ("out", "rim")
            if after.status not in ("out", "rim"):
                faces.append(after.face)
        real = [f for f in faces if f != 1]
        counts["take"] += len(set(real)) < len(real)
    n_arena = max(1, len(arena)) * throws
    return {
        "thrown_left": counts["thrown_left"] / (n_thrown * throws),
        "arena_left": counts["arena_left"] / n_arena,
        "arena_changed": counts["arena_changed"] / n_arena,
        "take": counts["take"] / throws,
    }


def tolerance(p: float, n: int) -> float:
    """Allowed gap: three standard errors of the physics estimate plus 0.08 for the model's simplicity."""
    return 3.0 * math.sqrt(max(p * (1 - p), 0.02) / n) + 0.08


def compare(physics_throws: int, fast_throws: int, seed: int = 7) -> list[dict[str, Any]]:
    from dicehall.wurf.arena.fast import FastArena
    from dicehall.wurf.arena.physics import PhysicsArena

    rows = []
    for name, (arena, n_thrown, _) in SCENARIOS.items():
        ph = frequencies(PhysicsArena(), name, physics_throws, seed)
        fa = frequencies(FastArena.default(), name, fast_throws, seed + 1)
        for m in METRICS:
            if m.startswith("arena") and not arena:
                continue
            n = physics_throws * (
                n_thrown if m == "thrown_left" else (len(arena) if m.startswith("arena") else 1)
            )
            rows.append(
                {
                    "scenario": name,
                    "metric": m,
                    "physics": ph[m],
                    "fast": fa[m],
                    "tolerance": tolerance(ph[m], n),
                }
            )
    return rows


LANDING_AIMS = ((100.0, 60.0), (100.0, 100.0), (100.0, 140.0))
LANDING_POWERS = (0.2, 0.5, 0.8)


def landing(model: ArenaModel, aim: tuple[float, float], power: float, throws: int, seed: int) -> np.ndarray:
    """Offsets (dx, dy) in mm from the aim point of a lone die that came to rest flat in the arena."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(throws):
        d = model.throw([], 1, ThrowParams(aim[0], aim[1], power, 0.5), rng).dice[0]
        if d.status == "arena":
            out.append((d.x - aim[0], d.y - aim[1]))
    return np.array(out).reshape(-1, 2)


def compare_landing(physics_throws: int, fast_throws: int, seed: int = 11) -> list[dict[str, Any]]:
    """Where a lone die comes to rest (mean offset along and across the throw, spread along it): physics against
    the fast model. Tolerance: three standard errors of the physics figure plus 8 mm."""
    from dicehall.wurf.arena.fast import FastArena
    from dicehall.wurf.arena.physics import PhysicsArena

    rows = []
    for aim in LANDING_AIMS:
        for power in LANDING_POWERS:
            ph = landing(PhysicsArena(), aim, power, physics_throws, seed)
            fa = landing(FastArena.default(), aim, power, fast_throws, seed + 1)
            n = max(2, len(ph))
            sd = ph.std(axis=0) if len(ph) > 1 else np.array([50.0, 50.0])
            for metric, p_val, f_val, se in (
                ("mean dx", ph[:, 0].mean(), fa[:, 0].mean(), sd[0] / math.sqrt(n)),
                ("mean dy", ph[:, 1].mean(), fa[:, 1].mean(), sd[1] / math.sqrt(n)),
                ("sd dy", sd[1], fa[:, 1].std(), sd[1] / math.sqrt(2 * n)),
            ):
                rows.append(
                    {
                        "scenario": f"lone die at {aim[0]:g},{aim[1]:g} power {power}",
                        "metric": metric,
                        "physics": float(p_val),
                        "fast": float(f_val),
                        "tolerance": 3.0 * float(se) + 8.0,
                    }
                )
    return rows


def physics_rates(throws: int = 300, seed: int = 3) -> dict[str, float]:
    """Plausibility figures of the physics model (documented in docs/wurf.md)."""
    from scipy.stats import chisquare

    from dicehall.wurf.arena.physics import PhysicsArena

    phys = PhysicsArena()
    rng = np.random.default_rng(seed)
    out: dict[str, float] = {}
    counts = np.zeros(6)
    for _ in range(throws):
        params = ThrowParams(
            float(rng.uniform(40, 160)), float(rng.uniform(40, 160)), float(rng.random()), float(rng.random())
        )
        d = phys.throw([], 1, params, rng).dice[0]
        if d.status == "arena":
            counts[d.face - 1] += 1
    out["lone_die_landed_share"] = float(counts.sum() / throws)
    out["lone_die_chi2_p"] = float(chisquare(counts).pvalue)
    for power in (0.2, 0.5, 0.9):
        left = 0
        for _ in range(throws // 3):
            d = phys.throw([], 1, ThrowParams(100, 100, power, 0.5), rng).dice[0]
            left += d.status != "arena"
        out[f"lone_die_left_p{power}"] = left / (throws // 3)
    for power in (0.2, 0.5, 0.9):
        moved = changed = left = total = 0
        for _ in range(throws // 6):
            arena = _block(6, 100, 110, (2, 3, 4, 5, 6))
            res = phys.throw(arena, 1, ThrowParams(100, 92, power, 0.5), rng)
            for before, after in zip(arena, res.dice, strict=False):
                total += 1
                gone = after.status in ("out", "rim")
                left += gone
                changed += (not gone) and after.face != before.face
                moved += gone or abs(after.x - (before.x or 0)) + abs(after.y - (before.y or 0)) > 2
        out[f"block6_moved_p{power}"] = moved / total
        out[f"block6_face_changed_p{power}"] = changed / total
        out[f"block6_left_p{power}"] = left / total
        out[f"block6_changed_given_moved_p{power}"] = changed / max(1, moved)
    return out


if __name__ == "__main__":
    import sys

    if "--rates" in sys.argv:
        for k, v in physics_rates().items():
            print(f"{k:<36} {v:.3f}")
        sys.exit(0)
    for r in [*compare(200, 4000), *compare_landing(200, 4000)]:
        ok = abs(r["physics"] - r["fast"]) <= r["tolerance"]
        print(
            f"{r['scenario']:<28} {r['metric']:<14} physics {r['physics']:.3f} fast {r['fast']:.3f}"
            f" ± {r['tolerance']:.3f} {'ok' if ok else 'MISMATCH'}"
        )
