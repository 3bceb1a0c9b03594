"""``dicehall play clever`` and ``dicehall simulate clever``."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from dicehall.clever import sheet as S
from dicehall.clever import words as W
from dicehall.clever.entry import read_dice
from dicehall.clever.state import CleverState, PhaseStart
from dicehall.clever.terminal import board_renderable, describe_action
from dicehall.core.agents import seat_names
from dicehall.core.cli_options import (
    HINT_WORDS,
    AddressOpt,
    BackendOpt,
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
from dicehall.core.cli_support import add_simulate_command, ask, introduce, play_in_terminal, setup_play
from dicehall.core.cli_words import command_words, is_command
from dicehall.core.game import CHANCE, State, get_game
from dicehall.core.simulate import RunSummary
from dicehall.i18n import Message, current, localize, tr

if TYPE_CHECKING:
    from dicehall.core.analysis_cli import HintDesk

EXAMPLES = """Examples:
dicehall play clever                          solo: aim for the best score
dicehall play clever --players me,bot:expert  against a bot
dicehall play clever --real-dice              your own dice: type what fell"""


def help_text() -> str:
    """How to answer in the terminal game, in the process's language."""
    return tr("clever.cli.help")


def how_to(rounds: int) -> str:
    """The goal, a turn, the areas, the sheet's symbols and the dice rows (rich markup)."""
    return tr("clever.intro", rounds=rounds)


def _choices_table(state: CleverState) -> list[tuple[str, int, str]]:
    return [
        (str(i + 1), a, f"{state.action_to_string(a):<14} {describe_action(state, a)}")
        for i, a in enumerate(state.legal_actions())
    ]


@dataclasses.dataclass
class View:
    """How the board is drawn: ``compact`` — the player's own sheet in full, the others in two lines each (the
    default with several players, so that the board and the choices fit 80×40); the view key switches."""

    compact: bool = False


def numbers_of(numbers: dict[str, str]) -> Any:
    """A hint row's move → the number of its choice (what the player types)."""
    return lambda move: numbers.get(move, move)


def make_human(names: list[str], desk: HintDesk | None = None, view: View | None = None) -> Any:
    view = view or View()

    def ask_human(state: State[Any], seat: int) -> int:
        assert isinstance(state, CleverState)
        rows = _choices_table(state)
        console.print(f"[bold]{localize(state.describe_phase(names))}[/]. {tr('clever.cli.your_choices')}")
        for code, _, text in rows:
            console.print(f"  [bold cyan]{code:>3}[/]  {text}")
        while True:
            raw = ask("> ").strip()
            if not raw:
                continue
            low = raw.lower()
            if low in HINT_WORDS:
                if desk is not None:
                    numbers = {state.action_to_string(a): code for code, a, _ in rows}
                    # (weighed without the others' passive choices)
                    desk.show(state.seen_by(seat), names, numbers_of(numbers))
                continue
            if is_command("clever", "help", low):
                console.print(how_to(state.rounds))
                console.print(help_text())
                continue
            if low in command_words("clever", "view"):
                view.compact = not view.compact
                low = "board"
            if low in command_words("clever", "board"):  # (the others' passive choices stay hidden)
                focus = seat if view.compact else None
                console.print(board_renderable(state.seen_by(seat), names, console.width, focus))
                continue
            if low.isdigit():
                k = int(low)
                if 1 <= k <= len(rows):
                    return rows[k - 1][1]
                console.print(f"[red]{tr('clever.cli.no_choice', k=k, n=len(rows))}[/]")
                continue
            for command in ("reroll", "stop", "pass"):  # the notation's words, said in the player's language
                if is_command("clever", command, low):
                    raw = command
            try:
                action = state.string_to_action(raw)
            except ValueError as exc:
                console.print(f"[red]{localize(exc.args[0]) if exc.args else exc}[/]")
                continue
            if action not in state.legal_actions():
                try:
                    state.clone().apply_action(action)
                except ValueError as exc:
                    rule = getattr(exc, "rule", "")
                    why = localize(exc.args[0]) if exc.args else str(exc)
                    console.print(
                        f"[red]{tr('clever.cli.not_allowed', reason=why)}[/]"
                        + (f" [dim]({tr('clever.cli.rule', rule=rule)})[/]" if rule else "")
                    )
                    continue
            return action

    return ask_human


class Narrator:
    """Tells each move on the shared screen. The choices of passive players (and everybody's last +1) are made
    without seeing each other's: they are told together once all have chosen, each seat meanwhile only that it
    has chosen."""

    def __init__(self, names: list[str]) -> None:
        self.names = names
        self.phase: PhaseStart | None = None
        """The simultaneous phase open before the move being told (the state after the previous one)."""
        self.held: list[str] = []
        self.said = ""
        """The move in words, taken in the position before it (the move itself may clear the dice)."""

    def before(self, state: State[Any], action: Any, player: int) -> None:
        assert isinstance(state, CleverState)
        self.said = "" if player == CHANCE else describe_action(state, action)

    def __call__(self, state: State[Any], action: Any, player: int) -> None:
        assert isinstance(state, CleverState)
        names = self.names
        if player == CHANCE:
            lines = [f"[dim]{tr('clever.cli.dice')}[/] {state.action_to_string(action)}"]
        else:
            lines = [f"[bold]{names[player]}[/]: {self.said}"]
        for p, bonus, applied, origin in state.log:
            status = "" if applied else f" [red]({tr('clever.cli.bonus_lost')})[/]"
            line = tr("clever.cli.bonus_for", name=names[p], bonus=W.bonus(bonus), origin=W.origin(origin))
            lines.append(f"   {line}{status}")
        phase, self.phase = self.phase, state.phase_start
        if phase is None or player not in phase.seats:
            for line in lines:
                console.print(line)
            return
        self.held += lines
        if state.phase_start is phase:
            if state.current_player() != player:
                console.print(f"[dim]{tr('clever.cli.chose_apart', name=names[player])}[/]")
            return
        console.print(f"[bold]{tr('clever.cli.all_chosen')}[/]")
        for line in self.held:
            console.print(line)
        self.held = []

    def resync(self, state: State[Any]) -> None:
        """The game was rewound (an entry taken back): go on from its position."""
        assert isinstance(state, CleverState)
        self.phase = state.phase_start


def _read_dice(state: State[Any], text: str) -> int:
    assert isinstance(state, CleverState)
    return read_dice(state, text)


def make_narrator(names: list[str]) -> Narrator:
    return Narrator(names)


def register(
    app: typer.Typer, play_app: typer.Typer, simulate_app: typer.Typer, group: str | None = None
) -> None:
    """The game's commands; with ``group`` (the command line's ``play``, ``simulate``, …) only those it needs."""
    if group in (None, "strategy"):
        from dicehall.clever.strategy_cli import register_strategy

        register_strategy(app)
    if group in (None, "puzzle"):
        from dicehall.clever.puzzle_cli import register_puzzle

        register_puzzle(app)

    @play_app.command("clever", epilog=EXAMPLES)
    def play_clever(
        players: str = typer.Option(
            "me", "--players", help="'me' for solo, or e.g. 'me,bot:greedy,bot:expert'."
        ),
        preset: str = typer.Option(None, "--preset", "-p", help="Rule preset (see `dicehall rules clever`)."),
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
        """Play Ganz schön clever in the terminal: solo or 2–4 players with bots."""
        record, rules, specs = setup_play("clever", resume, players, preset, sets, rules_file, name)
        names = seat_names(specs)
        from dicehall.core.analysis_cli import hint_desk

        desk = hint_desk("clever", rules, specs, hints)
        first = get_game("clever").new_initial_state(rules, len(specs))
        assert isinstance(first, CleverState)
        introduce("clever", how_to(first.rounds) + "\n" + help_text())  # 6, 5 or 4 rounds by the seats
        view = View(compact=len(specs) > 1)

        def show(state: State[Any]) -> None:
            assert isinstance(state, CleverState)
            seat = state.current_player()
            focus = seat if view.compact and seat >= 0 else None
            console.print(board_renderable(state.seen_by(seat), names, console.width, focus))

        play_in_terminal(
            "clever",
            rules,
            specs,
            make_human(names, desk, view),
            show,
            make_narrator(names),
            save if save is not None else resume,
            seed=seed,
            resume=record,
            history=not no_save,
            real_dice=real_dice,
            read_dice=_read_dice,
        )

    train_app = typer.Typer(
        help="Train learned bots (long runs: checkpointed and resumable).", no_args_is_help=True
    )
    app.add_typer(train_app, name="train")
    train_app.command("clever")(train_clever)

    add_simulate_command(
        simulate_app,
        "clever",
        default_players="bot:greedy",
        players_help="Bots, e.g. bot:greedy or bot:greedy,bot:expert.",
        doc="Bot-versus-bot (or solo bot) games of Clever: scores, per-area means, foxes, win rates.",
        extra_report=_solo_ratings,
    )


def default_train_dir(seed: int) -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("dicehall")) / "train" / f"clever-seed{seed}"


def train_clever(
    episodes: int = typer.Option(None, "--episodes", help="Total self-play episodes (default 300000)."),
    seed: int = typer.Option(
        1, "--seed", help="Root seed: the same seed and settings give the same network."
    ),
    resume: Path = typer.Option(
        None,
        "--resume",
        help="A run directory to continue (its settings are kept; --episodes, --lr, --epsilon may change them).",
    ),
    out: Path = typer.Option(None, "--out", help="Run directory (default: <user data>/train/clever-seedS)."),
    jobs: int = typer.Option(2, "--jobs", "-j", help="Worker processes (the result does not depend on it)."),
    backend: str = BackendOpt,
    address: str = AddressOpt,
    hidden: str = typer.Option(
        None,
        "--hidden",
        help="Sizes of the two hidden layers (default 64,64; with --init the starting weights', or larger: "
        "the network is widened without changing its values).",
    ),
    eval_every: int = typer.Option(10_000, "--eval-every", help="Evaluate and checkpoint every N episodes."),
    eval_games: int = typer.Option(500, "--eval-games", help="Held-out games per evaluation."),
    shards: int = typer.Option(2, "--shards", help="Self-play streams merged after each batch."),
    sync: int = typer.Option(
        None, "--sync", help="Episodes per stream between weight updates (default 64; sgd: 250)."
    ),
    export: Path = typer.Option(None, "--export", help="Also write the final weights (float32 .npz) here."),
    lr: str = typer.Option(
        None,
        "--lr",
        help="Learning rate START,END (linear over the run; default 3e-4,5e-5; sgd: 0.03,0.003).",
    ),
    epsilon: str = typer.Option(None, "--epsilon", help="Exploration START,END (default 0.1,0.01)."),
    init: Path = typer.Option(
        None,
        "--init",
        help="Start a new run from these weights (an exported .npz of one network, e.g. a run's snapshot).",
    ),
    method: str = typer.Option(
        "adam",
        "--method",
        help="adam (λ-returns fitted with Adam, default) or sgd (online traces, older runs).",
    ),
    seats: str = typer.Option(
        "1", "--seats", help="Table sizes of the self-play games, in turn, e.g. 1,2,3,4 (default 1: solo)."
    ),
    objective: str = typer.Option(
        "margin",
        "--objective",
        help="margin (own total minus the best opponent's; solo: the score, default) or score.",
    ),
    table_games: int = typer.Option(
        None,
        "--table-games",
        help="Games per evaluation at 2, 3 and 4 seats against the shipped network (default 200 with --seats "
        "above 1, else 0).",
    ),
) -> None:
    """TD(λ) self-play for the learned afterstate value of bot:master (see docs/clever-training.md)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from dicehall.clever import train as T
    from dicehall.core.cli_options import fail
    from dicehall.core.cluster import ClusterError

    fixed = current().fixed

    if address is not None and backend != "ray":
        raise fail(tr("clever.train.address_needs_ray"))
    try:
        if resume is not None:
            run = T.Run.load(resume)
            directory = resume if resume.is_dir() else resume.parent
            if episodes is not None:
                run.config = dataclasses.replace(run.config, episodes=episodes)
        else:
            start = None
            if init is not None:  # the network's shape is the starting weights'
                from dicehall.clever.master import load_weights

                start = load_weights(init)[0]
                hidden = hidden or f"{start[1].size},{start[3].size}"
            hidden = hidden or "64,64"
            sizes = tuple(int(x) for x in hidden.split(",") if x.strip().isdigit())
            old = (
                {"lr_start": 0.03, "lr_end": 0.003, "eps_start": 0.05, "sync": 250} if method == "sgd" else {}
            )
            if sync is not None:
                old["sync"] = sync
            config = T.TrainConfig(
                episodes=300_000 if episodes is None else episodes,  # 0 is refused, not the default
                seed=seed,
                hidden=(sizes[0], sizes[-1]) if len(sizes) == 2 else (0, 0),
                shards=shards,
                eval_every=eval_every,
                eval_games=eval_games,
                method=method,
                seats=tuple(int(x) if x.strip().isdigit() else 0 for x in seats.split(",")),
                objective=objective,
                table_games=table_games if table_games is not None else (200 if seats.strip() != "1" else 0),
                **old,
            )
            run = T.new_run(config, start)
            directory = out or default_train_dir(seed)
            if (directory / T.CHECKPOINT).exists():
                raise ValueError(Message("clever.train.exists", dir=str(directory)))
        if lr is not None:
            lo, hi = _pair(lr, "--lr")
            run.config = dataclasses.replace(run.config, lr_start=lo, lr_end=hi)
        if epsilon is not None:
            lo, hi = _pair(epsilon, "--epsilon")
            run.config = dataclasses.replace(run.config, eps_start=lo, eps_end=hi)
    except ValueError as exc:
        raise fail(exc) from None
    cfg = run.config
    if address:
        workers = tr("clever.train.ray_at", address=address)
    else:
        workers = tr("clever.train.ray_workers" if backend == "ray" else "clever.train.processes", n=jobs)
    net = f"{_feature_count()}→{cfg.hidden[0]}→{cfg.hidden[1]}→1"
    console.print(
        tr("clever.train.start", dir=str(directory), episodes=cfg.episodes, seed=str(cfg.seed), net=net)
        + f", λ {current().number(cfg.lam)}, {workers}"
    )
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn(tr("clever.train.columns", speed="{task.fields[speed]}", score="{task.fields[score]}")),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console) as bar:
        task = bar.add_task(
            tr("clever.train.episodes"), total=cfg.episodes, completed=run.episodes, speed="…", score="–"
        )

        def step(r: T.Run, n: int) -> None:
            last = r.history[-1] if r.history else None
            score = f"{fixed(last['mean'], 1)} ± {fixed(last['sd'], 1)} @ {last['episodes']}" if last else "–"
            if last and "table" in last:  # win shares at 2, 3, 4 seats against the shipped network
                score += " · " + "/".join(f"{100 * t['win']:.0f}%" for t in last["table"].values())
            speed = f"{r.episodes / r.seconds:.0f}" if r.seconds else "…"
            bar.update(task, advance=n, speed=speed, score=score)

        try:
            T.train(run, directory, jobs, step, backend, address)
        except ClusterError as exc:
            raise fail(str(exc)) from None
    last = run.history[-1]
    said = tr(
        "clever.train.done",
        episodes=run.episodes,
        hours=fixed(run.seconds / 3600, 2),
        mean=fixed(last["mean"], 1),
        sd=fixed(last["sd"], 1),
        dir=str(directory),
    )
    console.print(said)
    if export is not None:
        console.print(tr("clever.train.weights", path=str(T.export_weights(run, export))))


def _pair(text: str, option: str) -> tuple[float, float]:
    parts = text.split(",")
    try:
        values = [float(p) for p in parts]
    except ValueError:
        values = []
    if len(values) not in (1, 2):
        raise ValueError(Message("clever.train.pair", option=option, got=repr(text)))
    return values[0], values[-1]


def _feature_count() -> int:
    from dicehall.clever.kernel.features import COUNT

    return COUNT


def _solo_ratings(report: dict[str, Any], summary: RunSummary) -> None:
    """For solo runs, how often each rating of the table was reached."""
    if len(report["players"]) != 1:
        return
    counts: dict[str, float] = {}
    for score, weight in zip(*summary.scores[0].weighted(), strict=True):
        rating = S.solo_rating(int(score))
        counts[rating] = counts.get(rating, 0.0) + float(weight)
    console.print(f"[bold]{tr('clever.cli.solo_ratings')}[/]")
    for i, (_, text) in enumerate(S.SOLO_RATINGS):
        if counts.get(text):
            share = current().fixed(100 * counts[text] / summary.games, 1)  # "6,0" in ru/uk/pl
            console.print(f"  {tr(f'clever.rating.{i}'):<32} {share:>5}%")
