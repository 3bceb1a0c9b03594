"""Dice 1000 puzzles found in games people played: the positions of a finished game where a person had a clear
best choice by the exact table, under the same rules as the mined puzzles (:mod:`dicehall.thousand.puzzles`).

Only classic two-player games qualify (the table is classic's), and only the decisions of the seats named (the
people at the table), so a puzzle is a position a person really met. The server finds them when it analyses a
finished game (``dicehall/web/found_puzzles.py``); docs/puzzles.md, "Puzzles from your games".
"""

from __future__ import annotations

from collections.abc import Collection

from dicehall.core import kept_puzzles
from dicehall.core.found_puzzles import FOUND, Found, is_source, walk_record
from dicehall.core.record import GameRecord
from dicehall.thousand.puzzles import Miner, Puzzle, classic
from dicehall.thousand.state import ThousandState


def qualifies(record: GameRecord) -> bool:
    """Whether the record's positions can be puzzles: Dice 1000, two players, the classic rules exactly."""
    return is_source(record, "thousand", (2,), classic())


def puzzles_in_record(record: GameRecord, seats: Collection[int], miner: Miner) -> list[Found[Puzzle]]:
    """The puzzles met at the decisions of ``seats`` in ``record``, in the order met (none when the record does
    not qualify). A position met twice gives one puzzle, where it was first met."""
    if not qualifies(record):
        return []
    return walk_record(
        record, lambda act: miner.play(ThousandState(miner.rules, 2), act, FOUND, frozenset(seats))
    )


def history_puzzles(miner: Miner, progress: kept_puzzles.Progress | None = None) -> tuple[list[Puzzle], int]:
    """The puzzles in the games kept at this terminal (``dicehall games``), each position once, and how many of
    those games could give puzzles (classic, two players). Not cached: the exact table judges a game in
    milliseconds (Clever's judging is cached, ``clever/found_puzzles.py``)."""
    return kept_puzzles.history_puzzles(
        qualifies,
        lambda record, seats: [f.puzzle for f in puzzles_in_record(record, seats, miner)],
        progress=progress,
    )
