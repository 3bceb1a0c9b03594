"""Puzzles found in games people played, for every game: a record's positions walked by the game's miner (its
own judging), at the decisions of the seats named; a position met twice is one puzzle, where first met
(``thousand/found_puzzles.py``, ``clever/found_puzzles.py``; docs/puzzles.md, "Puzzles from games played here")."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Iterable
from typing import Any, Generic

from dicehall.core.errors import DicehallError
from dicehall.core.puzzles import P
from dicehall.core.record import GameRecord, is_resign
from dicehall.core.rules import RuleSet

FOUND = -1
"""The ``game`` field of a found puzzle (mined ones name their seeded game): where it was met is kept beside it."""

Act = Callable[[Any], Any | None]
"""The record's next action in a state (None at its end or at a resignation)."""


@dataclasses.dataclass(frozen=True)
class Found(Generic[P]):
    puzzle: P
    step: int
    """The events of the record before the position (the analysis board's ``step``)."""


def is_source(record: GameRecord, game: str, players: Collection[int], rules: RuleSet) -> bool:
    """Whether ``record`` is a game whose positions the game's miner judges: ``game``, a number of players among
    ``players``, exactly ``rules``."""
    if record.game != game or len(record.players) not in players:
        return False
    try:
        return record.rules() == rules
    except DicehallError:  # rules that do not even read: no source of puzzles
        return False


def walk_record(record: GameRecord, play: Callable[[Act], Iterable[P]]) -> list[Found[P]]:
    """The puzzles ``play`` (a game's miner playing the record's own moves, ``act``) meets, each once, with the
    step where it was first met."""
    step = 0

    def act(s: Any) -> Any | None:
        nonlocal step
        if step == len(record.events) or is_resign(record.events[step]):
            return None
        step += 1
        return s.string_to_action(record.events[step - 1].move)

    found: dict[str, Found[P]] = {}
    for p in play(act):
        found.setdefault(p.key, Found(p, step))
    return list(found.values())
