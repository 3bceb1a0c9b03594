"""The terminal's side of mining puzzles, for every game: the progress bar, resuming and the closing line
(``dicehall puzzle mine GAME``; each game's miner is passed in)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from dicehall.core.cli_options import console, fail
from dicehall.core.errors import DicehallError
from dicehall.i18n import current, tr


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
