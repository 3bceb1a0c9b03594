"""Ganz schön clever puzzles found in games people played: the decisions of a finished solo game judged exactly
as the mined puzzles are (:meth:`dicehall.clever.puzzles.Miner.puzzle`: the network's screen, then every choice
played on), at the person's decisions.

Only solo games with the standard rules qualify: the miner's judging is solo's (the network and the play-outs
misjudge tables of 2–4, docs/puzzles.md, "Clever"). The server finds them when it analyses a finished game
(``dicehall/web/found_puzzles.py``); docs/puzzles.md, "Puzzles from games played here".
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection
from pathlib import Path

from dicehall.clever.puzzles import MINED_PLAYERS, Miner, Puzzle
from dicehall.clever.rules import CleverRules
from dicehall.clever.state import CleverState
from dicehall.core import kept_puzzles
from dicehall.core.found_puzzles import FOUND, Found, is_source, walk_record
from dicehall.core.record import GameRecord


def standard() -> CleverRules:
    return CleverRules.from_preset("standard", {})


def qualifies(record: GameRecord) -> bool:
    """Whether the record's positions can be puzzles: Clever, solo, the standard rules exactly."""
    return is_source(record, "clever", MINED_PLAYERS, standard())


def puzzles_in_record(record: GameRecord, seats: Collection[int], miner: Miner) -> list[Found[Puzzle]]:
    """The puzzles met at the decisions of ``seats`` in ``record``, in the order met (none when the record does
    not qualify). A position met twice gives one puzzle, where it was first met."""
    if not qualifies(record):
        return []
    n = len(record.players)
    return walk_record(
        record, lambda act: miner.play(CleverState(miner.rules, n), act, FOUND, frozenset(seats))
    )


def mover(p: Puzzle) -> int:
    """The seat whose decision the puzzle is."""
    return p.state().current_player()


def judge_fingerprint() -> str:
    """What the judging depends on: the Clever package's code (the miner, the rules, the judges' bots) and the
    solo network, so a kept game is judged again once any of them changes."""
    here = Path(__file__).parent
    return kept_puzzles.fingerprint([*here.rglob("*.py"), here / "data" / "master.npz"])


def history_puzzles(
    miner: Callable[[], Miner] = Miner, progress: kept_puzzles.Progress | None = None
) -> tuple[list[Puzzle], int]:
    """The puzzles in the games kept at this terminal (``dicehall games``), each position once, and how many of
    those games could give puzzles (solo, the standard rules). Judging costs about 3 s a game, so what was found
    is cached (:class:`dicehall.core.kept_puzzles.Cache`) and ``miner`` (it loads the network: seconds) is made
    only when a game is to be judged."""
    made = functools.cache(miner)
    cache = kept_puzzles.Cache[Puzzle].named("clever", judge_fingerprint(), Puzzle.to_json, Puzzle.from_json)
    return kept_puzzles.history_puzzles(
        qualifies,
        lambda record, seats: [f.puzzle for f in puzzles_in_record(record, seats, made())],
        cache,
        progress,
    )
