"""``dicehall puzzle clever`` (solve the shipped puzzles at the terminal) and ``dicehall puzzle mine clever``."""

from __future__ import annotations

from pathlib import Path

import typer

from dicehall.clever import puzzles
from dicehall.core.cli_options import command_group, console, fail
from dicehall.i18n.message import Message


def register_puzzle(app: typer.Typer) -> None:
    puzzle = command_group(
        app, "puzzle", "Puzzles: positions from real games where one choice is clearly best."
    )
    mine_group = command_group(puzzle, "mine", "Find puzzles in bot games (resumable).")

    @puzzle.command("clever")
    def solve_clever(
        theme: str = typer.Option(
            None, "--theme", help="Only puzzles of this theme: " + ", ".join(puzzles.THEMES) + "."
        ),
        count: int = typer.Option(10, "--count", "-n", min=1, help="How many puzzles to play."),
        seed: int = typer.Option(
            None, "--seed", help="Seed of the puzzles drawn (the same seed, the same puzzles)."
        ),
    ) -> None:
        """Solve Ganz schön clever puzzles here, offline: which die, from the platter, or where to write it?
        Then every choice's expected final points and why.

        Answer with a choice's number, q to stop. A puzzle rating and a streak are kept for the session.
        """
        import numpy as np

        from dicehall.clever import puzzle_play, puzzle_terminal
        from dicehall.core.cli_support import ask
        from dicehall.core.errors import DicehallError
        from dicehall.core.puzzles import PuzzleAnswerError

        wanted = theme.replace("_", " ").replace("-", " ") if theme else None
        if wanted is not None and wanted not in puzzles.THEMES:
            raise fail(PuzzleAnswerError(Message("puzzle.refusal.theme")))
        try:
            puzzle_terminal.play(
                console, puzzle_play.PuzzleSet(), wanted, count, ask, np.random.default_rng(seed)
            )
        except DicehallError as exc:
            raise fail(exc) from None
        except KeyboardInterrupt:
            console.print()

    @mine_group.command("clever")
    def mine_clever(
        count: int = typer.Option(2000, "--count", "-n", min=1, help="Stop when the file holds this many."),
        out: Path = typer.Option(
            ..., "--out", help="JSON-lines file to write; an existing one is continued."
        ),
        seed: int = typer.Option(
            0, "--seed", help="Seed of the games (the same seed gives the same puzzles)."
        ),
        jobs: int = typer.Option(
            1, "--jobs", "-j", min=1, help="Games played at once in worker processes (the same file)."
        ),
    ) -> None:
        """Mine Ganz schön clever puzzles from seeded solo bot games.

        A puzzle is a pick, a pick from the platter or where a bonus goes, where games played on from each choice
        show the best worth at least 5 final points more than the next best (and three standard errors), and
        bot:master's values agree. Run the same command again to continue an interrupted file.
        """
        import functools

        from dicehall.core.puzzle_cli import mine_with_progress

        mine_with_progress(puzzles.held_puzzles, functools.partial(puzzles.mine, jobs=jobs), out, count, seed)
