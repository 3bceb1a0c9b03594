"""Dice 1000 puzzles found in games people played: the positions of a finished game where a person had a clear
best choice by the exact table, under the same rules as the mined puzzles (:mod:`dicehall.thousand.puzzles`).

Only classic two-player games qualify (the table is classic's), and only the decisions of the seats named (the
people at the table), so a puzzle is a position a person really met. The server finds them when it analyses a
finished game (``dicehall/web/found_puzzles.py``); docs/puzzles.md, "Puzzles from your games".
"""

from __future__ import annotations

from collections.abc import Collection

from dicehall.core.errors import DicehallError
from dicehall.core.found_puzzles import FOUND, Found, is_source, walk_record
from dicehall.core.history import history_files
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


def people(record: GameRecord) -> list[int]:
    """The seats people held in a game played at the terminal (bots' seats are named ``bot:NAME``)."""
    return [i for i, p in enumerate(record.players) if not str(p.get("name", "")).startswith("bot:")]


def history_puzzles(miner: Miner) -> tuple[list[Puzzle], int]:
    """The puzzles in the games kept at this terminal (``dicehall games``), each position once, and how many of
    those games could give puzzles (classic, two players). A file that does not read is passed over."""
    found: dict[str, Puzzle] = {}
    games = 0
    for path in history_files():
        try:
            record = GameRecord.load(path)
        except DicehallError:
            continue
        if not qualifies(record):
            continue
        games += 1
        for f in puzzles_in_record(record, people(record), miner):
            found.setdefault(f.puzzle.key, f.puzzle)
    return list(found.values()), games
