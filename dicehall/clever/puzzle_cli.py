"""``dicehall puzzle clever`` (solve at the terminal, `--from-my-games` too) and ``dicehall puzzle mine clever``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from dicehall.clever import puzzles
from dicehall.core import puzzle_cli as shared

if TYPE_CHECKING:
    from dicehall.clever.puzzle_play import PuzzleSet


def register_puzzle(app: typer.Typer) -> None:
    puzzle, mine_group = shared.puzzle_groups(app)

    @puzzle.command("clever")
    def solve_clever(
        theme: str = shared.theme_option(puzzles.THEMES),
        count: int = shared.COUNT,
        seed: int = shared.SEED,
        mine: bool = typer.Option(
            False,
            "--from-my-games",
            help="Only puzzles from the solo games you played here (dicehall games): the positions where you had "
            "one clearly best choice. Each new game takes a few seconds to check, once.",
        ),
    ) -> None:
        """Solve Ganz schön clever puzzles here, offline: which die, from the platter, or where to write it?
        Then every choice's expected final points and why.

        Answer with a choice's number, q to stop. A puzzle rating and a streak are kept for the session.
        """
        from dicehall.clever import puzzle_play, puzzle_terminal

        chosen = _from_my_games if mine else puzzle_play.PuzzleSet
        shared.solve(puzzles.THEMES, theme, count, seed, puzzle_terminal.present, chosen)

    @mine_group.command("clever")
    def mine_clever(
        count: int = shared.MINE_COUNT,
        out: Path = shared.MINE_OUT,
        seed: int = shared.MINE_SEED,
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

        shared.mine_with_progress(
            puzzles.held_puzzles, functools.partial(puzzles.mine, jobs=jobs), out, count, seed
        )


def _from_my_games() -> PuzzleSet | None:
    """The puzzles found in the solo games kept at this terminal, or None (said why) when there are none."""
    from dicehall.clever.found_puzzles import history_puzzles
    from dicehall.clever.puzzle_play import PuzzleSet

    return shared.from_my_games(
        "puzzle.cli.clever.from_games",
        "puzzle.cli.clever.from_games_none",
        lambda progress: history_puzzles(progress=progress),
        PuzzleSet,
    )
