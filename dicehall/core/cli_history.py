"""``dicehall games``: the games kept in the player's history (:mod:`dicehall.core.history`), numbered for
``dicehall analyze N``, ``dicehall replay N`` and ``dicehall play GAME --resume N``."""

from __future__ import annotations

import typer
from rich import box
from rich.markup import escape
from rich.table import Table

from dicehall.core.cli_options import console
from dicehall.core.cli_tables import fit
from dicehall.core.errors import DicehallError
from dicehall.core.history import history_dir, history_files, started
from dicehall.core.record import GameRecord
from dicehall.i18n import Translator, current

SHOWN = 20
"""The newest games ``dicehall games`` lists unless ``--all``."""


def result_text(record: GameRecord, t: Translator) -> tuple[str, str]:
    """Who won and the scores (each seat's, in seat order), or how far an unfinished game went."""
    result = record.result
    if not result:
        return t.plural("cli.games.unfinished", len(record.events)), ""
    names = [str(p["name"]) for p in record.players]
    scores = " : ".join(t.number(s) for s in result["scores"])
    if len(names) == 1:
        return "", scores
    winners = ", ".join(names[w] for w in result["winners"] if 0 <= w < len(names))
    return winners or "—", scores


def games_table(show_all: bool, t: Translator) -> tuple[Table, int]:
    files = history_files()
    first = 0 if show_all else max(0, len(files) - SHOWN)
    table = Table(
        title=t("cli.games.title", path=str(history_dir())),
        title_justify="left",
        box=box.SIMPLE_HEAD,
        show_edge=False,
        pad_edge=False,
    )
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column(t("cli.games.col.date"))
    table.add_column(t("cli.games.col.game"))
    table.add_column(t("cli.games.col.players"), overflow="fold")
    table.add_column(t("cli.games.col.winner"), overflow="fold")
    table.add_column(t("cli.games.col.scores"), justify="right", no_wrap=True)  # numbers are never cut
    for number, path in enumerate(files[first:], start=first + 1):
        try:
            record = GameRecord.load(path)
        except DicehallError as exc:
            table.add_row(str(number), "", "", escape(path.name), f"[red]{escape(exc.localized())}[/]", "")
            continue
        players = ", ".join(str(p["name"]) for p in record.players)
        winner, scores = result_text(record, t)
        table.add_row(
            str(number),
            t.datetime(started(record).astimezone(), "short"),
            t(f"game.{record.game}.title"),
            escape(players),
            escape(winner),
            scores,
        )
    return table, first


def register(app: typer.Typer) -> None:
    @app.command("games")
    def games_cmd(
        show_all: bool = typer.Option(False, "--all", help=f"List every game (default: the newest {SHOWN})."),
    ) -> None:
        """The games you played in this terminal, newest last: their number, date, game, players and result.

        Open one with `dicehall analyze N`, `dicehall replay N` or `dicehall play GAME --resume N`.
        """
        t = current()
        if not history_files():
            console.print(t("cli.games.none", path=str(history_dir())), soft_wrap=True)
            return
        table, hidden = games_table(show_all, t)
        console.print(fit(table, console))
        if hidden:
            console.print(f"[dim]{t.plural('cli.games.older', hidden)}[/]")
        console.print(f"[dim]{t('cli.games.how')}[/]")
