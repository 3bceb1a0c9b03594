"""The end of ``dicehall play``: each player's proficiency (mean loss per decision, its band) and the number of the
decision that cost the player most, the row ``dicehall analyze N`` shows it in (``docs/analysis.md``)."""

from __future__ import annotations

from rich.markup import escape
from rich.table import Table

from dicehall.core.analysis import Analysis, analyze, has_evaluator
from dicehall.core.analysis_cli import fmt
from dicehall.core.cli_options import console
from dicehall.core.cli_tables import fit
from dicehall.core.errors import DicehallError
from dicehall.core.record import GameRecord
from dicehall.i18n import Translator, current

BAND_STYLE = {"expert": "bold green", "good": "cyan", "learning": "yellow"}


def proficiency_table(a: Analysis, t: Translator) -> Table:
    """One row per player: mean loss per decision, band, and the costliest decision's number and loss."""
    table = Table()
    table.add_column(t("analysis.col.player"))
    table.add_column(t("proficiency.cli.col.mean_loss"), justify="right")
    table.add_column(t("proficiency.cli.col.band"))
    table.add_column(t("proficiency.cli.col.costliest"), justify="right")
    table.add_column(t("proficiency.cli.col.lost"), justify="right")
    for totals in a.totals:
        said = a.band(totals.seat)
        worst = a.costliest(totals.seat)
        table.add_row(
            escape(totals.name),
            fmt(totals.mean_loss, a.unit, digits=2) if totals.decisions else "–",
            f"[{BAND_STYLE[said]}]{t(f'proficiency.band.{said}')}[/]" if said else "",
            f"#{worst.n}" if worst else "",
            fmt(worst.loss, a.unit, digits=2) if worst else "",  # (the column says "lost": no minus sign)
        )
    return table


def show_proficiency(record: GameRecord, number: int | None) -> None:
    """(A finished game of a game with analysis.) The table, and how to open the costliest decisions."""
    if not has_evaluator(record.game):
        return
    t = current()
    try:
        a = analyze(record)
    except DicehallError as exc:  # an evaluator that cannot be made here: the game is kept all the same
        said = t("proficiency.cli.unavailable", why=exc.localized())
        console.print(f"[dim]{escape(said)}[/]", soft_wrap=True)
        return
    unit = t("proficiency.cli.unit_win" if a.unit == "win%" else "proficiency.cli.unit_points")
    console.print(t("proficiency.cli.title", unit=unit), style="italic")
    console.print(fit(proficiency_table(a, t), console))
    if number is not None and any(a.costliest(s.seat) for s in a.totals):
        console.print(t("proficiency.cli.see", number=str(number)))
