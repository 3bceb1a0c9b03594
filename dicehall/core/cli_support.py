"""Pieces every game's command-line front end shares: rule options, the simulate command, terminal play."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from dicehall.core.agents import (
    Agent,
    PlayerSpec,
    check_human_seat,
    make_bot,
    parse_players,
    parse_seat,
    seat_names,
)
from dicehall.core.cli_options import (
    AddressOpt,
    BackendOpt,
    GamesOpt,
    JobsOpt,
    JsonOpt,
    PlotOpt,
    RulesFileOpt,
    SaveRecordsOpt,
    SeedOpt,
    SetOpt,
    check_backend,
    check_games,
    check_jobs,
    check_seed,
    console,
    err_console,
    fail,
)
from dicehall.core.cli_realdice import Entered, can_take_back, take_back
from dicehall.core.cli_tables import fit
from dicehall.core.errors import DicehallError, RecordError
from dicehall.core.game import CHANCE, TERMINAL, State, get_game
from dicehall.core.history import keep
from dicehall.core.record import GameRecord, replay
from dicehall.core.rng import agent_rng, live_rng, seeded_rng
from dicehall.core.rules import RuleSet
from dicehall.core.simulate import RunSummary, SimulationJob, simulate, stop_game
from dicehall.core.user_config import (
    ConfigError,
    config_file,
    mark_intro_seen,
    save_name,
    saved_name,
    seen_intros,
)
from dicehall.i18n import Message, current, tr


def load_rules(game: str, preset: str | None, sets: list[str] | None, rules_file: Path | None) -> RuleSet:
    try:
        return get_game(game).rules_type.from_cli(preset, sets or [], rules_file)
    except UnicodeDecodeError:
        raise fail(tr("cli.check.rules_not_utf8", path=str(rules_file))) from None
    except DicehallError as exc:
        raise fail(exc) from None


def load_players(game: str, text: str, rules: RuleSet) -> list[PlayerSpec]:
    try:
        specs = parse_players(text)
        get_game(game).check_player_count(len(specs))
        for spec in specs:
            if spec.bot:
                make_bot(game, spec.bot, rules)
            else:
                check_human_seat(game, spec.label)
    except DicehallError as exc:
        raise fail(exc) from None
    return specs


ExtraReport = Callable[[dict[str, Any], RunSummary], None]
"""Prints game-specific lines after the common simulation report."""


def run_simulate_command(
    game: str,
    players: str,
    games: int,
    seed: int,
    jobs: int,
    as_json: bool,
    save_records: Path | None,
    preset: str | None,
    sets: list[str] | None,
    rules_file: Path | None,
    plot: Path | None = None,
    extra_report: ExtraReport | None = None,
    backend: str = "processes",
    address: str | None = None,
) -> dict[str, Any]:
    """The body of ``dicehall simulate GAME``: progress bar, then a table (or JSON) of the results.

    Ctrl-C stops the run and reports the games finished so far (exit code 130).
    """
    check_games(games)
    check_jobs(jobs)
    check_seed(seed)
    check_backend(backend)
    if address is not None and backend != "ray":
        raise fail(tr("clever.train.address_needs_ray"))
    rules = load_rules(game, preset, sets, rules_file)
    specs = load_players(game, players, rules)
    job = SimulationJob(game, rules, tuple(specs), seed, str(save_records) if save_records else None)
    stop = _StopOnInterrupt()
    try:
        with (
            stop,
            Progress(
                TextColumn(f"[bold]{tr('cli.report.simulating')}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeRemainingColumn(),
                console=err_console,
                disable=as_json,
                transient=True,
            ) as progress,
        ):
            task = progress.add_task("games", total=games)
            report, summary = simulate(
                job,
                games,
                jobs,
                lambda k: progress.advance(task, k),
                should_stop=stop.requested,
                backend=backend,
                address=address,
            )
    except DicehallError as exc:
        raise fail(exc) from None
    interrupted = stop.requested()
    if interrupted:
        if summary.games == 0:
            err_console.print(f"[yellow]{tr('cli.report.interrupted_none')}[/]")
            raise typer.Exit(130)
        err_console.print(f"[yellow]{current().plural('cli.report.interrupted', summary.games)}[/]")
    if plot is not None:
        save_score_histogram(report, summary, plot)
        report["plot"] = str(plot)
    if as_json:
        typer.echo(json.dumps(report, indent=1))
    else:
        print_report(report)
        if extra_report is not None:
            extra_report(report, summary)
        if plot is not None:
            console.print(f"score histogram written to [bold]{plot}[/]")
    if interrupted:
        raise typer.Exit(130)
    return report


class _StopOnInterrupt:
    """While active, the first Ctrl-C stops the run at once (the game in play in this process is dropped, worker
    processes are stopped) and the report covers the games finished; a second one exits with one line."""

    def __init__(self) -> None:
        self._hit = False
        self._previous: Any = None

    def requested(self) -> bool:
        return self._hit

    def _handle(self, signum: int, frame: Any) -> None:
        if self._hit:
            import multiprocessing

            for worker in multiprocessing.active_children():
                worker.terminate()
            err_console.show_cursor(True)  # the progress bar hid it
            err_console.print(f"\n[yellow]{tr('cli.report.aborted')}[/]", soft_wrap=True)
            os._exit(130)  # no report wanted: nothing is left to wait for or to tidy
        self._hit = True
        err_console.print(f"[yellow]{tr('cli.report.stopping')}[/]", soft_wrap=True)
        stop_game()

    def __enter__(self) -> _StopOnInterrupt:
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)


def add_simulate_command(
    simulate_app: typer.Typer,
    game: str,
    *,
    default_players: str,
    players_help: str,
    doc: str,
    extra_report: ExtraReport | None = None,
) -> None:
    """Register ``dicehall simulate GAME`` with the options every game shares."""

    def command(
        players: str = typer.Option(default_players, "--players", help=players_help),
        games: int = GamesOpt,
        seed: int = SeedOpt,
        jobs: int = JobsOpt,
        backend: str = BackendOpt,
        address: str = AddressOpt,
        as_json: bool = JsonOpt,
        save_records: Path = SaveRecordsOpt,
        plot: Path = PlotOpt,
        preset: str = typer.Option(None, "--preset", "-p", help="Rule preset."),
        sets: list[str] = SetOpt,
        rules_file: Path = RulesFileOpt,
    ) -> None:
        run_simulate_command(
            game,
            players,
            games,
            seed,
            jobs,
            as_json,
            save_records,
            preset,
            sets,
            rules_file,
            plot,
            extra_report,
            backend,
            address,
        )

    command.__doc__ = doc
    simulate_app.command(game)(command)


def print_report(report: dict[str, Any]) -> None:
    game, preset = report["game"], report["rules"]["preset"]
    console.print(
        tr(
            "cli.report.header",
            games=f"[bold]{current().plural('unit.games', report['games'])}[/]",
            game=f"[bold]{tr(f'game.{game}.title')}[/]",
            preset=current().render(f"preset.{game}.{preset}", {}) if preset else "-",
            seed=str(report["seed"]),
        )
    )
    estimated = [s["player"] for s in report["seats"] if s["score"].get("exact") is False]
    estimated += [k for k, d in report["stats"].items() if d.get("exact") is False]
    if estimated:
        console.print(f"[dim]{tr('cli.report.estimated', names=', '.join(estimated))}[/]")
    table = Table(title=tr("cli.report.per_seat"))
    for col in ("seat", "player", "win_rate", "ci95", "mean_score", "sd", "median"):
        table.add_column(tr(f"cli.col.{col}"), justify="right" if col not in ("player",) else "left")
    t = current()
    for s in report["seats"]:
        lo, hi = s["win_rate_ci95"]
        sc = s["score"]
        table.add_row(
            str(s["seat"] + 1),
            s["player"],
            f"{t.fixed(100 * s['win_rate'], 1)}%",
            f"{t.fixed(100 * lo, 1)}–{t.fixed(100 * hi, 1)}%",
            t.fixed(sc["mean"], 1),
            t.fixed(sc["sd"], 1),
            t.fixed(sc["median"], 0),
        )
    console.print(fit(table, console, drop=(tr("cli.col.seat"), tr("cli.col.median"), tr("cli.col.sd"))))
    if report["stats"]:
        st = Table(title=tr("cli.report.statistics"))
        for col in ("statistic", "mean", "sd", "p5", "median", "p95"):
            st.add_column(tr(f"cli.col.{col}"), justify="left" if col == "statistic" else "right")
        for key, d in report["stats"].items():
            st.add_row(
                _stat_label(key),
                *(t.fixed(d[k], 2) for k in ("mean", "sd")),
                *(t.fixed(d[k], 1) for k in ("p5", "median", "p95")),
            )
        console.print(fit(st, console, drop=(tr("cli.col.sd"),)))


def _stat_label(key: str) -> str:
    """A statistic's name in the process's language (its key when the catalogue has none)."""
    label = tr(f"stat.{key}")
    return key if label == f"stat.{key}" else label


def save_score_histogram(report: dict[str, Any], summary: RunSummary, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    for seat, name in enumerate(report["players"]):
        values, weights = summary.scores[seat].weighted()
        ax.hist(values, bins=30, weights=weights, alpha=0.6, label=name)
    ax.set_xlabel("final score")
    ax.set_ylabel("games")
    ax.set_title(f"{report['game']}: {report['games']} games, seed {report['seed']}")
    ax.legend()
    fig.tight_layout()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(path, dpi=110, format="png")
    except OSError as exc:
        raise fail(tr("cli.check.plot", path=str(path), problem=str(exc.strerror or exc))) from None
    finally:
        plt.close(fig)


HumanTurn = Callable[[State[Any], int], Any]
"""Asks the human at seat ``n`` for an action; returns it (already checked legal)."""


class QuitGame(Exception):
    """Raised by a human turn to leave the game on purpose (offers to save, like Ctrl-C, but exits 0)."""


class UndoEntry(Exception):
    """Raised by :func:`ask` when a player types ``undo`` while a real-dice game has a step to take back."""


_UNDO_OPEN = [False]
"""True while a real-dice game has a step to take back (``undo`` is then a command)."""

_REAL_DICE = [False]
"""True while the game in play is a real-dice one (a game's prompt then takes the dice that fell, too)."""


def real_dice_on() -> bool:
    """Whether the game being played takes real dice (its players type the faces)."""
    return _REAL_DICE[0]


def ask_entry(
    state: State[Any],
    names: Sequence[str],
    human_seats: Sequence[int],
    read_dice: Callable[[State[Any], str], Any] | None = None,
) -> tuple[Any, int]:
    """Real dice: ask for the outcome of the pending throw until it reads and fits; returns it with the seat that
    entered it (the roller when a human plays it, else the first human seat). ``read_dice`` reads a game's
    entries in its own words (Clever: the faces alone, errors about dice); by default the game's notation."""
    from dicehall.core.realdice import entry_seats, example_entry, read_entry

    roller = state.roller()
    who = names[roller] if roller is not None else tr("cli.realdice.someone")
    seats = entry_seats(state, human_seats) or [roller if roller is not None else 0]
    example = example_entry(state)
    read = read_dice or read_entry
    while True:
        raw = ask(tr("cli.realdice.prompt", who=who, example=example)).strip()
        if not raw or raw.lower() in ("?", "h", "help"):
            console.print(tr("cli.realdice.help", example=f"[bold]{example}[/]"))
            continue
        try:
            return read(state, raw), seats[0]
        except DicehallError as exc:
            rule = getattr(exc, "rule", "")
            console.print(f"[red]{escape(exc.localized())}[/]" + (f" [dim](rule: {rule})[/]" if rule else ""))


def play_in_terminal(
    game: str,
    rules: RuleSet,
    specs: list[PlayerSpec],
    ask_human: HumanTurn,
    show: Callable[[State[Any]], None],
    narrate: Callable[[State[Any], Any, int], None],
    save_to: Path | None = None,
    seed: int | None = None,
    agents: Sequence[Agent | None] | None = None,
    resume: GameRecord | None = None,
    real_dice: bool = False,
    history: bool = True,
    read_dice: Callable[[State[Any], str], Any] | None = None,
) -> GameRecord:
    """Run a live game: bots and dice play themselves, humans are asked. Ctrl-C offers to save the record.

    With ``real_dice`` nothing is rolled: the players type each outcome (:func:`ask_entry`, read by
    ``read_dice``), the record marks it as entered, and ``undo`` takes back one step at a time
    (:func:`~dicehall.core.cli_realdice.take_back`). A human turn may answer with
    :class:`~dicehall.core.cli_realdice.Entered`: a move that throws and the dice that fell, typed at once.

    ``seed`` makes the dice reproducible (default: a fresh secure seed); ``agents`` supplies the seats' bots
    (``None`` for humans) when the caller wants to keep hold of them, e.g. to show their reasoning. ``resume``
    continues a saved record (see :func:`load_resume`); its events stay and new ones are appended.

    ``narrate(state, action, player)`` hears each action once it is applied; a narrator with a ``before``
    attribute (same arguments) hears it first in the position it is taken in (Clever words a pick by the die's
    value, which the move itself may clear).

    With ``history`` (the default; ``--no-save`` turns it off) the game is kept in the player's history
    (:mod:`dicehall.core.history`) when it ends, and on leaving when the player says so; ``save_to`` (``--save``,
    or the file a game was resumed from) is written as well.
    """
    names = seat_names(specs)
    if seed is None:
        seed, dice = live_rng()
    else:
        dice = seeded_rng(seed)
    bot_rng: np.random.Generator = agent_rng(seed)
    if agents is None:
        agents = [make_bot(game, s.bot, rules) if s.bot else None for s in specs]
    if resume is None:
        state = get_game(game).new_initial_state(rules, len(specs))
        record = GameRecord.start(game, rules, names, seed)
    else:
        state = replay(resume)
        record = resume
        record.seed = None  # the events, not a seed, now reproduce the game: it ran on two dice streams
        console.print(f"[dim]{tr('cli.play.resumed', n=len(record.events))}[/]")
    if real_dice:
        record.seed = None  # nothing was drawn: the entered dice, not a seed, make the game
    humans = [i for i, a in enumerate(agents) if a is None]
    _REAL_DICE[0] = real_dice
    typed: tuple[Any, int] | None = None  # dice typed together with the move that throws them
    try:
        while (player := state.current_player()) != TERMINAL:
            entered_by: int | None = None
            _UNDO_OPEN[0] = real_dice and can_take_back(record.events, humans)
            try:
                if player == CHANCE and real_dice and typed is not None:
                    (action, entered_by), typed = typed, None
                elif player == CHANCE and real_dice:
                    action, entered_by = ask_entry(state, names, humans, read_dice)
                elif player == CHANCE:
                    action = state.sample_chance(dice)
                elif (agent := agents[player]) is None:
                    show(state)
                    action = ask_human(state, player)
                    if isinstance(action, Entered):
                        typed = (action.outcome, player)
                        action = action.move
                else:
                    action = agent.choose(state, bot_rng)
            except UndoEntry:
                taken = take_back(record.events, humans)
                state = replay(record)
                resync = getattr(narrate, "resync", None)  # a narrator that tracks turns hears of the rewind
                if resync is not None:
                    resync(state)
                moves = ", ".join(e.move for e in reversed(taken))
                console.print(f"[yellow]{tr('cli.realdice.taken_back', move=moves)}[/]")
                continue
            finally:
                _UNDO_OPEN[0] = False
            before = getattr(narrate, "before", None)  # a narrator that words the move in its position
            if before is not None:
                before(state, action, player)
            record.add(state, action, entered_by)
            state.apply_action(action)
            narrate(state, action, player)
        record.finish(state)
        show(state)
    except (KeyboardInterrupt, EOFError, QuitGame) as exc:
        quit_on_purpose = isinstance(exc, QuitGame)
        console.print(f"\n[yellow]{tr('cli.play.left' if quit_on_purpose else 'cli.play.interrupted')}[/]")
        _offer_save(record, save_to, history)
        raise typer.Exit(0 if quit_on_purpose else 130) from None
    kept = keep_finished(record, save_to, history)
    from dicehall.core.proficiency_cli import show_proficiency  # (analysis loads its evaluators lazily)

    show_proficiency(record, kept[0] if kept is not None else None)
    if kept is not None:
        offer_analysis(record.game, *kept)
    return record


def keep_finished(record: GameRecord, save_to: Path | None, history: bool) -> tuple[int, Path] | None:
    """Write a finished game to the history and to ``save_to``; its history number and file (``None`` when it
    was not kept there). A place that cannot be written is said, and another offered rather than lose the game."""
    kept = None
    if history:
        try:
            kept = keep(record)
        except DicehallError as exc:
            err_console.print(f"[bold red]{tr('cli.error')}[/] {escape(exc.localized())}", soft_wrap=True)
    if save_to is not None and (kept is None or save_to.resolve() != kept[1].resolve()):
        try:
            record.save(save_to)
        except DicehallError as exc:
            err_console.print(f"[bold red]{tr('cli.error')}[/] {escape(exc.localized())}", soft_wrap=True)
            if kept is None:
                _offer_save(record, None, False)
                raise typer.Exit(1) from None
        else:
            console.print(tr("cli.play.saved", path=f"[bold]{escape(str(save_to))}[/]"), soft_wrap=True)
    elif history and kept is None:
        _offer_save(record, None, False)  # the game is over: offer another place rather than lose it
        raise typer.Exit(1)
    if kept is not None:
        number, path = kept
        console.print(
            tr("cli.history.kept", number=str(number), path=f"[bold]{escape(str(path))}[/]"), soft_wrap=True
        )
    return kept


def offer_analysis(game: str, number: int, path: Path) -> None:
    """After a game: how to see it again, and (at a terminal, for a game with analysis) its analysis at once if
    the player says yes; the default is no, and a stdin that is not a terminal is never asked."""
    from dicehall.core.analysis import has_evaluator

    if not has_evaluator(game):
        console.print(tr("cli.history.replay_later", number=str(number)))
        return
    console.print(tr("cli.history.analyze_later", number=str(number)))
    if not sys.stdin.isatty():
        return
    try:
        answer = input(tr("cli.history.analyze_question") + " ")
    except (KeyboardInterrupt, EOFError):
        console.print()
        return
    if is_yes(answer):
        from dicehall.core.analysis_cli import show_analysis

        show_analysis(path)


def is_yes(answer: str) -> bool:
    """A yes to a [y/N] question, in English or the player's language."""
    return answer.strip().lower() in ("y", "yes", tr("cli.play.yes_short"), tr("cli.play.yes"))


def load_resume(game: str, path: Path) -> tuple[GameRecord, RuleSet, list[PlayerSpec]]:
    """A saved, unfinished record of ``game`` with its rules and seats, ready for ``play_in_terminal``."""
    try:
        record = GameRecord.load(path)
        if record.game != game:
            raise RecordError(Message("record.error.other_game", found=record.game, expected=game))
        state = replay(record)
        if state.is_terminal():
            raise RecordError(Message("record.error.resume_over"))
        # seat by seat, without seat_names' "#2": a saved name may hold a comma or a "#"
        specs = [parse_seat(re.sub(r"#\d+$", "", str(p["name"]))) for p in record.players]
        rules = record.rules()
        for spec in specs:
            if spec.bot:
                make_bot(game, spec.bot, rules)
    except DicehallError as exc:
        raise fail(tr("cli.check.resume", path=str(path), reason=exc.localized())) from None
    return record, rules, specs


def setup_play(
    game: str,
    resume: Path | None,
    players: str,
    preset: str | None,
    sets: list[str] | None,
    rules_file: Path | None,
    name: str | None = None,
) -> tuple[GameRecord | None, RuleSet, list[PlayerSpec]]:
    """Rules and seats for ``dicehall play GAME``: from a saved record with ``--resume``, else from the options,
    the ``me`` seat under the player's name (``--name``, remembered; else the one saved before)."""
    if resume is not None:
        found = load_resume(game, resume)
        if name is not None:  # a resumed game keeps its seats' names; the name is for the next games
            remember_name(name)
        return found
    rules = load_rules(game, preset, sets, rules_file)
    specs = load_players(game, players, rules)
    if name is not None:
        remember_name(name)
    elif any(s.label == ME for s in specs):
        name = _saved_name()
    return None, rules, [PlayerSpec(name) if s.label == ME and name else s for s in specs]


ME = "me"
"""The ``--players`` label of the seat the player at this terminal takes under their name."""


def introduce(game: str, how_to: str) -> None:
    """At the start of ``play``: the game's goal, how-to and symbols (``how_to``) in full the first time, which
    the user config remembers; from then on one line saying that ``help`` shows them again."""
    title = tr(f"game.{game}.title")
    if game in seen_intros():
        console.print(f"[dim]{tr('cli.play.intro_again', game=title)}[/]")
        return
    console.print(f"[bold]{title}[/] — {tr('cli.play.intro_title')}")
    console.print(how_to)
    with contextlib.suppress(OSError):  # not remembered: it is shown again next time, nothing worse
        mark_intro_seen(game)


def remember_name(name: str) -> None:
    """Save ``name`` (checked) for later games; a failure to write is a warning: the game goes on."""
    try:
        path = save_name(name)
    except OSError as exc:
        problem = exc.strerror or str(exc)
        _warn(tr("cli.config.save_failed", path=str(config_file()), problem=problem))
        return
    console.print(f"[dim]{escape(tr('cli.config.saved', name=name, path=str(path)))}[/]", soft_wrap=True)


def _saved_name() -> str | None:
    try:
        return saved_name()
    except ConfigError as exc:
        _warn(tr("cli.config.play_on", problem=exc.localized()))
        return None


def _warn(text: str) -> None:
    err_console.print(f"[bold yellow]{tr('cli.warning')}[/] {escape(text)}", soft_wrap=True)


def _offer_save(record: GameRecord, save_to: Path | None, history: bool = True) -> None:
    """On leaving a game: write it to ``save_to`` when there is one, else ask; yes keeps it in the history (or,
    without one, asks for a file name)."""
    path = save_to
    try:
        if path is None:
            answer = input(tr("cli.play.save_question") + " ")
            if not is_yes(answer):
                return
            if history:
                try:
                    number, kept = keep(record)
                except DicehallError as exc:
                    console.print(f"[red]{escape(exc.localized())}[/] — {tr('cli.play.another_name')}")
                else:
                    console.print(
                        tr(
                            "cli.history.kept_unfinished",
                            number=str(number),
                            path=str(kept),
                            game=record.game,
                        ),
                        soft_wrap=True,
                    )
                    return
        while True:
            if path is None:
                default = f"{record.game}-{record.game_id[:8]}.json"
                path = Path(input(tr("cli.play.file_name", default=default) + " ").strip() or default)
            try:
                record.save(path)
                break
            except DicehallError as exc:
                console.print(f"[red]{escape(exc.localized())}[/] — {tr('cli.play.another_name')}")
                path = None
    except (KeyboardInterrupt, EOFError):
        return
    console.print(
        tr("cli.play.saved_how", path=f"[bold]{path}[/]", plain=str(path), game=record.game), soft_wrap=True
    )


def offer_to_keep(record: GameRecord) -> None:
    """Ask whether to keep an unfinished game in the history (default no); a stdin that ends says no."""
    try:
        answer = input(tr("cli.play.save_question") + " ")
    except (KeyboardInterrupt, EOFError):
        return
    if not is_yes(answer):
        return
    try:
        number, path = keep(record)
    except DicehallError as exc:
        err_console.print(f"[bold red]{tr('cli.error')}[/] {escape(exc.localized())}", soft_wrap=True)
        return
    console.print(tr("cli.history.kept", number=str(number), path=escape(str(path))), soft_wrap=True)


def ask(prompt: str) -> str:
    """One line of keyboard input, with line editing and history at a terminal (:func:`line_editing`); EOF and
    Ctrl-C propagate to the game loop. A quit word (:func:`is_quit`) raises :class:`QuitGame`; ``undo`` raises
    :class:`UndoEntry` while a real-dice game has a step to take back (and says so when it has none)."""
    line_editing()
    while True:
        line = input(prompt)
        if is_quit(line):
            raise QuitGame
        if not (_REAL_DICE[0] and is_undo(line)):
            return line
        if _UNDO_OPEN[0]:
            raise UndoEntry
        console.print(f"[yellow]{tr('cli.realdice.nothing_to_undo')}[/]")


def is_undo(line: str) -> bool:
    """``undo``, or the player's language's word for it (``отмена`` …)."""
    word = line.strip().lower()
    return bool(word) and (word == "undo" or word in tr("cli.words.undo").split())


QUIT_WORDS = ("q", "quit", "exit")


def is_quit(line: str) -> bool:
    """``q``/``quit``/``exit``, or a word of the player's language that says the same (``выход`` …)."""
    word = line.strip().lower()
    return bool(word) and (word in QUIT_WORDS or word in tr("cli.words.quit").split())


_EDITING = [False]


def line_editing() -> None:
    """At a terminal, Python's ``readline``: arrows move in the line, up/down recall earlier answers (importing it
    is enough for ``input()``; it costs about a millisecond, once). A pipe is read as it is."""
    if _EDITING[0]:
        return
    _EDITING[0] = True
    if sys.stdin.isatty() and sys.stdout.isatty():
        with contextlib.suppress(ImportError):  # a Python built without it (Windows): plain input
            import readline  # noqa: F401 - input() uses it once it is loaded
