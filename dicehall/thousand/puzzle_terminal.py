"""``dicehall puzzle thousand``: the shipped Dice 1000 puzzles, solved at the terminal, offline.

Each puzzle is drawn in words within 80 columns (both scores with their pits, barrel and bolts, the turn total,
the last roll and the dice set aside), the player answers with a key (b bank, r roll, q stop) and sees the
verdict, every option's chance to win and the reason. A rating (Glicko-2, as on the page) and a streak are
kept for the session; puzzles are drawn near that rating.
"""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from dicehall.core.puzzle_terminal import Question
from dicehall.i18n import current, tr
from dicehall.thousand.puzzle_play import check
from dicehall.thousand.puzzles import Puzzle
from dicehall.thousand.state import ThousandState
from dicehall.thousand.terminal import dice_inline, move_instruction, status_text

KEYS = {"b": "bank", "r": "roll"}


def theme_words(theme: str) -> str:
    return tr(f"puzzle.theme.{theme.replace(' ', '_')}")


def draw(console: Console, p: Puzzle, s: ThousandState, number: int, count: int, rating: float) -> None:
    t = current()
    console.print(
        Text(tr("puzzle.cli.header", n=number, count=count, theme=theme_words(p.theme)), style="bold"),
        Text(tr("puzzle.cli.rating", rating=t.fixed(rating, 0)), style="dim"),
    )
    width = max(len(tr("puzzle.cli.you")), len(tr("puzzle.cli.opponent")))
    for seat, who in ((s.player, tr("puzzle.cli.you")), (1 - s.player, tr("puzzle.cli.opponent"))):
        line = Text(f"  {who:<{width}}  {s.score[seat]:>4}  ", style="bold" if seat == s.player else "")
        line.append_text(status_text(s, seat))
        console.print(line)
    console.print(escape(tr("puzzle.cli.turn", total=s.turn_total, dice=s.in_hand)))
    roll = Text(f"{tr('puzzle.cli.last_roll')}: ")
    roll.append_text(dice_inline(s.last_roll or ()))
    console.print(roll)
    aside = Text(f"{tr('puzzle.cli.set_aside')}: ")
    aside.append_text(dice_inline(s.set_aside, style=""))
    console.print(aside)


def verdict_lines(console: Console, p: Puzzle, s: ThousandState, choice: str) -> bool:
    """Print the verdict, every option's chance to win and the reason; whether the choice was best."""
    t = current()
    v = check(p, choice)
    best = move_instruction(s, v.best)
    said = tr("puzzle.cli.right", move=best) if v.correct else tr("puzzle.cli.wrong", move=best)
    console.print(Text(said, style="bold green" if v.correct else "bold red"))
    width = max(len(move_instruction(s, o["move"])) for o in v.options)
    for o in v.options:
        mark = tr("puzzle.cli.best") if o["best"] else f"−{t.fixed(o['loss'], 1)}"
        console.print(
            escape(f"  {move_instruction(s, o['move']):<{width}}  {t.fixed(o['value'], 1):>5} %  {mark}")
        )
    console.print(escape(t.message(v.why)))
    return v.correct


def present(console: Console, p: Puzzle, number: int, count: int, rating: float) -> Question:
    """Draw the puzzle; it is answered with b or r (core/puzzle_terminal.py plays the session)."""
    s = p.state()
    draw(console, p, s, number, count, rating)
    console.print(escape(f"  b: {move_instruction(s, 'bank')}    r: {move_instruction(s, 'roll')}"))
    return Question(
        tr("puzzle.cli.ask"),
        KEYS.get,
        tr("puzzle.cli.keys"),
        lambda choice: verdict_lines(console, p, s, choice),
    )
