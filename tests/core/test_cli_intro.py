"""Each game explained on screen (issue 29): ``play`` shows the goal, a turn and every symbol the first time a game
is played (remembered in the user config), a one-line pointer after that, and ``help`` shows it all again — in
the player's language, on a pseudo-terminal of 80 columns."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from dicehall.core.user_config import config_file, save_name, saved_name, seen_intros
from tests.core.terminal import Terminal


@pytest.fixture(autouse=True)
def fresh_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    yield tmp_path


def flat(text: str) -> str:
    return " ".join(text.split())


def start(game: str, *args: str) -> Terminal:
    return Terminal(*args, "play", game, "--seed", "1", "--no-save")


def leave(term: Terminal) -> None:
    term.line("q")
    term.expect(r"\[y/N\]|\[t/N\]|\[д/N\]")
    term.line("")
    assert term.wait() == 0


GOALS = {
    ("wurf", "en"): ["be the last player with dice left", "you take all of them back into your supply"],
    ("wurf", "ru"): ["остаться последним игроком с кубиками", "вы забираете их все в свой запас"],
    ("clever", "en"): ["✗· printed cross", "🦊 a fox", "↻ a re-roll", "Platter — the dice lower than a pick"],
    ("clever", "ru"): [
        "✗· напечатанный крестик",
        "🦊 лиса",
        "↻ переброс",
        "Серебряная тарелка — кубики меньше",
    ],
    ("thousand", "en"): ["be the first to reach 1000 points", "⛏ pit", "🛢 barrel"],
    ("thousand", "ru"): ["первым набрать 1 000 очков", "⛏ яма", "🛢 бочка"],
}
PROMPT = {"wurf": r"\n> ", "clever": r"\n> ", "thousand": r"\] > "}


@pytest.mark.parametrize(("game", "lang"), sorted(GOALS))
def test_the_first_game_explains_itself_and_help_says_it_again(game: str, lang: str) -> None:
    lang_args = ("--lang", lang)
    term = start(game, *lang_args)
    try:
        first = flat(term.expect(PROMPT[game]))
        for words in GOALS[game, lang]:
            assert words in first, first
        leave(term)
    finally:
        term.close()
    assert seen_intros() == [game]
    term = start(game, *lang_args)
    try:
        again = flat(term.expect(PROMPT[game]))
        assert GOALS[game, lang][0] not in again and "help" in again, again
        term.line("help")
        shown = flat(term.expect(PROMPT[game]))
        for words in GOALS[game, lang]:
            assert words in shown, shown
        leave(term)
    finally:
        term.close()
    shown_lines = [line for line in term.text.splitlines() if " > " not in line]  # not the typed answers
    assert all(len(line) <= 80 for line in shown_lines), [line for line in shown_lines if len(line) > 80]


def test_the_games_seen_and_the_name_live_side_by_side_in_the_config() -> None:
    save_name("Ann")
    term = start("wurf")
    try:
        term.expect(r"\n> ")
        leave(term)
    finally:
        term.close()
    assert saved_name() == "Ann" and seen_intros() == ["wurf"]
    save_name("Bob")  # a new name keeps what was seen
    assert seen_intros() == ["wurf"]
    assert config_file().read_text(encoding="utf-8") == '[player]\nname = "Bob"\n\n[intro]\nseen = ["wurf"]\n'
