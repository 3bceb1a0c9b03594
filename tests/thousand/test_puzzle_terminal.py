"""``dicehall puzzle thousand``: puzzles solved at the terminal, offline, in four languages, within 80 columns;
the verdict, the values and the reason are the puzzle's own (thousand/puzzle_play.py)."""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

from dicehall.cli import _register_games, app
from dicehall.thousand.puzzle_play import NEAREST, PuzzleSet, Skill
from dicehall.thousand.puzzles import load_puzzles

_register_games()
runner = CliRunner()
WORDS = {
    "en": ("Puzzle 1 of 2 · Bolts", "Right!", "Not the best.", "Solved 1 of 2", "Type b to bank"),
    "ru": ("Задача 1 из 2 · Болты", "Верно!", "Не лучший ход.", "Решено 1 из 2", "Введите b"),
    "uk": ("Задача 1 з 2 · Болти", "Правильно!", "Не найкращий хід.", "Розв'язано 1 з 2", "Введіть b"),
    "pl": ("Zadanie 1 z 2 · Śruby", "Dobrze!", "Nie najlepszy ruch.", "Rozwiązane: 1 z 2", "Wpisz b"),
}


def drawn(seed: int, theme: str, n: int) -> list[str]:
    """The puzzles the command draws with ``seed`` when each is answered right then wrong (its own choice)."""
    from dicehall.thousand.puzzle_play import rate

    puzzles, rng, skill, answered, out = PuzzleSet(), np.random.default_rng(seed), Skill(), set(), []
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
    first, second = (puzzles.get(p) for p in drawn(7, "bolts", 2))
    key = {"bank": "b", "roll": "r"}
    wrong = next(k for k in second.options if k != second.best)
    stdin = f"?\n{key[first.best]}\n{key[wrong]}\n"
    res = runner.invoke(
        app,
        ["--lang", lang, "puzzle", "thousand", "--theme", "bolts", "--count", "2", "--seed", "7"],
        input=stdin,
    )
    assert res.exit_code == 0, res.output
    out = res.output
    header, right, not_best, summary, keys = WORDS[lang]
    assert header in out and right in out and not_best in out and summary in out and keys in out
    # (the runner echoes no Enter: what follows a prompt shares its line here, not at a terminal)
    assert all(len(part) <= 80 for line in out.splitlines() for part in line.split(" > ")), out
    # the scores of the first position, and every option's chance to win with the locale's decimal sign
    s = first.state()
    assert f"{s.score[s.player]:>4}" in out and f"{s.score[1 - s.player]:>4}" in out
    sep = "." if lang == "en" else ","
    for p in (first, second):
        for v in p.options.values():
            assert f"{round(v, 1):.1f}".replace(".", sep) + " %" in out
    assert out.index(right) < out.index(not_best)


def test_a_theme_that_does_not_exist_is_refused_in_the_players_words() -> None:
    res = runner.invoke(app, ["--lang", "ru", "puzzle", "thousand", "--theme", "chess"])
    assert res.exit_code == 2 and "Такой темы нет: выберите тему из списка." in res.output


def test_q_stops_at_once_and_counts_nothing() -> None:
    res = runner.invoke(app, ["puzzle", "thousand", "--count", "3", "--seed", "1"], input="q\n")
    assert res.exit_code == 0 and "Solved 0 of 0" in res.output


def test_the_set_draws_near_the_rating() -> None:
    puzzles = PuzzleSet(load_puzzles())
    pid = puzzles.pick(1200, None, set(), np.random.default_rng(0))
    nearest = sorted(abs(r - 1200) for r in puzzles.rating.values())[NEAREST - 1]
    assert pid is not None and abs(puzzles.rating[pid] - 1200) <= nearest
