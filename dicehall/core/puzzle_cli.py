"""The terminal's side of puzzles, for every game: the ``puzzle`` and ``puzzle mine`` command groups and their
shared options, solving (``dicehall puzzle GAME``: the theme checked, the session played, refusals said) and
mining (``dicehall puzzle mine GAME``: the progress bar, resuming and the closing line). Each game passes in its
puzzles, its drawing and its miner."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import typer
from rich.markup import escape

from dicehall.core.cli_options import command_group, console, fail
from dicehall.core.errors import DicehallError
from dicehall.i18n import current, tr
from dicehall.i18n.message import Message

if TYPE_CHECKING:  # (imported when a command runs: every dicehall command registers these)
    from dicehall.core.puzzle_terminal import Present
    from dicehall.core.puzzles import PuzzleSet

S = TypeVar("S", bound="PuzzleSet[Any]")

COUNT = typer.Option(10, "--count", "-n", min=1, help="How many puzzles to play.")
SEED = typer.Option(None, "--seed", help="Seed of the puzzles drawn (the same seed, the same puzzles).")
MINE_COUNT = typer.Option(2000, "--count", "-n", min=1, help="Stop when the file holds this many.")
MINE_OUT = typer.Option(..., "--out", help="JSON-lines file to write; an existing one is continued.")
MINE_SEED = typer.Option(0, "--seed", help="Seed of the games (the same seed gives the same puzzles).")


def theme_option(themes: tuple[str, ...]) -> Any:
    return typer.Option(None, "--theme", help="Only puzzles of this theme: " + ", ".join(themes) + ".")


def puzzle_groups(app: typer.Typer) -> tuple[typer.Typer, typer.Typer]:
    """The ``puzzle`` group and its ``mine`` group (made by the first game to register, shared by the rest)."""
    puzzle = command_group(
        app, "puzzle", "Puzzles: positions from real games where one choice is clearly best."
    )
    return puzzle, command_group(puzzle, "mine", "Find puzzles in bot games (resumable).")


def solve(
    themes: tuple[str, ...],
    theme: str | None,
    count: int,
    seed: int | None,
    present: Present,
    puzzles: Callable[[], PuzzleSet[Any] | None],
) -> None:
    """``dicehall puzzle GAME``: ``count`` puzzles of ``puzzles()`` (None: nothing to play, said why) near the
    player's rating, of ``theme`` (``_`` or ``-`` for spaces) if given."""
    import numpy as np

    from dicehall.core.cli_support import ask
    from dicehall.core.puzzle_terminal import play
    from dicehall.core.puzzles import PuzzleAnswerError

    wanted = theme.replace("_", " ").replace("-", " ") if theme else None
    if wanted is not None and wanted not in themes:
        raise fail(PuzzleAnswerError(Message("puzzle.refusal.theme")))
    try:
        chosen = puzzles()
        if chosen is None:
            return
        play(console, chosen, present, wanted, count, ask, np.random.default_rng(seed))
    except DicehallError as exc:
        raise fail(exc) from None
    except KeyboardInterrupt:
        console.print()


def from_my_games(
    said: str,
    none: str,
    find: Callable[[Callable[[int, int], None]], tuple[list[Any], int]],
    make: Callable[[list[Any]], S],
) -> S | None:
    """``--from-my-games``: the puzzles ``find(progress)`` finds in the kept games and how many games could give
    them, said by the message ``said``; or None, said by ``none`` (why, and what to play), when there are none. A
    bar shows the games being judged while any are (``progress(judged, to judge)``), at a terminal."""
    from contextlib import ExitStack

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with ExitStack() as stack:
        bar: list[tuple[Progress, Any]] = []

        def progress(done: int, total: int) -> None:
            if not console.is_terminal:  # (a bar that cannot redraw would only leave its lines behind)
                return
            if not bar:
                columns = (TextColumn(tr("puzzle.cli.judging")), BarColumn(), MofNCompleteColumn())
                shown = stack.enter_context(
                    Progress(*columns, TimeElapsedColumn(), console=console, transient=True)
                )
                bar.append((shown, shown.add_task("judge", total=total)))
            shown, task = bar[0]
            shown.update(task, completed=done)

        found, games = find(progress)
    if not found:
        console.print(escape(tr(none, games=games)), highlight=False)
        return None
    console.print(escape(tr(said, n=len(found), games=games)), highlight=False)
    return make(found)


def mine_with_progress(
    held: Callable[[Path, int], list[Any]],
    mine: Callable[..., int],
    out: Path,
    count: int,
    seed: int,
) -> None:
    """Mine into ``out`` until it holds ``count`` puzzles with a progress bar; ``held(out, seed)`` lists the
    puzzles a file to be continued holds, ``mine(out, count, seed=, progress=)`` mines (both refuse another run's
    file with a :class:`DicehallError`)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    try:
        before = len(held(out, seed))
    except DicehallError as exc:
        raise fail(exc) from None
    if before:
        console.print(escape(tr("puzzle.mine.resumed", path=str(out), held=before)), highlight=False)
    columns = (
        TextColumn(tr("puzzle.mine.progress", game="{task.fields[game]}")),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    started = time.monotonic()
    done = before
    try:
        with Progress(*columns, console=console) as bar:
            task = bar.add_task("mine", total=count, completed=min(before, count), game="-")

            def progress(n: int, game: int) -> None:
                nonlocal done
                done = n
                bar.update(task, completed=n, game=current().number(game + 1))

            done = mine(out, count, seed=seed, progress=progress)
    except DicehallError as exc:
        raise fail(exc) from None
    except KeyboardInterrupt:
        console.print(f"[yellow]{escape(tr('puzzle.mine.interrupted', path=str(out), held=done))}[/]")
        raise typer.Exit(130) from None
    minutes = (time.monotonic() - started) / 60
    rate = (done - before) / minutes if minutes > 0 else 0.0
    said = tr("puzzle.mine.done", path=str(out), held=done, rate=current().fixed(rate, 0))
    console.print(escape(said), highlight=False)
