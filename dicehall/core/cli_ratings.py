"""``dicehall ratings anchors GAME``: the bots' rating anchors from a round robin (:mod:`dicehall.core.anchors`),
printed, or written into the table the server ships (``--write``)."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import typer
from rich import box
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from dicehall.core.anchors import DEFAULT_SEED, compute_anchors, games_in
from dicehall.core.cli_options import check_seed, console, fail
from dicehall.core.errors import DicehallError
from dicehall.core.game import game_names, get_game
from dicehall.core.rating import ANCHORS_FILE, display
from dicehall.i18n import tr

MAX_ROUNDS = 100_000
CHECK_BELOW = 10
"""A run of fewer rounds is written as the table's ``check`` (what the test reruns), not as its anchors."""


def register(app: typer.Typer) -> None:
    ratings_app = typer.Typer(help="Ratings: the bots' anchors.", no_args_is_help=True)
    app.add_typer(ratings_app, name="ratings")

    @ratings_app.command("anchors")
    def anchors_cmd(
        game: str = typer.Argument(..., help=f"One of: {', '.join(game_names())}."),
        games: int = typer.Option(
            200, "--games", "-n", help="Rounds of the round robin (each pair plays once)."
        ),
        seed: int = typer.Option(
            DEFAULT_SEED, "--seed", help="Root seed of the dice and the bots.", callback=check_seed
        ),
        write: bool = typer.Option(
            False,
            "--write",
            help="Write the result into the table the server ships (under 10 rounds: as its check).",
        ),
        as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
    ) -> None:
        """Rate every bot level of GAME in a bot-against-bot round robin: the fixed anchors of rated games."""
        try:
            get_game(game)
        except DicehallError as exc:
            raise fail(exc) from None
        if not 1 <= games <= MAX_ROUNDS:
            raise fail(tr("cli.ratings.rounds", max=MAX_ROUNDS, got=games))
        with Progress(
            TextColumn(f"[bold]{tr('cli.ratings.playing')}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=console,
            disable=as_json,
            transient=True,
        ) as progress:
            task = progress.add_task("games", total=games_in(game, games))
            bots = compute_anchors(game, games, seed or 0, progress=lambda k: progress.advance(task, k))
        entry = {"seed": seed or 0, "games": games, "bots": bots}
        if write:
            write_anchors(game, entry)
        if as_json:
            typer.echo(json.dumps(entry))
            return
        console.print(tr("cli.ratings.title", game=game, games=games, seed=seed or 0))
        table = Table(box=box.SIMPLE_HEAD)
        table.add_column(tr("cli.ratings.col.bot"))
        table.add_column("mu", justify="right")
        table.add_column(tr("cli.ratings.col.rating"), justify="right")
        for bot, mu in sorted(bots.items(), key=lambda kv: -kv[1]):
            table.add_row(f"bot:{bot}", f"{mu:.3f}", str(display(mu)))
        console.print(table)


def anchors_path() -> Path:
    return Path(str(resources.files("dicehall.core").joinpath(ANCHORS_FILE)))


def write_anchors(game: str, entry: dict[str, Any]) -> None:
    """Put ``entry`` as ``game``'s anchors into the shipped table (a run of a few rounds is kept as its check)."""
    path = anchors_path()
    data = json.loads(path.read_text())
    games = data.setdefault("games", {})
    old = games.get(game, {})
    if entry["games"] < CHECK_BELOW:
        games[game] = {**old, "check": entry}
    else:
        games[game] = {**entry, **({"check": old["check"]} if "check" in old else {})}
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
