"""Dice 1000's text notation: ``roll``, ``bank``, ``keep 1,5`` and dice outcomes ``3,1,5,5,2`` (or ``31552``)."""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from dicehall.core.errors import IllegalActionError, NotationError
from dicehall.i18n.message import Message as M

ROLL: Final = "roll"
BANK: Final = "bank"
Dice = tuple[int, ...]
Action = str | Dice


def parse_action(text: str) -> Action:
    """Read ``roll``, ``bank``, ``keep 1,5`` or a dice outcome ``3,1,5,5,2`` (``31552`` also accepted)."""
    if not isinstance(text, str):
        raise NotationError(M("notation.not_text", type=type(text).__name__))
    t = text.strip().lower()
    if t == ROLL:
        return ROLL
    if t == BANK:
        return BANK
    if t.startswith("keep"):
        dice = _parse_dice(t[4:], "keep")
        return "keep " + ",".join(map(str, sorted(dice)))
    return _parse_dice(t, "dice")


def action_text(action: Action) -> str:
    """An action in the notation (dice as ``3,1,5,5,2``)."""
    return ",".join(map(str, action)) if isinstance(action, tuple) else action


def shown(action: object) -> str:
    """An action quoted for a refusal message."""
    if isinstance(action, tuple):
        return repr(",".join(map(str, action)))
    return repr(action)


def whole_dice(values: tuple[Any, ...]) -> Dice:
    """``values`` as plain ints (NumPy integers are converted); anything else (1.0, True) is refused."""
    out = []
    for v in values:
        if isinstance(v, bool | np.bool_) or not isinstance(v, int | np.integer):
            raise IllegalActionError(
                M("thousand.refusal.whole_dice", value=repr(v), type=type(v).__name__), rule="dice-values"
            )
        out.append(int(v))
    return tuple(out)


def _parse_dice(text: str, what: str) -> Dice:
    t = text.strip()
    parts = [p for p in t.replace(",", " ").split() if p]
    if len(parts) == 1 and _ascii_digits(parts[0]) and len(parts[0]) > 1:
        parts = list(parts[0])
    if not parts:
        hint = M("thousand.notation.keep_needs_dice" if what == "keep" else "thousand.notation.expected")
        raise NotationError(M("notation.cannot_read", text=repr(text.strip()), hint=hint))
    values = []
    for p in parts:
        if not _ascii_digits(p):
            raise NotationError(M("thousand.notation.bad_part", part=repr(p), text=repr(text.strip())))
        v = int(p)
        if not 1 <= v <= 6:
            raise NotationError(M("thousand.refusal.die_value", value=v))
        values.append(v)
    if len(values) > 5:
        raise NotationError(M("thousand.notation.too_many", got=len(values)))
    return tuple(values)


def _ascii_digits(text: str) -> bool:
    """Digits 0-9 only (``str.isdigit`` also accepts '²' and other scripts' digits)."""
    return text.isascii() and text.isdigit()
