"""Action codes of Ganz schön clever and their text notation.

A decision is ``kind << 12 | die << 8 | area << 5 | cell``; a dice outcome carries :data:`CHANCE_FLAG`, three
bits per die (0 = not rolled) and, for the solo passive roll, the platter dice in bits 18–23.

Notation (case-insensitive):

- ``W:Y.r1c1`` — enter the white die as yellow in row 1 column 1 (``B:B.r2c3``, ``G:G``, ``W:O``, ``P:P``);
  the active player's pick or a passive player's platter/field pick.
- ``+1 B:B.r2c3`` — a +1 action on the blue die.
- ``reroll``, ``forfeit`` (no die can be entered), ``stop`` (no more +1 now), ``pass`` (passive: take nothing).
- ``X Y.r2c4`` / ``X B.r1c2`` — where a yellow X or blue X bonus goes.
- ``black Y.r1c1`` / ``black B.r3c4`` / ``black G`` (black X) / ``black O`` / ``black P`` (black 6) — round 4.
- dice: ``W3 Y5 B1 G6 O2 P4`` (only the dice rolled); the solo passive roll adds ``platter W,Y,G``.
"""

from __future__ import annotations

import re

from dicehall.clever import sheet as S
from dicehall.clever.tables import B_BY_SUM, Y_PRINTED, blue_label, yellow_label

K_ENTRY, K_PLUS, K_REROLL, K_FORFEIT, K_STOP, K_PASS, K_CHOOSE, K_BLACK = range(8)
REROLL = K_REROLL << 12
FORFEIT = K_FORFEIT << 12
STOP = K_STOP << 12
PASS = K_PASS << 12
CHANCE_FLAG = 1 << 24

NOTATION_EXAMPLES = "'W:Y.r1c1', 'B:B.r2c3', 'G:G', '+1 O:O', 'reroll', 'stop', 'X Y.r2c4', 'black O'"
NOTATION_HELP = "e.g. " + NOTATION_EXAMPLES


def entry(die: int, area: int, cell: int = 0, kind: int = K_ENTRY) -> int:
    return kind << 12 | die << 8 | area << 5 | cell


def choose(area: int, cell: int = 0, black: bool = False) -> int:
    return (K_BLACK if black else K_CHOOSE) << 12 | area << 5 | cell


def roll(values: dict[int, int], platter: tuple[int, ...] = ()) -> int:
    """A dice outcome: ``{die: value}`` for the dice rolled, plus the solo platter dice."""
    code = CHANCE_FLAG
    for d, v in values.items():
        code |= v << (3 * d)
    for d in platter:
        code |= 1 << (18 + d)
    return code


def kind_of(code: int) -> int:
    return (code >> 12) & 15


def die_of(code: int) -> int:
    return (code >> 8) & 7


def area_of(code: int) -> int:
    return (code >> 5) & 7


def cell_of(code: int) -> int:
    return code & 31


def chance_values(code: int) -> tuple[int, ...]:
    return tuple((code >> (3 * d)) & 7 for d in range(6))


def chance_platter(code: int) -> int:
    return (code >> 18) & 63


def is_valid_code(code: object) -> bool:
    """A code this module can write: a dice outcome, or a decision naming an existing die, area and cell."""
    if not isinstance(code, int) or isinstance(code, bool) or code < 0 or code >= CHANCE_FLAG << 1:
        return False
    if code & CHANCE_FLAG:
        return True
    if code >> 16 or kind_of(code) >= 8 or die_of(code) > 5 or area_of(code) > 4:
        return False
    cell = cell_of(code)
    return cell < 16 if area_of(code) == S.AREA_YELLOW else cell < 12


def target_label(area: int, cell: int) -> str:
    letter = S.AREA_LETTERS[area]
    if area == S.AREA_YELLOW:
        return f"{letter}.{yellow_label(cell)}"
    if area == S.AREA_BLUE:
        return f"{letter}.{blue_label(cell)}"
    return letter


def to_string(code: int) -> str:
    if code & CHANCE_FLAG:
        vals = chance_values(code)
        text = " ".join(f"{S.DIE_LETTERS[d]}{vals[d]}" for d in range(6) if vals[d])
        plat = chance_platter(code)
        if plat:
            text += " platter " + ",".join(S.DIE_LETTERS[d] for d in range(6) if plat >> d & 1)
        return text
    kind = kind_of(code)
    if kind == K_REROLL:
        return "reroll"
    if kind == K_FORFEIT:
        return "forfeit"
    if kind == K_STOP:
        return "stop"
    if kind == K_PASS:
        return "pass"
    target = target_label(area_of(code), cell_of(code))
    if kind == K_CHOOSE:
        return f"X {target}"
    if kind == K_BLACK:
        return f"black {target}"
    text = f"{S.DIE_LETTERS[die_of(code)]}:{target}"
    return f"+1 {text}" if kind == K_PLUS else text


_TARGET = r"([ybgop])(?:\.r([1-4])c([1-4]))?"
_ENTRY_RE = re.compile(r"(\+1\s+)?([wybgop])\s*:\s*" + _TARGET)
_CHOOSE_RE = re.compile(r"(x|black)\s+" + _TARGET)
_DIE_RE = re.compile(r"([wybgop])([1-6])")


def _target(letter: str, r: str | None, c: str | None) -> tuple[int, int] | None:
    area = "ybgop".index(letter)
    if area in (S.AREA_YELLOW, S.AREA_BLUE):
        if r is None or c is None:
            return None
        cell = (int(r) - 1) * 4 + int(c) - 1
        if area == S.AREA_YELLOW and (Y_PRINTED >> cell & 1):
            return None
        if area == S.AREA_BLUE and (cell >= 12 or cell not in B_BY_SUM):
            return None
        return area, cell
    if r is not None:
        return None
    return area, 0


def from_string(text: str) -> int | None:
    """Parse the notation; None when ``text`` is not a Clever move."""
    t = " ".join(text.strip().lower().split())
    if t in ("reroll", "re-roll"):
        return REROLL
    if t == "forfeit":
        return FORFEIT
    if t == "stop":
        return STOP
    if t == "pass":
        return PASS
    m = _ENTRY_RE.fullmatch(t)
    if m:
        tgt = _target(m.group(3), m.group(4), m.group(5))
        if tgt is None:
            return None
        return entry("wybgop".index(m.group(2)), tgt[0], tgt[1], K_PLUS if m.group(1) else K_ENTRY)
    m = _CHOOSE_RE.fullmatch(t)
    if m:
        tgt = _target(m.group(2), m.group(3), m.group(4))
        if tgt is None:
            return None
        black = m.group(1) == "black"
        if not black and tgt[0] not in (S.AREA_YELLOW, S.AREA_BLUE):
            return None
        return choose(tgt[0], tgt[1], black)
    # dice: "W3 Y5 ..." with an optional "platter W,Y,G"
    main, _, plat = t.partition("platter")
    tokens = main.split()
    if not tokens:
        return None
    values: dict[int, int] = {}
    for tok in tokens:
        dm = _DIE_RE.fullmatch(tok)
        if not dm:
            return None
        d = "wybgop".index(dm.group(1))
        if d in values:
            return None
        values[d] = int(dm.group(2))
    platter: list[int] = []
    if plat.strip():
        for letter in plat.replace(" ", "").split(","):
            if len(letter) != 1 or letter not in "wybgop":
                return None
            platter.append("wybgop".index(letter))
    return roll(values, tuple(platter))
