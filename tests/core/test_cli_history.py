"""Every game played in the terminal is kept in the player's history (``dicehall/core/history.py``): listed by
``dicehall games``, opened by number with ``analyze``/``replay``/``play --resume``, offered for analysis at the
end when a person is at the terminal; ``--no-save`` keeps nothing; a resumed game writes back to its file."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dicehall.cli import _register_games, app
from dicehall.core.history import history_dir, history_files
from dicehall.core.record import GameRecord, replay
from tests.core.terminal import Terminal

_register_games()
runner = CliRunner()
BOTS = ("--players", "bot:expert,bot:cautious", "--preset", "classic-nobarrel")


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A player with no games yet."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    yield tmp_path / "data"


def invoke(*args: str, stdin: str | None = None) -> tuple[int, str]:
    result = runner.invoke(app, list(args), input=stdin, env={"COLUMNS": "80"})
    return result.exit_code, result.output


def flat(text: str) -> str:
    return " ".join(text.replace("│", " ").split())


def test_finished_games_are_kept_listed_and_opened_by_number() -> None:
    code, out = invoke("play", "thousand", *BOTS, "--seed", "3")
    assert code == 0, out
    [first] = history_files()
    assert first.parent == history_dir() and first.name.endswith(".json") and "-thousand-" in first.name
    said = flat(out)
    assert "Game 1 kept in your history:" in said and "dicehall analyze 1" in said
    assert "Analyse it now?" not in out  # stdin is not a terminal: nobody is asked
    record = GameRecord.load(first)
    assert replay(record).is_terminal() and record.result is not None
    code, out = invoke("play", "clever", "--players", "bot:greedy", "--seed", "2")
    assert code == 0 and "Game 2 kept in your history" in flat(out), out
    code, out = invoke(
        "referee", "wurf", "--players", "Ann,Bob", stdin="start 4\n4 4\n2 3 4 5 6 x out out rim\n"
    )
    assert code == 0 and "Game 3 kept in your history" in flat(out) and "dicehall replay 3" in flat(out), out
    # the list: number, date, game, players, result, at 80 columns
    code, out = invoke("games")
    assert code == 0, out
    assert max(len(line) for line in out.splitlines()) <= 80
    first_lines = {line.split()[0]: " ".join(line.split()) for line in out.splitlines() if line[:1].isdigit()}
    winner = record.players[record.result["winners"][0]]["name"]
    scores = " : ".join(f"{s:,.0f}" for s in record.result["scores"])
    assert "# date game players winner scores" in flat(out)
    assert "Dice 1000 bot:expert," in first_lines["1"] and first_lines["1"].endswith(f"{winner} {scores}")
    assert "Ganz schön bot:greedy" in first_lines["2"] and re.search(r"bot:greedy \d+$", first_lines["2"])
    assert "Der große Ann, Bob Ann 10 : 0" in first_lines["3"]
    # opened by number
    code, out = invoke("replay", "1", "--json")
    assert code == 0 and json.loads(out)["terminal"] is True, out
    code, out = invoke("analyze", "1", "--json")
    assert code == 0 and json.loads(out)["record"] == str(first), out
    code, out = invoke("analyze", "9")
    assert code == 2 and "there is no game 9: your history holds 3 games, numbered 1 to 3" in flat(out), out
    code, out = invoke("--lang", "ru", "replay", "9")
    assert code == 2 and "игры 9 нет: в вашей истории 3 игры" in flat(out), out
    # --no-save keeps nothing
    code, out = invoke("play", "thousand", *BOTS, "--seed", "4", "--no-save")
    assert code == 0 and "kept in your history" not in out and len(history_files()) == 3


def test_no_games_yet() -> None:
    code, out = invoke("--lang", "pl", "games")
    assert code == 0 and "Nie ma jeszcze gier" in flat(out), out
    code, out = invoke("analyze", "1")
    assert code == 2 and "your history has no games yet" in flat(out), out


def test_a_resumed_game_writes_back_to_its_file_when_it_finishes(tmp_path: Path) -> None:
    invoke("play", "thousand", *BOTS, "--seed", "3", "--no-save", "--save", str(tmp_path / "whole.json"))
    whole = GameRecord.load(tmp_path / "whole.json")
    half = GameRecord.loads(whole.dumps())
    del half.events[len(half.events) // 2 :]
    half.result = None
    cut = half.save(tmp_path / "t1.json")
    code, out = invoke("play", "thousand", "--resume", str(cut))
    assert code == 0, out
    again = GameRecord.load(cut)  # the same file, now finished
    assert again.result is not None and replay(again).is_terminal()
    assert again.events[: len(half.events)] == half.events and again.game_id == half.game_id
    [kept] = history_files()  # and kept in the history as well
    assert GameRecord.load(kept).dumps() == again.dumps()


def test_a_game_left_is_kept_on_yes_and_resumed_by_number() -> None:
    code, out = invoke("play", "thousand", "--players", "me,bot:cautious", "--seed", "1", stdin="r\nq\ny\n")
    assert code == 0, out
    said = flat(out)
    assert "Game left." in said and "Game 1 kept in your history" in said
    assert "dicehall play thousand --resume 1" in said
    [kept] = history_files()
    moves = len(GameRecord.load(kept).events)
    code, out = invoke("games")
    assert "unfinished" in flat(out)
    code, out = invoke("play", "thousand", "--resume", "1", stdin="r\nq\n")
    assert code == 0 and "Game left." in flat(out), out
    # the resumed game is written back to its history file without a question
    assert len(GameRecord.load(kept).events) > moves and len(history_files()) == 1


@pytest.mark.parametrize(
    ("lang", "question", "yes"),
    [("en", "Analyse it now? [y/N]", "y"), ("ru", "Разобрать её сейчас? [д/Н]", "д")],
)
def test_the_end_of_a_game_offers_its_analysis_at_a_terminal(lang: str, question: str, yes: str) -> None:
    term = Terminal(
        "--lang",
        lang,
        "play",
        "thousand",
        *BOTS,
        "--seed",
        "3",
        env={"XDG_DATA_HOME": str(history_dir().parent.parent)},
    )
    try:
        term.expect(re.escape(question))
        term.line(yes)
        term.expect({"en": "Totals", "ru": "Итоги"}[lang])
        assert term.wait() == 0
    finally:
        term.close()
    # the default is no
    term = Terminal(
        "play", "thousand", *BOTS, "--seed", "4", env={"XDG_DATA_HOME": str(history_dir().parent.parent)}
    )
    try:
        term.expect(re.escape("Analyse it now? [y/N]"))
        term.line("")
        assert term.wait() == 0 and "Totals" not in term.text
    finally:
        term.close()
