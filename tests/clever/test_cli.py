"""`dicehall play clever` and `dicehall simulate clever` through typer's test runner."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from typer.testing import CliRunner

from dicehall.clever import cli as clever_cli
from dicehall.core.record import GameRecord, replay


def make_app() -> typer.Typer:
    app = typer.Typer()
    play_app = typer.Typer()
    simulate_app = typer.Typer()
    app.add_typer(play_app, name="play")
    app.add_typer(simulate_app, name="simulate")
    clever_cli.register(app, play_app, simulate_app)
    return app


def test_simulate_solo_json_and_plot(tmp_path: Path) -> None:
    plot = tmp_path / "hist.png"
    args = ["simulate", "clever", "--players", "bot:greedy", "--games", "30", "--seed", "1", "--json"]
    result = CliRunner().invoke(make_app(), [*args, "--plot", str(plot)])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["games"] == 30
    for key in ("yellow", "blue", "green", "orange", "purple", "foxes", "total"):
        assert key in report["stats"]
    assert report["seats"][0]["score"]["mean"] > 100
    assert plot.exists() and plot.stat().st_size > 1000
    # the same seed gives the same results with two worker processes
    again = CliRunner().invoke(make_app(), [*args, "--jobs", "2"])
    assert json.loads(again.output)["seats"][0]["score"] == report["seats"][0]["score"]


def test_simulate_multiplayer_table_has_win_rates() -> None:
    args = ["simulate", "clever", "--players", "bot:greedy,bot:random", "--games", "20", "--seed", "3"]
    result = CliRunner().invoke(make_app(), args)
    assert result.exit_code == 0, result.output
    assert "win rate" in result.output and "bot:random" in result.output


def test_simulate_refuses_humans_and_unknown_bots() -> None:
    r1 = CliRunner().invoke(make_app(), ["simulate", "clever", "--players", "me", "--games", "2"])
    assert r1.exit_code != 0 and "bot" in r1.output
    r2 = CliRunner().invoke(make_app(), ["simulate", "clever", "--players", "bot:nosuch", "--games", "2"])
    assert r2.exit_code != 0 and "nosuch" in r2.output
    r3 = CliRunner().invoke(make_app(), ["simulate", "clever", "--players", "bot:greedy," * 4 + "bot:greedy"])
    assert r3.exit_code != 0 and "1–4 players" in r3.output


def test_play_solo_to_the_end_with_numbered_choices(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    # some bad input first: unreadable text, a number out of range, an illegal move
    answers = "zzz\n999\nW:Y.r1c1\nhelp\n" + "1\n" * 400
    result = CliRunner().invoke(
        make_app(), ["play", "clever", "--players", "me", "--save", str(save)], input=answers
    )
    assert result.exit_code == 0, result.output
    assert "cannot read 'zzz'" in result.output
    assert "There is no choice 999" in result.output
    assert "Final scores" in result.output and "Rating:" in result.output
    state = replay(GameRecord.load(save))
    assert state.is_terminal()


def test_play_against_bots(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        make_app(), ["play", "clever", "--players", "me,bot:greedy"], input="1\n" * 600
    )
    assert result.exit_code == 0, result.output
    assert "bot:greedy" in result.output and ("Winner:" in result.output or "Shared win" in result.output)


def test_train_tiny_run_resume_and_export(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    base = ["train", "clever", "--hidden", "8,8", "--shards", "2", "--sync", "10", "--eval-games", "4"]
    first = CliRunner().invoke(
        make_app(), [*base, "--episodes", "20", "--eval-every", "20", "--out", str(run_dir), "--jobs", "1"]
    )
    assert first.exit_code == 0, first.output
    assert (run_dir / "checkpoint.npz").exists() and (run_dir / "curve.png").exists()
    again = CliRunner().invoke(make_app(), [*base, "--episodes", "20", "--out", str(run_dir)])
    assert again.exit_code != 0 and "--resume" in again.output
    weights = tmp_path / "w.npz"
    resumed = CliRunner().invoke(
        make_app(),
        [
            "train",
            "clever",
            "--resume",
            str(run_dir),
            "--episodes",
            "40",
            "--jobs",
            "1",
            "--export",
            str(weights),
        ],
    )
    assert resumed.exit_code == 0, resumed.output
    assert "40 episodes" in resumed.output and weights.exists()
    bad = CliRunner().invoke(make_app(), ["train", "clever", "--resume", str(tmp_path / "nothing")])
    assert bad.exit_code != 0 and "no training checkpoint" in bad.output
    alone = CliRunner().invoke(
        make_app(), ["train", "clever", "--address", "auto", "--out", str(tmp_path / "x")]
    )
    assert alone.exit_code != 0 and "add --backend ray" in alone.output
    spark = CliRunner().invoke(
        make_app(), ["train", "clever", "--backend", "spark", "--out", str(tmp_path / "y")]
    )
    assert spark.exit_code != 0 and "--backend must be processes or ray" in spark.output


def test_train_warm_start_from_weights_and_bad_method(tmp_path: Path) -> None:
    shipped = Path(__file__).parents[2] / "dicehall" / "clever" / "data" / "master.npz"
    base = ["train", "clever", "--sync", "4", "--eval-games", "4", "--episodes", "8", "--jobs", "1"]
    warm = CliRunner().invoke(make_app(), [*base, "--init", str(shipped), "--out", str(tmp_path / "w")])
    assert warm.exit_code == 0, warm.output
    assert "→128→128→1" in warm.output  # the network's shape is the starting weights'
    bad = CliRunner().invoke(make_app(), [*base, "--method", "rmsprop", "--out", str(tmp_path / "b")])
    assert bad.exit_code != 0 and "method must be one of adam, sgd" in bad.output
    missing = CliRunner().invoke(
        make_app(), [*base, "--init", str(tmp_path / "no.npz"), "--out", str(tmp_path / "m")]
    )
    assert missing.exit_code != 0 and "cannot load" in missing.output


def test_simulate_master_solo(tmp_path: Path) -> None:
    args = ["simulate", "clever", "--players", "bot:master", "--games", "20", "--seed", "3", "--json"]
    result = CliRunner().invoke(make_app(), args)
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["seats"][0]["score"]["mean"] > 100


def test_play_real_dice_typed_and_undone(tmp_path: Path) -> None:
    save = tmp_path / "real.json"
    # a missing die; an entry taken back; a pick taken back (undo goes back one step at a time) and made again
    answers = "W3 Y5 B1 G6 O2\nW3 Y5 B1 G6 O2 P4\nundo\nW1 Y1 B1 G1 O1 P1\n1\nundo\n1\nY2 B2 G2 O2 P2\n"
    result = CliRunner().invoke(
        make_app(), ["play", "clever", "--players", "me", "--real-dice", "--save", str(save)], input=answers
    )
    assert result.exit_code == 130, (
        result.output
    )  # the input ends mid-game: the record is saved on the way out
    out = " ".join(result.output.split())
    assert "throws: the dice that fell" in out and "Missing: the purple die" in out
    assert "taken back: W3 Y5 B1 G6 O2 P4" in out and "taken back: W:Y.r2c2" in out
    rec = GameRecord.load(save)
    assert [e.entered_by for e in rec.events if e.actor == "chance"] == [0, 0]
    assert rec.events[0].move == "W1 Y1 B1 G1 O1 P1" and rec.events[2].move == "Y2 B2 G2 O2 P2"
    replay(rec)
