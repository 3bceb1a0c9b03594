"""Dice 1000 puzzles found in games people played: the positions of a finished game where a person had a clear
best choice by the exact table, under the same rules as the mined puzzles (:mod:`dicehall.thousand.puzzles`).

Only classic two-player games qualify (the table is classic's), and only the decisions of the seats named (the
people at the table), so a puzzle is a position a person really met. The server finds them when it analyses a
finished game (``dicehall/web/found_puzzles.py``); docs/puzzles.md, "Puzzles from your games".
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from dicehall.core.errors import DicehallError
from dicehall.core.record import GameRecord, is_resign
from dicehall.thousand.puzzles import Miner, Puzzle, classic
from dicehall.thousand.state import ThousandState

FOUND = -1
"""The ``game`` field of a found puzzle (mined ones name their seeded game): where it was met is kept beside it."""


def qualifies(record: GameRecord) -> bool:
    """Whether the record's positions can be puzzles: Dice 1000, two players, the classic rules exactly."""
    if record.game != "thousand" or len(record.players) != 2:
        return False
    try:
        return record.rules() == classic()
    except DicehallError:  # rules that do not even read: no source of puzzles
        return False


def puzzles_in_record(record: GameRecord, seats: Collection[int], miner: Miner) -> list[Puzzle]:
    """The puzzles met at the decisions of ``seats`` in ``record``, in the order met (none when the record does
    not qualify). A position met twice gives one puzzle."""
    if not qualifies(record):
        return []
    events = iter(record.events)

    def act(s: ThousandState) -> Any | None:
        event = next(events, None)
        if event is None or is_resign(event):
            return None
        return s.string_to_action(event.move)

    found: dict[str, Puzzle] = {}
    for p in miner.play(ThousandState(miner.rules, 2), act, FOUND, frozenset(seats)):
        found.setdefault(p.key, p)
    return list(found.values())
