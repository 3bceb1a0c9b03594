"""What the terminal shows is what happened (issue 29): the narration of a move names the dice it used, and the
end of a game shows the board once, with no turn line left over. Driven on a pseudo-terminal at 80 columns."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from dicehall.clever.terminal import describe_action
from dicehall.core.record import GameRecord, replay
from tests.core.terminal import Terminal


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    yield tmp_path / "data"


def run(*args: str, env: dict[str, str] | None = None) -> str:
    term = Terminal(*args, env=env)
    try:
        assert term.wait(60) == 0, term.text[-2000:]
        return term.text
    finally:
        term.close()


def test_clever_narrates_each_pick_with_the_die_it_took(tmp_path: Path) -> None:
    save = tmp_path / "c.json"
    out = run(
        "play",
        "clever",
        "--players",
        "bot:greedy,bot:greedy",
        "--seed",
        "4",
        "--no-save",
        "--save",
        str(save),
    )
    record = GameRecord.load(save)
    said = []
    for i, event in enumerate(record.events):
        if event.actor != "chance":
            state = replay(record, i)
            words = describe_action(state, state.string_to_action(event.move))
            said.append(f"{record.players[int(event.actor)]['name']}: {words}")
    assert any(re.search(r"(purple|orange) [1-6] → ", line) for line in said)
    lines = [line.strip() for line in out.splitlines() if line.startswith("bot:greedy#")]
    assert lines == said  # before the fix: "purple 0 → purple" for the purple 6 taken
    assert not any(re.search(r" 0 → ", line) for line in lines)


def test_dice_1000_shows_the_final_board_once_without_a_turn_line() -> None:
    out = run("play", "thousand", "--players", "bot:expert,bot:bold", "--seed", "3", "--no-save")
    end = out[out.rindex("wins with") :]
    assert out.count("Dice 1000 — turn") == 1 and "turn total" not in end, end
    # the board, then who won, then (after the game is over) how well each player chose
    board_and_winner = end[: end.index("How well each player chose")] if "How well" in end else end
    assert board_and_winner.rstrip().endswith("bot:bold wins!"), end
