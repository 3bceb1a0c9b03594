"""``dicehall puzzle mine thousand``: mine Dice 1000 puzzles into a JSON-lines file, resumably."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.markup import escape

from dicehall.core.cli_options import command_group, console, fail
from dicehall.i18n import tr
from dicehall.i18n.message import Message
from dicehall.thousand import puzzles

if TYPE_CHECKING:
    from dicehall.thousand.puzzle_play import PuzzleSet


def register_puzzle(app: typer.Typer) -> None:
    puzzle = command_group(
        app, "puzzle", "Puzzles: positions from real games where one choice is clearly best."
    )
    mine_group = command_group(puzzle, "mine", "Find puzzles in bot games (resumable).")

    @puzzle.command("thousand")
    def solve_thousand(
        theme: str = typer.Option(
            None, "--theme", help="Only puzzles of this theme: " + ", ".join(puzzles.THEMES) + "."
        ),
        count: int = typer.Option(10, "--count", "-n", min=1, help="How many puzzles to play."),
        seed: int = typer.Option(
            None, "--seed", help="Seed of the puzzles drawn (the same seed, the same puzzles)."
        ),
        mine: bool = typer.Option(
            False,
            "--from-my-games",
            help="Only puzzles from the games you played here (dicehall games): the positions where you had one "
            "clearly best choice.",
        ),
    ) -> None:
        """Solve Dice 1000 puzzles here, offline: bank or roll? Then every choice's chance to win and why.

        Keys: b bank, r roll, q stop. A puzzle rating and a streak are kept for the session.
        """
        import numpy as np

        from dicehall.core.cli_support import ask
        from dicehall.core.errors import DicehallError
        from dicehall.thousand import puzzle_play, puzzle_terminal

        wanted = theme.replace("_", " ").replace("-", " ") if theme else None
        if wanted is not None and wanted not in puzzles.THEMES:
            raise fail(puzzle_play.PuzzleAnswerError(Message("puzzle.refusal.theme")))
        try:
            chosen = _from_my_games() if mine else puzzle_play.PuzzleSet()
            if chosen is None:
                return
            puzzle_terminal.play(console, chosen, wanted, count, ask, np.random.default_rng(seed))
        except DicehallError as exc:
            raise fail(exc) from None
        except KeyboardInterrupt:
            console.print()

    @mine_group.command("thousand")
    def mine_thousand(
        count: int = typer.Option(2000, "--count", "-n", min=1, help="Stop when the file holds this many."),
        out: Path = typer.Option(
            ..., "--out", help="JSON-lines file to write; an existing one is continued."
        ),
        seed: int = typer.Option(
            0, "--seed", help="Seed of the games (the same seed gives the same puzzles)."
        ),
    ) -> None:
        """Mine two-player classic Dice 1000 puzzles from seeded bot games.

        A puzzle is a bank-or-roll decision where the best choice wins at least 3 win-% points more than the
        other, by the exact table. Run the same command again to continue an interrupted file.
        """
        from dicehall.core.puzzle_cli import mine_with_progress

        mine_with_progress(puzzles.held_puzzles, puzzles.mine, out, count, seed)


def _from_my_games() -> PuzzleSet | None:
    """The puzzles found in the games kept at this terminal, or None (said why) when there are none."""
    from dicehall.thousand.found_puzzles import history_puzzles
    from dicehall.thousand.puzzle_play import PuzzleSet

    found, games = history_puzzles(puzzles.Miner())
    if not found:
        console.print(escape(tr("puzzle.cli.from_games_none", games=games)), highlight=False)
        return None
    console.print(escape(tr("puzzle.cli.from_games", n=len(found), games=games)), highlight=False)
    return PuzzleSet(found)
