"""``dicehall analyze`` and the ``?`` hints of terminal play."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from dicehall.cli import _register_games, app
from dicehall.core.agents import make_bot
from dicehall.core.analysis_cli import hints_allowed
from dicehall.core.game import get_game
from dicehall.core.record import GameRecord
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.state import ThousandState

_register_games()
runner = CliRunner()
CLASSIC = ThousandRules.from_preset("classic")
UNSOLVED = ThousandRules.from_preset("classic-nobarrel")
"""No table here and too large to solve on first use: turn points (classic has the shipped table: win %)."""


def flat(text: str) -> str:
    return " ".join(text.split())


def record_game(rules: ThousandRules, path: Path) -> Path:
    """A game, expert against cautious, saved to ``path``."""
    bots = [make_bot("thousand", "expert", rules), make_bot("thousand", "cautious", rules)]
    rng = np.random.default_rng(4)
    state = ThousandState(rules, 2)
    record = GameRecord.start("thousand", rules, ["ann", "bob"])
    while not state.is_terminal():
        seat = state.current_player()
        action = state.sample_chance(rng) if seat < 0 else bots[seat].choose(state, rng)
        record.add(state, action)
        state.apply_action(action)
    record.finish(state)
    return record.save(path)


@pytest.fixture(scope="module")
def thousand_record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A game of rules without a table (turn points)."""
    return record_game(UNSOLVED, tmp_path_factory.mktemp("rec") / "game.json")


def test_analyze_classic_in_win_percent_from_the_shipped_table(tmp_path: Path) -> None:
    # the suite's user data directory is fresh: classic is not solved here, the shipped table is used and named
    path = record_game(CLASSIC, tmp_path / "classic.json")
    result = runner.invoke(app, ["analyze", str(path), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["unit"] == "win%" and "table shipped" in out["note"] and "±0.001" in out["note"]
    ann, bob = out["totals"]
    assert ann["decisions"] > 0 and bob["loss"] > 0
    assert out["series"][0] == pytest.approx([50.31, 49.69], abs=0.01)


def test_analyze_json_and_plot(thousand_record: Path, tmp_path: Path) -> None:
    png = tmp_path / "chart.png"
    result = runner.invoke(app, ["analyze", str(thousand_record), "--json", "--plot", str(png)])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["unit"] == "points" and "not win %" in out["note"]
    assert len(out["series"]) == len(GameRecord.load(thousand_record).events) + 1
    ann, bob = out["totals"]
    assert ann["name"] == "ann" and ann["loss"] == 0.0 and ann["decisions"] > 0
    assert bob["loss"] > 0 and bob["luck"] == pytest.approx(
        sum(s["luck"] for s in out["steps"] if s["kind"] == "roll" and s["seat"] == 1)
    )
    assert out["plot"] == str(png) and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_analyze_tables_in_the_terminal_and_in_russian(thousand_record: Path) -> None:
    result = runner.invoke(app, ["analyze", str(thousand_record)])
    assert result.exit_code == 0, result.output
    text = flat(result.output)
    assert "Analysis of Dice 1000: ann, bob" in text and "Totals per player" in text
    assert "inaccuracy from 10.0" in text and "not win %" in text
    ru = runner.invoke(app, ["analyze", str(thousand_record), "--lang", "ru"])
    assert ru.exit_code == 0 and "Итоги по игрокам" in flat(ru.output)
    # the cells' numbers (and the legend's thresholds) with the decimal comma, none with a point
    assert (
        "10,0" in flat(ru.output) and re.search(r"\d,\d", ru.output) and not re.search(r"\d\.\d", ru.output)
    )


def test_analyze_refuses_bad_records(tmp_path: Path, thousand_record: Path) -> None:
    def refused(path: Path) -> str:
        result = runner.invoke(app, ["analyze", str(path)])
        assert result.exit_code == 2, result.output
        return flat(result.output)

    assert "no such file" in refused(tmp_path / "missing.json")
    broken = tmp_path / "broken.json"
    broken.write_text('{"game": "thousand"')
    assert "not valid JSON" in refused(broken)
    data = json.loads(thousand_record.read_text())
    data["events"][1]["move"] = "jump"
    illegal = tmp_path / "illegal.json"
    illegal.write_text(json.dumps(data))
    assert "event 2" in refused(illegal)
    data = json.loads(thousand_record.read_text())
    data["result"]["winners"] = [1 - data["result"]["winners"][0]]
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(data))
    assert "stored result.winners" in refused(forged)
    wurf = get_game("wurf")
    other = GameRecord.start("wurf", wurf.rules_type.from_preset(), ["a", "b"])
    path = other.save(tmp_path / "wurf.json")
    assert "no analysis" in refused(path)


def test_hints_option() -> None:
    assert hints_allowed("auto", 1) and hints_allowed("auto", 0) and not hints_allowed("auto", 2)
    assert hints_allowed("on", 3) and not hints_allowed("off", 1)
    with pytest.raises(ValueError):
        hints_allowed("maybe", 1)
    result = runner.invoke(app, ["play", "thousand", "--hints", "maybe"], input="q\n")
    assert result.exit_code == 2 and "--hints must be one of auto, on, off" in flat(result.output)


def test_question_mark_during_play_lists_the_moves_with_values() -> None:
    result = runner.invoke(
        app, ["play", "thousand", "--seed", "3", "--players", "me,bot:expert"], input="?\nq\n"
    )
    text = flat(result.output)
    assert "Hints for me" in text and "best" in text and "table shipped" in text  # classic: win %
    people = runner.invoke(app, ["play", "thousand", "--seed", "3", "--players", "ann,bob"], input="h\nq\n")
    assert "Hints are off at this table" in flat(people.output)
    allowed = runner.invoke(
        app, ["play", "thousand", "--seed", "3", "--players", "ann,bob", "--hints", "on"], input="h\nq\n"
    )
    assert "Hints for ann" in flat(allowed.output)
    clever = runner.invoke(app, ["play", "clever", "--seed", "3"], input="?\nq\n" + "1\n" * 5)
    assert "Hints for me" in flat(clever.output)
