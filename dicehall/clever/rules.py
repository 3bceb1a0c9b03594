"""Rule options of Ganz schön clever. The standard game needs none; the options name our rulings."""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

from dicehall.core.rules import RuleSet, option


@dataclasses.dataclass(frozen=True)
class CleverRules(RuleSet):
    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {
        "standard": {},
        "no-fallback": {"passive_fallback": False},
    }
    DEFAULT_PRESET: ClassVar[str] = "standard"

    rounds: int = option(
        0, "number of rounds; 0 = by player count (4 players 4, 3 players 5, 1–2 players 6)", min=0, max=6
    )
    passive_fallback: bool = option(
        True, "a passive player may take one of the active player's field dice when no platter die fits"
    )
    auto_single_choice: bool = option(
        True, "a bonus cross with only one possible cell is made at once instead of being asked for"
    )
