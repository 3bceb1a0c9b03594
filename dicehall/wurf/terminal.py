"""Plain-text pictures of a Wurf position: the arena as a top-down sketch plus faces, supplies and the turn."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dicehall.wurf.actions import (
    CELL_MM,
    CELLS,
    COLS,
    EndTurn,
    RealThrow,
    Rearrange,
    Throw,
    cell_of,
    face_name,
)
from dicehall.wurf.arena.base import ARENA_MM

if TYPE_CHECKING:
    from dicehall.wurf.actions import Outcome
    from dicehall.wurf.state import ThrowReport, WurfState

SKETCH_COLS = 25
SKETCH_ROWS = 10


def sketch(state: WurfState) -> list[str]:
    """A top-down sketch: each die drawn as its face (X, 2..6) at its place; aim cells a1..e5 on the border."""
    w, h = SKETCH_COLS, SKETCH_ROWS
    grid = [[" "] * w for _ in range(h)]
    for r in range(0, h, h // CELLS):
        for c in range(0, w, w // CELLS):
            grid[r][c] = "·"  # cell corners
    unknown = []
    for i, d in enumerate(state.arena):
        if d.x is None or d.y is None:
            unknown.append(f"#{i}:{face_name(d.face)}")
            continue
        c = min(w - 1, max(0, int(d.x / ARENA_MM * w)))
        r = min(h - 1, max(0, int((ARENA_MM - d.y) / ARENA_MM * h)))
        grid[r][c] = face_name(d.face)
    step = w // CELLS
    top = "    " + "".join(COLS[k].ljust(step) for k in range(CELLS))
    lines = [top, "   +" + "-" * w + "+"]
    rows_per_cell = h // CELLS
    for r in range(h):
        label = str(CELLS - r // rows_per_cell) if r % rows_per_cell == 0 else " "
        lines.append(f" {label} |" + "".join(grid[r]) + "|")
    lines.append("   +" + "-" * w + "+   (thrower stands south)")
    if unknown:
        lines.append("   position unknown: " + " ".join(unknown))
    return lines


def dice_list(state: WurfState) -> str:
    if not state.arena:
        return "arena: empty"
    parts = []
    for i, d in enumerate(state.arena):
        pos = f"@{d.x:.0f},{d.y:.0f}" if d.x is not None and d.y is not None else ""
        parts.append(f"#{i} {face_name(d.face)}{pos}")
    return "arena: " + "  ".join(parts)


def render_state(state: WurfState, names: list[str] | None = None) -> str:
    names = names or [f"seat {i + 1}" for i in range(state.num_players)]
    out = sketch(state)
    out.append(dice_list(state))
    sup = []
    for i, n in enumerate(names):
        mark = "▶ " if i == state.current and not state.is_terminal() else "  "
        status = "" if state.alive[i] else " (out)"
        sup.append(f"{mark}{n}: {state.supply[i]} dice{status}")
    out.append(" | ".join(sup))
    out.append(f"out of the game: {state.out_of_game}, in the box: {state.box()}")
    if state.rules.match:
        pts = ", ".join(f"{n} {p}" for n, p in zip(names, state.match_points, strict=True))
        out.append(
            f"match game {min(state.game_index + 1, state.games_total)}/{state.games_total}; points: {pts}"
        )
    if state.is_terminal():
        out.append("game over — winner: " + ", ".join(names[w] for w in state.winners()))
    elif state.big_next and state.phase == "throw":
        out.append(f"BIG THROW: {names[state.current]} must throw all {state.supply[state.current]} dice")
    return "\n".join(out)


def cell_help() -> str:
    return (
        f"Aim: the cell is where the die should first touch down, on a 5x5 grid over the arena seen from above "
        f"({CELL_MM:.0f} mm squares): columns a (left) to e (right), rows 1 (your edge) to 5 (the far edge).\n"
        "Power: 0 is a gentle lob that stops near the cell, 1 a hard throw whose dice bounce and roll on and may "
        "knock others or leave the arena (default 0.5). Spin (0-1, default 0.5) only varies the tumble"
    )


def describe_action(action: object) -> str:
    """A player's move in words a player uses (aim cell and power, not millimetres)."""
    if isinstance(action, Throw):
        return f"throws at {cell_of(action.x, action.y)} with power {action.power:.2f}"
    if isinstance(action, RealThrow):
        return "throws (real dice)"
    if isinstance(action, EndTurn):
        return "ends the turn"
    if isinstance(action, Rearrange):
        cells = sorted({cell_of(x, y) for _, x, y in action.moves})
        n = len(action.moves)
        return f"pushes {n} {'die' if n == 1 else 'dice'} together at {', '.join(cells)}"
    return str(action)


def _shown(status: str, face: int) -> str:
    if status == "arena":
        return face_name(face)
    if status == "cocked":
        return f"cocked (re-thrown: {face_name(face)})"
    return status


def describe_outcome(before: list[int], outcome: Outcome, report: ThrowReport, names: list[str]) -> str:
    """A throw's outcome in words: what the thrown die (or dice) shows, which arena dice it turned or knocked
    out (``before`` = their faces before the throw, in order), what the rules removed and what was taken."""
    dice = outcome.dice
    n_arena = len(dice) - report.thrown
    thrown = [_shown(d.status, d.face) for d in dice[n_arena:]]
    words = (
        f"thrown die shows {thrown[0]}"
        if len(thrown) == 1
        else f"{len(thrown)} thrown dice show {' '.join(thrown)}"
    )
    knocked = []
    for k, (d, face) in enumerate(zip(dice[:n_arena], before, strict=False)):
        if d.status != "arena" or d.face != face:
            knocked.append(f"#{k} {face_name(face)}→{_shown(d.status, d.face)}")
    if knocked:
        words += "; hit: " + ", ".join(knocked)
    removed = []
    if report.left:
        removed.append(f"{report.left} out of the arena")
    if report.x_removed + report.cocked_lost:
        removed.append(f"{report.x_removed + report.cocked_lost} X")
    if removed:
        words += " (removed: " + ", ".join(removed) + ")"
    if report.taken:
        taken = ", ".join(face_name(f) for f in report.taken_faces)
        words += f" → {names[report.thrower]} takes {report.taken} ({taken})"
    elif not report.turn_over:
        words += " → no number repeats"
    return words
