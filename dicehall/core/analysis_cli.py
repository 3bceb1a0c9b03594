"""``dicehall analyze RECORD`` and the ``?`` hints of terminal play: they only render :mod:`dicehall.core.analysis`."""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from dicehall.core.analysis import (
    Analysis,
    Evaluator,
    Hints,
    Unit,
    analyze,
    evaluator_for,
    has_evaluator,
    has_hints,
    hints,
    position_hints,
)
from dicehall.core.cli_options import (
    HINT_MODES,
    check_output_file,
    check_record_file,
    console,
    err_console,
    fail,
)
from dicehall.core.cli_tables import fit
from dicehall.core.errors import DicehallError
from dicehall.core.game import State, get_game
from dicehall.core.record import GameRecord, replay
from dicehall.core.rules import RuleSet
from dicehall.i18n import Translator, current, tr
from dicehall.i18n.cli import LangOpt, apply_lang

CLASS_STYLE = {"inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "bold red"}


def fmt(value: float, unit: Unit, signed: bool = False, digits: int = 1) -> str:
    """A table cell's number in the process's language ("0,50" in ru/uk/pl); ``--json`` keeps bare floats."""
    text = current().fixed(abs(value), digits)
    negative = value < 0 and text.strip("0.,") != ""  # -0.04 shows as 0.0, not -0.0
    if negative or signed:
        text = ("-" if negative else "+") + text
    return text + "%" if unit == "win%" else text


def hints_allowed(mode: str, humans: int) -> bool:
    """The table option: ``auto`` allows hints unless two or more people share the table."""
    if mode not in HINT_MODES:
        raise ValueError(f"--hints must be one of {', '.join(HINT_MODES)}, got {mode!r}")
    return mode == "on" or (mode == "auto" and humans <= 1)


def move_words(game: str, state: State[Any]) -> Callable[[str], str]:
    """How the hints of ``game`` at ``state`` name a move (a game without words shows the notation)."""
    said = get_game(game).move_words
    return lambda move: str(said(state, move))


def hints_table(
    h: Hints,
    name: str,
    t: Translator,
    words: Callable[[str], str] = str,
    keys: Callable[[str], str] | None = None,
) -> Table:
    """Every legal move with its value in its unit (a chance to win, or points) and, with ``keys``, what to type
    to play it."""
    table = Table(title=t("hints.title", name=name), title_justify="left")
    if keys is not None:
        table.add_column(t("hints.col.type"), justify="right", style="bold cyan", no_wrap=True)
    table.add_column(t("analysis.col.move"))
    table.add_column(t("hints.col.win" if h.unit == "win%" else "hints.col.points"), justify="right")
    table.add_column(t("hints.col.diff"), justify="right")
    table.add_column("")
    digits = 2 if h.unit == "dice" else 1  # a Wurf throw's value is a fraction of a die
    for opt in h.options:
        mark = f"[bold green]{t('hints.best')}[/]" if opt.best else ""
        table.add_row(
            *([escape(keys(opt.move))] if keys is not None else []),
            f"[bold]{escape(words(opt.move))}[/]" if opt.best else escape(words(opt.move)),
            fmt(opt.value, h.unit, digits=digits),
            "" if opt.best else fmt(-opt.loss, h.unit, signed=True, digits=digits),
            mark,
        )
    return table


class HintDesk:
    """The hints of a terminal game: allowed or not by the table option, the evaluator built on first use."""

    def __init__(self, game: str, rules: RuleSet, seats: int, humans: int, mode: str) -> None:
        self.game, self.rules, self.seats = game, rules, seats
        self.mode = mode.lower()
        self.allowed = hints_allowed(self.mode, humans) and has_hints(game)
        self._evaluator: Evaluator | None = None

    def show(self, state: State[Any], names: Sequence[str], keys: Callable[[str], str] | None = None) -> None:
        """The hints at ``state``; ``keys`` says what to type for a move (a choice's number, a command)."""
        t = current()
        if not has_hints(self.game):
            console.print(f"[yellow]{t('hints.none', game=t(f'game.{self.game}.title'))}[/]")
            return
        if not self.allowed:
            console.print(f"[yellow]{t('hints.off')}[/]")
            return
        try:
            if not has_evaluator(self.game):  # the game's own hints (Wurf's map)
                h = position_hints(self.game, self.rules, self.seats, state)
            else:
                if self._evaluator is None:
                    with console.status(t("hints.preparing")):
                        self._evaluator = evaluator_for(self.game, self.rules, self.seats)
                h = hints(self._evaluator, state)
        except DicehallError as exc:
            console.print(f"[red]{escape(exc.localized())}[/]")
            return
        table = hints_table(h, names[h.seat], t, move_words(self.game, state), keys)
        console.print(fit(table, console, drop=(t("hints.col.diff"),)))
        if h.note:
            console.print(f"[dim]{escape(t.message(h.note))}[/]")
        for line in get_game(self.game).hint_lines(h, state):
            console.print(escape(line), highlight=False)


def hint_desk(game: str, rules: RuleSet, specs: Sequence[Any], mode: str) -> HintDesk:
    """The desk of a terminal game from ``--hints`` (a bad value is a usage error) and the seats (``spec.bot``)."""
    if mode.lower() not in HINT_MODES:
        raise fail(tr("cli.check.hints", choices=", ".join(HINT_MODES), got=repr(mode)))
    humans = sum(1 for spec in specs if not spec.bot)
    return HintDesk(game, rules, len(specs), humans, mode)


# -- dicehall analyze --------------------------------------------------------------------------------------------
def analysis_tables(a: Analysis, t: Translator) -> list[Table]:
    steps = Table(title=t("analysis.title", game=t(f"game.{a.game}.title"), players=", ".join(a.players)))
    for key, justify in (
        ("analysis.col.event", "right"),
        ("analysis.col.player", "left"),
        ("analysis.col.move", "left"),
        ("analysis.col.best", "left"),
        ("analysis.col.loss", "right"),
        ("analysis.col.luck", "right"),
        ("analysis.col.class", "left"),
        ("analysis.col.value", "right"),
    ):
        steps.add_column(t(key), justify=justify)  # type: ignore[arg-type]
    for s in a.steps:
        who = a.players[s.seat]
        if s.kind == "forced":
            continue
        if s.kind == "resign":
            steps.add_row(
                str(s.n), who, f"[bold]{t('analysis.kind.resign')}[/]", "", "", "", "", fmt(s.value, a.unit)
            )
            continue
        if s.kind == "roll":
            style = "green" if s.luck > 0 else "red" if s.luck < 0 else ""
            luck = fmt(s.luck, a.unit, signed=True)
            steps.add_row(
                str(s.n),
                who,
                f"[dim]{t('analysis.kind.roll')}[/] {s.move}",
                "",
                "",
                f"[{style}]{luck}[/]" if style else luck,
                "",
                fmt(s.value, a.unit),
            )
            continue
        klass = t(f"analysis.class.{s.klass}") if s.klass else ""
        style = CLASS_STYLE.get(s.klass or "", "")
        steps.add_row(
            str(s.n),
            who,
            f"[bold]{s.move}[/]",
            "" if s.best == s.move or s.loss == 0 else s.best,
            fmt(s.loss, a.unit) if s.loss else "",
            "",
            f"[{style}]{klass}[/]" if style else klass,
            fmt(s.value, a.unit),
        )
    totals = Table(title=t("analysis.totals"), title_justify="left")
    for key in (
        "analysis.col.player",
        "analysis.col.decisions",
        "analysis.col.accuracy",
        "analysis.col.mean_loss",
        "analysis.class.inaccuracy",
        "analysis.class.mistake",
        "analysis.class.blunder",
        "analysis.col.rolls",
        "analysis.col.luck",
    ):
        totals.add_column(t(key), justify="left" if key == "analysis.col.player" else "right")
    for seat in a.totals:
        totals.add_row(
            seat.name,
            str(seat.decisions),
            t.fixed(seat.accuracy, 1),
            fmt(seat.mean_loss, a.unit, digits=2),
            str(seat.inaccuracies),
            str(seat.mistakes),
            str(seat.blunders),
            str(seat.rolls),
            fmt(seat.luck, a.unit, signed=True),
        )
    return [steps, totals]


def plot_analysis(a: Analysis, path: Path, t: Translator) -> None:
    """The value of each seat over the game (PNG), with each mistake and blunder marked on the mover's line."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(10, 4.5), dpi=100)
    xs = list(range(len(a.series)))
    for seat, name in enumerate(a.players):
        ax.plot(xs, [v[seat] for v in a.series], label=name, linewidth=1.4)
    for klass, marker in (("mistake", "o"), ("blunder", "X")):
        points = [(s.n, a.series[s.n][s.seat]) for s in a.steps if s.klass == klass]
        if points:
            ax.scatter(
                [p[0] for p in points],
                [p[1] for p in points],
                marker=marker,
                color="darkorange" if klass == "mistake" else "crimson",
                zorder=3,
                label=t(f"analysis.class.{klass}"),
            )
    if a.unit == "win%":
        ax.set_ylim(0, 100)
        ax.axhline(50, color="grey", linewidth=0.6, linestyle=":")
    ax.set_xlabel(t("analysis.chart.x"))
    ax.set_ylabel(t("analysis.chart.y_win") if a.unit == "win%" else t("analysis.chart.y_points"))
    ax.set_title(t("analysis.title", game=t(f"game.{a.game}.title"), players=", ".join(a.players)))
    ax.grid(alpha=0.3)
    ax.legend(loc="best", fontsize="small")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def _load_and_analyse(file: Path, quiet: bool) -> Analysis:
    try:
        record = GameRecord.load(file)
        rules = record.rules()
        if not has_evaluator(record.game):
            evaluator_for(record.game, rules, len(record.players))  # says why not
        replay(record)  # a bad record is refused before any evaluator is built
        # a small rule set may be solved on first use: its progress bar must not mix into --json output
        with contextlib.redirect_stdout(sys.stderr) if quiet else contextlib.nullcontext():
            evaluator = evaluator_for(record.game, rules, len(record.players))
        if quiet or not console.is_terminal:
            return analyze(record, evaluator)
        columns = (
            TextColumn(tr("analysis.progress")),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
        )
        with Progress(*columns, console=console, transient=True) as bar:
            task = bar.add_task("analyse", total=len(record.events))
            return analyze(record, evaluator, lambda done, _: bar.update(task, completed=done))
    except DicehallError as exc:  # a bad record, or a game without analysis (AnalysisError)
        raise fail(tr("cli.file_error", file=str(file), reason=exc.localized())) from None


def register(app: typer.Typer) -> None:
    @app.command("analyze")
    def analyze_cmd(
        file: Path = typer.Argument(
            ...,
            help="A JSON game record (Dice 1000 or Clever), or a game's number in `dicehall games`.",
            callback=check_record_file,
        ),
        plot: Path = typer.Option(
            None,
            "--plot",
            help="Write a PNG chart of each player's value over the game.",
            callback=check_output_file,
        ),
        as_json: bool = typer.Option(False, "--json", help="Print the whole analysis as one JSON object."),
        lang: str = LangOpt,
    ) -> None:
        """Analyse a finished (or unfinished) game: the loss of every decision against the best one, classified
        (inaccuracy / mistake / blunder), the luck of every roll, totals per player, and a chart.

        Dice 1000 with 2 players and a solved table: chances to win in %; otherwise (and for Clever) expected
        points. See docs/analysis.md.
        """
        t = apply_lang(lang)
        a = _load_and_analyse(file, as_json)
        if plot is not None:
            try:
                plot_analysis(a, plot, t)
            except OSError as exc:
                raise fail(tr("cli.check.plot", path=str(plot), problem=str(exc.strerror or exc))) from None
        if as_json:
            out = a.to_json()
            out["record"] = str(file)
            if plot is not None:
                out["plot"] = str(plot)
            typer.echo(json.dumps(out))
            return
        print_analysis(a, t)
        if plot is not None:
            err_console.print(t("analysis.plot_saved", path=str(plot)))


def print_analysis(a: Analysis, t: Translator) -> None:
    steps, totals = analysis_tables(a, t)
    console.print(fit(steps, console, drop=(t("analysis.col.best"), t("analysis.col.class"))))
    console.print(fit(totals, console, drop=(t("analysis.col.rolls"), t("analysis.col.mean_loss"))))
    if a.note:
        console.print(f"[yellow]{t('analysis.note')}[/] {escape(t.message(a.note))}")
    console.print(f"[dim]{t('analysis.legend', **_legend(a))}[/]")


def show_analysis(file: Path) -> None:
    """The analysis of the record in ``file`` as ``dicehall analyze`` prints it (the end of a terminal game)."""
    print_analysis(_load_and_analyse(file, False), current())


def _legend(a: Analysis) -> dict[str, str]:
    th = a.thresholds
    return {
        "inaccuracy": fmt(th.inaccuracy, a.unit),
        "mistake": fmt(th.mistake, a.unit),
        "blunder": fmt(th.blunder, a.unit),
    }
