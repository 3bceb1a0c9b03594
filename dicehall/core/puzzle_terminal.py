"""Solving puzzles at the terminal, for every game: the session's loop (a puzzle drawn near the rating, asked,
checked, rated; the streak and the closing line). Each game draws its position and reads its keys
(``thousand/puzzle_terminal.py``, ``clever/puzzle_terminal.py``; docs/cli.md)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import numpy as np
from rich.console import Console
from rich.markup import escape

from dicehall.core.cli_support import QuitGame
from dicehall.core.puzzles import PuzzleSet, Skill, rate
from dicehall.i18n import current, tr


@dataclasses.dataclass(frozen=True)
class Question:
    """One puzzle as the game asks it, once its position is drawn."""

    prompt: str
    read: Callable[[str], str | None]
    """The choice a key (lower case, stripped) stands for, or None for a key that is none of them."""
    keys: str
    """What to type, said after a key that is none of the choices."""
    verdict: Callable[[str], bool]
    """Prints the verdict on a choice; whether it was the best."""


Present = Callable[[Console, Any, int, int, float], Question]
"""Draw puzzle ``p`` (number ``n`` of ``count``, at the player's ``rating``) and say how it is answered."""


def _answer(console: Console, ask: Callable[[str], str], q: Question) -> str | None:
    """The player's choice, asked until a key is one; None to stop (q, a quit word, the end of input)."""
    while True:
        try:
            key = ask(f"{q.prompt} > ").strip().lower()
        except (EOFError, QuitGame):  # q, a quit word in the player's language, or the end of input
            key = "q"
        if key in ("q", "quit"):
            return None
        choice = q.read(key)
        if choice is not None:
            return choice
        console.print(f"[yellow]{escape(q.keys)}[/]")


def play(
    console: Console,
    puzzles: PuzzleSet[Any],
    present: Present,
    theme: str | None,
    count: int,
    ask: Callable[[str], str],
    rng: np.random.Generator,
) -> tuple[int, int, int]:
    """Play up to ``count`` puzzles; returns (solved, tried, best streak). ``ask`` reads one line (EOF stops)."""
    skill, answered = Skill(), set[str]()
    solved = tried = streak = best_streak = 0
    t = current()
    for number in range(1, count + 1):
        pid = puzzles.pick(skill.rating, theme, answered, rng)
        if pid is None:
            console.print(escape(tr("puzzle.cli.none_left")))
            break
        console.print()
        q = present(console, puzzles.get(pid), number, count, skill.rating)
        choice = _answer(console, ask, q)
        if choice is None:
            break
        answered.add(pid)
        correct = q.verdict(choice)
        before, skill = skill, rate(skill, puzzles.rating[pid], correct)
        tried += 1
        solved += int(correct)
        streak = streak + 1 if correct else 0
        best_streak = max(best_streak, streak)
        delta = round(skill.rating) - round(before.rating)
        console.print(
            escape(
                tr(
                    "puzzle.cli.after",
                    rating=t.fixed(skill.rating, 0),
                    delta=f"+{delta}" if delta >= 0 else f"−{-delta}",
                    streak=streak,
                )
            )
        )
    console.print()
    console.print(escape(tr("puzzle.cli.summary", solved=solved, tried=tried, streak=best_streak)))
    return solved, tried, best_streak
