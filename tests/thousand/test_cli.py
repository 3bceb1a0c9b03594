"""``dicehall play thousand``, ``simulate thousand`` and ``rules thousand`` through typer's CliRunner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dicehall.cli import _register_games, app
from dicehall.core.record import GameRecord, replay
from dicehall.core.rng import seeded_rng
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.scoring import score_roll
from dicehall.thousand.state import ThousandState

_register_games()
runner = CliRunner()


def invoke(*args: str, stdin: str | None = None) -> tuple[int, str]:
    result = runner.invoke(app, list(args), input=stdin)
    return result.exit_code, result.output


def flat(text: str) -> str:
    """The output with rich's line wrapping undone."""
    return " ".join(text.split())


def test_play_bad_input_refusal_and_quit_with_save(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    script = "\n".join(["help", "xyzzy", "keep 1", "", "?", "b", "r", "r", "r", "q"]) + "\n"
    code, out = invoke(
        "play", "thousand", "--players", "me,bot:expert", "--seed", "5", "--save", str(save), stdin=script
    )
    assert code == 0, out
    out = flat(out)
    assert "cannot read 'xyzzy'; allowed: r/roll" in out
    assert "cannot read 'keep 1'" in out and "type a command; allowed" in out
    assert "Commands:" in out and "q or quit" in out
    # (rich breaks a path longer than the line anywhere: compared without the spaces)
    assert "Game left." in out and f"recordsavedto{save}" in out.replace(" ", "")
    record = GameRecord.load(save)
    first = score_roll(int(d) for d in record.events[0].move.split(","))
    if first.points < 50:  # "b" on the first decision: refused, with the rule
        assert "cannot bank now: not opened: bank at least 50" in out
        assert record.events[1].move == "roll"
    else:
        assert record.events[1].move == "bank"
    state = replay(record)
    assert isinstance(state, ThousandState) and not state.is_terminal()
    assert record.seed == 5 and record.players[0]["name"] == "me"
    # the same seed gives the same dice
    invoke(
        "play",
        "thousand",
        "--players",
        "me,bot:expert",
        "--seed",
        "5",
        "--save",
        str(tmp_path / "b.json"),
        stdin=script,
    )
    assert [e.move for e in GameRecord.load(tmp_path / "b.json").events] == [e.move for e in record.events]


def test_play_end_of_input_offers_save_and_exits_130(tmp_path: Path) -> None:
    save = tmp_path / "cut.json"
    code, out = invoke(
        "play", "thousand", "--players", "me,bot:bold", "--seed", "1", "--save", str(save), stdin="r\n"
    )
    assert code == 130 and "Game interrupted." in flat(out) and save.exists()
    replay(GameRecord.load(save))


def test_play_bots_only_to_the_end_with_reasons(tmp_path: Path) -> None:
    save = tmp_path / "bots.json"
    code, out = invoke(
        "play",
        "thousand",
        "--players",
        "bot:expert,bot:cautious",
        "--preset",
        "classic-nobarrel",
        "--seed",
        "3",
        "--save",
        str(save),
    )
    assert code == 0, out
    assert "wins!" in flat(out) and "on average" in flat(out)  # the expert says why
    state = replay(GameRecord.load(save))
    assert state.is_terminal()


def test_play_hot_seat_two_humans(tmp_path: Path) -> None:
    save = tmp_path / "hot.json"
    code, out = invoke(
        "play",
        "thousand",
        "--players",
        "ann,bob",
        "--seed",
        "2",
        "--save",
        str(save),
        stdin="r\n" * 12 + "q\n",
    )
    assert code == 0, out
    movers = {e.actor for e in GameRecord.load(save).events if e.actor != "chance"}
    assert "ann [" in out and "bob [" in out and movers == {0, 1}


def test_play_rejects_bad_players_and_rules() -> None:
    code, out = invoke("play", "thousand", "--players", "me,bot:nobody")
    assert code == 2 and "unknown bot 'nobody'" in flat(out)
    code, out = invoke("play", "thousand", "--set", "open_min=-5")
    assert code == 2 and "open_min" in out


def test_simulate_text_report() -> None:
    code, out = invoke(
        "simulate", "thousand", "--players", "bot:expert,bot:bold", "--games", "40", "--seed", "1"
    )
    assert code == 0, out
    out = flat(out)
    assert "per seat" in out and "95% CI" in out and "mean game length" in out
    assert "final score distribution" in out


def test_simulate_json_and_jobs_give_identical_results() -> None:
    # 250 games are three chunks of 100, so two worker processes really share them
    args = [
        "simulate",
        "thousand",
        "--players",
        "bot:expert,bot:bold,bot:cautious",
        "--games",
        "250",
        "--seed",
        "9",
    ]
    code1, out1 = invoke(*args, "--json", "--jobs", "1")
    code2, out2 = invoke(*args, "--json", "--jobs", "2")
    assert code1 == 0 and code2 == 0
    one, two = json.loads(out1), json.loads(out2)
    assert one == two
    assert one["games"] == 250 and len(one["seats"]) == 3
    assert sum(s["wins"] for s in one["seats"]) == 250
    assert "turns" in one["stats"]


def test_simulate_saved_records_replay(tmp_path: Path) -> None:
    code, out = invoke(
        "simulate",
        "thousand",
        "--players",
        "bot:expert,bot:bold",
        "--games",
        "5",
        "--seed",
        "4",
        "--preset",
        "yard",
        "--save-records",
        str(tmp_path),
        "--json",
    )
    assert code == 0, out
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 5
    report = json.loads(out)
    for f in files:
        code, out = invoke("replay", str(f), "--json")
        assert code == 0, out
        result = json.loads(out)
        assert result["terminal"] is True and len(result["winners"]) == 1
        record = GameRecord.load(f)
        assert record.result is not None and result["scores"] == record.result["scores"]
    assert report["games"] == 5


def test_simulate_refuses_humans() -> None:
    code, out = invoke("simulate", "thousand", "--players", "me,bot:bold", "--games", "3")
    assert code == 2 and "not a bot" in flat(out)


def test_rules_yard_preset() -> None:
    code, out = invoke("rules", "thousand", "--preset", "yard")
    assert code == 0, out
    assert "preset yard" in flat(out) and "max_rolls" in out and "golden_win" in out
    code, out = invoke("rules", "thousand", "--preset", "yard", "--json")
    data = json.loads(out)
    assert data["preset"] == "yard" and data["open_min"] == 100 and data["max_rolls"] == 3


@pytest.mark.slow
def test_simulate_jobs_identical_large() -> None:
    args = [
        "simulate",
        "thousand",
        "--players",
        "bot:expert,bot:bold",
        "--games",
        "2000",
        "--seed",
        "1",
        "--json",
    ]
    assert json.loads(invoke(*args, "--jobs", "1")[1]) == json.loads(invoke(*args, "--jobs", "2")[1])


def test_play_free_set_aside_choice_by_number_and_notation(tmp_path: Path) -> None:
    rules = ThousandRules.from_preset("classic", {"free_set_aside": True})
    for seed in range(500):  # a seed whose first roll has several combinations to choose from
        probe = ThousandState(rules, 2)
        probe.apply_action(probe.sample_chance(seeded_rng(seed)))
        if probe.pending_roll is not None:
            break
    options = list(probe.legal_actions())
    save = tmp_path / "keep.json"
    script = "\n".join(["r", "keep 6", "9", "2", "q"]) + "\n"
    code, out = invoke(
        "play",
        "thousand",
        "--players",
        "me,bot:expert",
        "--set",
        "free_set_aside=true",
        "--seed",
        str(seed),
        "--save",
        str(save),
        stdin=script,
    )
    assert code == 0, out
    out = flat(out)
    assert "Which scoring dice do you keep?" in out
    assert f"choose the dice to keep first; allowed: {', '.join(options)}" in out
    assert "'keep 6' is not a choice here" in out
    events = GameRecord.load(save).events
    assert events[1].move == options[1]


def test_play_real_dice_typed_checked_undone_and_recorded(tmp_path: Path) -> None:
    save = tmp_path / "real.json"
    script = "\n".join(
        [
            "1,1,9,5,2",
            "1 2 3",
            "1,1,5,5,2",
            "undo",
            "2,3,4,6,6",
            "undo",
            "undo",
            "2,3,4,6,6",
            "1,5,2,3,3",
            "q",
        ]
    )
    code, out = invoke(
        "play", "thousand", "--players", "ann,bob", "--real-dice", "--save", str(save), stdin=script + "\n"
    )
    assert code == 0, out
    text = flat(out)
    assert "ann throws: the dice that fell" in text
    assert "a die shows 1..6, not 9" in text
    assert "3 values" in text and "rule: dice-count" in text
    assert text.count("taken back") == 2
    rec = GameRecord.load(save)
    assert [(e.actor, e.move, e.entered_by) for e in rec.events] == [
        ("chance", "2,3,4,6,6", 0),
        ("chance", "1,5,2,3,3", 1),
    ]
    assert rec.seed is None, "nothing was drawn"
    assert replay(rec).turn_total == 15
