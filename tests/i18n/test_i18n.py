"""The Python catalogues: complete in every language, CLDR plurals, locale numbers, language detection."""

from __future__ import annotations

import json
import re
from gettext import c2py
from pathlib import Path
from typing import Any

import pytest
from babel.messages.plurals import get_plural

from dicehall.i18n import (
    BROWSER_PREFIXES,
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


def test_wurf_plurals_in_every_slavic_language() -> None:
    """A player's supply on the Wurf board and the referee's take, for 1, 2, 5, 21, 22, 25 dice."""
    ns = (1, 2, 5, 21, 22, 25)
    assert [translator("ru")("wurf.term.supply", name="Аня", n=n) for n in ns] == [
        "Аня: 1 кубик", "Аня: 2 кубика", "Аня: 5 кубиков", "Аня: 21 кубик", "Аня: 22 кубика", "Аня: 25 кубиков",
    ]  # fmt: skip
    assert [translator("uk")("wurf.ref.takes", who="Аня", n=n, faces="3") for n in ns] == [
        f"Аня забирає {n} {word} (збіглися: 3)"
        for n, word in zip(ns, ("кубик", "кубики", "кубиків", "кубик", "кубики", "кубиків"), strict=True)
    ]
    assert [translator("pl")("wurf.narrate.thrown_many", n=n, faces="X") for n in ns] == [
        f"{n} {word}: X"
        for n, word in zip(
            ns,
            ("rzucona kostka", "rzucone kostki", "rzuconych kostek", "rzuconych kostek", "rzucone kostki",
             "rzuconych kostek"),
            strict=True,
        )
    ]  # fmt: skip
    assert translator("en")("wurf.term.supply", name="Ann", n=1) == "Ann: 1 die"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalogue_header_is_the_cldr_rule_and_every_id_is_translated(lang: str) -> None:
    english = load_catalog("en")
    catalog = load_catalog(lang)
    cldr = get_plural(lang)
    assert catalog.num_plurals == cldr.num_plurals
    # The same rule, not the same text: Babel rewrites the expression between releases (2.19 added parentheses).
    ours, theirs = c2py(catalog.plural_expr), c2py(cldr.plural_expr)
    differ = [n for n in range(1001) if ours(n) != theirs(n)]
    assert not differ, (
        f"{lang}: the catalogue's plural rule picks another form than CLDR's for n = {differ[:10]}"
    )
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


def test_a_half_rounds_away_from_zero_as_in_the_browser() -> None:
    """Intl.NumberFormat (the page) rounds a half away from zero; the terminal's figures must read the same."""
    assert translator("en").fixed(30.25, 1) == "30.3"
    assert translator("ru").fixed(30.25, 1) == "30,3"
    assert translator("en").fixed(-0.125, 2) == "-0.13"
    assert translator("en").fixed(2.5, 0) == "3"
    assert translator("en").fixed(30.249, 1) == "30.2"


def test_english_numbers_are_babels_without_its_locale_data() -> None:
    """English is formatted by Python (no Babel locale data at start-up): the same text as Babel's, grouped or
    with fixed places, for whole numbers, halves at every place, negatives, zero and its sign, numpy values."""
    import decimal
    import random

    import numpy as np
    from babel.numbers import format_decimal

    from dicehall.i18n import format_number

    rng = random.Random(2026)
    values: list[Any] = [0, -1, 999, 1000, -1000, 10**15, -0.0, 0.0, 30.25, 0.125, 0.0005, 0.0015, 2.5, -2.5]
    values += [1e-7, 99.95, 1e19, float("inf"), np.int64(1234567), np.float64(0.1), np.float32(30.25)]
    values += [rng.randint(-(10**9), 10**9) for _ in range(500)]
    values += [round(rng.uniform(-1e6, 1e6), rng.randint(0, 6)) for _ in range(1000)]
    values += [rng.randint(-4000, 4000) / rng.choice((8, 100, 2000)) for _ in range(1000)]
    for value in values:
        assert format_number(value, "en") == format_decimal(value, locale="en"), value
        for places in (0, 1, 2, 3):
            with decimal.localcontext() as ctx:
                ctx.rounding = decimal.ROUND_HALF_UP
                pattern = "0." + "0" * places if places else "0"
                babel = format_decimal(value, format=pattern, locale="en")
            assert format_number(value, "en", places) == babel, (value, places)


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


def _browser_forms(lang: str, msg: Any) -> Any:
    """A .po message as the browser catalogue writes it: a string, or forms by CLDR category."""
    if not isinstance(msg.id, tuple):
        return msg.string
    categories = ["one", "other"] if lang == "en" else ["one", "few", "many"]
    forms = dict(zip(categories, msg.string, strict=True))
    if lang != "en":
        forms["other"] = forms["few"]  # fractions: the CLDR "other" of ru/uk/pl reads like "few"
    return forms


def test_messages_shared_with_the_browser_say_the_same() -> None:
    """Engine messages the server sends (refusals, rule-set errors, the words they nest) are in the browser's JSON
    catalogues with the same id, wording and parameters, so an id renders alike in the terminal and the page;
    an id both sides have says the same on both."""
    web = Path(__file__).resolve().parents[2] / "web" / "src" / "locales"
    for lang in LANGUAGES:
        browser = json.loads((web / f"{lang}.json").read_text(encoding="utf-8"))
        catalog = load_catalog(lang)
        sent = [m for m in catalog if m.id and _id(m).startswith(BROWSER_PREFIXES)]
        assert len(sent) > 50, "the .po catalogues carry the engines' refusals"
        for msg in sent:
            assert browser.get(_id(msg)) == _browser_forms(lang, msg), (
                f"{lang}: {_id(msg)} differs or is missing"
            )
        for msg in catalog:
            if msg.id and _id(msg) in browser:
                assert browser[_id(msg)] == _browser_forms(lang, msg), f"{lang}: {_id(msg)} differs"


def _id(msg: Any) -> str:
    return msg.id if isinstance(msg.id, str) else msg.id[0]


def _source_ids() -> tuple[set[str], set[str]]:
    """Ids written whole in dicehall's source, and the prefixes of ids built in f-strings (``f"cli.col.{c}"``)."""
    root = Path(__file__).resolve().parents[2] / "dicehall"
    source = "\n".join(p.read_text(encoding="utf-8") for p in root.rglob("*.py"))
    whole = set(re.findall(r"""["']([a-z][a-z0-9_]*(?:\.[a-z0-9_-]+)+)["']""", source))
    prefixes = set(re.findall(r"""f["']([a-z][a-z0-9_]*\.[a-z0-9_.]+)\{""", source))
    return whole, prefixes


def _built_ids() -> set[str]:
    """Ids built from engine data: game titles, presets, rule options, statistics, Clever's dice/areas/bonuses."""
    from dicehall.clever import sheet as S
    from dicehall.clever.tables import ORIGIN_PLACES
    from dicehall.clever.words import BONUS_KEYS
    from dicehall.core.game import game_names, get_game
    from dicehall.wurf.state import STAT_KEYS

    ids = {f"game.{g}.title" for g in game_names()}
    for game in ("thousand", "clever", "wurf"):
        rules = get_game(game).rules_type
        ids |= {f"preset.{game}.{p}" for p in rules.PRESETS} | {
            f"preset.{game}.{p}.doc" for p in rules.PRESETS
        }
        ids |= {f"rule.{game}.{key}.doc" for key in rules.option_names()}
        ids |= {f"stat.{key}" for key in get_game(game).new_initial_state(rules.from_preset(None), 2).stats()}
    ids |= {f"stat.{key}" for key in STAT_KEYS}  # Wurf counts them as they happen: none on a new state
    ids |= {f"clever.die.{d}" for d in S.DIE_NAMES} | {f"clever.area.{a}" for a in S.AREA_NAMES}
    ids |= {f"clever.bonus.{k}" for k in BONUS_KEYS.values()}
    ids |= {f"clever.origin.{place}" for place in ORIGIN_PLACES}
    return ids


def test_every_message_is_used_and_every_engine_name_has_one() -> None:
    """No id in the catalogues that nothing uses; every rule option, preset, statistic of Dice 1000 and Clever has
    its message (a new option without a translation fails here)."""
    ids = {_id(m) for m in load_catalog("en") if m.id}
    whole, prefixes = _source_ids()
    built = _built_ids()
    assert sorted(built - ids) == [], "engine names without a message"
    unused = sorted(
        i for i in ids if i not in whole and i not in built and not any(i.startswith(p) for p in prefixes)
    )
    assert unused == [], f"messages nothing uses: {unused}"


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
    said = " ".join(re.sub("[│╭╮╰╯─]", " ", bad.output).split())
    assert (
        bad.exit_code == 2 and "nieznany język 'xx'" in said and "en, ru, uk, pl" in said
    )  # in the language in force
    assert current().lang == "pl"
