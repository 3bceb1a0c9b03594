"""The options every command shares and their checks: a bad value stops the command with one line before
anything happens (see ``docs/cli.md``)."""

from __future__ import annotations

import os
from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape

from dicehall.core.errors import DicehallError
from dicehall.core.names import NameRefused, check_name
from dicehall.core.record import MAX_SEED, output_file_problem
from dicehall.core.user_config import config_file
from dicehall.i18n import Message, current, localize, tr
from dicehall.i18n.helptext import HELP_VALUES

HINT_MODES = ("auto", "on", "off")
HINT_WORDS = ("?", "h", "hint", "hints")
"""What a player types during terminal play to see the hints."""
HintsOpt = typer.Option(
    "auto",
    "--hints",
    help="Hints ('?' or 'h' lists every legal move with its value): auto = allowed alone and against bots, "
    "off when two or more people play; on; off.",
    case_sensitive=False,
)


def _following_the_terminal(made: Console) -> Console:
    """rich fixes a console's width from ``COLUMNS`` as it is made (at import); read it, and the terminal's size,
    at each use instead, so a resized terminal or a command run with another ``COLUMNS`` lays out to it."""
    made._width = None
    return made


console = _following_the_terminal(Console(highlight=False))
err_console = _following_the_terminal(Console(stderr=True, highlight=False))

MAX_GAMES = 10**12
MAX_JOBS = 4 * (os.cpu_count() or 1)


STRATEGY_HELP = "The solved strategy of a game as tables."
"""The ``strategy`` group's help (Dice 1000 and Clever each add a command to it)."""


def command_group(app: typer.Typer, name: str, help_text: str) -> typer.Typer:
    """The command group ``name`` of ``app``, made by whichever game registers first and shared by the rest
    (``strategy``, ``solve``, ``puzzle``)."""
    for info in app.registered_groups:
        if info.name == name and isinstance(info.typer_instance, typer.Typer):
            return info.typer_instance
    group = typer.Typer(help=help_text, no_args_is_help=True)
    app.add_typer(group, name=name)
    return group


def fail(message: str | BaseException, code: int = 2) -> typer.Exit:
    """Print a one-line error and return the Exit to raise (2: bad usage or input, as click uses).

    An error (or a :class:`~dicehall.i18n.message.Message`) is said in the process's language."""
    text = (
        message.localized()
        if isinstance(message, DicehallError)
        else localize(message if isinstance(message, str) else _said(message))
    )
    # soft_wrap: the message stays one line however narrow the terminal; escape: messages hold '[rule: ...]'
    err_console.print(f"[bold red]{tr('cli.error')}[/] {escape(text)}", soft_wrap=True)
    return typer.Exit(code)


def _said(exc: BaseException) -> str:
    """An exception's text, kept a :class:`~dicehall.i18n.message.Message` when it was raised with one."""
    first = exc.args[0] if len(exc.args) == 1 else None
    return first if isinstance(first, Message) else str(exc)


# Option callbacks: they run while the command line is read, so a bad value stops before anything happens.
def check_seed(value: int | None) -> int | None:
    if value is not None and not 0 <= value <= MAX_SEED:
        raise fail(tr("cli.check.seed", got=str(value)))
    return value


def check_games(value: int) -> int:
    if not 1 <= value <= MAX_GAMES:
        raise fail(tr("cli.check.games", max=current().number(MAX_GAMES), got=current().number(value)))
    return value


def check_jobs(value: int) -> int:
    if not 1 <= value <= MAX_JOBS:
        raise fail(tr("cli.check.jobs", max=MAX_JOBS, got=value))
    return value


def check_backend(value: str) -> str:
    if value not in ("processes", "ray"):
        raise fail(tr("cli.check.backend", got=repr(value)))
    return value


def check_player_name(value: str | None) -> str | None:
    """``--name``: a display name by the rules of :mod:`dicehall.core.names`, normalised (refused before anything
    is saved or played)."""
    if value is None:
        return None
    try:
        return check_name(value)
    except NameRefused as exc:
        raise fail(tr("cli.check.name", reason=exc.localized())) from None


def check_output_file(ctx: typer.Context, param: typer.CallbackParam, value: Path | None) -> Path | None:
    """An option naming a file to write: refuse a directory or an unwritable place before any work is done."""
    if value is not None and (problem := output_file_problem(value)):
        raise fail(tr("cli.check.cannot_write", option=param.opts[0], path=str(value), problem=problem))
    return value


def check_output_dir(ctx: typer.Context, param: typer.CallbackParam, value: Path | None) -> Path | None:
    """An option naming a directory to fill (created if missing): refuse a file or an unwritable place."""
    if value is None:
        return value
    if value.exists() and not value.is_dir():
        raise fail(tr("cli.check.is_a_file", option=param.opts[0], path=str(value)))
    parent = value
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir():
        raise fail(tr("cli.check.parent_file", option=param.opts[0], path=str(value), parent=str(parent)))
    if not os.access(parent, os.W_OK | os.X_OK):
        raise fail(tr("cli.check.not_writable", option=param.opts[0], path=str(value), parent=str(parent)))
    return value


def check_input_file(ctx: typer.Context, param: typer.CallbackParam, value: Path | None) -> Path | None:
    """An option or argument naming a file to read: it must exist and be a file."""
    if value is None:
        return value
    name = f"{param.opts[0]} " if param.opts and param.opts[0].startswith("-") else ""
    if not value.exists():
        raise fail(tr("cli.check.no_such_file", what=f"{name}{value}"))
    if value.is_dir():
        raise fail(tr("cli.check.is_a_dir", what=f"{name}{value}"))
    return value


def check_record_file(ctx: typer.Context, param: typer.CallbackParam, value: Path | None) -> Path | None:
    """A record to read: a file, or the number of a game in the player's history (``dicehall games``)."""
    if value is not None and str(value).isdigit() and not value.exists():
        from dicehall.core.history import find

        try:
            return find(int(str(value)))
        except DicehallError as exc:
            raise fail(exc) from None
    return check_input_file(ctx, param, value)


PresetOpt = typer.Option(None, "--preset", "-p", help="Rule preset (see `dicehall rules GAME`).")
SetOpt = typer.Option(None, "--set", "-s", help="Override a rule: key=value (repeatable).")
RulesFileOpt = typer.Option(
    None, "--rules", help="TOML file with `preset = ...` and rule options.", callback=check_input_file
)
# The options every game's `play` and `simulate` commands share.
SaveOpt = typer.Option(
    None,
    "--save",
    help="Write the game record here at the end (also on quit/Ctrl-C).",
    callback=check_output_file,
)
ResumeOpt = typer.Option(
    None,
    "--resume",
    help="Continue a saved, unfinished game: a record file or its number in `dicehall games`; "
    "the game is written back to it.",
    callback=check_record_file,
    metavar="FILE|N",
)
NoSaveOpt = typer.Option(
    False,
    "--no-save",
    help="Do not keep this game in your history (`dicehall games`); finished games are kept by default.",
)
PlaySeedOpt = typer.Option(
    None,
    "--seed",
    help="Seed for reproducible dice, 0 to 2**128-1: the same seed and moves give the same dice "
    "(default: a fresh secure seed, stored in the record).",
    callback=check_seed,
)
RealDiceOpt = typer.Option(
    False,
    "--real-dice",
    help="Score pad for real dice: nothing is rolled here; type the dice that fell when the game needs them "
    "('undo' takes the last entry back before anyone decides on it).",
)
HELP_VALUES["config_file"] = lambda: str(config_file())
NameOpt = typer.Option(
    None,
    "--name",
    help="Your name for the 'me' seat (headings, scores, records). It is remembered in {config_file}: "
    "later games without --name use it.",
    callback=check_player_name,
    metavar="NAME",
)
GamesOpt = typer.Option(
    1000,
    "--games",
    "-n",
    help="Number of games (1 to 10**12). Results are streamed: memory stays flat however many games; "
    "percentiles are exact while a figure takes at most 50,000 distinct values, else estimated from a sample.",
    callback=check_games,
)
SeedOpt = typer.Option(
    1, "--seed", help="Root seed, 0 to 2**128-1 (game i always gets the same dice).", callback=check_seed
)
JobsOpt = typer.Option(
    1,
    "--jobs",
    "-j",
    help=f"Worker processes, 1 to {MAX_JOBS} (this machine has {os.cpu_count()} cores).",
    callback=check_jobs,
)
BackendOpt = typer.Option(
    "processes",
    "--backend",
    help="Where the games run: processes (this machine, --jobs of them) or ray (a Ray cluster, "
    "pip install 'dicehall[cluster]'). The results are the same.",
    callback=check_backend,
)
AddressOpt = typer.Option(
    None,
    "--address",
    help="With --backend ray: the cluster to join (auto, HOST:6379 or ray://HOST:10001); "
    "default: a local Ray with --jobs CPUs.",
)
JsonOpt = typer.Option(False, "--json", help="Print the report as JSON.")
SaveRecordsOpt = typer.Option(
    None,
    "--save-records",
    help="Directory for one record per game (created if missing).",
    callback=check_output_dir,
)
PlotOpt = typer.Option(None, "--plot", help="Write a score histogram PNG here.", callback=check_output_file)
