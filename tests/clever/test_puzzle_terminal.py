"""``dicehall puzzle clever``: Clever puzzles solved at the terminal, offline, in four languages, within 80
columns; the choices are the position's legal moves, the verdict, the values and the reason the puzzle's own."""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

from dicehall.clever.puzzle_play import PuzzleSet
from dicehall.cli import _register_games, app
from dicehall.core.puzzles import Skill, rate

_register_games()
runner = CliRunner()
WORDS = {
    "en": (
        "Puzzle 1 of 2 · Which die",
        "Right!",
        "Not the best.",
        "Solved 1 of 2",
        "Type a number from 1 to",
    ),
    "ru": (
        "Задача 1 из 2 · Какой кубик",
        "Верно!",
        "Не лучший ход.",
        "Решено 1 из 2",
        "Введите число от 1 до",
    ),
    "uk": (
        "Задача 1 з 2 · Який кубик",
        "Правильно!",
        "Не найкращий хід.",
        "Розв'язано 1 з 2",
        "Введіть число",
    ),
    "pl": (
        "Zadanie 1 z 2 · Która kość",
        "Dobrze!",
        "Nie najlepszy ruch.",
        "Rozwiązane: 1 z 2",
        "Wpisz liczbę",
    ),
}
QUESTION = {
    "en": "Which die do you take, and where do you write it?",
    "ru": "Какой кубик вы берёте и куда его записываете?",
    "uk": "Який кубик ви берете і куди його записуєте?",
    "pl": "Którą kość bierzesz i gdzie ją wpisujesz?",
}


def drawn(seed: int, theme: str, n: int) -> list[str]:
    """The puzzles the command draws with ``seed`` when the first is answered right, the next wrong."""
    puzzles, rng, skill, answered, out = PuzzleSet(), np.random.default_rng(seed), Skill(), set[str](), []
    for k in range(n):
        pid = puzzles.pick(skill.rating, theme, answered, rng)
        assert pid is not None
        answered.add(pid)
        out.append(pid)
        skill = rate(skill, puzzles.rating[pid], k == 0)
    return out


@pytest.mark.parametrize("lang", ["en", "ru", "uk", "pl"])
def test_two_puzzles_one_right_one_wrong_in_four_languages(lang: str) -> None:
    puzzles = PuzzleSet()
    first, second = (puzzles.get(p) for p in drawn(7, "which die", 2))
    number = {p.key: {m: i + 1 for i, m in enumerate(p.options)} for p in (first, second)}
    wrong = next(k for k in second.options if k != second.best)
    stdin = f"?\n{number[first.key][first.best]}\n{number[second.key][wrong]}\n"
    res = runner.invoke(
        app,
        ["--lang", lang, "puzzle", "clever", "--theme", "which_die", "--count", "2", "--seed", "7"],
        input=stdin,
    )
    assert res.exit_code == 0, res.output
    out = res.output
    header, right, not_best, summary, keys = WORDS[lang]
    assert header in out and right in out and not_best in out and summary in out and keys in out
    assert QUESTION[lang] in out
    # (the runner echoes no Enter: what follows a prompt shares its line here, not at a terminal)
    assert all(len(part) <= 80 for line in out.splitlines() for part in line.split(" > ")), out
    sep = "." if lang == "en" else ","
    for p in (first, second):
        for v in p.options.values():
            assert f"{round(v, 1):.1f}".replace(".", sep) in out
    assert out.index(right) < out.index(not_best)


def test_a_theme_that_does_not_exist_is_refused_in_the_players_words() -> None:
    res = runner.invoke(app, ["--lang", "pl", "puzzle", "clever", "--theme", "barrel"])
    assert res.exit_code == 2 and "Nie ma takiego tematu" in res.output, res.output


def test_q_stops_at_once_and_counts_nothing() -> None:
    res = runner.invoke(app, ["puzzle", "clever", "--count", "3", "--seed", "1"], input="q\n")
    assert res.exit_code == 0 and "Solved 0 of 0" in res.output
