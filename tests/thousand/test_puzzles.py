"""Dice 1000 puzzles: the shipped batch against the table, a deterministic and resumable miner, its command."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dicehall.cli import _register_games, app
from dicehall.core.analysis import evaluator_for
from dicehall.thousand import puzzles
from dicehall.thousand.puzzles import MARGIN, SHIPPED, THEMES, Miner, Puzzle, load_puzzles, mine, position_key
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.state import ThousandState

_register_games()
runner = CliRunner()
RULES = ThousandRules.from_preset("classic", {})


@pytest.fixture(scope="module")
def miner() -> Miner:
    return Miner()


@pytest.fixture(scope="module")
def shipped() -> list[Puzzle]:
    return load_puzzles()


def test_the_shipped_batch_is_small_distinct_and_of_classic(shipped: list[Puzzle]) -> None:
    assert SHIPPED.stat().st_size <= 1_000_000
    header, _ = puzzles.read_file(SHIPPED)
    assert header == {
        "format": puzzles.FORMAT, "game": "thousand", "rules": "classic", "players": 2, "seed": 0, "margin": MARGIN
    }  # fmt: skip
    assert len(shipped) >= 300
    assert len({p.key for p in shipped}) == len(shipped)
    assert {p.theme for p in shipped} <= set(THEMES)
    assert all(p.margin >= MARGIN and p.best in p.options for p in shipped)


def test_every_sampled_puzzle_is_the_tables_best_by_its_margin(shipped: list[Puzzle], miner: Miner) -> None:
    """Rebuilt from its fields, each sampled position has two choices, the stated best is the table's best
    (valued again through the analysis's own evaluator) and beats the other by the stated margin."""
    evaluator = evaluator_for("thousand", RULES, 2)
    for p in random.Random(7).sample(shipped, 60):
        s = p.state()
        assert position_key(s) == p.key
        values = {str(a): v for a, v in evaluator.decision_values(s)}
        assert len(values) >= 2 and set(values) == set(p.options)
        ranked = sorted(values.items(), key=lambda kv: -kv[1])
        assert ranked[0][0] == p.best
        assert ranked[0][1] - ranked[1][1] >= MARGIN
        assert ranked[0][1] - ranked[1][1] == pytest.approx(p.margin, abs=1e-3)
        assert max(values.values()) < 100.0  # a bank that wins at once is no puzzle
        assert miner.missed_by(s, p.best) == p.missed_by


def test_mining_is_deterministic_and_resumes_to_the_same_file(tmp_path: Path, miner: Miner) -> None:
    whole, parts = tmp_path / "whole.jsonl", tmp_path / "parts.jsonl"
    assert mine(whole, 25, seed=5, miner=miner) == 25
    again = tmp_path / "again.jsonl"
    mine(again, 25, seed=5, miner=miner)
    assert again.read_bytes() == whole.read_bytes()

    class Killed(Exception):
        pass

    def kill_after_9(held: int, game: int) -> None:
        if held == 9:
            raise Killed

    with pytest.raises(Killed):
        mine(parts, 25, seed=5, miner=miner, progress=kill_after_9)
    with parts.open("a", encoding="utf-8") as f:
        f.write('{"key":"half a line')  # a run killed while writing
    assert len(load_puzzles(parts)) == 9
    assert mine(parts, 16, seed=5, miner=miner) == 16  # stops in the middle of a game
    assert mine(parts, 25, seed=5, miner=miner) == 25
    assert parts.read_bytes() == whole.read_bytes()
    assert mine(parts, 20, seed=5, miner=miner) == 25  # already holds enough: nothing written
    assert parts.read_bytes() == whole.read_bytes()
    first_games = {p.game for p in load_puzzles(whole)}
    assert len(first_games) > 1


def test_another_seed_on_the_same_file_is_refused(tmp_path: Path, miner: Miner) -> None:
    path = tmp_path / "p.jsonl"
    mine(path, 3, seed=1, miner=miner)
    before = path.read_bytes()
    with pytest.raises(puzzles.PuzzleFileError) as err:
        mine(path, 6, seed=2, miner=miner)
    assert err.value.msgid == "puzzle.error.other_run"
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    ("fields", "total", "expected"),
    [
        ({"scores": [0, 300], "opened": [False, True]}, 60, "opening"),
        ({"scores": [250, 300]}, 30, "pit escape"),
        ({"scores": [800, 300]}, 100, "barrel"),
        ({"scores": [400, 880], "on_barrel": [False, True]}, 50, "barrel"),
        ({"scores": [400, 300], "bolts": [2, 0]}, 50, "bolts"),
        ({"scores": [400, 300]}, 50, "bank or roll"),
    ],
)
def test_themes_come_from_the_position(fields: dict[str, list[int]], total: int, expected: str) -> None:
    s = ThousandState.from_position(
        RULES,
        fields["scores"],
        opened=fields.get("opened"),
        on_barrel=fields.get("on_barrel"),
        bolts=fields.get("bolts"),
    )
    s.turn_total = total
    assert puzzles.theme(s, hot=False) == expected
    if expected == "bank or roll":
        assert puzzles.theme(s, hot=True) == "hot dice"


LANG_WORDS = {"en": "Puzzles in", "ru": "Задач в", "uk": "Задач у", "pl": "Zadań w"}
REFUSAL_WORDS = {"en": "choose another file", "ru": "выберите другой файл", "uk": "виберіть інший файл",
                 "pl": "wybierz inny plik"}  # fmt: skip


@pytest.mark.parametrize("lang", ["en", "ru", "uk", "pl"])
def test_the_command_in_four_languages(tmp_path: Path, lang: str) -> None:
    out = tmp_path / "p.jsonl"
    args = ["--lang", lang, "puzzle", "mine", "thousand", "--out", str(out), "--seed", "3"]
    first = runner.invoke(app, [*args, "--count", "4"])
    assert first.exit_code == 0, first.output
    assert LANG_WORDS[lang] in first.output
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 5 and json.loads(lines[0])["seed"] == 3
    more = runner.invoke(app, [*args, "--count", "6"])
    assert more.exit_code == 0 and len(load_puzzles(out)) == 6
    refused = runner.invoke(app, [*args[:-1], "4", "--count", "8"])
    assert refused.exit_code == 2
    assert REFUSAL_WORDS[lang] in refused.output
    assert len(load_puzzles(out)) == 6
