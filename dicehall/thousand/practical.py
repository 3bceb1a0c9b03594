"""The practical rule of Dice 1000: three numbers a person can play by, fitted to the solved classic table.

    With more than FEW dice in hand roll on until the turn is worth THRESHOLD; with FEW or fewer, bank.
    From CLIMB points on, bank only a turn that takes you onto the barrel.

Forced moves stay what the rules make them (roll below the opening minimum or out of a pit, roll after hot dice),
on the barrel the win is taken as soon as it may be banked, a bank that would land on the dump truck (555) is
never made, and classic sets the scoring dice aside by itself. The numbers are fitted by
``scripts/thousand_practical_fit.py`` and measured by ``scripts/thousand_practical_eval.py``
(docs/strategy.md, "A rule to remember"); ``tests/thousand/test_practical.py`` holds docs and code to them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, NamedTuple


class Rule(NamedTuple):
    threshold: int
    few: int
    climb: int
    """From this score on, bank only onto the barrel (the barrel's own score or more: never)."""

    def rolls(self, total: int, dice: int, me: int, barrel: int | None) -> bool:
        """Whether the rule rolls on (a free decision: the forced ones and the dump truck are the bot's)."""
        if barrel is not None and self.climb <= me and me + total < barrel:
            return True
        return dice > self.few and total < self.threshold


PRACTICAL = Rule(threshold=100, few=3, climb=850)
"""The fitted numbers (classic, two players)."""

SHIPPED = Path(__file__).parent / "data" / "practical.json"
"""The rule's measured cost against ``bot:optimal`` beside the best single threshold and ``bot:expert``: written by
``scripts/thousand_practical_eval.py --update`` (each row holds the command that made it)."""


def measured() -> dict[str, Any]:
    """The shipped measurements: ``rule`` (the numbers they were measured for) and ``rows`` (one per bot)."""
    data: dict[str, Any] = json.loads(SHIPPED.read_text(encoding="utf-8"))
    return data
