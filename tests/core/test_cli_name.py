"""``dicehall play GAME --name NAME``: the name is checked, remembered in the user's config file and given to the
``me`` seat of later games (``dicehall/core/user_config.py``)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dicehall.cli import _register_games, app
from dicehall.core.record import GameRecord, replay

_register_games()
runner = CliRunner()
GAMES = ("thousand", "clever", "wurf")


@pytest.fixture(autouse=True)
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The config file of a user who never played here."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path / "config" / "dicehall" / "config.toml"


def play(*args: str, stdin: str = "") -> tuple[int, str]:
    """``dicehall play ARGS`` with ``stdin`` typed (its end stops the game: exit code 130), on a terminal wide
    enough for the help to show a temporary directory's path whole."""
    result = runner.invoke(app, ["play", *args], input=stdin, env={"COLUMNS": "200"})
    return result.exit_code, result.output


def flat(text: str) -> str:
    """The output without rich's line breaks and help-box borders."""
    return "".join(text.replace("│", "").split())


@pytest.mark.parametrize("game", GAMES)
def test_name_is_remembered_in_the_user_config(game: str, config: Path) -> None:
    code, out = play(game, "--name", "  Ann   Lee ", "--seed", "1")
    assert code == 130, out  # the game started and ended with the input
    assert config.read_text(encoding="utf-8") == '[player]\nname = "Ann Lee"\n'  # normalised
    assert flat(f"Your name “Ann Lee” is saved in {config}") in flat(out)
    assert [p.name for p in config.parent.iterdir()] == ["config.toml"]  # no temporary file left behind
    # a new name replaces it; quotes and backslashes are escaped so that TOML reads the name back as typed
    tricky = 'Zoë "Z" \\ O’Neil'
    play(game, "--name", tricky)
    assert tomllib.loads(config.read_text(encoding="utf-8")) == {"player": {"name": tricky}}
    # --help says where the name is kept
    code, out = play(game, "--help")
    assert code == 0 and flat(f"It is remembered in {config}:") in flat(out), out


def test_me_plays_under_the_saved_name(tmp_path: Path) -> None:
    play("thousand", "--name", "Ann")
    save = tmp_path / "game.json"
    code, out = play(
        "clever", "--players", "me,bot:greedy", "--seed", "3", "--save", str(save), stdin="1\n" * 600
    )
    assert code == 0, out
    assert "Your name" not in out  # nothing saved again
    assert "── Ann total" in out  # the sheet's heading
    assert "Ann picks a die" in out and "> Ann: " in out  # the narration
    assert "Final scores\n  Ann: Yellow" in out  # the scores
    assert "me" not in {line.split(":")[0].strip() for line in out.splitlines()}
    record = GameRecord.load(save)
    assert record.players[0]["name"] == "Ann" and replay(record).is_terminal()
    # hot seat without "me": the saved name takes nobody's seat
    code, out = play("thousand", "--players", "cleo,dan", "--seed", "2", stdin="r\n")
    assert code == 130 and "cleo rolls" in out and "Ann" not in out


@pytest.mark.parametrize(
    ("name", "lang", "rule"),
    [
        ("Player 2", "en", "--name: “Player 2” is reserved: choose another name"),
        ("Bot Ann", "ru", "--name: имя «Bot Ann» зарезервировано: выберите другое"),
        ("A" * 25, "pl", "--name: nazwa jest za długa (limit: 24)"),
        ("Ann\u202eeL", "uk", "--name: ім'я не може містити керівні чи невидимі символи (U+202E)"),
        ("   ", "en", "--name: a name cannot be empty"),
    ],
)
def test_a_bad_name_is_refused_naming_the_rule(name: str, lang: str, rule: str, config: Path) -> None:
    code, out = play("thousand", "--name", name, "--seed", "1", "--lang", lang, stdin="r\n")
    assert code == 2
    assert rule in " ".join(out.split())
    assert "rolls" not in out and "Commands" not in out  # refused before the game
    assert not config.exists()
    play("thousand", "--name", "Ann")
    code, out = play("thousand", "--name", name)
    assert code == 2 and tomllib.loads(config.read_text(encoding="utf-8"))["player"]["name"] == "Ann"


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b'[player\nname = "Ann"\n', "line 1 is not valid TOML"),
        (b'[player]\nname = "Ann\xff"\n', "the file is not UTF-8 text"),
        (b"[player]\nname = 7\n", 'the [player] section has no line name = "…"'),
        (b'[player]\nname = "bot:expert"\n', "“bot:expert” is reserved"),
    ],
)
def test_a_corrupt_config_is_reported_and_play_goes_on(content: bytes, reason: str, config: Path) -> None:
    config.parent.mkdir(parents=True)
    config.write_bytes(content)
    code, out = play("thousand", "--players", "me,bot:expert", "--seed", "5", stdin="r\n")
    assert code == 130, out  # played, until the input ended
    said = " ".join(out.split())
    assert f"warning: cannot use the name saved in {config}: {reason}" in said
    assert "Playing as “me” this time; to fix it, play once with --name YOUR_NAME" in said
    assert "me rolls" in out
    assert config.read_bytes() == content  # reading never rewrites it
    code, out = play("thousand", "--name", "Ann", stdin="r\n")  # what the warning says to do
    assert code == 130 and "Ann rolls" in out and "warning" not in out
    assert config.read_text(encoding="utf-8") == '[player]\nname = "Ann"\n'


def test_a_name_that_cannot_be_saved_is_still_played(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(blocker))  # the config directory cannot be made
    code, out = play("thousand", "--name", "Ann", "--seed", "1", stdin="r\n")
    assert code == 130 and "Ann rolls" in out
    said = " ".join(out.split())
    assert f"warning: cannot save your name in {blocker}/dicehall/config.toml" in said
    assert "this game uses it, the next ones will not" in said


def test_a_game_under_a_name_with_a_comma_resumes(tmp_path: Path) -> None:
    save = tmp_path / "cut.json"
    code, out = play("thousand", "--name", "Lee, Ann", "--seed", "1", "--save", str(save), stdin="r\n")
    assert code == 130 and save.exists()
    code, out = play("thousand", "--resume", str(save), stdin="q\n")
    assert code == 0, out
    assert "Lee, Ann [r/roll" in out  # one seat, not "Lee" and "Ann"
