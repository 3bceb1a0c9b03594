"""``dicehall puzzle clever``: the shipped Clever puzzles, solved at the terminal, offline.

Each puzzle shows the solver's sheet (as ``dicehall play clever`` draws it, within 80 columns), the dice (rolled,
on the fields, on the platter), the round and the roll, the question in players' words and every legal choice
numbered; the player answers with its number and sees the verdict, every choice's expected final points and the
reason. A rating (Glicko-2, as on the page) and a streak are kept for the session; puzzles are drawn near it.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from rich.console import Console
from rich.markup import escape
from rich.text import Text

from dicehall.clever import sheet as S
from dicehall.clever.puzzle_play import PuzzleSet, check, theme_id
from dicehall.clever.puzzles import Puzzle
from dicehall.clever.state import PH_PASSIVE_PICK, PH_PICK, CleverState
from dicehall.clever.terminal import dice_text, move_instruction, sheet_text
from dicehall.core.cli_support import QuitGame
from dicehall.core.puzzles import Skill, rate
from dicehall.i18n import current, tr

WORDS = 46
"""Columns for a choice's words in the verdict's list."""


def theme_words(theme: str) -> str:
    return tr(f"puzzle.clever.theme.{theme_id(theme)}")


def question(s: CleverState) -> str:
    """The decision in players' words."""
    if s.choice_pending:
        return tr("puzzle.clever.ask.round4" if s.queue[0][1] == S.BLACK else "puzzle.clever.ask.bonus")
    if s.phase == PH_PASSIVE_PICK:
        return tr("puzzle.clever.ask.platter")
    return tr("puzzle.clever.ask.pick")


def draw(console: Console, p: Puzzle, s: CleverState, number: int, count: int, rating: float) -> list[str]:
    """Print the position and the numbered choices; returns the choices (notation) in their order."""
    t = current()
    mover = s.current_player()
    console.print(
        Text(tr("puzzle.cli.header", n=number, count=count, theme=theme_words(p.theme)), style="bold"),
        Text(tr("puzzle.cli.rating", rating=t.fixed(rating, 0)), style="dim"),
    )
    console.print(
        escape(
            tr(
                "puzzle.clever.cli.where",
                round=s.round,
                rounds=s.rounds,
                rerolls=s.sheets[mover].rerolls,
                plus=s.sheets[mover].plus_ones,
            )
        )
    )
    if s.phase == PH_PICK and not s.choice_pending:
        console.print(escape(tr("puzzle.clever.cli.roll", roll=s.rolls + 1)))
    console.print(sheet_text(s, mover, tr("puzzle.cli.you")))
    console.print(dice_text(s, one_line=True))
    console.print(Text(question(s), style="bold"))
    moves = [m for m in p.options]
    for i, m in enumerate(moves, 1):
        console.print(escape(f"  {i:>2}. {move_instruction(s, m)}"))
    return moves


def verdict_lines(console: Console, p: Puzzle, s: CleverState, choice: str) -> bool:
    """Print the verdict, every choice's expected points and the reason; whether the choice was best."""
    t = current()
    v = check(p, choice)
    best = move_instruction(s, v.best)
    said = tr("puzzle.cli.right", move=best) if v.correct else tr("puzzle.cli.wrong", move=best)
    console.print(Text(said, style="bold green" if v.correct else "bold red"))
    for o in v.options:
        mark = tr("puzzle.cli.best") if o["best"] else f"−{t.fixed(o['loss'], 1)}"
        mine = f"  ← {tr('puzzle.clever.cli.yours')}" if o["move"] == choice else ""
        words = move_instruction(s, o["move"])
        if len(words) > WORDS:  # (the line stays within 80 columns with the mark and "your choice")
            words = words[: WORDS - 1] + "…"
        console.print(escape(f"  {words:<{WORDS}} {t.fixed(o['value'], 1):>6}  {mark}{mine}"))
    console.print(escape(tr("puzzle.clever.cli.unit")), style="dim")
    console.print(escape(t.message(v.why)))
    return v.correct


def play(
    console: Console,
    puzzles: PuzzleSet,
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
        p = puzzles.get(pid)
        s = p.state()
        console.print()
        moves = draw(console, p, s, number, count, skill.rating)
        choice: str | None = None
        while True:
            try:
                key = ask(f"{tr('puzzle.clever.cli.ask', n=len(moves))} > ").strip().lower()
            except (EOFError, QuitGame):  # q, a quit word in the player's language, or the end of input
                key = "q"
            if key in ("q", "quit"):
                break
            if key.isdigit() and 1 <= int(key) <= len(moves):
                choice = moves[int(key) - 1]
                break
            console.print(f"[yellow]{escape(tr('puzzle.clever.cli.keys', n=len(moves)))}[/]")
        if choice is None:
            break
        answered.add(pid)
        correct = verdict_lines(console, p, s, choice)
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
