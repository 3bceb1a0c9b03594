"""The practical rule of Dice 1000: three numbers a person can play by, fitted to the solved classic table.

    With more than FEW dice in hand, roll until the turn is worth THRESHOLD; with FEW or fewer, bank.
    Do not climb onto the barrel while your opponent is less than GUARD points below it: roll on instead.

Forced moves stay what the rules make them (roll below the opening minimum or out of a pit, roll after hot dice),
on the barrel the win is taken as soon as it may be banked, a bank that would land on the dump truck (555) is
never made, and the keep is the one worth the most points. The numbers are fitted by
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
    guard: int

    def rolls(self, total: int, dice: int, me: int, opponent: int, barrel: int | None) -> bool:
        """Whether the rule rolls on (a free decision: the forced ones and the dump truck are the bot's)."""
        if barrel is not None and me + total >= barrel and barrel - self.guard <= opponent < barrel:
            return True  # wait below the barrel: the opponent would climb and knock us off
        return dice > self.few and total < self.threshold


PRACTICAL = Rule(threshold=100, few=3, guard=50)
"""The fitted numbers (classic, two players)."""

SHIPPED = Path(__file__).parent / "data" / "practical.json"
"""The rule's measured cost against ``bot:optimal`` beside the best single threshold and ``bot:expert``: written by
``scripts/thousand_practical_eval.py --update`` (each row holds the command that made it)."""


def measured() -> dict[str, Any]:
    """The shipped measurements: ``rule`` (the numbers they were measured for) and ``rows`` (one per bot)."""
    data: dict[str, Any] = json.loads(SHIPPED.read_text(encoding="utf-8"))
    return data
