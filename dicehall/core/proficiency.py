"""A player's proficiency in one game: the mean loss per decision of the analysis (``docs/analysis.md``,
"Proficiency") put in a band, and the one decision that cost the player most.

The band limits are set between the bots' own figures (``python -m bench.proficiency GAME``) and kept here only:
the analysis sends the band with each player's totals, so no front end keeps a copy.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Literal, Protocol, TypeVar

Band = Literal["expert", "good", "learning"]
BANDS_IN_ORDER: tuple[Band, ...] = ("expert", "good", "learning")


@dataclasses.dataclass(frozen=True)
class Limits:
    """Upper limits (exclusive) of the mean loss per decision, in the analysis' unit, of the first two bands."""

    expert: float
    good: float

    def band(self, mean_loss: float) -> Band:
        if mean_loss < self.expert:
            return "expert"
        if mean_loss < self.good:
            return "good"
        return "learning"


LIMITS: dict[tuple[str, str], Limits] = {
    # Dice 1000, win-% points from the exact table: bot:expert 0.037 | 0.06 | cautious 0.084 | 0.15 | bold 0.25
    ("thousand", "win%"): Limits(0.06, 0.15),
    # Dice 1000, turn points (rules without a table): expert 0 | 2 | cautious 3.3 | 6 | bold 11.3
    ("thousand", "points"): Limits(2.0, 6.0),
    # Clever, expected points from bot:master's value: master 0.09 | 0.7 | 3 (half of bot:expert's) | expert 5.9
    ("clever", "points"): Limits(0.7, 3.0),
}
"""Per (game, unit), set between the bots' own figures (``python -m bench.proficiency``; docs/analysis.md,
"Proficiency"); a game or unit missing here gets no band (the figure is shown alone)."""


def limits_for(game: str, unit: str) -> Limits | None:
    return LIMITS.get((game, unit))


def band(game: str, unit: str, mean_loss: float) -> Band | None:
    """The band of a mean loss per decision; ``None`` where the game (or unit) has no calibrated limits."""
    found = limits_for(game, unit)
    return None if found is None else found.band(mean_loss)


class _Weighed(Protocol):
    """What :func:`costliest` reads of an analysis step (read-only: a step's ``kind`` is a narrower literal)."""

    @property
    def kind(self) -> str: ...
    @property
    def seat(self) -> int: ...
    @property
    def loss(self) -> float: ...


S = TypeVar("S", bound=_Weighed)


def costliest(steps: Iterable[S], seat: int) -> S | None:
    """The decision of ``seat`` that lost most (the first of equal ones); ``None`` when none lost anything."""
    worst: S | None = None
    for step in steps:
        mine = step.kind == "decision" and step.seat == seat and step.loss > 0
        if mine and (worst is None or step.loss > worst.loss):
            worst = step
    return worst
