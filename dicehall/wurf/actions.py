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
from dicehall.i18n.message import Message
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


def _place_problem(what: Message, x: object, y: object, yaw: object) -> Message | None:
    if (x is None) != (y is None):
        return Message("wurf.notation.both_xy", what=what)
    if x is not None and not (_real(x) and _real(y)):
        return Message("wurf.notation.xy_numbers", what=what, x=repr(x), y=repr(y))
    if not _real(yaw):
        return Message("wurf.notation.yaw_number", what=what, yaw=repr(yaw))
    return None


def malformed(action: object) -> Message | None:
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
                return Message(
                    "wurf.notation.throw_number", name=Message(f"wurf.notation.param.{name}"), value=repr(v)
                )
        return None
    if isinstance(action, Rearrange):
        if not isinstance(action.moves, tuple) or not action.moves:
            return Message("wurf.notation.move_empty")
        for move in action.moves:
            if not (isinstance(move, tuple) and len(move) == 3 and _whole(move[0])):
                return Message("wurf.notation.move_form", move=repr(move))
            what = Message("wurf.notation.what.moved_die", i=move[0])
            problem = _place_problem(what, move[1], move[2], 0.0)
            if problem or move[1] is None:
                return problem or Message("wurf.notation.move_needs_place", i=move[0])
        return None
    if isinstance(action, Setup):
        if not _whole(action.face) or not 1 <= action.face <= 6:
            return Message("wurf.notation.start_face", face=repr(action.face))
        return _place_problem(Message("wurf.notation.what.start_die"), action.x, action.y, action.yaw)
    if isinstance(action, Outcome):
        if not isinstance(action.dice, tuple):
            return Message("wurf.notation.outcome_tuple")
        for k, d in enumerate(action.dice):
            if not isinstance(d, Landed):
                return Message("wurf.notation.not_landed", k=k + 1, die=repr(d))
            if d.status not in STATUSES:
                return Message("wurf.notation.unknown_status", k=k + 1, status=repr(d.status))
            if not _whole(d.face) or not 0 <= d.face <= 6:
                return Message("wurf.notation.face_range", k=k + 1, face=repr(d.face))
            problem = _place_problem(Message("wurf.notation.what.die", k=k + 1), d.x, d.y, d.yaw)
            if problem:
                return problem
        return None
    return Message("wurf.notation.not_an_action", action=repr(action))


def cell_centre(cell: str) -> tuple[float, float]:
    """Centre of an aim cell ``a1``..``e5`` (columns a–e west→east, rows 1–5 south→north)."""
    m = re.fullmatch(r"([a-e])([1-5])", cell.strip().lower())
    if not m:
        raise NotationError(Message("wurf.notation.cell", cell=repr(cell)))
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
    raise NotationError(Message("wurf.notation.face", text=repr(text)))


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
        raise NotationError(Message("wurf.notation.position", token=repr(tok)))
    return Landed(status, face, float(m.group(1)), float(m.group(2)), float(m.group(3) or 0.0))


def from_string(text: str) -> Action:
    if not isinstance(text, str):
        raise NotationError(Message("wurf.notation.not_text", type=type(text).__name__))
    words = text.strip().split()
    if not words:
        raise NotationError(Message("wurf.notation.empty"))
    head, args = words[0].lower(), words[1:]
    if head == "end" and not args:
        return EndTurn()
    if head == "throw":
        if args and args[0].lower() == "real":
            if len(args) > 1:
                raise NotationError(Message("wurf.notation.real_alone"))
            return RealThrow()
        return _parse_throw(args, text)
    if head == "move":
        moves = []
        for tok in args:
            m = re.fullmatch(rf"(\d+)>({_FLOAT}),({_FLOAT})", tok)
            if not m:
                raise NotationError(Message("wurf.notation.move_token", token=repr(tok)))
            moves.append((int(m.group(1)), float(m.group(2)), float(m.group(3))))
        if not moves:
            raise NotationError(Message("wurf.notation.move_none"))
        return Rearrange(tuple(moves))
    if head == "lands":
        return Outcome(tuple(_parse_die(t) for t in args))
    if head == "start" and len(args) == 1:
        d = _parse_die(args[0])
        if d.status != "arena":
            raise NotationError(Message("wurf.notation.start_form"))
        if d.x is None or d.y is None:
            return Setup(d.face, None, None)
        return Setup(d.face, d.x, d.y, d.yaw)
    raise NotationError(Message("wurf.notation.unreadable", text=repr(text)))


def _parse_throw(args: list[str], text: str) -> Throw:
    if not args:
        raise NotationError(Message("wurf.notation.throw_needs_aim"))
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
            raise NotationError(Message("wurf.notation.throw_option", token=repr(tok), text=repr(text)))
        if m2.group(1) == "p":
            power = float(m2.group(2))
        else:
            spin = float(m2.group(2))
    return Throw(x, y, power, spin)
