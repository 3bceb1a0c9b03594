"""The ``dicehall`` command."""

from __future__ import annotations

import importlib
import json
import math
import sys
from pathlib import Path
from typing import Any

import typer
from rich.table import Table

from dicehall.core.cli_options import RulesFileOpt, SetOpt, check_record_file, console, fail
from dicehall.core.cli_support import load_rules
from dicehall.core.cli_tables import fit
from dicehall.core.errors import DicehallError
from dicehall.core.game import game_names, get_game
from dicehall.core.record import GameRecord, replay
from dicehall.i18n import Translator, current, tr
from dicehall.i18n.cli import RootLangOpt, add_lang_option
from dicehall.i18n.usage import DicehallGroup

MAX_BOT_DELAY = 60.0

EXAMPLES = """Examples:
dicehall play thousand            Dice 1000 against the expert bot
dicehall play clever              Ganz schön clever, solo
dicehall play wurf                Der große Wurf against a bot
dicehall games                    your games; dicehall analyze 1 explains one
dicehall --lang ru play thousand  the same in Russian (also uk, pl)
dicehall play thousand --help     each command's options and examples"""

app = typer.Typer(
    help="dicehall — play and study Der große Wurf, Ganz schön clever and Dice 1000.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    cls=DicehallGroup,  # per invocation: the command line's language, help and usage errors in it
    epilog=EXAMPLES,
)
play_app = typer.Typer(help="Play a game in the terminal against bots or friends.", no_args_is_help=True)
simulate_app = typer.Typer(help="Bot-versus-bot simulation with statistics.", no_args_is_help=True)


def _show_version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        typer.echo(f"dicehall {version('dicehall')}")
        raise typer.Exit()


@app.callback()
def _root(
    lang: str | None = RootLangOpt,
    _version: bool = typer.Option(
        False,
        "--version",
        is_eager=True,
        callback=_show_version,
        help="Print the version of dicehall and exit.",
    ),
) -> None:
    """dicehall — play and study Der große Wurf, Ganz schön clever and Dice 1000."""


app.add_typer(play_app, name="play")
app.add_typer(simulate_app, name="simulate")


@app.command("rules")
def rules_cmd(
    game: str = typer.Argument(..., help=f"One of: {', '.join(game_names())}."),
    preset: str = typer.Option(None, "--preset", "-p", help="Preset to show (default: the game's default)."),
    sets: list[str] = SetOpt,
    rules_file: Path = RulesFileOpt,
    as_json: bool = typer.Option(False, "--json", help="Print the rule set as JSON."),
) -> None:
    """Print the rule set in force: every option, its value and what it means."""
    try:
        get_game(game)
    except DicehallError as exc:
        raise fail(exc) from None
    rules = load_rules(game, preset, sets, rules_file)
    if as_json:
        typer.echo(json.dumps(rules.to_dict(), indent=1))
        return
    t = current()
    presets = ", ".join(f"{p} ({_said(t, f'preset.{game}.{p}', p)})" for p in type(rules).PRESETS)
    title = _said(t, f"game.{game}.title", get_game(game).title)
    preset = _said(t, f"preset.{game}.{rules.preset}", rules.preset)
    table = Table(
        title=t("cli.rules.title", game=title, code=rules.preset, preset=preset), title_justify="left"
    )
    table.add_column(t("cli.col.option"), style="bold")
    table.add_column(t("cli.col.value"))
    table.add_column(t("cli.col.allowed"))
    table.add_column(t("cli.col.meaning"))
    changed = rules.overrides()
    for key, value, doc in rules.describe():
        shown = json.dumps(value) if not isinstance(value, str) else value
        allowed = type(rules).allowed(key) or ("true | false" if isinstance(value, bool) else "")
        meaning = _said(t, f"rule.{game}.{key}.doc", doc)
        table.add_row(key, f"[yellow]{shown}[/]" if key in changed else shown, allowed, meaning)
    console.print(fit(table, console, drop=(t("cli.col.allowed"),)))
    console.print(t("cli.rules.presets", presets=presets))


def _said(t: Translator, msgid: str, fallback: str) -> str:
    """``msgid`` in ``t``'s language, or ``fallback`` (the engine's English) where no catalogue has it."""
    text = t(msgid)
    return fallback if text == msgid else text


@app.command("replay")
def replay_cmd(
    file: Path = typer.Argument(
        ...,
        help="A JSON game record, or a game's number in `dicehall games`.",
        callback=check_record_file,
    ),
    upto: int = typer.Option(None, "--upto", help="Stop after this many events (0 to the record's length)."),
    as_json: bool = typer.Option(False, "--json", help="Print scores as JSON instead of the board."),
) -> None:
    """Re-apply a game record and print the final position.

    Refuses a bad record, naming the event and the rule: unreadable, malformed, an illegal move, an impossible
    dice outcome, or a stored result (winner, scores) that differs from what the moves give.
    """
    try:
        record = GameRecord.load(file)
    except DicehallError as exc:
        raise fail(tr("cli.file_error", file=str(file), reason=exc.localized())) from None
    if upto is not None and not 0 <= upto <= len(record.events):
        raise fail(tr("cli.replay.upto", n=len(record.events), file=str(file), got=upto))
    try:
        state = replay(record, upto)
    except DicehallError as exc:
        raise fail(tr("cli.file_error", file=str(file), reason=exc.localized())) from None
    if as_json:
        out = {"events": len(record.events), "terminal": state.is_terminal(), "scores": state.scores()}
        if state.is_terminal():
            out["winners"] = state.winners()
        typer.echo(json.dumps(out))
        return
    names = [str(p["name"]) for p in record.players]
    console.print(localized_position(record.game, state, names))
    console.print(f"[dim]{tr('cli.replay.done', n=len(record.events) if upto is None else upto)}[/]")


@app.command("serve")
def serve_cmd(
    host: str = typer.Option(
        "127.0.0.1", "--host", envvar="DICEHALL_HOST", help="Address to listen on (loopback by default)."
    ),
    port: int = typer.Option(8000, "--port", envvar="DICEHALL_PORT", help="TCP port (1–65535)."),
    db: str = typer.Option(
        None, "--db", envvar="DICEHALL_DB", help="SQLAlchemy URL; default: SQLite in the user data directory."
    ),
    db_wait: float = typer.Option(
        0.0,
        "--db-wait",
        envvar="DICEHALL_DB_WAIT",
        help="Seconds to keep trying a database that does not answer yet (a database container still "
        "starting); default 0: fail at once.",
    ),
    bot_delay: float = typer.Option(
        None,
        "--bot-delay",
        envvar="DICEHALL_BOT_DELAY",
        help="Seconds a bot waits before its move (default $DICEHALL_BOT_DELAY or 0.8).",
    ),
    sqlite_sync: str = typer.Option(
        "NORMAL",
        "--sqlite-sync",
        envvar="DICEHALL_SQLITE_SYNC",
        help="SQLite synchronous level: NORMAL or FULL.",
    ),
    settings: str = typer.Option(
        None,
        "--settings",
        envvar="DICEHALL_SETTINGS",
        help="TOML file of server limits (rate limits, quotas, bot budget; see docs/web.md).",
    ),
    trusted_proxy: str = typer.Option(
        None,
        "--trusted-proxy",
        envvar="DICEHALL_TRUSTED_PROXY",
        help="Reverse proxy address(es) whose X-Forwarded-For names the client (default: the socket peer).",
    ),
    node_url: str = typer.Option(
        None,
        "--node-url",
        envvar="DICEHALL_NODE_URL",
        help="This process's address as other server processes reach it (http://HOST:PORT): serve one "
        "PostgreSQL database together with them (docs/scaling.md).",
    ),
    public_origin: str = typer.Option(
        None,
        "--public-origin",
        envvar="DICEHALL_PUBLIC_ORIGIN",
        help="The address people open, https://HOST[:PORT]: passkeys (accounts) are bound to its host; "
        "without it they work only on http://localhost.",
    ),
    log_format: str = typer.Option(
        "text",
        "--log-format",
        envvar="DICEHALL_LOG_FORMAT",
        help="Log lines as text or json (one object a line: time, level, table, seat, event, duration).",
    ),
    access_log: bool = typer.Option(
        False, "--access-log", envvar="DICEHALL_ACCESS_LOG", help="Log every HTTP request (never its tokens)."
    ),
) -> None:
    """Start the web server: lobby, online and hot-seat tables, bots, and the persisted event log."""
    if not 1 <= port <= 65535:
        raise fail(tr("cli.serve.port", got=str(port)))
    # a negative delay is left to serve(), which says so in its own words
    if bot_delay is not None and (math.isnan(bot_delay) or bot_delay > MAX_BOT_DELAY):
        raise fail(tr("cli.serve.bot_delay", max=f"{MAX_BOT_DELAY:g}", got=str(bot_delay)))
    if settings is not None and not Path(settings).is_file():
        raise fail(tr("cli.serve.no_settings", file=settings))
    from dicehall.web.server import serve

    try:
        serve(
            host,
            port,
            db,
            bot_delay,
            sqlite_sync,
            access_log=access_log,
            settings_file=settings,
            trusted_proxy=trusted_proxy,
            node_url=node_url,
            public_origin=public_origin,
            log_format=log_format,
            db_wait=db_wait,
        )
    except ValueError as exc:
        raise fail(exc) from None


def localized_position(game: str, state: Any, names: list[str] | None = None) -> Any:
    """The position in the reader's language where the game has a terminal view for it, else its own text."""
    if game == "clever":
        from dicehall.clever.terminal import board_renderable

        # the board ``play clever`` shows, with the record's seat names
        seats = names if names is not None and len(names) == state.n else None
        return board_renderable(state, seats, console.width)
    if game == "thousand":
        from rich.console import Group
        from rich.text import Text

        from dicehall.i18n import localize
        from dicehall.thousand.terminal import board, turn_line

        parts: list[Any] = [board(state, state.names)]
        if not state.is_terminal():
            parts.append(turn_line(state))
        parts.extend(Text(f"* {localize(e)}") for e in state.events)
        return Group(*parts)
    return state.render()


_registered: list[str] = []
GAME_COMMANDS = {
    "thousand": "dicehall.thousand.cli",
    "clever": "dicehall.clever.cli",
    "wurf": "dicehall.wurf.cli",
}
PER_GAME_GROUPS = ("play", "simulate", "solve", "strategy", "puzzle")
CORE_COMMANDS = (
    "dicehall.core.analysis_cli",
    "dicehall.core.cli_history",
    "dicehall.core.cli_ratings",
    "dicehall.core.verify_cli",
    "dicehall.web.backup_cli",
)


def _register_games(argv: list[str] | None = None) -> None:
    """Each game adds its own ``play``/``simulate`` (and other) commands; one line per game (once per process).

    A command line that names one game's command (``simulate clever …``, ``play wurf …``) registers that game's
    commands of that group only: the others' modules are a sixth of a short command's start-up."""
    only = group = None
    if argv is not None and len(argv) >= 2 and argv[0] in PER_GAME_GROUPS and argv[1] in GAME_COMMANDS:
        only, group = GAME_COMMANDS[argv[1]], argv[0]
    for module in GAME_COMMANDS.values():
        if module not in _registered and only in (None, module):
            importlib.import_module(module).register(app, play_app, simulate_app, group)
            _registered.append(module)
    for module in CORE_COMMANDS if only is None else ():
        if module not in _registered:
            importlib.import_module(module).register(app)
            _registered.append(module)
    add_lang_option(app)  # every command, the games' own included, takes --lang


def main() -> None:
    _register_games(sys.argv[1:])
    typer.main.get_command(app)()  # the root group puts --help and usage errors in the line's language


if __name__ == "__main__":
    main()
