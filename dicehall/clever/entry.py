"""Real dice for Clever, in the players' words: ``3 4 5 6 1 2`` (the faces of the dice thrown, in the order
W Y B G O P) or ``W3 Y4 B5 …``; every refusal speaks of dice (which is missing, which is not thrown, which face
cannot be), never of the move notation."""

from __future__ import annotations

import re

from dicehall.clever import actions as A
from dicehall.clever import words as W
from dicehall.clever.state import PH_PASSIVE_ROLL, CleverState
from dicehall.core.errors import IllegalActionError, NotationError
from dicehall.i18n import Message as M

LETTERS = "WYBGOP"
_NAMED = re.compile(r"([a-z])(\d+)")


def thrown(state: CleverState) -> list[int]:
    """The dice this throw rolls (all six for the solo passive roll)."""
    mask = 0b111111 if state.phase == PH_PASSIVE_ROLL else state.roll_mask
    return [d for d in range(6) if mask >> d & 1]


def _dice_list(dice: list[int]) -> str:
    return " ".join(LETTERS[d] for d in dice)


def read_dice(state: CleverState, text: str) -> int:
    """The outcome typed in ``text`` for the throw now due, checked; ``state`` is unchanged. Raises
    :class:`NotationError` or :class:`IllegalActionError` saying what about the dice is wrong."""
    main, _, plat = text.strip().lower().partition("platter")
    tokens = [t for t in re.split(r"[\s,;]+", main) if t]
    dice = thrown(state)
    order = _dice_list(dice)
    if not tokens:
        raise NotationError(M("clever.entry.empty", n=len(dice), order=order))
    values: dict[int, int] = {}
    if all(t.isdigit() for t in tokens):
        faces = [int(c) for t in tokens for c in t] if len(tokens) == 1 else [int(t) for t in tokens]
        if len(faces) != len(dice):
            raise NotationError(M("clever.entry.count", n=len(dice), got=len(faces), order=order))
        values = dict(zip(dice, faces, strict=True))
    else:
        for token in tokens:
            m = _NAMED.fullmatch(token)
            if not m or m.group(1).upper() not in LETTERS:
                raise NotationError(M("clever.entry.token", token=repr(token), order=order))
            d = LETTERS.index(m.group(1).upper())
            if d in values:
                raise NotationError(M("clever.entry.twice", die=W.die(d)))
            values[d] = int(m.group(2))
        extra = [d for d in values if d not in dice]
        if extra:
            raise IllegalActionError(
                M("clever.refusal.die_not_rolled", die=W.die(extra[0])), rule="roll-dice"
            )
        missing = [d for d in dice if d not in values]
        if missing:
            said = W.die(missing[0]) if len(missing) == 1 else _dice_list(missing)
            raise NotationError(M("clever.entry.missing", dice=said, order=order))
    for d, v in values.items():
        if not 1 <= v <= 6:
            raise IllegalActionError(M("clever.entry.face", die=W.die(d), value=v), rule="roll-dice")
    platter = _platter(state, values, plat)
    code = A.roll(values, platter)
    state.clone().apply_action(code)  # the engine's own check (the solo platter's three lowest)
    return code


def _platter(state: CleverState, values: dict[int, int], named: str) -> tuple[int, ...]:
    """The solo passive roll's platter: as named, or the three lowest when no tie leaves a choice."""
    if state.phase != PH_PASSIVE_ROLL:
        if named.strip():
            raise IllegalActionError(M("clever.refusal.platter_named"), rule="roll-dice")
        return ()
    if named.strip():
        letters = [x for x in re.split(r"[\s,]+", named.upper()) if x]
        if any(len(x) != 1 or x not in LETTERS for x in letters):
            raise NotationError(M("clever.entry.platter_letters"))
        return tuple(LETTERS.index(x) for x in letters)
    ranked = sorted(values, key=lambda d: values[d])
    edge = values[ranked[2]]
    if values[ranked[3]] == edge:  # a tie at the edge: the player picks which go to the platter
        tied = [d for d in ranked if values[d] == edge]
        raise NotationError(M("clever.entry.platter_tie", value=edge, dice=_dice_list(tied)))
    return tuple(ranked[:3])
