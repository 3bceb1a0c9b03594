"""A saved, unfinished game continues where it stopped (``dicehall play GAME --resume FILE``)."""

from __future__ import annotations

from pathlib import Path

import pytest
import typer

from dicehall.core.agents import make_bot
from dicehall.core.cli_support import load_resume, play_in_terminal
from dicehall.core.game import get_game
from dicehall.core.record import GameRecord, replay
from dicehall.core.rng import agent_rng, seeded_rng
from dicehall.core.simulate import play_game


def _saved_prefix(tmp_path: Path, keep: int) -> Path:
    game = get_game("clever")
    rules = game.rules_type.from_preset(None)
    record = GameRecord.start("clever", rules, ["bot:greedy", "bot:random"], seed=11)
    agents = [make_bot("clever", "greedy", rules), make_bot("clever", "random", rules)]
    play_game(game.new_initial_state(rules, 2), agents, seeded_rng(11), agent_rng(11), record)
    record.events = record.events[:keep]
    record.result = None
    return record.save(tmp_path / "partial.json")


def test_resume_keeps_the_events_and_plays_to_the_end(tmp_path: Path) -> None:
    path = _saved_prefix(tmp_path, 40)
    before = GameRecord.load(path).events
    record, rules, specs = load_resume("clever", path)
    assert [s.bot for s in specs] == ["greedy", "random"]

    def no_human(*_: object) -> None:
        raise AssertionError("no human seat here")

    final = play_in_terminal(
        "clever", rules, specs, no_human, lambda s: None, lambda s, a, p: None, resume=record
    )
    assert final.events[:40] == before
    assert len(final.events) > 40
    assert final.seed is None  # two dice streams made this game: only the events reproduce it
    assert replay(final).is_terminal()


def test_resume_refuses_another_games_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _saved_prefix(tmp_path, 40)
    with pytest.raises(typer.Exit):
        load_resume("thousand", path)
    assert "a record of clever, not thousand" in " ".join(capsys.readouterr().err.split())


def test_resume_refuses_a_finished_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _saved_prefix(tmp_path, 10_000)
    with pytest.raises(typer.Exit):
        load_resume("clever", path)
    assert "already over" in " ".join(capsys.readouterr().err.split())
