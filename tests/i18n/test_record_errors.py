"""The record loader's reasons in every language: ``dicehall replay BAD.json --lang X`` says what is wrong with
the record in X (the reason, not only the "event N:" around it), and English stays the default."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from dicehall.cli import app

from .test_cli_languages import SLAVIC, english_left, invoke

runner = CliRunner()


def _bad_records(tmp_path: Path) -> dict[str, Path]:
    """One record file per kind of damage, made from a real game."""
    good = tmp_path / "good.json"
    invoke("play", "thousand", "--players", "bot:expert,bot:expert", "--seed", "4", "--save", str(good))
    data: dict[str, Any] = json.loads(good.read_text(encoding="utf-8"))

    def write(name: str, text: str) -> Path:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    forged = json.loads(json.dumps(data))
    forged["result"]["winners"] = [1 - forged["result"]["winners"][0]]
    missing = {k: v for k, v in data.items() if k != "players"}
    illegal = json.loads(json.dumps(data))
    first_move = next(i for i, e in enumerate(illegal["events"]) if e["actor"] != "chance")
    illegal["events"][first_move]["move"] = "bank"
    order = json.loads(json.dumps(data))
    order["events"][2]["n"] = 7
    return {
        "json": write("truncated.json", good.read_text(encoding="utf-8")[:50]),
        "forged": write("forged.json", json.dumps(forged)),
        "missing": write("missing.json", json.dumps(missing)),
        "illegal": write("illegal.json", json.dumps(illegal)),
        "order": write("order.json", json.dumps(order)),
        "seed": write("seed.json", json.dumps({**data, "seed": "minus one"})),
    }


def _replay_fails(path: Path, lang: str) -> str:
    result = runner.invoke(app, ["replay", str(path), "--lang", lang], env={"COLUMNS": "200"})
    assert result.exit_code != 0, result.output
    return " ".join(result.output.split())


ENGLISH = {
    "json": "not valid JSON (truncated or damaged?)",
    "forged": "stored result.winners",
    "missing": "missing field 'players'",
    "illegal": "illegal move 'bank'",
    "order": "events out of order: expected n=3, found 7",
    "seed": "seed must be an integer from 0 to 2**128-1, got 'minus one'",
}
RUSSIAN = {
    "json": "неверный JSON (обрезан или повреждён?)",
    "forged": "отличается от полученного при воспроизведении",
    "missing": "нет поля 'players'",
    "illegal": "недопустимый ход 'bank'",
    "order": "события не по порядку: ожидалось n=3, найдено 7",
    "seed": "зерно должно быть целым числом от 0 до 2**128-1, а не 'minus one'",
}


def test_the_reasons_read_in_english_by_default(tmp_path: Path) -> None:
    for kind, path in _bad_records(tmp_path).items():
        assert ENGLISH[kind] in _replay_fails(path, "en"), kind


def test_the_reasons_read_in_russian(tmp_path: Path) -> None:
    for kind, path in _bad_records(tmp_path).items():
        out = _replay_fails(path, "ru")
        assert RUSSIAN[kind] in out, (kind, out)
        assert english_left(out, "ru") == [], (kind, out)


@pytest.mark.parametrize("lang", SLAVIC)
def test_no_english_reason_is_left(lang: str, tmp_path: Path) -> None:
    for kind, path in _bad_records(tmp_path).items():
        out = _replay_fails(path, lang)
        assert english_left(out, lang) == [], (kind, out)
        assert ENGLISH[kind] not in out
