"""The terminal hot seat: a passive player does not see the passive choice of the one who chose before on the same
screen (neither on the board nor in the narration) until all have chosen."""

from __future__ import annotations

from pathlib import Path

import typer
from typer.testing import CliRunner

from dicehall.clever import cli as clever_cli
from dicehall.clever.state import CleverState
from dicehall.clever.terminal import describe_action, sheet_text
from dicehall.core.game import CHANCE
from dicehall.core.record import GameRecord, new_state
from dicehall.i18n import tr

PLAYERS = ["play", "clever", "--players", "me,me,me", "--seed", "3"]
NAMES = ["me#1", "me#2", "me#3"]


def make_app() -> typer.Typer:
    app, play_app, simulate_app = typer.Typer(), typer.Typer(), typer.Typer()
    app.add_typer(play_app, name="play")
    app.add_typer(simulate_app, name="simulate")
    clever_cli.register(app, play_app, simulate_app)
    return app


def plain(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.splitlines())


def sheet_of(state: CleverState) -> str:
    """Seat 1's sheet as the terminal prints it."""
    return plain(sheet_text(state, 1, NAMES[1]).plain)


def first_phase_where_seat_1_enters(record: GameRecord) -> tuple[int, CleverState, CleverState, list[str]]:
    """In the game of ``record``: the decisions made before seat 2's first choice in the first passive phase in
    which seat 1 changed its sheet; the position as the phase opened and after seat 1's choices; seat 1's moves
    as the terminal words them."""
    _, state = new_state(record)
    assert isinstance(state, CleverState)
    decisions = 0
    opened: CleverState | None = None
    said: list[str] = []
    for event in record.events:
        action = state.string_to_action(event.move)
        player = state.current_player()
        start = state.phase_start
        if start is not None and start.seats[:2] == (1, 2):
            if opened is None or opened.phase_start is not start:
                opened, said = state.clone(), []
            if player == 1:
                said.append(f"{NAMES[1]}: {describe_action(state, action)}")
            elif player == 2 and sheet_of(state) != sheet_of(opened):
                return decisions, opened, state.clone(), said
        decisions += player != CHANCE
        state.apply_action(action)
    raise AssertionError("no passive phase in which seat 1 entered a value")


def test_the_next_passive_player_sees_nothing_of_the_choice_before(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    whole = CliRunner().invoke(make_app(), [*PLAYERS, "--save", str(save)], input="1\n" * 2000)
    assert whole.exit_code == 0, whole.output
    record = GameRecord.load(save)
    decisions, opened, chosen, said = first_phase_where_seat_1_enters(record)

    # the same game again in the full view ('view' first: every sheet drawn whole), stopped when seat 2 is asked
    # for its passive choice
    out = CliRunner().invoke(make_app(), PLAYERS, input="view\n" + "1\n" * decisions).output
    told = out.index(tr("clever.cli.chose_apart", name=NAMES[1]))
    seat_2_sees = plain(out[told:])
    assert f"{NAMES[2]} (passive) may take a die" in seat_2_sees
    for line in said:
        assert line not in seat_2_sees, f"seat 2 is told {line!r}"
    assert sheet_of(opened) in seat_2_sees, "seat 2 sees seat 1's sheet as the phase found it"
    assert sheet_of(chosen) not in seat_2_sees

    # and once all have chosen, everybody is told every choice, in the game's order
    after = whole.output.split(tr("clever.cli.all_chosen"))
    assert len(after) > 1
    assert any(all(line in part[:2000] for line in said) for part in after[1:])
