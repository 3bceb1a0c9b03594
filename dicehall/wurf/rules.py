"""Der große Wurf rule options and presets."""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

from dicehall.core.errors import RuleConfigError
from dicehall.core.rules import RuleSet, option
from dicehall.i18n.message import Message

DICE_PER_PLAYER = {2: 9, 3: 8, 4: 7, 5: 6}
TOTAL_DICE = 31


@dataclasses.dataclass(frozen=True)
class WurfRules(RuleSet):
    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {
        "standard": {},
        "match": {"match": True},
        "physics": {"arena": "physics"},
        "physics-match": {"arena": "physics", "match": True},
    }
    DEFAULT_PRESET: ClassVar[str] = "standard"

    arena: str = option(
        "fast",
        "how thrown dice land: quick (drawn from measured throws) or realistic "
        "(every throw simulated in 3D, a little slower)",
        choices=("fast", "physics"),
    )
    match: bool = option(
        False, "match mode: one game per player, each started by the next seat; lowest point total wins"
    )
    dice_per_player: int = option(
        0,
        "dice each player starts with; 0 = the rulebook table (2p 9, 3p 8, 4p 7, 5p 6); "
        "players × dice must leave one of the 31 dice for the arena",
        min=0,
        max=15,
    )

    def dice_for(self, players: int) -> int:
        """Dice per player for a game of ``players``; the box holds 31 dice, one goes into the arena."""
        n = self.dice_per_player or DICE_PER_PLAYER[players]
        if n * players > TOTAL_DICE - 1:
            raise RuleConfigError(
                Message("wurf.rules_error.box", players=players, n=n, total=TOTAL_DICE),
                option="dice_per_player",
            )
        return n
