"""``dicehall play|simulate|referee|render wurf``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.markup import escape

from dicehall.core.agents import seat_names
from dicehall.core.cli_options import (
    AddressOpt,
    BackendOpt,
    GamesOpt,
    HintsOpt,
    JobsOpt,
    JsonOpt,
    NameOpt,
    NoSaveOpt,
    PlaySeedOpt,
    PlotOpt,
    ResumeOpt,
    RulesFileOpt,
    SaveOpt,
    SaveRecordsOpt,
    SeedOpt,
    SetOpt,
    check_input_file,
    check_output_file,
    console,
    fail,
)
from dicehall.core.cli_support import (
    QuitGame,
    ask,
    introduce,
    keep_finished,
    offer_analysis,
    offer_to_keep,
    play_in_terminal,
    run_simulate_command,
    setup_play,
)
from dicehall.core.cli_words import is_command
from dicehall.core.errors import DicehallError, NotationError
from dicehall.core.game import CHANCE, State
from dicehall.core.record import GameRecord
from dicehall.i18n import Message, tr
from dicehall.wurf.actions import Action, EndTurn, Outcome, Rearrange, Setup, Throw, cell_centre, face_name
from dicehall.wurf.state import WurfState
from dicehall.wurf.terminal import cell_help, describe_action, describe_outcome, render_state

if TYPE_CHECKING:
    from dicehall.core.analysis_cli import HintDesk

WURF_HINT_WORDS = ("?", "hint", "hints")
"""What shows the hint (where hints are on; 'h' and 'help' stay the help, as they always were here)."""

MIN_SIZE, MAX_SIZE = 64, 4096  # a picture smaller shows no pips; larger exceeds common offscreen GL buffers


EXAMPLES = """Examples:
dicehall play wurf                    you against a bot
dicehall play wurf --players me,ann   two people at one keyboard"""


def play_help() -> str:
    """The commands of ``play wurf`` and what a cell and power mean, in the process's language."""
    return tr("wurf.play.help") + "\n" + cell_help() + "."


def allowed_commands(state: WurfState, hints: bool = False) -> str:
    """The commands the player to move can use now (only those; '?' for a hint where hints are on)."""
    legal = state.legal_actions()
    words = [
        tr("wurf.play.cmd_throw_all", n=state.throw_count()) if state.big_next else tr("wurf.play.cmd_throw")
    ]
    if any(isinstance(a, Rearrange) for a in legal):
        words.append(tr("wurf.play.cmd_gather"))
    if any(isinstance(a, EndTurn) for a in legal):
        words.append(tr("wurf.play.cmd_end"))
    if hints:
        words.append(tr("wurf.play.cmd_hint"))
    return ", ".join([*words, "'board'", "'help'", tr("cli.play.key_quit")])


def _no_more(args: list[str], allowed: int, usage: str) -> None:
    if len(args) > allowed:
        words = repr(" ".join(args[allowed:]))
        raise NotationError(Message("wurf.play.extra_words", words=words, usage=Message(usage)))


def parse_human(state: WurfState, text: str) -> Action:
    """The simple terminal commands (and the full notation) as an action; raises on bad input."""
    words = text.strip().lower().split()
    if not words:
        raise NotationError(Message("wurf.play.empty"))
    head, args = words[0], words[1:]
    if is_command("wurf", "end", head):
        _no_more(args, 0, "wurf.play.usage_end")
        return EndTurn()
    if is_command("wurf", "throw", head) or re.fullmatch(r"[a-e][1-5]", head):
        if re.fullmatch(r"[a-e][1-5]", head):
            args = [head, *args]
        if not args:
            raise NotationError(Message("wurf.play.throw_where"))
        if "," in args[0] or any(a.startswith(("p", "s")) for a in args[1:]):
            # the full notation's coordinates are "X,Y"; its power and spin may take a decimal comma too
            args = [args[0], *(re.sub(r"^([ps]=?\d*),(\d+)$", r"\1.\2", a) for a in args[1:])]
            action = state.string_to_action("throw " + " ".join(args))
            assert isinstance(action, Throw)
            return action
        _no_more(args, 3, "wurf.play.usage_throw")
        x, y = cell_centre(args[0])
        try:
            # "0,6" as ru/uk/pl write it, or "0.6"
            power = float(args[1].replace(",", ".")) if len(args) > 1 else 0.5
            spin = float(args[2].replace(",", ".")) if len(args) > 2 else 0.5
        except ValueError:
            raise NotationError(Message("wurf.play.power_number")) from None
        return Throw(x, y, power, spin)
    if is_command("wurf", "gather", head):
        _no_more(args, 1, "wurf.play.usage_gather")
        if len(state.arena) < 2:
            raise NotationError(Message("wurf.play.nothing_to_gather", n=len(state.arena)))
        cx, cy = cell_centre(args[0]) if args else (None, None)
        gather = state.gather_action(cx, cy)
        if gather is None:
            raise NotationError(Message("wurf.play.gathered"))
        return gather
    if head == "m":
        if len(args) != 2 or not args[0].isdigit():
            raise NotationError(Message("wurf.play.move_usage"))
        x, y = cell_centre(args[1])
        return Rearrange(((int(args[0]), x, y),))
    return state.string_to_action(text)


def make_human(names: list[str], desk: HintDesk | None = None) -> Any:
    def ask_human(state: State[Any], seat: int) -> Action:
        assert isinstance(state, WurfState)
        what = (
            tr("wurf.play.big", n=state.throw_count())
            if state.big_next
            else tr("wurf.play.mandatory" if state.phase == "throw" else "wurf.play.again")
        )
        console.print(
            tr(
                "wurf.play.prompt",
                name=f"[bold]{names[seat]}[/]",
                what=what,
                commands=escape(allowed_commands(state, desk is not None and desk.allowed)),
            )
        )
        while True:
            raw = ask("> ").strip()  # 'q' raises QuitGame: it offers to save, like Ctrl-C
            if desk is not None and raw.lower() in WURF_HINT_WORDS:
                desk.show(state, names)
                continue
            if is_command("wurf", "help", raw):
                console.print(tr("wurf.intro"))
                console.print(escape(play_help()))
                console.print(tr("wurf.play.now", commands=escape(allowed_commands(state))))
                continue
            if is_command("wurf", "board", raw):
                console.print(render_state(state, names))
                continue
            try:
                action = parse_human(state, raw)
                state.clone().apply_action(action)
            except DicehallError as exc:
                rule = getattr(exc, "rule", "")
                said = f"[red]{escape(exc.localized())}[/]"
                console.print(said + (f" [dim]({tr('clever.cli.rule', rule=rule)})[/]" if rule else ""))
                continue
            return action

    return ask_human


def make_narrator(names: list[str]) -> Any:
    before: list[int] = []  # arena faces when the last throw was made

    def narrate(state: State[Any], action: Any, player: int) -> None:
        assert isinstance(state, WurfState)
        if player != CHANCE:
            before[:] = [d.face for d in state.arena]
            console.print(f"[bold]{names[player]}[/] {describe_action(action)}")
            return
        if isinstance(action, Setup):
            console.print(tr("wurf.narrate.start", face=face_name(action.face)))
            return
        if not isinstance(action, Outcome) or state.last is None:
            console.print(f"[dim]{state.action_to_string(action)}[/]")
            return
        rep = state.last
        console.print(f"   {escape(describe_outcome(before, action, rep, names))}", soft_wrap=True)
        if rep.eliminated:
            console.print(f"   [bold red]{tr('wurf.play.eliminated', name=names[rep.thrower])}[/]")
            if state.phase in ("setup", "over") and state.elimination_log[state.game_index - 1]:
                winner = state.elimination_log[state.game_index - 1][-1]
                won = (
                    tr(
                        "wurf.play.wins_match_game",
                        name=names[winner],
                        game=state.game_index,
                        games=state.games_total,
                    )
                    if state.rules.match
                    else tr("wurf.play.wins", name=names[winner])
                )
                console.print(f"   [bold green]{won}[/]")

    return narrate


def register(
    app: typer.Typer, play_app: typer.Typer, simulate_app: typer.Typer, group: str | None = None
) -> None:
    """The game's commands (``group``, the command line's ``play`` or ``simulate``: the same; the referee and
    render commands are not in any group)."""
    referee_app = typer.Typer(help="Referee mode: real dice on a real table.", no_args_is_help=True)
    render_app = typer.Typer(help="Offscreen pictures of a recorded game.", no_args_is_help=True)
    if group is None:
        app.add_typer(referee_app, name="referee")
        app.add_typer(render_app, name="render")

    @play_app.command("wurf", epilog=EXAMPLES)
    def play_wurf(
        players: str = typer.Option("me,bot:expert", "--players", help="e.g. 'me,bot:cautious,bot:expert'."),
        arena: str = typer.Option(
            None, "--arena", help="Arena model: fast or physics (default: the preset's)."
        ),
        preset: str = typer.Option(None, "--preset", "-p", help="Rule preset (see `dicehall rules wurf`)."),
        sets: list[str] = SetOpt,
        rules_file: Path = RulesFileOpt,
        save: Path = SaveOpt,
        seed: int = PlaySeedOpt,
        resume: Path = ResumeOpt,
        name: str = NameOpt,
        no_save: bool = NoSaveOpt,
        hints: str = HintsOpt,
    ) -> None:
        """Play Der große Wurf in the terminal against bots or friends (2–5 players)."""
        record, rules, specs = setup_play(
            "wurf",
            resume,
            players,
            preset,
            [*(sets or []), *([f"arena={arena}"] if arena else [])],
            rules_file,
            name,
        )
        names = seat_names(specs)
        from dicehall.core.analysis_cli import hint_desk

        desk = hint_desk("wurf", rules, specs, hints)
        introduce("wurf", tr("wurf.intro") + "\n" + escape(play_help()))

        def show(state: State[Any]) -> None:
            assert isinstance(state, WurfState)
            console.print(render_state(state, names))

        play_in_terminal(
            "wurf",
            rules,
            specs,
            make_human(names, desk),
            show,
            make_narrator(names),
            save if save is not None else resume,
            seed=seed,
            resume=record,
            history=not no_save,
        )

    @simulate_app.command("wurf")
    def simulate_wurf(
        players: str = typer.Option(
            "bot:expert,bot:cautious", "--players", help="Bots, e.g. bot:expert,bot:random."
        ),
        games: int = GamesOpt,
        arena: str = typer.Option(None, "--arena", help="Arena model: fast or physics."),
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
        """Bot-versus-bot games of Der große Wurf: win rates, dice left, throws, big throws."""
        all_sets = [*(sets or []), *([f"arena={arena}"] if arena else [])]
        run_simulate_command(
            "wurf",
            players,
            games,
            seed,
            jobs,
            as_json,
            save_records,
            preset,
            all_sets,
            rules_file,
            plot=plot,
            backend=backend,
            address=address,
        )

    @referee_app.command("wurf")
    def referee_wurf(
        players: str = typer.Option(..., "--players", help="Names in seat order, e.g. Ann,Bob,Cleo."),
        match: bool = typer.Option(
            False, "--match", help="Match mode: one game per player, lowest points win."
        ),
        save: Path = typer.Option(
            None, "--save", help="Write the record here when the session ends.", callback=check_output_file
        ),
        no_save: bool = NoSaveOpt,
    ) -> None:
        """Referee a game with real dice: type what lies in the arena after each throw."""
        from dicehall.wurf.referee import RefereeSession

        names = [n.strip() for n in players.split(",")]
        if not 2 <= len(names) <= 5 or not all(names):
            raise fail(tr("wurf.ref.players"))
        if len(set(names)) != len(names):
            raise fail(tr("wurf.ref.names_differ"))
        session = RefereeSession(names, match)
        console.print(tr("wurf.ref.welcome"), markup=False)
        console.print(session.prompt(), markup=False)
        left = False
        try:
            while not session.closed:  # after the last throw the session stays open for 'undo' until 'done'
                for msg in session.handle(ask("> ")):
                    console.print(msg, markup=False)
        except QuitGame:  # once the game is over, 'q' closes the session as 'done' does
            over = session.state.is_terminal()
            left = not over
            console.print(tr("wurf.ref.session_closed" if over else "cli.play.left"))
        except (KeyboardInterrupt, EOFError):
            left = True
            console.print("\n" + tr("wurf.ref.ended"))
        record = session.record
        if session.state.is_terminal():
            kept = keep_finished(record, save, not no_save)
            if kept is not None:
                offer_analysis("wurf", *kept)
        elif save is not None:
            try:
                record.save(save)
            except DicehallError as exc:
                raise fail(exc.localized(), code=1) from None
            console.print(tr("cli.play.saved", path=str(save)), markup=False)
        elif left and record.events and not no_save:
            offer_to_keep(record)

    @render_app.command("wurf")
    def render_wurf(
        record: Path = typer.Argument(..., help="A wurf game record (JSON).", callback=check_input_file),
        throw: int = typer.Option(1, "--throw", help="Which throw (1-based) to show the arena after."),
        out: Path = typer.Option(
            Path("wurf-throw.png"), "--out", help="PNG file to write.", callback=check_output_file
        ),
        size: int = typer.Option(
            800, "--size", help=f"Image width and height in pixels ({MIN_SIZE}–{MAX_SIZE})."
        ),
    ) -> None:
        """Render the arena after a recorded throw (MuJoCo offscreen; MUJOCO_GL=osmesa or egl)."""
        from dicehall.wurf.render import outcome_of_throw, render_outcome

        if not MIN_SIZE <= size <= MAX_SIZE:
            raise fail(tr("wurf.render.size", lo=MIN_SIZE, hi=MAX_SIZE, got=size))
        if throw < 1:
            raise fail(tr("wurf.render.throw", got=throw))
        try:
            rec = GameRecord.load(record)
            outcome = outcome_of_throw(rec, throw)
        except DicehallError as exc:
            raise fail(tr("cli.file_error", file=str(record), reason=exc.localized())) from None
        try:
            path = render_outcome(list(outcome.dice), out, size, size)
        except OSError as exc:
            raise fail(tr("wurf.render.cannot_write", out=str(out), why=str(exc.strerror or exc))) from None
        console.print(tr("wurf.render.wrote", path=str(path)), markup=False)
