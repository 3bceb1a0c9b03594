"""``dicehall play clever`` and ``dicehall simulate clever``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from dicehall.clever import sheet as S
from dicehall.clever.state import CleverState
from dicehall.clever.terminal import board_renderable, describe_action
from dicehall.core.agents import seat_names
from dicehall.core.cli_support import (
    PlaySeedOpt,
    ResumeOpt,
    RulesFileOpt,
    SaveOpt,
    SetOpt,
    add_simulate_command,
    ask,
    console,
    play_in_terminal,
    setup_play,
)
from dicehall.core.game import CHANCE, State
from dicehall.core.simulate import RunSummary

HELP = (
    "Type the number of a choice, or its notation (e.g. W:Y.r1c1, B:B.r2c3, G:G, +1 O:O, reroll, stop, pass,\n"
    "X Y.r2c4, black O). 'board' redraws the sheets, 'help' shows this, Ctrl-C stops (and offers to save)."
)


def _choices_table(state: CleverState) -> list[tuple[str, int, str]]:
    return [
        (str(i + 1), a, f"{state.action_to_string(a):<14} {describe_action(state, a)}")
        for i, a in enumerate(state.legal_actions())
    ]


def make_human(names: list[str]) -> Any:
    def ask_human(state: State[Any], seat: int) -> int:
        assert isinstance(state, CleverState)
        rows = _choices_table(state)
        console.print(f"[bold]{state.describe_phase(names)}[/]. Your choices:")
        for code, _, text in rows:
            console.print(f"  [bold cyan]{code:>3}[/]  {text}")
        while True:
            raw = ask("> ").strip()
            if not raw:
                continue
            low = raw.lower()
            if low in ("help", "h", "?"):
                console.print(HELP)
                continue
            if low in ("board", "b"):
                console.print(board_renderable(state, names, console.width))
                continue
            if low.isdigit():
                k = int(low)
                if 1 <= k <= len(rows):
                    return rows[k - 1][1]
                console.print(f"[red]There is no choice {k}; pick 1–{len(rows)}.[/]")
                continue
            try:
                action = state.string_to_action(raw)
            except ValueError as exc:
                console.print(f"[red]{exc}[/]")
                continue
            if action not in state.legal_actions():
                try:
                    state.clone().apply_action(action)
                except ValueError as exc:
                    rule = getattr(exc, "rule", "")
                    console.print(
                        f"[red]Not allowed: {exc}[/]" + (f" [dim](rule: {rule})[/]" if rule else "")
                    )
                    continue
            return action

    return ask_human


def make_narrator(names: list[str]) -> Any:
    def narrate(state: State[Any], action: Any, player: int) -> None:
        assert isinstance(state, CleverState)
        if player == CHANCE:
            console.print(f"[dim]dice:[/] {state.action_to_string(action)}")
        else:
            console.print(f"[bold]{names[player]}[/]: {describe_action(state, action)}")
        for p, bonus, applied in state.log:
            status = "" if applied else " [red](lost: it cannot be applied)[/]"
            console.print(f"   bonus for {names[p]}: {S.BONUS_NAMES[bonus]}{status}")

    return narrate


def register(app: typer.Typer, play_app: typer.Typer, simulate_app: typer.Typer) -> None:
    @play_app.command("clever")
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
    ) -> None:
        """Play Ganz schön clever in the terminal: solo or 2–4 players with bots."""
        record, rules, specs = setup_play("clever", resume, players, preset, sets, rules_file)
        names = seat_names(specs)
        console.print(HELP)

        def show(state: State[Any]) -> None:
            assert isinstance(state, CleverState)
            console.print(board_renderable(state, names, console.width))

        play_in_terminal(
            "clever",
            rules,
            specs,
            make_human(names),
            show,
            make_narrator(names),
            save,
            seed=seed,
            resume=record,
        )

    add_simulate_command(
        simulate_app,
        "clever",
        default_players="bot:greedy",
        players_help="Bots, e.g. bot:greedy or bot:greedy,bot:expert.",
        doc="Bot-versus-bot (or solo bot) games of Clever: scores, per-area means, foxes, win rates.",
        extra_report=_solo_ratings,
    )


def _solo_ratings(report: dict[str, Any], summary: RunSummary) -> None:
    """For solo runs, how often each rating of the table was reached."""
    if len(report["players"]) != 1:
        return
    counts: dict[str, float] = {}
    for score, weight in zip(*summary.scores[0].weighted(), strict=True):
        rating = S.solo_rating(int(score))
        counts[rating] = counts.get(rating, 0.0) + float(weight)
    console.print("[bold]solo ratings[/]")
    for _, text in S.SOLO_RATINGS:
        if counts.get(text):
            console.print(f"  {text:<32} {100 * counts[text] / summary.games:5.1f}%")
