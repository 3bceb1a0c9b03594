"""``--help`` in four languages (dicehall.i18n.helptext): every help text of every command has a translation,
and the real entry point speaks the language of ``LANG`` or of ``--lang`` given anywhere on the line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer

from dicehall import cli
from dicehall.i18n.helptext import _TYPER_WORDS, USAGE, help_catalog, help_language


def _texts(command: Any) -> set[str]:
    out = {t for t in (command.help, command.short_help, command.epilog) if t}
    out |= {p.help for p in command.params if getattr(p, "help", None)}
    if hasattr(command, "list_commands"):
        ctx = command.context_class(command)
        for name in command.list_commands(ctx):
            out |= _texts(command.get_command(ctx, name))
    return out


def _english_texts() -> set[str]:
    cli._register_games()
    from typer import rich_utils

    typer_words = {getattr(rich_utils, name) for name in _TYPER_WORDS}
    return _texts(typer.main.get_command(cli.app)) | typer_words | {"Show this message and exit.", USAGE}


@pytest.mark.parametrize("lang", ["ru", "uk", "pl"])
def test_every_help_text_is_translated_and_no_entry_is_stale(lang: str) -> None:
    english = _english_texts()
    catalog = help_catalog(lang)
    missing = sorted(english - set(catalog))
    assert not missing, f"{lang}: --help texts without a translation in locales/help/{lang}.po: {missing}"
    stale = sorted(set(catalog) - english)
    assert not stale, f"{lang}: entries no command has any more: {stale}"
    for en, said in catalog.items():
        assert said != en or en.startswith("TCP"), f"{lang}: {en!r} left in English"


def test_the_language_comes_from_lang_anywhere_on_the_line_or_the_locale(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    assert help_language(["play", "--help"]) == "en"
    assert help_language(["--lang", "pl", "simulate", "--help"]) == "pl"
    assert help_language(["play", "thousand", "--lang=uk", "--help"]) == "uk"
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    assert help_language(["play", "--help"]) == "ru"
    assert help_language(["--lang", "xx", "play"]) == "ru"  # the option itself refuses an unknown language


def _run(args: list[str], lang: str | None) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG")}
    env["COLUMNS"] = "200"
    if lang:
        env["LANG"] = lang
    code = "import sys; from dicehall.cli import main; sys.argv[0] = 'dicehall'; main()"
    done = subprocess.run(
        [sys.executable, "-c", code, *args], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_help_of_the_real_command_in_russian_and_polish() -> None:
    ru = _run(["play", "--help"], "ru_RU.UTF-8")
    assert "Сыграть в терминале против ботов или друзей." in ru and "Параметры" in ru and "Команды" in ru
    assert "Play a game in the terminal" not in ru and "Show this message" not in ru
    pl = _run(["--lang", "pl", "simulate", "--help"], None)
    assert "Symulacja partii botów ze statystykami." in pl and "Tysiąc bot przeciw botowi" in pl
    assert "Bot-versus-bot" not in pl
    en = _run(["simulate", "thousand", "--help"], None)
    assert "Bot-versus-bot Dice 1000" in en and "[default: 1000]" in en


def test_lang_before_the_command_holds_for_the_command() -> None:
    """``dicehall --lang pl rules thousand``: the command's messages follow the --lang given before it."""
    out = _run(["--lang", "pl", "rules", "thousand"], "ru_RU.UTF-8")
    english = _run(["rules", "thousand"], None)
    assert out != english and not any("а" <= ch <= "я" for ch in out)  # Polish, not the LANG's Russian


@pytest.mark.parametrize(("lang", "word"), [("ru_RU.UTF-8", "Использование:"), ("pl_PL.UTF-8", "Użycie:")])
def test_the_usage_line_is_in_the_locale_language(lang: str, word: str) -> None:
    """``LANG=ru_RU.UTF-8 dicehall play --help`` (a real process, the locale from the environment) says no
    "Usage:", and a usage error names the usage line and the help hint in the language too."""
    env = {
        **os.environ,
        "LANG": lang,
        "COLUMNS": "100",
        "PYTHONPATH": str(Path(__file__).resolve().parents[2]),
    }
    env.pop("LC_ALL", None)
    env.pop("LC_MESSAGES", None)
    cmd = [sys.executable, "-m", "dicehall.cli"]
    shown = subprocess.run(
        [*cmd, "play", "--help"], env=env, capture_output=True, text=True, check=True
    ).stdout
    assert "Usage:" not in shown and word in shown
    wrong = subprocess.run([*cmd, "play", "thousand", "--nonsense"], env=env, capture_output=True, text=True)
    assert wrong.returncode != 0 and "Usage:" not in wrong.stderr and word in wrong.stderr
    english = subprocess.run(
        [*cmd, "play", "--help"], env={**env, "LANG": "C.UTF-8"}, capture_output=True, text=True, check=True
    )
    assert "Usage:" in english.stdout
