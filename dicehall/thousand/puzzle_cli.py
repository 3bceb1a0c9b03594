"""``dicehall puzzle thousand`` (solve at the terminal, `--from-my-games` too) and ``dicehall puzzle mine thousand``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from dicehall.core import puzzle_cli as shared
from dicehall.thousand import puzzles

if TYPE_CHECKING:
    from dicehall.thousand.puzzle_play import PuzzleSet


def register_puzzle(app: typer.Typer) -> None:
    puzzle, mine_group = shared.puzzle_groups(app)

    @puzzle.command("thousand")
    def solve_thousand(
        theme: str = shared.theme_option(puzzles.THEMES),
        count: int = shared.COUNT,
        seed: int = shared.SEED,
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
        from dicehall.thousand import puzzle_play, puzzle_terminal

        chosen = _from_my_games if mine else puzzle_play.PuzzleSet
        shared.solve(puzzles.THEMES, theme, count, seed, puzzle_terminal.present, chosen)

    @mine_group.command("thousand")
    def mine_thousand(
        count: int = shared.MINE_COUNT,
        out: Path = shared.MINE_OUT,
        seed: int = shared.MINE_SEED,
    ) -> None:
        """Mine two-player classic Dice 1000 puzzles from seeded bot games.

        A puzzle is a bank-or-roll decision where the best choice wins at least 3 win-% points more than the
        other, by the exact table. Run the same command again to continue an interrupted file.
        """
        shared.mine_with_progress(puzzles.held_puzzles, puzzles.mine, out, count, seed)


def _from_my_games() -> PuzzleSet | None:
    """The puzzles found in the games kept at this terminal, or None (said why) when there are none."""
    from dicehall.thousand.found_puzzles import history_puzzles
    from dicehall.thousand.puzzle_play import PuzzleSet

    return shared.from_my_games(
        "puzzle.cli.from_games",
        "puzzle.cli.from_games_none",
        lambda progress: history_puzzles(puzzles.Miner(), progress),
        PuzzleSet,
    )
