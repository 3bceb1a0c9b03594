"""Puzzles found in the games people play here: when the analyst has analysed a finished game (analyst.py), the
positions where a person had a clearly best choice become puzzles of that game, kept in ``dh_found_puzzles`` and
offered on the puzzle page beside the shipped ones, with a link to the game they came from (docs/puzzles.md,
"Puzzles from games played here"). Each game that has puzzles says how its records give them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from typing import Any

from dicehall.core.puzzles import puzzle_id
from dicehall.core.record import GameRecord
from dicehall.thousand.found_puzzles import puzzles_in_record
from dicehall.thousand.puzzles import Miner, Puzzle
from dicehall.web.db import FoundPuzzle


@cache
def _thousand_miner() -> Miner:
    return Miner()  # the shipped table, once per process


def _thousand(record: GameRecord, people: list[int]) -> list[FoundPuzzle]:
    return [
        FoundPuzzle(
            "thousand",
            puzzle_id(f.puzzle),
            json.dumps(f.puzzle.to_json(), separators=(",", ":"), ensure_ascii=False),
            f.step,
            f.puzzle.start["to_move"],
        )
        for f in puzzles_in_record(record, people, _thousand_miner())
    ]


FINDERS: dict[str, Callable[[GameRecord, list[int]], list[FoundPuzzle]]] = {"thousand": _thousand}
READERS: dict[str, Callable[[dict[str, Any]], Any]] = {"thousand": Puzzle.from_json}
"""How a game's stored puzzle line is read back (the puzzle page serves it like a shipped one)."""


def find_puzzles(record: GameRecord, people: list[int]) -> list[FoundPuzzle]:
    """The puzzles met at the decisions of the seats ``people`` in a finished game (none for a game without
    puzzles, or rules its puzzles are not of)."""
    finder = FINDERS.get(record.game)
    return finder(record, people) if finder is not None and people else []
