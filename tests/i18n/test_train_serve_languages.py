"""``dicehall train clever``'s progress and result lines and ``dicehall serve``'s own refusals in each language
(English stays the default)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from dicehall.cli import app
from dicehall.i18n import translator

from .test_cli_languages import SLAVIC, english_left

runner = CliRunner()
TINY = ["--episodes", "40", "--seed", "5", "--hidden", "8,8", "--shards", "2", "--sync", "10"]
TINY += ["--eval-every", "20", "--eval-games", "4", "--jobs", "1"]


def _run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args), env={"COLUMNS": "200"})
    return result.exit_code, " ".join(result.output.split())


def test_a_tiny_training_run_reports_in_russian_and_english(tmp_path: Path) -> None:
    code, russian = _run("train", "clever", *TINY, "--out", str(tmp_path / "ru"), "--lang", "ru")
    assert code == 0, russian
    assert "обучение в" in russian and "готово: эпизодов 40" in russian and "эп/с" in russian
    assert english_left(russian, "ru") == []
    code, english = _run("train", "clever", *TINY, "--out", str(tmp_path / "en"), "--lang", "en")
    assert code == 0, english
    assert "training into" in english and "done: 40 episodes in" in english
    again, refused = _run("train", "clever", *TINY, "--out", str(tmp_path / "ru"), "--lang", "uk")
    assert again == 2 and "вже є навчання; продовжте його з --resume" in refused


@pytest.mark.parametrize("lang", SLAVIC)
def test_train_and_serve_refusals_in_each_language(lang: str) -> None:
    for args in (
        ("serve", "--port", "70000"),
        ("serve", "--bot-delay", "1e9"),
        ("serve", "--settings", "/nonexistent/limits.toml"),
        ("serve", "--sqlite-sync", "SOMETIMES"),
        ("train", "clever", "--lr", "fast"),
        ("train", "clever", "--address", "auto"),
    ):
        code, out = _run(*args, "--lang", lang)
        assert code == 2, (args, out)
        assert english_left(out, lang) == [], (args, out)
        assert translator(lang)("cli.error") in out


def test_the_server_says_where_to_open_it_in_the_language() -> None:
    said = translator("pl")("serve.open", host="127.0.0.1", port="8000", db="sqlite:///x.db")
    assert (
        said
        == "dicehall: otwórz http://127.0.0.1:8000/ (baza danych sqlite:///x.db); Ctrl-C zatrzymuje serwer"
    )


@pytest.mark.parametrize("lang", SLAVIC)
def test_checkpoint_and_setting_refusals_in_each_language(lang: str, tmp_path: Path) -> None:
    """``train clever``'s own refusals about a checkpoint (none there, a damaged file) or a setting."""
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a checkpoint")
    said = translator(lang)
    for args, msgid in (
        (("--resume", str(tmp_path / "nothing")), "clever.train.no_checkpoint"),
        (("--resume", str(junk)), "clever.train.bad_checkpoint"),
        (("--episodes", "0", "--out", str(tmp_path / "z")), "clever.train.setting.episodes"),
        (("--hidden", "8", "--out", str(tmp_path / "h")), "clever.train.setting.hidden"),
    ):
        code, out = _run("train", "clever", *args, "--lang", lang)
        assert code == 2, (args, out)
        assert english_left(out, lang) == [], (args, out)
        assert said(msgid, path="", file="", reason="", choices="")[:12] in out, (args, out)
        assert "Traceback" not in out
