"""The ``?`` hints of terminal play name Dice 1000's moves in words, in the language (the browser's Hint list says
the same, ``thousand.move.*``): never the notation ``roll`` / ``bank`` / ``keep 1,5``."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from dicehall.cli import _register_games, app
from dicehall.i18n import set_language
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.state import ThousandState
from dicehall.thousand.terminal import move_instruction

_register_games()
runner = CliRunner()

BANK = {"en": "Say “enough” and bank 100", "ru": "«Хватит»: записать 100", "uk": "«Досить»: записати 100"}
BANK["pl"] = "„Dość”: zapisać 100"
ROLL = {"en": "Roll 2 dice", "ru": "Бросить 2 кубика", "uk": "Кинути 2 кубики", "pl": "Rzucić 2 kośćmi"}


@pytest.mark.parametrize("lang", sorted(BANK))
def test_terminal_hints_say_the_moves_in_words(lang: str) -> None:
    # seed 3: the first roll sets 1 1 1 aside (100 in the turn, 2 dice in hand)
    result = runner.invoke(
        app,
        ["play", "thousand", "--seed", "3", "--players", "me,bot:expert", "--lang", lang],
        input="?\nq\n",
        env={"COLUMNS": "200"},
    )
    table = result.output[result.output.index("┏") :]
    assert BANK[lang] in table and ROLL[lang] in table, table
    assert "│ roll" not in table and "│ bank" not in table


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "Set aside 1, 1, and 5"),
        ("ru", "Отложить 1, 1 и 5"),
        ("uk", "Відкласти 1, 1 і 5"),
        ("pl", "Odłożyć 1, 1 i 5"),
    ],
)
def test_a_keep_in_words(lang: str, said: str) -> None:
    state = ThousandState(ThousandRules.from_preset(None), 2)
    set_language(lang)
    assert move_instruction(state, "keep 1,1,5") == said
    assert move_instruction(state, "pass") == "pass"  # a move the words do not know stays as written


def test_clever_hints_say_the_moves_as_the_choice_list_does() -> None:
    result = runner.invoke(
        app, ["play", "clever", "--seed", "3", "--lang", "uk"], input="?\nq\n", env={"COLUMNS": "200"}
    )
    hints = result.output[result.output.index("Підказки для") :]
    table = hints[: hints.index("└")]
    assert "перекид усіх щойно кинутих кубиків" in table and "зелений 2 → зелена зона" in table, table
    assert "reroll" not in table and "G:G" not in table
