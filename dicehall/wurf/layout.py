"""Geometry of dice lying in the arena: overlap tests, the 'gather' arrangement, and the checks and repairs that
keep every layout physically possible (no two dice inside each other, every die on the floor)."""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

import numpy as np

from dicehall.i18n.message import Message
from dicehall.wurf.arena.base import ARENA_MM, DIE_MM, WALL_CLEARANCE_MM
from dicehall.wurf.words import num

Square = tuple[float, float, float]  # centre x, y (mm) and yaw (degrees)


def overlap(a: Square, b: Square, gap: float = 0.5) -> bool:
    """Whether two dice footprints (squares of side DIE_MM, grown by ``gap``) overlap (separating axes: they are
    apart when, along one of their four edge directions, their centres are farther apart than their reaches)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    if dx * dx + dy * dy > (DIE_MM * _SQRT2 + gap) ** 2:
        return False
    h = DIE_MM / 2
    ca, sa = _cos_sin(a[2])
    cb, sb = _cos_sin(b[2])
    # Along a's edges a reaches h and b reaches h·(|cos| + |sin|) of the angle between them; likewise for b.
    cross = h * (abs(ca * cb + sa * sb) + abs(sa * cb - ca * sb))
    for ux, uy in ((ca, sa), (-sa, ca), (cb, sb), (-sb, cb)):
        if abs(dx * ux + dy * uy) >= h + cross + gap:
            return False
    return True


_SQRT2 = math.sqrt(2.0)


@functools.lru_cache(maxsize=8192)
def _cos_sin(degrees: float) -> tuple[float, float]:
    """cos and sin of an angle in degrees; cached, as yaws are rounded to 0.1° and recur in every layout test."""
    r = math.radians(degrees)
    return math.cos(r), math.sin(r)


def half_extent(yaw: float) -> float:
    """Half the width of a die's footprint along the walls (8 mm square to them, 11.3 mm at 45°)."""
    c, s = _cos_sin(yaw % 90.0)
    return DIE_MM / 2 * (abs(c) + abs(s))


def on_floor(x: float, y: float, yaw: float, tol: float = 0.0) -> bool:
    """Whether a die's whole footprint lies on the arena floor (``tol`` mm of slack for rounding)."""
    h = half_extent(yaw) - tol
    return h <= x <= ARENA_MM - h and h <= y <= ARENA_MM - h


LAYOUT_TOLERANCE_MM = 0.5
"""Interpenetration (and reach past a wall) a recorded layout may show: positions are rounded to 0.1 mm and
yaw to 0.1°, and resting physics contacts sink a fraction of a millimetre."""


def layout_problem(
    dice: Sequence[Square | None], tol: float = LAYOUT_TOLERANCE_MM
) -> tuple[str, Message] | None:
    """Why these dice (``None`` = place unknown) cannot all lie flat in the arena: ``("position", why)`` for a
    die off the floor, ``("overlap", why)`` for two dice inside each other; ``None`` when they can."""
    placed = [(k, sq) for k, sq in enumerate(dice) if sq is not None]
    for k, (x, y, yaw) in placed:
        if not on_floor(x, y, yaw, tol):
            return "position", Message("wurf.refusal.off_floor", k=k + 1, x=num(x), y=num(y))
    for a in range(len(placed)):
        ka, sa = placed[a]
        for b in range(a + 1, len(placed)):
            kb, sb = placed[b]
            if overlap(sa, sb, gap=-tol):
                return "overlap", Message(
                    "wurf.refusal.inside_each_other",
                    a=ka + 1,
                    ax=num(sa[0]),
                    ay=num(sa[1]),
                    b=kb + 1,
                    bx=num(sb[0]),
                    by=num(sb[1]),
                )
    return None


def _ring_offsets(step: float = 1.5, reach: float = ARENA_MM * 1.5) -> list[tuple[float, float]]:
    out: list[tuple[float, float]] = []
    r = step
    while r <= reach:
        n = max(8, int(2 * math.pi * r / step))
        out.extend((r * math.cos(2 * math.pi * i / n), r * math.sin(2 * math.pi * i / n)) for i in range(n))
        r += step
    return out


@functools.cache
def _rings() -> tuple[list[tuple[float, float]], np.ndarray, np.ndarray]:
    """The ring points and their offsets as arrays, made on first use (not at import: every command imports this)."""
    rings = _ring_offsets()
    return rings, np.array([dx for dx, _ in rings]), np.array([dy for _, dy in rings])


_RING_CHUNK = 256  # the nearest free spot is usually within the first few hundred ring points


def _free(x: float, y: float, yaw: float, taken: Sequence[Square], slack: float = 0.0) -> bool:
    if not on_floor(x, y, yaw, slack):
        return False
    far = (DIE_MM * math.sqrt(2)) ** 2
    near = (DIE_MM - slack) ** 2  # the dice's inscribed circles overlap: the dice do
    for t in taken:
        d2 = (x - t[0]) ** 2 + (y - t[1]) ** 2
        if d2 >= far:
            continue
        if d2 < near or overlap((x, y, yaw), t, gap=-slack):
            return False
    return True


def _clear_of(x: float, y: float, yaw: float, t: Square, margin: float = 0.05) -> tuple[float, float]:
    """(x, y) moved straight away from die ``t`` to where the two dice just stop overlapping: along a direction
    ``u`` they are apart once they are apart along one of their four edge axes (separating axes)."""
    dx, dy = x - t[0], y - t[1]
    dist = math.hypot(dx, dy)
    ux, uy = (dx / dist, dy / dist) if dist > 1e-9 else (0.0, -1.0)
    need = math.inf
    for ang in (yaw, yaw + 90.0, t[2], t[2] + 90.0):
        ax, ay = _cos_sin(ang)
        along = abs(ux * ax + uy * ay)
        if along > 1e-9:
            reach = _reach(yaw, ax, ay) + _reach(t[2], ax, ay)
            need = min(need, reach / along)
    return t[0] + ux * (need + margin), t[1] + uy * (need + margin)


def _reach(yaw: float, ax: float, ay: float) -> float:
    """Half the width of a die turned ``yaw`` measured along the unit direction (ax, ay)."""
    c, s = _cos_sin(yaw)
    return DIE_MM / 2 * (abs(c * ax + s * ay) + abs(-s * ax + c * ay))


def free_spot(
    x: float, y: float, yaw: float, taken: Sequence[Square], slack: float = 0.0
) -> tuple[float, float]:
    """The spot nearest (x, y) where a die turned ``yaw`` lies flat on the floor without overlapping ``taken``
    (at (x, y) itself ``slack`` mm of contact is accepted)."""
    if _free(x, y, yaw, taken, slack):
        return x, y
    h = half_extent(yaw)
    x, y = min(max(x, h), ARENA_MM - h), min(max(y, h), ARENA_MM - h)
    if _free(x, y, yaw, taken):
        return x, y
    # Usually a die or two are in the way: slide straight out from the nearest until the two just touch.
    px, py = x, y
    for _ in range(6):
        near2, block = math.inf, None
        for t in taken:
            d2 = (px - t[0]) ** 2 + (py - t[1]) ** 2
            if d2 < near2 and overlap((px, py, yaw), t, gap=0.0):
                near2, block = d2, t
        if block is None:
            if (px - x) ** 2 + (py - y) ** 2 <= (DIE_MM * _SQRT2) ** 2:
                return px, py
            break  # slid far: a spot found by the rings search is nearer
        px, py = _clear_of(px, py, yaw, block)
        px, py = min(max(px, h), ARENA_MM - h), min(max(py, h), ARENA_MM - h)
    spot = _nearest_free_on_rings(x, y, yaw, taken)
    if spot is None:
        raise ValueError("no room left in the arena")  # 31 dice always fit: a programming error
    return spot


def _nearest_free_on_rings(
    x: float, y: float, yaw: float, taken: Sequence[Square]
) -> tuple[float, float] | None:
    """The first ring point around (x, y) (nearest first) where :func:`_free` holds, tested a chunk of points
    against every taken die at once (the same tests as ``_free``/``overlap``, as arrays: ~20× faster than one
    point at a time, which made the fast model's placement step most of its time)."""
    h = half_extent(yaw)
    hd = DIE_MM / 2
    ra = math.radians(yaw)
    ca, sa = math.cos(ra), math.sin(ra)
    tx = np.array([t[0] for t in taken])
    ty = np.array([t[1] for t in taken])
    rb = np.radians(np.array([t[2] for t in taken]))
    cb, sb = np.cos(rb), np.sin(rb)
    # overlap(candidate, t, gap=0): each die's reach along the other's edges, and the bounding-circle test
    limit = hd + hd * (np.abs(ca * cb + sa * sb) + np.abs(sa * cb - ca * sb))
    within = (DIE_MM * _SQRT2) ** 2
    far, near = (DIE_MM * _SQRT2) ** 2, DIE_MM**2
    _, ring_dx, ring_dy = _rings()
    start, size = 0, _RING_CHUNK
    while start < len(ring_dx):
        cx = x + ring_dx[start : start + size]
        cy = y + ring_dy[start : start + size]
        start, size = start + size, size * 2  # far searches (a die landing on a block) take few chunks
        idx = np.flatnonzero((h <= cx) & (cx <= ARENA_MM - h) & (h <= cy) & (cy <= ARENA_MM - h))
        if idx.size == 0:
            continue
        if len(taken):
            px, py = cx[idx][:, None], cy[idx][:, None]
            dx, dy = tx - px, ty - py
            d2 = dx * dx + dy * dy
            apart = (
                (np.abs(dx * ca + dy * sa) >= limit)
                | (np.abs(dx * -sa + dy * ca) >= limit)
                | (np.abs(dx * cb + dy * sb) >= limit)
                | (np.abs(dx * -sb + dy * cb) >= limit)
            )
            blocked = (d2 < far) & ((d2 < near) | ((d2 <= within) & ~apart))
            idx = idx[~blocked.any(axis=1)]
        if idx.size:
            return float(cx[idx[0]]), float(cy[idx[0]])
    return None


KEEP_SLACK_MM = 0.3
"""Contact a die lying on the floor may show with its neighbours and stay put (physics contacts are soft)."""


def settle(dice: Sequence[Square], keep: Sequence[bool]) -> list[Square]:
    """A physically possible layout close to ``dice``: the dice marked ``keep`` (lying flat on the floor) are
    placed first and stay put unless they overlap one placed before them; every other die (landed on another
    die, cocked against one, or drawn by a statistical model) goes to the nearest free spot."""
    order = [k for k in range(len(dice)) if keep[k]] + [k for k in range(len(dice)) if not keep[k]]
    out: list[Square | None] = [None] * len(dice)
    taken: list[Square] = []
    for k in order:
        x, y, yaw = dice[k]
        fx, fy = free_spot(x, y, yaw, taken, KEEP_SLACK_MM if keep[k] else 0.0)
        out[k] = (fx, fy, yaw)
        taken.append((fx, fy, yaw))
    return [sq for sq in out if sq is not None]


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
