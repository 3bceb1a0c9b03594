"""``dicehall backup``/``restore``/``export``/``import``: the server's database copied or moved (web/backup.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from dicehall.core.cli_options import console, fail
from dicehall.core.errors import DicehallError
from dicehall.i18n import tr

DB_HELP = "SQLAlchemy URL of the server's database (as `dicehall serve --db`); default: the SQLite file."


@contextmanager
def _bar(label: str) -> Iterator[Callable[[int, int], None]]:
    with Progress(
        TextColumn(f"[bold]{label}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    ) as progress:
        task = progress.add_task("work", total=None)
        yield lambda done, total: progress.update(task, completed=done, total=total)


def _db(url: str | None) -> str:
    from dicehall.web.db import check_database, default_db_url

    url = url or default_db_url()
    try:
        check_database(url)
    except ValueError as exc:
        raise fail(exc) from None
    return url


def _os_error(exc: OSError) -> str:
    """A file that cannot be read or written, in the reader's words (the system's reason as it gives it)."""
    return tr("cli.backup.os_error", file=str(exc.filename or ""), reason=exc.strerror or str(exc))


def _say(text: str) -> None:
    console.print(escape(text))  # a file name may hold [brackets]


def _counts(counts: dict[str, int]) -> str:
    return tr("cli.backup.counts", tables=counts.get("dh_tables", 0), players=counts.get("dh_players", 0))


def register(app: typer.Typer) -> None:
    @app.command("backup")
    def backup_cmd(
        to: Path = typer.Option(..., "--to", help="The file to write the backup to."),
        db: str = typer.Option(None, "--db", envvar="DICEHALL_DB", help=DB_HELP),
    ) -> None:
        """Copy the server's database to a file, consistently, also while the server runs."""
        from dicehall.web.backup import backup

        url = _db(db)
        try:
            with _bar(tr("cli.backup.copying")) as step:
                how = backup(url, to, step)
        except DicehallError as exc:
            raise fail(exc) from None
        except OSError as exc:
            raise fail(_os_error(exc)) from None
        _say(tr(f"cli.backup.done.{how}", file=str(to)))

    @app.command("restore")
    def restore_cmd(
        source: Path = typer.Option(..., "--from", help="A file written by `dicehall backup` or `export`."),
        db: str = typer.Option(None, "--db", envvar="DICEHALL_DB", help=DB_HELP),
        force: bool = typer.Option(False, "--force", help="Replace a database that holds tables already."),
    ) -> None:
        """Put a backup into a database (stop the server first); an existing one only with --force."""
        from dicehall.web.backup import restore

        if not source.is_file():
            raise fail(tr("cli.backup.no_file", file=str(source)))
        url = _db(db)
        try:
            with _bar(tr("cli.backup.restoring")) as step:
                kind = restore(url, source, force, step)
        except DicehallError as exc:
            raise fail(exc) from None
        except OSError as exc:
            raise fail(_os_error(exc)) from None
        _say(tr(f"cli.restore.done.{kind}", file=str(source)))

    @app.command("export")
    def export_cmd(
        to: Path = typer.Option(..., "--to", help="The file to write (JSON lines; gzip if it ends in .gz)."),
        db: str = typer.Option(None, "--db", envvar="DICEHALL_DB", help=DB_HELP),
    ) -> None:
        """Write every game with its whole log, and the players, to a file any dicehall database can import."""
        from dicehall.web.backup import export

        url = _db(db)
        try:
            with _bar(tr("cli.backup.exporting")) as step:
                counts = export(url, to, step)
        except DicehallError as exc:
            raise fail(exc) from None
        except OSError as exc:
            raise fail(_os_error(exc)) from None
        _say(tr("cli.export.done", file=str(to), what=_counts(counts)))

    @app.command("import")
    def import_cmd(
        source: Path = typer.Option(..., "--from", help="A file written by `dicehall export`."),
        db: str = typer.Option(None, "--db", envvar="DICEHALL_DB", help=DB_HELP),
    ) -> None:
        """Check a file from `dicehall export` whole, then write it into an empty database (nothing if refused)."""
        from dicehall.web.backup import import_

        if not source.is_file():
            raise fail(tr("cli.backup.no_file", file=str(source)))
        url = _db(db)
        try:
            with _bar(tr("cli.backup.importing")) as step:
                counts = import_(url, source, step)
        except DicehallError as exc:
            raise fail(exc) from None
        except OSError as exc:
            raise fail(_os_error(exc)) from None
        _say(tr("cli.import.done", file=str(source), what=_counts(counts)))
