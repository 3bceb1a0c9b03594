"""Geometry of hand-placed dice: overlap tests and the 'gather' arrangement."""

from __future__ import annotations

import math
from collections.abc import Sequence

from dicehall.wurf.arena.base import ARENA_MM, DIE_MM, WALL_CLEARANCE_MM

Square = tuple[float, float, float]  # centre x, y (mm) and yaw (degrees)


def _corners(sq: Square) -> list[tuple[float, float]]:
    x, y, yaw = sq
    h = DIE_MM / 2
    c, s = math.cos(math.radians(yaw)), math.sin(math.radians(yaw))
    return [(x + c * dx - s * dy, y + s * dx + c * dy) for dx, dy in ((h, h), (-h, h), (-h, -h), (h, -h))]


def overlap(a: Square, b: Square, gap: float = 0.5) -> bool:
    """Whether two dice footprints (squares of side DIE_MM, grown by ``gap``) overlap (separating axes)."""
    if (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 > (DIE_MM * math.sqrt(2) + gap) ** 2:
        return False
    ca, cb = _corners(a), _corners(b)
    for yaw in (a[2], b[2]):
        for ang in (yaw, yaw + 90.0):
            ux, uy = math.cos(math.radians(ang)), math.sin(math.radians(ang))
            pa = [px * ux + py * uy for px, py in ca]
            pb = [px * ux + py * uy for px, py in cb]
            if max(pa) + gap <= min(pb) or max(pb) + gap <= min(pa):
                return False
    return True


def inside(x: float, y: float) -> bool:
    lo, hi = WALL_CLEARANCE_MM, ARENA_MM - WALL_CLEARANCE_MM
    return lo <= x <= hi and lo <= y <= hi


def gather_positions(
    n: int, cx: float, cy: float, spacing: float = DIE_MM + 1.0
) -> list[tuple[float, float]]:
    """``n`` spots packed in a near-square block centred on (cx, cy), kept inside the arena."""
    cols = max(1, math.ceil(math.sqrt(n)))
    rows = math.ceil(n / cols)
    lo, hi = WALL_CLEARANCE_MM, ARENA_MM - WALL_CLEARANCE_MM
    x0 = min(max(cx - (cols - 1) * spacing / 2, lo), hi - (cols - 1) * spacing)
    y0 = min(max(cy - (rows - 1) * spacing / 2, lo), hi - (rows - 1) * spacing)
    return [(x0 + (k % cols) * spacing, y0 + (k // cols) * spacing) for k in range(n)]


def centroid(points: Sequence[tuple[float, float]]) -> tuple[float, float]:
    if not points:
        return ARENA_MM / 2, ARENA_MM / 2
    return sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)
