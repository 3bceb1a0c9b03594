"""The Python catalogues: complete in every language, CLDR plurals, locale numbers, language detection."""

from __future__ import annotations

import re

import pytest
from babel.messages.plurals import get_plural

from dicehall.i18n import (
    DEFAULT_LANGUAGE,
    LANGUAGES,
    UnknownLanguageError,
    detect_language,
    load_catalog,
    translator,
)

PLACEHOLDER = re.compile(r"\{(\w+)\}")

# CLDR: ru/uk one (1, 21, ...), few (2-4, 22-24, ...), many (5-20, 25-30, ...); pl one only for 1 itself.
PLURALS = {
    "ru": {
        1: "1 очко",
        2: "2 очка",
        5: "5 очков",
        21: "21 очко",
        22: "22 очка",
        25: "25 очков",
        11: "11 очков",
    },
    "uk": {
        1: "1 бал",
        2: "2 бали",
        5: "5 балів",
        21: "21 бал",
        22: "22 бали",
        25: "25 балів",
        12: "12 балів",
    },
    "pl": {
        1: "1 punkt",
        2: "2 punkty",
        5: "5 punktów",
        21: "21 punktów",
        22: "22 punkty",
        25: "25 punktów",
        12: "12 punktów",
    },
}


@pytest.mark.parametrize("lang", sorted(PLURALS))
def test_plural_forms_follow_cldr(lang: str) -> None:
    t = translator(lang)
    assert {n: t.plural("unit.points", n) for n in PLURALS[lang]} == PLURALS[lang]


def test_plural_forms_of_dice_in_every_slavic_language() -> None:
    assert [translator("ru").plural("unit.dice", n) for n in (1, 2, 5, 21, 22, 25)] == [
        "1 кубик", "2 кубика", "5 кубиков", "21 кубик", "22 кубика", "25 кубиков",
    ]  # fmt: skip
    assert [translator("uk").plural("unit.dice", n) for n in (1, 2, 5, 21, 22, 25)] == [
        "1 кубик", "2 кубики", "5 кубиків", "21 кубик", "22 кубики", "25 кубиків",
    ]  # fmt: skip
    assert [translator("pl").plural("unit.dice", n) for n in (1, 2, 5, 21, 22, 25)] == [
        "1 kostka", "2 kostki", "5 kostek", "21 kostek", "22 kostki", "25 kostek",
    ]  # fmt: skip
    assert [translator("en").plural("unit.dice", n) for n in (1, 2)] == ["1 die", "2 dice"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalogue_header_is_the_cldr_rule_and_every_id_is_translated(lang: str) -> None:
    english = load_catalog("en")
    catalog = load_catalog(lang)
    assert catalog.num_plurals == get_plural(lang).num_plurals
    assert catalog.plural_expr == get_plural(lang).plural_expr
    ids = {m.id if isinstance(m.id, str) else m.id[0] for m in english if m.id}
    assert ids == {m.id if isinstance(m.id, str) else m.id[0] for m in catalog if m.id}
    for msg in catalog:
        if not msg.id:
            continue
        strings = list(msg.string) if isinstance(msg.string, tuple) else [msg.string]
        assert all(strings), f"{lang}: {msg.id} has an empty translation"
        if isinstance(msg.id, tuple):
            assert len(strings) == catalog.num_plurals, f"{lang}: {msg.id[0]} needs every plural form"
        source = english[msg.id if isinstance(msg.id, str) else msg.id[0]]
        assert source is not None
        english_strings = list(source.string) if isinstance(source.string, tuple) else [source.string]
        wanted = {p for s in english_strings for p in PLACEHOLDER.findall(s)}
        for s in strings:
            assert set(PLACEHOLDER.findall(s)) <= wanted | {"n"}, f"{lang}: {msg.id} has unknown parameters"


def test_numbers_in_the_locale_format() -> None:
    assert translator("en").number(12345) == "12,345"
    assert translator("ru").number(12345) == "12\xa0345"
    assert translator("uk").number(1234.5) == "1\xa0234,5"
    assert translator("pl").number(12345) == "12\xa0345"
    # parameters that are numbers are formatted too
    assert translator("ru")("thousand.refusal.pit", low=200, high=300, need=1075).endswith("1\xa0075")


def test_dates_in_the_locale_format() -> None:
    import datetime as dt

    when = dt.datetime(2026, 3, 5, 14, 7)
    assert translator("en").datetime(when, "long").startswith("March 5, 2026")
    assert translator("ru").datetime(when, "long").startswith("5 марта 2026")
    assert translator("uk").datetime(when, "long").startswith("5 березня 2026")
    assert translator("pl").datetime(when, "long").startswith("5 marca 2026")


def test_parameters_and_english_fallback() -> None:
    assert translator("en")("thousand.refusal.opening", min=50) == "not opened: bank at least 50"
    assert translator("ru")("thousand.refusal.opening", min=50) == "игра не открыта: запишите не меньше 50"
    assert translator("ru")("no.such.id") == "no.such.id"


@pytest.mark.parametrize(
    ("option", "env", "expected"),
    [
        (None, {}, "en"),
        (None, {"LANG": "ru_RU.UTF-8"}, "ru"),
        (None, {"LANG": "ru_RU.UTF-8", "LC_ALL": "uk_UA.UTF-8"}, "uk"),
        (None, {"LANG": "pl_PL.UTF-8", "LC_MESSAGES": "ru_RU"}, "ru"),
        (None, {"LC_ALL": "", "LANG": "pl_PL@euro"}, "pl"),
        (None, {"LANG": "C.UTF-8"}, "en"),
        (None, {"LANG": "de_DE.UTF-8"}, "en"),  # no catalogue: English, not the next variable
        ("uk", {"LC_ALL": "ru_RU.UTF-8"}, "uk"),
        ("pl-PL", {}, "pl"),
        ("RU", {}, "ru"),
    ],
)
def test_detect_language(option: str | None, env: dict[str, str], expected: str) -> None:
    assert detect_language(option, env) == expected


def test_unknown_lang_option_is_an_error_that_names_the_choices() -> None:
    with pytest.raises(UnknownLanguageError, match="use one of en, ru, uk, pl"):
        detect_language("klingon", {})
    with pytest.raises(UnknownLanguageError):
        load_catalog("de")
    assert DEFAULT_LANGUAGE == "en"


def test_messages_shared_with_the_browser_say_the_same() -> None:
    """Engine messages (refusals today) have the same id, wording and parameters in the .po catalogues and the
    browser's JSON catalogues, so an engine message id renders alike in the terminal and the page."""
    import json
    from pathlib import Path

    web = Path(__file__).resolve().parents[2] / "web" / "src" / "locales"
    for lang in LANGUAGES:
        browser = json.loads((web / f"{lang}.json").read_text(encoding="utf-8"))
        catalog = load_catalog(lang)
        shared = [m for m in catalog if isinstance(m.id, str) and m.id.startswith("thousand.") and m.id]
        assert shared, "the .po catalogues carry the Dice 1000 refusals"
        for msg in shared:
            assert browser.get(msg.id) == msg.string, f"{lang}: {msg.id} differs between .po and JSON"


def test_lang_option_for_commands(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--lang`` (dicehall.i18n.cli) as a command uses it: the option wins, the environment is the default, an
    unknown value is a usage error naming the choices and changes nothing."""
    import typer
    from typer.testing import CliRunner

    from dicehall.i18n import current
    from dicehall.i18n.cli import LangOpt, apply_lang

    app = typer.Typer()

    @app.command()
    def hello(lang: str = LangOpt) -> None:
        t = apply_lang(lang)
        typer.echo(t.plural("unit.points", 22))

    runner = CliRunner()
    monkeypatch.setenv("LANG", "uk_UA.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    assert runner.invoke(app, []).output.strip() == "22 бали"
    assert runner.invoke(app, ["--lang", "pl"]).output.strip() == "22 punkty"
    assert current().lang == "pl"
    bad = runner.invoke(app, ["--lang", "xx"])
    assert bad.exit_code == 2 and "use one of en, ru, uk, pl" in bad.output
    assert current().lang == "pl"
