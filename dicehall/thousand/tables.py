"""Dice 1000's fixed tables: every ordered roll of 1–5 dice with its best scoring, the keep choices, the phases.

Built once per scoring table and shared by every state, so that neither the rules (:mod:`.state`) nor the fast
simulation path (:mod:`.fast`) score a roll twice.
"""

from __future__ import annotations

import dataclasses
import itertools
from typing import Final

from dicehall.thousand.scoring import Combo, score_roll

Dice = tuple[int, ...]
# The phases of a turn (a state's ``_phase``).
ROLLING: Final = 0  # the dice in hand are to be rolled (a chance node)
DECIDING: Final = 1  # the player decides: roll again or bank
KEEPING: Final = 2  # free_set_aside: the player chooses which scoring dice to keep
OVER: Final = 3
ROLL_OFF: Final = 4  # roll_off: one die each for who starts
Kinds = tuple[tuple[int, int, int], ...]


@dataclasses.dataclass(frozen=True, slots=True)
class RollInfo:
    """The best scoring of one ordered roll: points, the dice it sets aside, its combinations."""

    points: int
    kept: Dice
    combos: tuple[Combo, ...]
    golden: bool


OUTCOMES: tuple[tuple[Dice, ...], ...] = tuple(
    tuple(itertools.product(range(1, 7), repeat=k)) for k in range(6)
)
"""``OUTCOMES[k]``: every ordered roll of ``k`` dice, in lexicographic order."""
PROBABILITIES: tuple[float, ...] = tuple(6.0**-k for k in range(6))
"""``PROBABILITIES[k]``: the chance of each ordered roll of ``k`` dice."""

_TABLES: dict[Kinds, dict[Dice, RollInfo]] = {}
_LISTS: dict[Kinds, tuple[tuple[tuple[Dice, RollInfo], ...], ...]] = {}
_KEEP_CACHE: dict[tuple[Combo, ...], dict[str, tuple[int, Dice]]] = {}


def roll_table(kinds: Kinds) -> dict[Dice, RollInfo]:
    """Every ordered roll of 1–5 dice mapped to its :class:`RollInfo` (built once per scoring table)."""
    table = _TABLES.get(kinds)
    if table is None:
        table = {}
        for k in range(1, 6):
            for dice in OUTCOMES[k]:
                rs = score_roll(dice, kinds)
                kept = tuple(d for c in rs.combos for d in c.dice)
                table[dice] = RollInfo(rs.points, kept, rs.combos, k == 5 and dice == (1, 1, 1, 1, 1))
        _TABLES[kinds] = table
    return table


def roll_lists(kinds: Kinds) -> tuple[tuple[tuple[Dice, RollInfo], ...], ...]:
    """``roll_lists(kinds)[k][i]``: ``OUTCOMES[k][i]`` and its :class:`RollInfo` (found by index, not by hash)."""
    lists = _LISTS.get(kinds)
    if lists is None:
        table = roll_table(kinds)
        lists = _LISTS[kinds] = ((), *(tuple((d, table[d]) for d in OUTCOMES[k]) for k in range(1, 6)))
    return lists


def keep_options(combos: tuple[Combo, ...]) -> dict[str, tuple[int, Dice]]:
    """``free_set_aside``: every non-empty subset of ``combos`` as ``"keep d,d"`` → (points, dice kept)."""
    found = _KEEP_CACHE.get(combos)
    if found is None:
        found = {}
        for mask in range(1, 1 << len(combos)):
            chosen = [c for i, c in enumerate(combos) if mask >> i & 1]
            dice = tuple(sorted(d for c in chosen for d in c.dice))
            found["keep " + ",".join(map(str, dice))] = (sum(c.points for c in chosen), dice)
        found = dict(sorted(found.items(), key=lambda kv: (len(kv[1][1]), kv[0])))
        _KEEP_CACHE[combos] = found
    return found
