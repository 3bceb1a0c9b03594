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


if __name__ == "__main__":
    for r in compare(200, 4000):
        ok = abs(r["physics"] - r["fast"]) <= r["tolerance"]
        print(
            f"{r['scenario']:<28} {r['metric']:<14} physics {r['physics']:.3f} fast {r['fast']:.3f}"
            f" ± {r['tolerance']:.3f} {'ok' if ok else 'MISMATCH'}"
        )
