"""The ``dicehall`` command."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import typer
from rich.table import Table

from dicehall.core.cli_support import RulesFileOpt, SetOpt, console, fail, load_rules
from dicehall.core.errors import DicehallError
from dicehall.core.game import game_names, get_game
from dicehall.core.record import GameRecord, replay

app = typer.Typer(
    help="dicehall — play and study Der große Wurf, Ganz schön clever and Dice 1000.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
play_app = typer.Typer(help="Play a game in the terminal against bots or friends.", no_args_is_help=True)
simulate_app = typer.Typer(help="Bot-versus-bot simulation with statistics.", no_args_is_help=True)
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
        raise fail(str(exc)) from None
    rules = load_rules(game, preset, sets, rules_file)
    if as_json:
        typer.echo(json.dumps(rules.to_dict(), indent=1))
        return
    presets = ", ".join(type(rules).PRESETS)
    table = Table(title=f"{get_game(game).title} — preset {rules.preset}", title_justify="left")
    table.add_column("option", style="bold")
    table.add_column("value")
    table.add_column("meaning")
    changed = rules.overrides()
    for key, value, doc in rules.describe():
        shown = json.dumps(value) if not isinstance(value, str) else value
        table.add_row(key, f"[yellow]{shown}[/]" if key in changed else shown, doc)
    console.print(table)
    console.print(f"presets: {presets}. Change an option with --set key=value.")


@app.command("replay")
def replay_cmd(
    file: Path = typer.Argument(..., help="A JSON game record."),
    upto: int = typer.Option(None, "--upto", help="Stop after this many events."),
    as_json: bool = typer.Option(False, "--json", help="Print scores as JSON instead of the board."),
) -> None:
    """Re-apply a game record and print the final position (refuses bad records, naming the event)."""
    try:
        record = GameRecord.load(file)
        state = replay(record, upto)
    except DicehallError as exc:
        raise fail(f"{file}: {exc}") from None
    if as_json:
        out = {"events": len(record.events), "terminal": state.is_terminal(), "scores": state.scores()}
        if state.is_terminal():
            out["winners"] = state.winners()
        typer.echo(json.dumps(out))
        return
    console.print(state.render())
    console.print(
        f"[dim]{len(record.events) if upto is None else min(upto, len(record.events))} events replayed.[/]"
    )


@app.command("serve")
def serve_cmd(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (loopback by default)."),
    port: int = typer.Option(8000, "--port", help="TCP port."),
    db: str = typer.Option(None, "--db", help="SQLAlchemy URL; default: SQLite in the user data directory."),
    bot_delay: float = typer.Option(
        None, "--bot-delay", help="Seconds a bot waits before its move (default $DICEHALL_BOT_DELAY or 0.8)."
    ),
    sqlite_sync: str = typer.Option(
        "NORMAL", "--sqlite-sync", help="SQLite synchronous level: NORMAL or FULL."
    ),
    settings: str = typer.Option(
        None, "--settings", help="TOML file of server limits (rate limits, quotas, bot budget; see docs/web.md)."
    ),
) -> None:
    """Start the web server: lobby, online and hot-seat tables, bots, and the persisted event log."""
    from dicehall.web.server import serve

    try:
        serve(host, port, db, bot_delay, sqlite_sync, settings_file=settings)
    except ValueError as exc:
        raise fail(str(exc)) from None


def _register_games() -> None:
    """Each game adds its own ``play``/``simulate`` (and other) commands; one line per game."""
    for module in ("dicehall.thousand.cli", "dicehall.clever.cli", "dicehall.wurf.cli"):
        importlib.import_module(module).register(app, play_app, simulate_app)


def main() -> None:
    _register_games()
    app()


if __name__ == "__main__":
    main()
