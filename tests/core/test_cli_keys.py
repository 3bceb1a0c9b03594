"""Keys and words at the terminal (issue 29): quit words in every interactive command and in the player's
language, the commands of Dice 1000 in Russian/Ukrainian/Polish, line editing at a real terminal, player specs
that look like bots refused with the bots meant, ``--lang`` before the subcommand, the narration and numbers in
the reader's language."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dicehall.cli import _register_games, app
from dicehall.core.history import history_dir, history_files
from dicehall.core.record import GameRecord
from tests.core.terminal import Terminal

_register_games()
runner = CliRunner()


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    yield tmp_path / "data"


def invoke(*args: str, stdin: str | None = None) -> tuple[int, str]:
    result = runner.invoke(app, list(args), input=stdin, env={"COLUMNS": "80"})
    return result.exit_code, result.output


def flat(text: str) -> str:
    return " ".join(text.split())


def test_q_quits_clever_and_the_referee_with_the_save_offer() -> None:
    code, out = invoke("play", "clever", "--players", "me", "--seed", "1", stdin="q\ny\n")
    assert code == 0 and "Game left." in out and "cannot read 'q'" not in out, out
    assert "Game 1 kept in your history" in flat(out)
    code, out = invoke("play", "clever", "--players", "me", "--seed", "1", stdin="quit\n\n")
    assert code == 0 and "Game left." in out and len(history_files()) == 1, out  # the default is no
    code, out = invoke("referee", "wurf", "--players", "Ann,Bob", stdin="start 4\nq\ny\n")
    assert code == 0 and "Game left." in out and "Game 2 kept in your history" in flat(out), out
    assert [e.move for e in GameRecord.load(history_files()[1]).events] == ["start 4"]


@pytest.mark.parametrize(
    ("lang", "roll", "bank", "quit", "left"),
    [
        ("ru", "к", "х", "выход", "Вы вышли из игры."),
        ("uk", "кинути", "д", "в", "Ви вийшли з гри."),
        ("pl", "rzuć", "dość", "wyjdź", "Opuszczono grę."),
    ],
)
def test_dice_1000_commands_in_the_players_language(
    lang: str, roll: str, bank: str, quit: str, left: str
) -> None:
    save = history_dir().parent / "t.json"
    script = f"{roll}\n{bank}\n{quit}\n"
    code, out = invoke(
        "--lang",
        lang,
        "play",
        "thousand",
        "--players",
        "ann,bob",
        "--seed",
        "1",
        "--save",
        str(save),
        stdin=script,
    )
    assert code == 0 and left in out, out
    moves = [e.move for e in GameRecord.load(save).events if e.actor != "chance"]
    assert moves[0] == "roll"  # 'к' / 'кинути' / 'rzuć'
    assert moves[1:] in ([], ["bank"]) and "не понимаю" not in out and "nie rozumiem" not in out
    if len(moves) == 1:  # the first roll cannot be banked (not opened): refused by the rule, in the language
        assert {"ru": "нельзя", "uk": "не можна", "pl": "nie wolno"}[lang] in out


def test_dice_1000_at_a_real_terminal_has_line_editing() -> None:
    term = Terminal("play", "thousand", "--players", "me,bot:cautious", "--seed", "1", "--no-save")
    try:
        term.expect(r"me \[r/roll.*\] > ")
        # "rolx", ←, "l", →, ⌫: with readline the line is "roll"; without, escape codes (refused)
        term.send("rolx\x1b[Dl\x1b[C\x7f\r")
        said = term.expect(r"me rolls:")
        assert "cannot read" not in said
        term.expect(r"\] > ")
        term.send("help\r")
        term.expect("Commands:")
        term.expect(r"\] > ")
        term.send("\x1b[A\r")  # ↑ recalls "help"
        term.expect("Commands:")
        term.expect(r"\] > ")
        term.line("q")
        term.expect(re.escape("[y/N]"))
        term.line("")
        assert term.wait() == 0
    finally:
        term.close()


@pytest.mark.parametrize(
    ("players", "lang", "said"),
    [
        (
            "me,bot",
            "en",
            "'bot' is not a seat: did you mean bot:cautious, bot:bold, bot:expert, bot:practical, bot:random, bot:optimal?",
        ),
        ("me,Bot:Expert", "en", "'Bot:Expert' is not a seat: did you mean bot:expert?"),
        ("me,bot:exprt", "en", "unknown bot 'exprt' for thousand: did you mean bot:expert?"),
        ("me,bot:exprt", "ru", "ошибка: неизвестный бот 'exprt' для игры thousand: может быть, bot:expert?"),
        ("me,bot", "pl", "'bot' to nie miejsce przy stole: czy chodziło o bot:cautious"),
    ],
)
def test_player_specs_that_look_like_bots_are_refused_with_the_choices(
    players: str, lang: str, said: str
) -> None:
    code, out = invoke("play", "thousand", "--players", players, "--lang", lang)
    assert code == 2 and said in flat(out), out
    code, out = invoke(
        "simulate", "thousand", "--players", players.replace("me,", "bot:bold,"), "--lang", lang
    )
    assert code == 2 and said in flat(out), out


def test_lang_before_the_subcommand_and_the_bots_narration() -> None:
    code, out = invoke(
        "--lang", "ru", "play", "thousand", "--players", "bot:expert,bot:cautious", "--seed", "3"
    )
    assert code == 0, out
    started = (
        "Тысяча — Как играть" in out or "Тысяча: наберите help" in out
    )  # the how-to, or after it the pointer
    assert started and "bot:expert → бросает" in out and "говорит «хватит»" in out
    assert "→ roll" not in out and "→ bank" not in out and "Игра 1 сохранена в вашей истории" in flat(out)
    code, out = invoke("play", "--lang", "uk", "thousand", "--players", "me,bot:expert", stdin="q\n")
    assert code == 0 and "Ви вийшли з гри." in out


def test_polish_percentages_use_a_decimal_comma() -> None:
    code, out = invoke("--lang", "pl", "simulate", "clever", "--games", "30", "--seed", "1")
    assert code == 0, out
    assert re.search(r"\d,\d%", out) and not re.search(r"\d\.\d%", out), out
