"""Plain-text pictures of a Wurf position: the arena as a top-down sketch plus faces, supplies and the turn."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dicehall.i18n import current, tr
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
    lines.append("   +" + "-" * w + "+   " + tr("wurf.term.south"))
    if unknown:
        lines.append("   " + tr("wurf.term.unknown_places", dice=" ".join(unknown)))
    return lines


def dice_list(state: WurfState) -> str:
    if not state.arena:
        return tr("wurf.term.arena_empty")
    parts = []
    for i, d in enumerate(state.arena):
        pos = f"@{d.x:.0f},{d.y:.0f}" if d.x is not None and d.y is not None else ""
        parts.append(f"#{i} {face_name(d.face)}{pos}")
    return tr("wurf.term.arena", dice="  ".join(parts))


def render_state(state: WurfState, names: list[str] | None = None) -> str:
    names = names or [tr("wurf.term.seat", n=i + 1) for i in range(state.num_players)]
    out = sketch(state)
    out.append(dice_list(state))
    sup = []
    for i, n in enumerate(names):
        mark = "▶ " if i == state.current and not state.is_terminal() else "  "
        key = "wurf.term.supply" if state.alive[i] else "wurf.term.supply_out"
        sup.append(mark + tr(key, name=n, n=state.supply[i]))
    out.append(" | ".join(sup))
    out.append(tr("wurf.term.out_and_box", out=state.out_of_game, box=state.box()))
    if state.rules.match:
        pts = ", ".join(f"{n} {p}" for n, p in zip(names, state.match_points, strict=True))
        game = min(state.game_index + 1, state.games_total)
        out.append(tr("wurf.term.match_line", game=game, games=state.games_total, points=pts))
    if state.is_terminal():
        out.append(tr("wurf.term.game_over", names=", ".join(names[w] for w in state.winners())))
    elif state.big_next and state.phase == "throw":
        out.append(tr("wurf.term.big_throw", name=names[state.current], n=state.supply[state.current]))
    return "\n".join(out)


def cell_help() -> str:
    return tr("wurf.term.cell_help", mm=round(CELL_MM))


def describe_action(action: object) -> str:
    """A player's move in words a player uses (aim cell and power, not millimetres)."""
    if isinstance(action, Throw):
        return tr(
            "wurf.narrate.throw", cell=cell_of(action.x, action.y), power=current().fixed(action.power, 2)
        )
    if isinstance(action, RealThrow):
        return tr("wurf.narrate.real_throw")
    if isinstance(action, EndTurn):
        return tr("wurf.narrate.end_turn")
    if isinstance(action, Rearrange):
        cells = sorted({cell_of(x, y) for _, x, y in action.moves})
        return tr("wurf.narrate.push", n=len(action.moves), cells=", ".join(cells))
    return str(action)


def _shown(status: str, face: int) -> str:
    if status == "arena":
        return face_name(face)
    if status == "cocked":
        return tr("wurf.narrate.cocked", face=face_name(face))
    return tr(f"wurf.narrate.status.{status}")


def describe_outcome(before: list[int], outcome: Outcome, report: ThrowReport, names: list[str]) -> str:
    """A throw's outcome in words: what the thrown die (or dice) shows, which arena dice it turned or knocked
    out (``before`` = their faces before the throw, in order), what the rules removed and what was taken."""
    dice = outcome.dice
    n_arena = len(dice) - report.thrown
    thrown = [_shown(d.status, d.face) for d in dice[n_arena:]]
    words = (
        tr("wurf.narrate.thrown_one", face=thrown[0])
        if len(thrown) == 1
        else tr("wurf.narrate.thrown_many", n=len(thrown), faces=" ".join(thrown))
    )
    knocked = []
    for k, (d, face) in enumerate(zip(dice[:n_arena], before, strict=False)):
        if d.status != "arena" or d.face != face:
            knocked.append(f"#{k} {face_name(face)}→{_shown(d.status, d.face)}")
    if knocked:
        words += tr("wurf.narrate.hit", dice=", ".join(knocked))
    removed = []
    if report.left:
        removed.append(tr("wurf.narrate.n_out", n=report.left))
    if report.x_removed + report.cocked_lost:
        removed.append(f"{report.x_removed + report.cocked_lost} X")
    if removed:
        words += tr("wurf.narrate.removed", what=", ".join(removed))
    if report.taken:
        taken = ", ".join(face_name(f) for f in report.taken_faces)
        words += tr("wurf.narrate.takes", name=names[report.thrower], n=report.taken, faces=taken)
    elif not report.turn_over:
        words += tr("wurf.narrate.no_repeat")
    return words
