"""Wurf actions and their text notation.

Decisions::

    throw 100,80 p0.60 s0.50      aim at (100 mm, 80 mm), power 0.6, spin 0.5 (also ``throw c3 p0.6``: cell c3)
    throw real                    a throw with real dice (referee mode): its parameters are unknown, and its
                                  outcome is typed in, never drawn from an arena model
    move 0>100,90 2>117,90        rearrange: die #0 to (100, 90), die #2 to (117, 90) before the next throw
    end                           end the turn (only after a throw in which every number differed)

Chance outcomes (the dice after a throw: the arena dice in order, then the thrown dice)::

    lands 3@102,88,45 X@40,51,0 out rim c4@60,60,0 cX
          face@x,y,yaw (mm, mm, degrees); out = left the arena; rim = rests on the rim;
          c<face> = cocked, re-thrown outside the arena showing <face>. Positions may be omitted (referee mode).
    start 4@100,100,0             setup: the first die placed in the arena (``start 4``: place unknown)
"""

from __future__ import annotations

import dataclasses
import math
import re

from dicehall.core.errors import NotationError
from dicehall.wurf.arena.base import ARENA_MM, FACE_NAMES, X

CELLS = 5
CELL_MM = ARENA_MM / CELLS
COLS = "abcde"


@dataclasses.dataclass(frozen=True)
class Throw:
    x: float
    y: float
    power: float
    spin: float = 0.5


@dataclasses.dataclass(frozen=True)
class RealThrow:
    """A throw made with real dice: nothing about how it was thrown is known, so nothing is recorded."""


@dataclasses.dataclass(frozen=True)
class Rearrange:
    moves: tuple[tuple[int, float, float], ...]


@dataclasses.dataclass(frozen=True)
class EndTurn:
    pass


@dataclasses.dataclass(frozen=True)
class Landed:
    """One die of an outcome: status ``arena``/``out``/``rim``/``cocked``; ``face`` is the face shown (for a
    cocked die: the face of its re-throw outside the arena)."""

    status: str
    face: int = 0
    x: float | None = None
    y: float | None = None
    yaw: float = 0.0


@dataclasses.dataclass(frozen=True)
class Outcome:
    dice: tuple[Landed, ...]


@dataclasses.dataclass(frozen=True)
class Setup:
    """The first arena die; ``x``/``y`` are ``None`` when its place is unknown (placed by hand, referee mode)."""

    face: int
    x: float | None = ARENA_MM / 2
    y: float | None = ARENA_MM / 2
    yaw: float = 0.0


Action = Throw | RealThrow | Rearrange | EndTurn | Outcome | Setup

STATUSES = ("arena", "out", "rim", "cocked")


def _real(v: object) -> bool:
    """A finite real number (``bool`` is not one)."""
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)


def _whole(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _place_problem(what: str, x: object, y: object, yaw: object) -> str | None:
    if (x is None) != (y is None):
        return f"{what}: give both x and y, or neither"
    if x is not None and not (_real(x) and _real(y)):
        return f"{what}: x and y must be finite numbers (mm), got {x!r}, {y!r}"
    if not _real(yaw):
        return f"{what}: yaw must be a finite number (degrees), got {yaw!r}"
    return None


def malformed(action: object) -> str | None:
    """Why ``action`` is not a well-formed Wurf action (a wrong type, NaN, an infinity), or ``None``.

    Only the form is checked here; whether the action is allowed now (aim inside the arena, power 0–1, a die that
    exists, ...) is the state's business.
    """
    if isinstance(action, RealThrow | EndTurn):
        return None
    if isinstance(action, Throw):
        for name in ("x", "y", "power", "spin"):
            v = getattr(action, name)
            if not _real(v):
                return f"throw {name} must be a finite number, got {v!r}"
        return None
    if isinstance(action, Rearrange):
        if not isinstance(action.moves, tuple) or not action.moves:
            return "a rearrangement moves at least one die: a tuple of (index, x, y)"
        for move in action.moves:
            if not (isinstance(move, tuple) and len(move) == 3 and _whole(move[0])):
                return f"a rearrangement move is (die index, x, y), got {move!r}"
            problem = _place_problem(f"die #{move[0]}", move[1], move[2], 0.0)
            if problem or move[1] is None:
                return problem or f"die #{move[0]}: a move needs a position"
        return None
    if isinstance(action, Setup):
        if not _whole(action.face) or not 1 <= action.face <= 6:
            return f"the start die shows a face 1..6 (1 = X), got {action.face!r}"
        return _place_problem("the start die", action.x, action.y, action.yaw)
    if isinstance(action, Outcome):
        if not isinstance(action.dice, tuple):
            return "an outcome is a tuple of landed dice"
        for k, d in enumerate(action.dice):
            if not isinstance(d, Landed):
                return f"die {k + 1} of the outcome is not a landed die: {d!r}"
            if d.status not in STATUSES:
                return f"die {k + 1}: unknown status {d.status!r}"
            if not _whole(d.face) or not 0 <= d.face <= 6:
                return f"die {k + 1}: a face is X or 2..6, got {d.face!r}"
            problem = _place_problem(f"die {k + 1}", d.x, d.y, d.yaw)
            if problem:
                return problem
        return None
    return f"{action!r} is not a Wurf action"


def cell_centre(cell: str) -> tuple[float, float]:
    """Centre of an aim cell ``a1``..``e5`` (columns a–e west→east, rows 1–5 south→north)."""
    m = re.fullmatch(r"([a-e])([1-5])", cell.strip().lower())
    if not m:
        raise NotationError(f"aim cell must be a1..e5, got {cell!r}")
    col = COLS.index(m.group(1))
    row = int(m.group(2)) - 1
    return (col + 0.5) * CELL_MM, (row + 0.5) * CELL_MM


def cell_of(x: float, y: float) -> str:
    col = min(CELLS - 1, max(0, int(x // CELL_MM)))
    row = min(CELLS - 1, max(0, int(y // CELL_MM)))
    return f"{COLS[col]}{row + 1}"


def _num(v: float) -> str:
    r = round(v, 1)
    return str(int(r)) if r == int(r) else f"{r:.1f}"


def face_name(face: int) -> str:
    return FACE_NAMES[face]


def parse_face(text: str) -> int:
    t = text.strip().upper()
    if t == "X" or t == "1":
        return X
    if t in ("2", "3", "4", "5", "6"):
        return int(t)
    raise NotationError(f"a face is X or 2..6, got {text!r}")


def _pos(x: float | None, y: float | None, yaw: float) -> str:
    if x is None or y is None:
        return ""
    return f"@{_num(x)},{_num(y)},{_num(yaw)}"


def to_string(action: Action) -> str:
    if isinstance(action, Throw):
        return f"throw {_num(action.x)},{_num(action.y)} p{action.power:.2f} s{action.spin:.2f}"
    if isinstance(action, RealThrow):
        return "throw real"
    if isinstance(action, Rearrange):
        return "move " + " ".join(f"{i}>{_num(x)},{_num(y)}" for i, x, y in action.moves)
    if isinstance(action, EndTurn):
        return "end"
    if isinstance(action, Setup):
        return f"start {face_name(action.face)}{_pos(action.x, action.y, action.yaw)}"
    parts = []
    for d in action.dice:
        if d.status in ("out", "rim"):
            parts.append(d.status)
        else:
            prefix = "c" if d.status == "cocked" else ""
            parts.append(f"{prefix}{face_name(d.face)}{_pos(d.x, d.y, d.yaw)}")
    return "lands " + " ".join(parts)


_FLOAT = r"-?\d+(?:\.\d+)?"
_POS_RE = re.compile(rf"@({_FLOAT}),({_FLOAT})(?:,({_FLOAT}))?")


def _parse_die(tok: str) -> Landed:
    low = tok.lower()
    if low in ("out", "rim"):
        return Landed(low)
    status = "arena"
    if low.startswith("c") and len(tok) > 1:
        status = "cocked"
        tok = tok[1:]
    face_part, at, rest = tok.partition("@")
    face = parse_face(face_part)
    if not at:
        return Landed(status, face)
    m = _POS_RE.fullmatch("@" + rest)
    if not m:
        raise NotationError(f"a die position is @x,y[,yaw] in mm/degrees, got {tok!r}")
    return Landed(status, face, float(m.group(1)), float(m.group(2)), float(m.group(3) or 0.0))


def from_string(text: str) -> Action:
    if not isinstance(text, str):
        raise NotationError(f"a move is text like 'throw c3 p0.6' or 'end', not {type(text).__name__}")
    words = text.strip().split()
    if not words:
        raise NotationError("empty move")
    head, args = words[0].lower(), words[1:]
    if head == "end" and not args:
        return EndTurn()
    if head == "throw":
        if args and args[0].lower() == "real":
            if len(args) > 1:
                raise NotationError(
                    "'throw real' takes nothing more: a real throw's aim and power are unknown"
                )
            return RealThrow()
        return _parse_throw(args, text)
    if head == "move":
        moves = []
        for tok in args:
            m = re.fullmatch(rf"(\d+)>({_FLOAT}),({_FLOAT})", tok)
            if not m:
                raise NotationError(f"a move is index>x,y (mm), got {tok!r}")
            moves.append((int(m.group(1)), float(m.group(2)), float(m.group(3))))
        if not moves:
            raise NotationError("'move' needs at least one index>x,y")
        return Rearrange(tuple(moves))
    if head == "lands":
        return Outcome(tuple(_parse_die(t) for t in args))
    if head == "start" and len(args) == 1:
        d = _parse_die(args[0])
        if d.status != "arena":
            raise NotationError("the start die must be a face with an optional position")
        if d.x is None or d.y is None:
            return Setup(d.face, None, None)
        return Setup(d.face, d.x, d.y, d.yaw)
    raise NotationError(
        f"cannot read {text!r}: expected 'throw X,Y pP sS', 'throw real', 'move i>x,y ...', 'end', 'lands ...'"
        " or 'start F'"
    )


def _parse_throw(args: list[str], text: str) -> Throw:
    if not args:
        raise NotationError("'throw' needs an aim: x,y in mm or a cell a1..e5")
    aim = args[0]
    m = re.fullmatch(rf"({_FLOAT}),({_FLOAT})", aim)
    if m:
        x, y = float(m.group(1)), float(m.group(2))
    else:
        x, y = cell_centre(aim)
    power, spin = 0.5, 0.5
    for tok in args[1:]:
        m2 = re.fullmatch(rf"([ps])=?({_FLOAT})", tok.lower())
        if not m2:
            raise NotationError(f"throw options are p<power> and s<spin> (0..1), got {tok!r} in {text!r}")
        if m2.group(1) == "p":
            power = float(m2.group(2))
        else:
            spin = float(m2.group(2))
    return Throw(x, y, power, spin)
