"""``dicehall puzzle clever``: the shipped Clever puzzles, solved at the terminal, offline.

Each puzzle shows the solver's sheet (as ``dicehall play clever`` draws it, within 80 columns), the dice (rolled,
on the fields, on the platter), the round and the roll, the question in players' words and every legal choice
numbered; the player answers with its number and sees the verdict, every choice's expected final points and the
reason. A rating (Glicko-2, as on the page) and a streak are kept for the session; puzzles are drawn near it.
"""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from dicehall.clever import sheet as S
from dicehall.clever.puzzle_play import check, theme_id
from dicehall.clever.puzzles import Puzzle
from dicehall.clever.state import PH_PASSIVE_PICK, PH_PICK, CleverState
from dicehall.clever.terminal import dice_text, move_instruction, sheet_text
from dicehall.core.puzzle_terminal import Question
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


def present(console: Console, p: Puzzle, number: int, count: int, rating: float) -> Question:
    """Draw the puzzle; its choices are answered by number (core/puzzle_terminal.py plays the session)."""
    s = p.state()
    moves = draw(console, p, s, number, count, rating)

    def read(key: str) -> str | None:
        return moves[int(key) - 1] if key.isdigit() and 1 <= int(key) <= len(moves) else None

    return Question(
        tr("puzzle.clever.cli.ask", n=len(moves)),
        read,
        tr("puzzle.clever.cli.keys", n=len(moves)),
        lambda choice: verdict_lines(console, p, s, choice),
    )
