"""Solving Clever puzzles: the reason in words, the position the page draws, and the game's side of the shared
puzzle layer (:mod:`dicehall.core.puzzles`: the id, the ratings, the verdict, choosing the next puzzle).

Shared by the web (``dicehall/web/puzzles_api.py``) and the terminal (``dicehall puzzle clever``); the puzzles
themselves are :mod:`dicehall.clever.puzzles`. See docs/puzzles.md.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from dicehall.clever.puzzles import MARGIN, THEMES, Puzzle, load_puzzles
from dicehall.clever.view import public_view
from dicehall.core import puzzles as core
from dicehall.core.puzzles import Verdict
from dicehall.i18n.message import Message

CLEAR_MARGIN = 2 * MARGIN
"""Points at the middle of the rating scale (:func:`core.puzzle_rating`): a margin of twice the smallest a
puzzle has; ratings from 1050 to 1875 as Dice 1000's."""


CHOICE_REFUSAL = "puzzle.refusal.choice_clever"


def theme_id(theme: str) -> str:
    return theme.replace(" ", "_")


def why(p: Puzzle) -> Message:
    """One sentence: why the best choice is best, from the theme and the numbers (expected final points)."""
    best = core.tenths(p.options[p.best])
    other = core.tenths(max(v for k, v in p.options.items() if k != p.best))
    return Message(
        f"puzzle.clever.why.{theme_id(p.theme)}", best=best, other=other, margin=round(best - other, 1)
    )


def check(p: Puzzle, choice: str) -> Verdict:
    """The verdict on ``choice``, one of the legal moves in notation (``W:Y.r1c1``, ``reroll``, …)."""
    return core.check(p, choice, why(p), CHOICE_REFUSAL)


def position(p: Puzzle) -> dict[str, Any]:
    """What the page draws: the table's public view as the solver sees it (its legal moves the choices), the
    solver's seat, the theme. Never the values or the best move."""
    s = p.state()
    mover = s.current_player()
    return {"theme": p.theme, "mover": mover, "view": public_view(s, mover)}


GAME: core.PuzzleGame[Puzzle] = core.PuzzleGame(
    name="clever",
    themes=THEMES,
    load=load_puzzles,
    why=why,
    position=position,
    clear_margin=CLEAR_MARGIN,
    choice_refusal=CHOICE_REFUSAL,
)


class PuzzleSet(core.PuzzleSet[Puzzle]):
    """The shipped Clever puzzles (or ``puzzles``) by id, theme and rating."""

    def __init__(self, puzzles: Iterable[Puzzle] | None = None) -> None:
        super().__init__(GAME, puzzles)
