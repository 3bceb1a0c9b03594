"""Solving Dice 1000 puzzles: the reason in words and the game's side of the shared puzzle layer
(:mod:`dicehall.core.puzzles`: the id, the ratings, the verdict, choosing the next puzzle).

Shared by the web (``dicehall/web/puzzles_api.py``) and the terminal (``dicehall puzzle thousand``); the
puzzles themselves are :mod:`dicehall.thousand.puzzles`. See docs/puzzles.md.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

from dicehall.core import puzzles as core
from dicehall.core.puzzles import (  # (re-exported: the names callers use from here)
    NEAREST,
    PuzzleAnswerError,
    Skill,
    Verdict,
    puzzle_id,
    rate,
    update,
)
from dicehall.i18n.message import Message
from dicehall.thousand.puzzles import THEMES, Puzzle, load_puzzles

CLEAR_MARGIN = 6.0
"""Win-% points at the middle of the rating scale (:func:`core.puzzle_rating`): ratings 1050 … 1875."""


def puzzle_rating(p: Puzzle) -> float:
    """A puzzle's rating: its difficulty's base (easy 1200, medium 1500, hard 1800: how many of the three
    heuristic bots choose wrong) moved by its margin: 25 points lower for each win-% point above 6 (a clear
    answer is easier), 25 higher for each below, the margin counted up to 12 (so 1050 … 1875)."""
    return core.puzzle_rating(p, CLEAR_MARGIN)


def _pct(v: float) -> float:
    return core.tenths(v)


def why(p: Puzzle) -> Message:
    """One sentence: why the best choice is best, from the theme and the numbers."""
    s = p.state()
    other = next(k for k in p.options if k != p.best)
    theme = p.theme.replace(" ", "_")
    return Message(
        f"puzzle.why.{theme}.{p.best}",
        total=s.turn_total,
        dice=s.in_hand,
        best=_pct(p.options[p.best]),
        other=_pct(p.options[other]),
    )


def check(p: Puzzle, choice: str) -> Verdict:
    """The verdict on ``choice`` (``bank`` or ``roll``); anything else is refused."""
    return core.check(p, choice, why(p))


def position(p: Puzzle) -> dict[str, Any]:
    """What the page draws: the table's public view of the position, whose seat is the solver's, the theme."""
    s = p.state()
    rules = {k: list(v) if isinstance(v, tuple) else v for k, v in dataclasses.asdict(s.rules).items()}
    return {"theme": p.theme, "mover": s.player, "view": s.public_view(), "rules": rules}


def _extra(p: Puzzle) -> dict[str, Any]:
    s = p.state()
    return {"total": s.turn_total, "dice": s.in_hand}


GAME: core.PuzzleGame[Puzzle] = core.PuzzleGame(
    name="thousand",
    themes=THEMES,
    load=load_puzzles,
    why=why,
    position=position,
    clear_margin=CLEAR_MARGIN,
    verdict_extra=_extra,
)


class PuzzleSet(core.PuzzleSet[Puzzle]):
    """The shipped Dice 1000 puzzles (or ``puzzles``) by id, theme and rating."""

    def __init__(self, puzzles: Iterable[Puzzle] | None = None) -> None:
        super().__init__(GAME, puzzles)


__all__ = [
    "GAME",
    "NEAREST",
    "PuzzleAnswerError",
    "PuzzleSet",
    "Skill",
    "Verdict",
    "check",
    "position",
    "puzzle_id",
    "puzzle_rating",
    "rate",
    "update",
    "why",
]
