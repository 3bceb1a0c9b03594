"""``dicehall verify RECORD``: every dice outcome of a record recomputed from its seed (core/fairdice.py)."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from dicehall.core.cli_options import check_record_file, console, fail
from dicehall.core.errors import DicehallError
from dicehall.core.fairdice import Verdict, VerifyError, chance_events, verify_record
from dicehall.core.record import GameRecord
from dicehall.i18n import tr
from dicehall.i18n.cli import LangOpt, apply_lang

BAR_FROM = 2_000
"""Records with at least this many events show a progress bar (at a terminal)."""


def check(file: Path, quiet: bool) -> tuple[GameRecord, Verdict]:
    """The record in ``file`` and its verdict; an unreadable record or one without a checkable seed exits."""
    try:
        record = GameRecord.load(file)
        if quiet or not console.is_terminal or len(record.events) < BAR_FROM:
            return record, verify_record(record)
        columns = (TextColumn(tr("verify.progress")), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
        with Progress(*columns, console=console, transient=True) as bar:
            task = bar.add_task("verify", total=len(record.events))
            return record, verify_record(record, lambda done, _: bar.update(task, completed=done))
    except (
        VerifyError
    ) as exc:  # nothing to check against, or a seed that is not the committed one: not verified
        raise fail(tr("cli.file_error", file=str(file), reason=exc.localized()), code=1) from None
    except DicehallError as exc:
        raise fail(tr("cli.file_error", file=str(file), reason=exc.localized())) from None


def register(app: typer.Typer) -> None:
    @app.command("verify")
    def verify_cmd(
        file: Path = typer.Argument(
            ...,
            help="A JSON game record (downloaded from a table, or saved in the terminal), or a game's number "
            "in `dicehall games`.",
            callback=check_record_file,
        ),
        as_json: bool = typer.Option(False, "--json", help="Print the verdict as one JSON object."),
        lang: str = LangOpt,
    ) -> None:
        """Check the dice of a game: recompute every roll from the record's seed and compare.

        A table's record commits to its seed by a fingerprint (SHA-256) shown from the start and reveals the seed
        at the end; a game saved in the terminal keeps its seed. Exit code 1 when a roll does not follow from
        the seed, or the seed is not the one committed to. See docs/fair-dice.md.
        """
        apply_lang(lang)
        record, verdict = check(file, as_json)
        if as_json:
            out = {"record": str(file), "events": len(record.events), **verdict.to_json()}
            if record.dice_commit is not None:
                out["commit"] = record.dice_commit
            typer.echo(json.dumps(out))
        else:
            say(record, verdict)
        if not verdict.ok:
            raise typer.Exit(1)


def say(record: GameRecord, verdict: Verdict) -> None:
    if record.dice_commit is not None:
        console.print(f"[dim]{tr('verify.fingerprint')}\n  {record.dice_commit}[/]")
    m = verdict.mismatch
    if m is None:
        key = "verify.ok_committed" if verdict.committed else "verify.ok_seed"
        console.print(f"[green]✓[/] {tr(key, n=verdict.rolls)}")
        return
    total = chance_events(record)
    console.print(f"[bold red]✗[/] {tr('verify.mismatch', roll=verdict.rolls, total=total, event=m.event)}")
    console.print(f"  {tr('verify.seed_gives')} {escape(m.expected)}", soft_wrap=False)
    console.print(f"  {tr('verify.record_says')} {escape(m.recorded)}", soft_wrap=False)
