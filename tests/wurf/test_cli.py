"""The wurf commands: simulate, play (scripted input), referee, render."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from dicehall.wurf.actions import EndTurn, Rearrange, Throw
from dicehall.wurf.cli import parse_human, register

from .helpers import make, play


@pytest.fixture(scope="module")
def app() -> typer.Typer:
    root, play_app, sim_app = typer.Typer(), typer.Typer(), typer.Typer()
    root.add_typer(play_app, name="play")
    root.add_typer(sim_app, name="simulate")
    register(root, play_app, sim_app)
    return root


def test_simulate_json_both_arenas(app: typer.Typer, tmp_path: Path) -> None:
    runner = CliRunner()
    res = runner.invoke(
        app, ["simulate", "wurf", "--players", "bot:expert,bot:cautious", "--games", "6", "--json"]
    )
    assert res.exit_code == 0, res.output
    report = json.loads(res.output)
    assert report["games"] == 6 and report["rules"]["arena"] == "fast"
    res = runner.invoke(
        app,
        [
            "simulate",
            "wurf",
            "--players",
            "bot:random,bot:cautious",
            "--games",
            "2",
            "--arena",
            "physics",
            "--json",
            "--save-records",
            str(tmp_path),
        ],
    )
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["rules"]["arena"] == "physics"
    assert len(list(tmp_path.glob("wurf-*.json"))) == 2
    bad = runner.invoke(app, ["simulate", "wurf", "--players", "bot:nobody,bot:random", "--games", "1"])
    assert bad.exit_code != 0 and "unknown bot" in bad.output


def test_parse_human_commands() -> None:
    s = play(make(2), "start 2@100,100,0", "throw c2 p0.5", "lands 2@100,100,0 4@40,40,0")
    assert parse_human(s, "t c3 0.7") == Throw(100.0, 100.0, 0.7, 0.5)
    assert parse_human(s, "b4 0.2 0.9") == Throw(60.0, 140.0, 0.2, 0.9)
    assert parse_human(s, "throw 10,20 p0.3") == Throw(10.0, 20.0, 0.3, 0.5)
    # the decimal comma of ru/uk/pl (the help shows 't c3 0,6' in those languages)
    assert parse_human(s, "t c3 0,7 0,25") == Throw(100.0, 100.0, 0.7, 0.25)
    assert parse_human(s, "throw 10,20 p0,3 s=0,9") == Throw(10.0, 20.0, 0.3, 0.9)
    assert isinstance(parse_human(s, "g"), Rearrange)
    assert parse_human(s, "m 1 e5") == Rearrange(((1, 180.0, 180.0),))
    assert parse_human(s, "end") == EndTurn()
    with pytest.raises(ValueError):
        parse_human(s, "t z9")
    with pytest.raises(ValueError):
        parse_human(s, "throw real")  # terminal play throws with the arena model, never with real dice


def test_play_against_bot_with_scripted_input(app: typer.Typer, tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    # A human who always throws at c3 and ends the turn when allowed; Ctrl-D (EOF) would stop early.
    script = "\n".join(["help", "t c3 0.5", "end"] * 60) + "\n"
    res = CliRunner().invoke(
        app, ["play", "wurf", "--players", "me,bot:cautious", "--save", str(out)], input=script
    )
    assert "thrower stands south" in res.output  # the arena sketch was shown
    assert out.exists() or res.exit_code == 130, res.output
    if out.exists():
        data = json.loads(out.read_text())
        assert data["game"] == "wurf" and data["result"] is not None


def test_referee_command_session(app: typer.Typer, tmp_path: Path) -> None:
    out = tmp_path / "ref.json"
    script = "start 4\n4 4\n2 3 4 5 6 x out out rim\n"
    res = CliRunner().invoke(
        app, ["referee", "wurf", "--players", "Ann,Bob", "--save", str(out)], input=script
    )
    assert res.exit_code == 0, res.output
    assert "Ann wins the game!" in res.output and out.exists()
    bad = CliRunner().invoke(app, ["referee", "wurf", "--players", "Ann"])
    assert bad.exit_code != 0


def test_render_png(app: typer.Typer, tmp_path: Path) -> None:
    from dicehall.wurf.arena.gl import choose_gl_backend

    backend = choose_gl_backend()
    try:
        import mujoco

        m = mujoco.MjModel.from_xml_string("<mujoco><worldbody><geom size='.1'/></worldbody></mujoco>")
        with mujoco.Renderer(m, 8, 8):
            pass
    except Exception as exc:  # pragma: no cover - depends on the machine
        pytest.skip(f"no offscreen GL backend ({backend}): {exc}; install libosmesa6 (make system-deps)")
    rec = tmp_path / "g.json"
    runner = CliRunner()
    res = runner.invoke(
        app,
        [
            "simulate",
            "wurf",
            "--players",
            "bot:cautious,bot:cautious",
            "--games",
            "1",
            "--json",
            "--save-records",
            str(tmp_path),
        ],
    )
    assert res.exit_code == 0
    rec = next(tmp_path.glob("wurf-*.json"))
    png = tmp_path / "arena.png"
    res = runner.invoke(app, ["render", "wurf", str(rec), "--throw", "2", "--out", str(png), "--size", "200"])
    assert res.exit_code == 0, res.output
    import matplotlib.image

    img = matplotlib.image.imread(png)
    assert img.shape[:2] == (200, 200) and img.std() > 0.05  # a real picture, not a blank
    res = runner.invoke(app, ["render", "wurf", str(rec), "--throw", "999", "--out", str(png)])
    assert res.exit_code != 0 and "no throw 999" in res.output
    # A referee record has no positions: the dice are still drawn.
    from dicehall.wurf.referee import RefereeSession

    session = RefereeSession(["Ann", "Bob"])
    for line in ("start 3", "3 5"):
        session.handle(line)
    ref = session.record.save(tmp_path / "ref.json")
    res = runner.invoke(app, ["render", "wurf", str(ref), "--throw", "1", "--out", str(png), "--size", "200"])
    assert res.exit_code == 0, res.output
    assert matplotlib.image.imread(png).std() > 0.05


def _dicehall(args: list[str], stdin: str = "", columns: int = 100) -> subprocess.CompletedProcess[str]:
    exe = Path(sys.executable).parent / "dicehall"
    env = {**os.environ, "COLUMNS": str(columns)}
    return subprocess.run(
        [str(exe), *args], input=stdin, capture_output=True, text=True, env=env, timeout=120, check=False
    )


@pytest.mark.parametrize("columns", [80, 100, 120])
def test_referee_help_is_not_rewrapped(columns: int) -> None:
    from dicehall.wurf.referee import referee_help

    res = _dicehall(["referee", "wurf", "--players", "A,B"], "help\n", columns)
    assert res.returncode == 0, res.stderr
    for line in referee_help().splitlines():
        assert line.rstrip() in res.stdout, line  # each line whole: no break inserted by the terminal width
    assert max(len(line) for line in res.stdout.splitlines()) <= 80


def test_referee_record_replays_from_the_command_line(tmp_path: Path) -> None:
    rec = tmp_path / "ref.json"
    script = "start 4\n4 5\nend\n5 6 2\n"
    res = _dicehall(["referee", "wurf", "--players", "Ann,Bob", "--save", str(rec)], script)
    assert res.returncode == 0 and rec.exists(), res.stdout + res.stderr
    moves = [e["move"] for e in json.loads(rec.read_text())["events"]]
    assert moves == ["start 4", "throw real", "lands 4 5", "end", "throw real", "lands 5 6 2"]
    res = _dicehall(["replay", str(rec), "--json"])
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout) == {"events": 6, "terminal": False, "scores": [8.0, 8.0]}
    res = _dicehall(["replay", str(rec)])
    assert res.returncode == 0, res.stderr
    assert "Ann: 8 dice" in res.stdout and "position unknown: #0:5 #1:6 #2:2" in res.stdout
    # An outcome with model positions after a real throw is not a referee's entry: refused, naming the event.
    data = json.loads(rec.read_text())
    data["events"][5]["move"] = "lands 5@100,100,0 6@60,60,0 2@40,40,0"
    rec.write_text(json.dumps(data))
    res = _dicehall(["replay", str(rec)])
    err = " ".join(res.stderr.split())  # the terminal width may have wrapped it
    assert res.returncode != 0 and "event 6" in err and "[rule: real-throw-typed]" in err, err


@pytest.mark.parametrize(
    "text", ["end now", "t c3 0.5 0.5 extra", "g c3 c4", "m 1", "m x c3", "m 1 c3 c4", "e please"]
)
def test_extra_or_missing_words_are_refused(text: str) -> None:
    s = play(make(2), "start 2@100,100,0", "throw c2 p0.5", "lands 2@100,100,0 4@40,40,0")
    with pytest.raises(ValueError, match=r"e\.g\.|alone|after the command"):
        parse_human(s, text)


def test_gathering_fewer_than_two_dice_says_so() -> None:
    s = play(make(2), "start 2@100,100,0")
    with pytest.raises(ValueError, match="nothing to gather: 1 die lies in the arena"):
        parse_human(s, "g")


def test_only_playable_commands_are_offered() -> None:
    from dicehall.wurf.cli import allowed_commands

    s = play(make(2), "start 2@100,100,0")  # the mandatory throw, one die in the arena
    text = allowed_commands(s)
    assert "throw" in text and "'end'" not in text and "gather" not in text
    s = play(s, "throw c2 p0.5", "lands 2@100,100,0 4@40,40,0")  # two different numbers: throw again or end
    text = allowed_commands(s)
    assert "'end' end the turn" in text and "gather" in text


def test_bot_moves_are_told_as_cell_and_power() -> None:
    from dicehall.wurf.terminal import cell_help, describe_action

    assert describe_action(Throw(100.0, 100.0, 0.7, 0.5)) == "throws at c3 with power 0.70"
    assert describe_action(Throw(10.0, 190.0, 0.25, 0.5)) == "throws at a5 with power 0.25"
    assert describe_action(EndTurn()) == "ends the turn"
    assert "mm" not in describe_action(Rearrange(((0, 100.0, 100.0), (1, 117.0, 100.0))))
    help_text = cell_help()
    assert "first touch down" in help_text and "Power: 0" in help_text and "leave the arena" in help_text


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "throws at c3 with power 0.50"),
        ("ru", "бросает в c3 с силой 0,50"),
        ("pl", "rzuca na c3 z siłą 0,50"),
    ],
)
def test_the_power_is_written_in_the_languages_way(lang: str, said: str) -> None:
    from dicehall.i18n import set_language
    from dicehall.wurf.terminal import describe_action

    set_language(lang)  # the suite's fixture puts the language back after each test
    assert describe_action(Throw(100.0, 100.0, 0.5, 0.5)) == said


def test_play_narrates_bot_moves_without_millimetres(app: typer.Typer) -> None:
    res = CliRunner().invoke(app, ["play", "wurf", "--players", "bot:cautious,bot:expert", "--seed", "4"])
    assert res.exit_code == 0, res.output
    bot_lines = [
        line for line in res.output.splitlines() if line.startswith(("bot:cautious ", "bot:expert "))
    ]
    assert bot_lines and all(
        "throws at" in line or "ends the turn" in line or "pushes" in line for line in bot_lines
    )
    assert not any("throw " in line and "," in line for line in bot_lines)  # no 'throw 100,80 p0.6'


def test_outcome_narration_names_the_thrown_die_and_what_it_did() -> None:
    from dicehall.wurf.terminal import describe_outcome

    s = play(make(2), "start 2@100,100,0", "throw c2 p0.5", "lands 2@100,100,0 4@40,40,0")
    before = [d.face for d in s.arena]
    play(s, "throw c2 p0.5")
    outcome = s.string_to_action("lands 4@100,100,0 out 4@60,60,0")
    s.apply_action(outcome)
    assert s.last is not None
    text = describe_outcome(before, outcome, s.last, ["Ann", "Bob"])  # type: ignore[arg-type]
    assert text == "thrown die shows 4; hit: #0 2→4, #1 4→out (removed: 1 out of the arena) → Ann takes 2 (4)"
    s = play(make(2), "start 2@100,100,0", "throw c2 p0.5")
    outcome = s.string_to_action("lands 2@100,100,0 cX@60,60,0")
    s.apply_action(outcome)
    assert s.last is not None
    text = describe_outcome([2], outcome, s.last, ["Ann", "Bob"])  # type: ignore[arg-type]
    assert text == "thrown die shows cocked (re-thrown: X) (removed: 1 X) → no number repeats"
