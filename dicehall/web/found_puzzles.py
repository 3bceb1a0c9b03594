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

from dicehall.clever import found_puzzles as clever_found
from dicehall.clever import puzzles as clever
from dicehall.core.found_puzzles import Found
from dicehall.core.puzzles import puzzle_id
from dicehall.core.record import GameRecord
from dicehall.thousand import found_puzzles as thousand_found
from dicehall.thousand import puzzles as thousand
from dicehall.web.db import FoundPuzzle


@cache
def _thousand_miner() -> thousand.Miner:
    return thousand.Miner()  # the shipped table, once per process


@cache
def _clever_miner() -> clever.Miner:
    return clever.Miner()  # bot:master's network and the judges, once per process


def _row(game: str, f: Found[Any], seat: int) -> FoundPuzzle:
    body = json.dumps(f.puzzle.to_json(), separators=(",", ":"), ensure_ascii=False)
    return FoundPuzzle(game, puzzle_id(f.puzzle), body, f.step, seat)


def _thousand(record: GameRecord, people: list[int]) -> list[FoundPuzzle]:
    found = thousand_found.puzzles_in_record(record, people, _thousand_miner())
    return [_row("thousand", f, f.puzzle.start["to_move"]) for f in found]


def _clever(record: GameRecord, people: list[int]) -> list[FoundPuzzle]:
    if not clever_found.qualifies(record):
        return []  # (before the network is loaded)
    found = clever_found.puzzles_in_record(record, people, _clever_miner())
    return [_row("clever", f, clever_found.mover(f.puzzle)) for f in found]


FINDERS: dict[str, Callable[[GameRecord, list[int]], list[FoundPuzzle]]] = {
    "thousand": _thousand,
    "clever": _clever,
}
READERS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "thousand": thousand.Puzzle.from_json,
    "clever": clever.Puzzle.from_json,
}
"""How a game's stored puzzle line is read back (the puzzle page serves it like a shipped one)."""


def find_puzzles(record: GameRecord, people: list[int]) -> list[FoundPuzzle]:
    """The puzzles met at the decisions of the seats ``people`` in a finished game (none for a game without
    puzzles, or rules its puzzles are not of)."""
    finder = FINDERS.get(record.game)
    return finder(record, people) if finder is not None and people else []
