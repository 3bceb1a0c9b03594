"""``dicehall play thousand`` and ``dicehall simulate thousand``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.table import Table

from dicehall.core.agents import Agent, make_bot, seat_names
from dicehall.core.cli_options import (
    HINT_WORDS,
    HintsOpt,
    NameOpt,
    NoSaveOpt,
    PlaySeedOpt,
    RealDiceOpt,
    ResumeOpt,
    RulesFileOpt,
    SaveOpt,
    SetOpt,
    console,
)
from dicehall.core.cli_realdice import Entered
from dicehall.core.cli_support import (
    QuitGame,
    add_simulate_command,
    ask,
    introduce,
    is_quit,
    play_in_terminal,
    real_dice_on,
    setup_play,
)
from dicehall.core.cli_tables import fit
from dicehall.core.cli_words import is_command
from dicehall.core.errors import DicehallError
from dicehall.core.game import CHANCE, State
from dicehall.core.realdice import read_entry
from dicehall.core.simulate import RunSummary
from dicehall.i18n import Message, current, localize, tr
from dicehall.thousand.bots import ThousandBot
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.state import BANK, ROLL, ThousandState, keep_options
from dicehall.thousand.terminal import board, roll_picture, turn_line

if TYPE_CHECKING:
    from dicehall.core.analysis_cli import HintDesk

EXAMPLES = """Examples:
dicehall play thousand                     you against bot:expert
dicehall play thousand --players me,ann    two people at one keyboard
dicehall play thousand --real-dice         your own dice: type what fell
dicehall play thousand --set target=500    a shorter game
dicehall play thousand --resume 3          go on with game 3 (dicehall games)"""


def help_text() -> str:
    """The commands of the terminal game (rich markup), in the process's language."""
    return tr("thousand.cli.help")


def how_to(rules: ThousandRules) -> str:
    """The goal, a turn and the board's symbols (rich markup), for these rules."""
    return tr("thousand.intro", target=rules.target, open=rules.open_min)


def allowed_text(state: ThousandState) -> str:
    """What may be typed now, e.g. ``r/roll, b/bank, ?/help, q/quit``."""
    if state.pending_roll is not None:
        opts = ", ".join(keep_options(state.pending_roll.combos))
        return tr("thousand.cli.allowed_keep", options=opts)
    moves = []
    legal = state.legal_actions()
    if ROLL in legal and real_dice_on():
        example = " ".join(str(d) for d in (3, 1, 5, 5, 2)[: state.dice_in_hand])
        moves.append(tr("thousand.cli.key_roll_dice", example=example))
    elif ROLL in legal:
        moves.append(tr("thousand.cli.key_roll"))
    if BANK in legal:
        moves.append(tr("thousand.cli.key_bank"))
    return ", ".join([*moves, tr("cli.play.key_help"), tr("cli.play.key_quit")])


def read_command(state: ThousandState, raw: str) -> Any:
    """The action typed in ``raw``; raises ``ValueError`` with what is allowed, or :class:`QuitGame`.

    Returns ``None`` for commands that only display something (help, board).
    """
    text = raw.strip().lower()
    if is_quit(text):
        raise QuitGame
    if is_command("thousand", "help", text):
        console.print(how_to(state.rules))
        console.print(help_text())
        return None
    if is_command("thousand", "board", text):
        return None
    if state.pending_roll is not None:
        options = list(keep_options(state.pending_roll.combos))
        if text.isdigit() and 1 <= int(text) <= len(options):
            return options[int(text) - 1]
        if text.startswith("keep"):
            kept = state.string_to_action(text)
            if kept in options:
                return kept
            raise ValueError(
                tr("thousand.cli.not_a_choice", text=repr(raw.strip()), allowed=allowed_text(state))
            )
        raise ValueError(tr("thousand.cli.keep_first", allowed=allowed_text(state)))
    if real_dice_on() and _DICE.fullmatch(text):
        return _roll_with(state, text)
    if is_command("thousand", "roll", text):
        action: Any = ROLL
    elif is_command("thousand", "bank", text):
        action = BANK
    elif not text:
        raise ValueError(tr("cli.play.type_command", allowed=allowed_text(state)))
    else:
        raise ValueError(tr("cli.play.cannot_read", text=repr(raw.strip()), allowed=allowed_text(state)))
    if action not in state.legal_actions():
        try:
            state.clone().apply_action(action)
        except DicehallError as exc:
            raise ValueError(
                tr(f"thousand.cli.cannot_{action}", reason=exc.localized(), allowed=allowed_text(state))
            ) from None
    return action


_DICE = re.compile(r"[1-6](?:[ ,]*[1-6])*")
"""Faces typed as they fell: ``3 1 5 5 2``, ``3,1,5,5,2`` or ``31552``."""


def _roll_with(state: ThousandState, text: str) -> Entered:
    """Real dice: the faces typed at the roll/bank prompt roll and enter them in one step."""
    if ROLL not in state.legal_actions():
        raise ValueError(tr("thousand.cli.dice_not_now", allowed=allowed_text(state)))
    thrown = state.clone()
    thrown.apply_action(ROLL)
    try:
        return Entered(ROLL, read_entry(thrown, text))
    except DicehallError as exc:
        raise ValueError(exc.localized()) from None


def make_human(names: list[str], desk: HintDesk | None = None) -> Any:
    def ask_human(state: State[Any], seat: int) -> Any:
        assert isinstance(state, ThousandState)
        if state.pending_roll is not None:
            console.print(tr("thousand.cli.which_keep"))
            for i, (text, (points, _)) in enumerate(keep_options(state.pending_roll.combos).items(), 1):
                console.print(f"  [bold cyan]{i}[/]  {text}  ({current().plural('unit.points', points)})")
        while True:
            raw = ask(f"{names[seat]} [{allowed_text(state)}] > ")
            if raw.strip().lower() in HINT_WORDS:
                if desk is not None:
                    desk.show(state, names, lambda move: key_for(state, move))
                continue
            try:
                action = read_command(state, raw)
            except ValueError as exc:
                console.print(f"[red]{exc}[/]")
                continue
            if action is None:
                show_position(state, names)
                continue
            return action

    return ask_human


def key_for(state: ThousandState, move: str) -> str:
    """What to type for ``move``: its choice's number, or the command's first word in the player's language."""
    if state.pending_roll is not None:
        options = list(keep_options(state.pending_roll.combos))
        return str(options.index(move) + 1) if move in options else move
    if move in (ROLL, BANK):
        return tr(f"thousand.cli.words.{move}").split()[0]
    return move


def show_position(state: ThousandState, names: list[str]) -> None:
    """The board; during a turn the turn line under it, at the end the winner (the last turn's total means
    nothing then: it was banked or lost)."""
    console.print(board(state, names))
    if state.is_terminal():
        if state.winner is not None:
            console.print(f"[bold green]{tr('cli.play.wins', name=names[state.winner])}[/]")
    elif state.last_roll is not None and state.turn_total:
        console.print(turn_line(state))


def make_narrator(names: list[str], agents: list[Agent | None]) -> Any:
    human_seats = {i for i, a in enumerate(agents) if a is None}
    turn = [0]  # whose turn it was before the action being narrated (a zero roll passes the turn)

    def narrate(state: State[Any], action: Any, player: int) -> None:
        assert isinstance(state, ThousandState)
        events = state.events
        if state.names != names:
            # the engine names seats P1, P2, ...; from now on it uses the players' names
            events = [_rename(e, names) for e in events]
            state.names[:] = names
        mover = turn[0]
        turn[0] = state.player
        if player == CHANCE:
            who = names[mover]
            console.print(tr("thousand.cli.rolls", name=f"[bold]{who}[/]"))
            console.print(roll_picture(state, big=mover in human_seats or len(human_seats) == 0))
        else:
            agent = agents[player]
            if agent is not None:
                why = getattr(agent, "last_reason", "")
                said = bot_move_words(action)
                console.print(f"[bold]{names[player]}[/] → [bold cyan]{said}[/]  [dim]{localize(why)}[/]")
        for event in events:
            console.print(f"  [yellow]•[/] {localize(event)}")
        if (
            not state.is_terminal()
            and state.current_player() >= 0
            and state.player not in human_seats
            and state.pending_roll is None
            and state.turn_total
        ):
            console.print(turn_line(state))

    def resync(state: State[Any]) -> None:
        """After an entry was taken back (real dice): whose turn it is again."""
        assert isinstance(state, ThousandState)
        turn[0] = state.player

    narrate.resync = resync  # type: ignore[attr-defined]
    return narrate


def bot_move_words(action: Any) -> str:
    """A bot's move as the narration says it: "rolls", "says “enough”", "sets aside 1, 5" (in the reader's
    language)."""
    move = str(action)
    if move == ROLL:
        return tr("thousand.cli.bot.roll")
    if move == BANK:
        return tr("thousand.cli.bot.bank")
    if move.startswith("keep "):
        return tr("thousand.cli.bot.keep", dice=move[5:].replace(",", ", "))
    return move


def _rename(event: str, names: list[str]) -> str:
    if isinstance(event, Message):  # the names are parameters (nested reasons too)
        return Message(
            event.msgid,
            **{k: _rename(v, names) if isinstance(v, str) else v for k, v in event.params.items()},
        )
    return re.sub(
        r"\bP(\d+)\b",
        lambda m: names[int(m.group(1)) - 1] if int(m.group(1)) <= len(names) else m.group(0),
        event,
    )


def print_extra(report: dict[str, Any], summary: RunSummary) -> None:
    """Mean game length and each seat's score distribution."""
    stats = report.get("stats", {})
    if "turns" in stats:
        seats = len(report["players"])
        mean = stats["turns"]["mean"]
        console.print(
            tr(
                "thousand.cli.mean_length",
                turns=f"[bold]{current().fixed(mean, 1)}[/]",
                per_player=current().fixed(mean / seats, 1),
            )
        )
    table = Table(title=tr("thousand.cli.score_distribution"))
    for col in ("player", "min", "p5", "p25", "median", "p75", "p95", "max"):
        table.add_column(tr(f"cli.col.{col}"), justify="left" if col == "player" else "right")
    for s in report["seats"]:
        d = s["score"]
        table.add_row(
            s["player"],
            *(current().fixed(d[k], 0) for k in ("min", "p5", "p25", "median", "p75", "p95", "max")),
        )
    console.print(fit(table, console, drop=(tr("cli.col.p25"), tr("cli.col.p75"))))


def register(
    app: typer.Typer, play_app: typer.Typer, simulate_app: typer.Typer, group: str | None = None
) -> None:
    """The game's commands; with ``group`` (the command line's ``play``, ``simulate``, …) only those it needs."""
    if group in (None, "solve"):
        from dicehall.thousand.solver.cli import register_solve

        register_solve(app)
    if group in (None, "puzzle"):
        from dicehall.thousand.puzzle_cli import register_puzzle

        register_puzzle(app)
    if group in (None, "strategy"):
        from dicehall.thousand.solver.strategy_cli import register_strategy

        register_strategy(app)

    @play_app.command("thousand", epilog=EXAMPLES)
    def play_thousand(
        players: str = typer.Option(
            "me,bot:expert", "--players", help="Seats in order, e.g. me,bot:expert,bot:cautious or ann,bob."
        ),
        preset: str = typer.Option(
            None, "--preset", "-p", help="Rule preset (see `dicehall rules thousand`)."
        ),
        sets: list[str] = SetOpt,
        rules_file: Path = RulesFileOpt,
        save: Path = SaveOpt,
        seed: int = PlaySeedOpt,
        resume: Path = ResumeOpt,
        name: str = NameOpt,
        no_save: bool = NoSaveOpt,
        real_dice: bool = RealDiceOpt,
        hints: str = HintsOpt,
    ) -> None:
        """Play Dice 1000 («Тысяча») in the terminal against bots or friends (hot-seat)."""
        record, rules, specs = setup_play("thousand", resume, players, preset, sets, rules_file, name)
        names = seat_names(specs)
        from dicehall.core.analysis_cli import hint_desk

        desk = hint_desk("thousand", rules, specs, hints)
        agents: list[Agent | None] = []
        for spec in specs:
            bot = make_bot("thousand", spec.bot, rules) if spec.bot else None
            if isinstance(bot, ThousandBot):
                bot.explain = True
            agents.append(bot)
        assert isinstance(rules, ThousandRules)
        introduce("thousand", how_to(rules) + "\n" + help_text())

        def show(state: State[Any]) -> None:
            assert isinstance(state, ThousandState)
            show_position(state, names)

        play_in_terminal(
            "thousand",
            rules,
            specs,
            make_human(names, desk),
            show,
            make_narrator(names, agents),
            save if save is not None else resume,
            seed=seed,
            agents=agents,
            resume=record,
            history=not no_save,
            real_dice=real_dice,
        )

    add_simulate_command(
        simulate_app,
        "thousand",
        default_players="bot:expert,bot:bold",
        players_help="Bots, e.g. bot:expert,bot:bold.",
        doc="Bot-versus-bot Dice 1000: win rates with 95% intervals, game length, score distribution.",
        extra_report=print_extra,
    )
