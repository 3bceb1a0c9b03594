"""A house rule the server refuses is said in the page's language, with its numbers and the options by their
names: as you type (POST /api/rules/check) and on Create (POST /api/tables), for Dice 1000, Clever and Wurf,
in Russian and Polish, with no English left in the form."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .helpers import set_rule
from .test_i18n import assert_no_english

pytestmark = pytest.mark.browser

LOCALES = {"ru": "ru-RU", "pl": "pl-PL"}
# What each refusal reads, worded by the page from the server's message id and parameters.
SAID = {
    "ru": {
        "refused": "Сервер отказал: ",
        "pit": "яма [900, 950] заходит за границу бочки (880)",
        "exact": "С бочки — ровно: нужно выключить «Остановка на бочке» (срезанный счёт не может попасть ровно)",
        "rounds": "Раунды: нужно от 0 до 6, а не 9",
        "box": "игроки × запас = 3 × 15: столько не помещается в коробку из 31 кубика (один кладут на арену)",
        "hot": "Подтверждать снова: нужно «Все пять сыграли» = «подтверждающий бросок»",
        "bound": "каждое число в «Ямы»: нужно от 0 до 5\u00a0000, а не 20\u00a0000",
    },
    "pl": {
        "refused": "Serwer odmówił: ",
        "pit": "dołek [900, 950] sięga poza granicę beczki (880)",
        "exact": "Z beczki — dokładnie: wymaga wyłączenia „Zatrzymanie na beczce” (przycięty wynik nie trafi dokładnie)",
        "rounds": "Rundy: wymagane od 0 do 6, a nie 9",
        "box": "gracze × kostki = 3 × 15: tyle nie mieści się w pudełku z 31 kostkami (jedna idzie na arenę)",
        "hot": "Potwierdzaj ponownie: wymaga „Wszystkie pięć punktuje” = „rzut potwierdzający”",
        "bound": "każda liczba w „Dołki”: wymagane od 0 do 5000, a nie 20\u00a0000",  # (4 digits: no group in Polish)
    },
}


def error_at(page: Any, option: str, text: str) -> None:
    """Wait until the form shows ``text`` at ``option`` (the server answers after a short pause); a set of rules
    that works may follow it (docs/thousand.md "Rule sets that adapt")."""
    sel = f"[data-error-for={option}]"
    try:
        page.wait_for_function(
            "([sel, text]) => { const el = document.querySelector(sel); return el && !el.hidden && el.textContent.startsWith(text); }",
            arg=[sel, text],
            timeout=10000,
        )
    except Exception:
        assert (page.locator(sel).text_content() or "").startswith(text)
        raise


def toast_says(page: Any, text: str) -> None:
    page.wait_for_function(
        "(text) => { const el = document.getElementById('toast'); return el && !el.hidden && el.textContent.startsWith(text); }",
        arg=text,
    )
    # a refusal interrupts a screen reader: said at once, not after what it is reading
    assert page.get_attribute("#toast", "aria-live") == "assertive"
    assert page.get_attribute("#toast", "role") == "alert"


def without_bounds(route: Any) -> None:
    """``GET /api/games`` with the options' bounds left out: the form then sends what the server refuses."""
    games = route.fetch().json()
    for game in games:
        for opt in game.get("options", []):
            for bound in ("min", "max", "step", "max_items"):
                opt.pop(bound, None)
    route.fulfill(status=200, content_type="application/json", body=json.dumps(games))


def lobby(new_page: Any, lang: str, game: str, *, preset: str = "", bounds: bool = True) -> Any:
    """A page in ``lang`` on the new-table form of ``game``, once its house rules (of ``preset``, if given) show;
    ``bounds=False``: the options' bounds withheld from the form (:func:`without_bounds`)."""
    page = new_page(locale=LOCALES[lang])
    if not bounds:
        page.route("**/api/games", without_bounds)
    page.goto(f"/new?game={game}")
    which = f"[data-preset={preset}]" if preset else ""
    page.wait_for_selector(f"[data-testid=rules-box]{which} details")
    return page


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_a_refused_dice_1000_house_rule_in_the_pages_language(new_page: Any, lang: str) -> None:
    said = SAID[lang]
    page = lobby(new_page, lang, "thousand", preset="classic")
    # A pit past the barrel (880): the server's cross-option check, nested "the barrel" and the number in words.
    set_rule(page, "pits", [[100, 200], [300, 400], [900, 950]])
    error_at(page, "pits", said["pit"])
    assert_no_english(page, lang, "the lobby with a refused pit")
    set_rule(page, "pits", [[100, 200]])
    page.wait_for_function("() => document.querySelector('[data-error-for=pits]').hidden")

    # A refusal naming two options: both by their names in the language, not their keys.
    set_rule(page, "barrel_exact", True)
    error_at(page, "barrel_exact", said["exact"])
    # Create anyway: the server refuses the table with the same words, at the option and in the toast.
    page.click("#create")
    toast_says(page, said["refused"] + said["exact"])
    error_at(page, "barrel_exact", said["exact"])
    assert "/new" in page.url
    assert_no_english(page, lang, "the lobby with a refused table")

    # An option that needs another option's choice: the choice by its name too.
    set_rule(page, "barrel_exact", False)
    set_rule(page, "reconfirm_hot", True)
    error_at(page, "reconfirm_hot", said["hot"])
    assert page.locator("[data-error-for=barrel_exact]").is_hidden()


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_a_refused_clever_house_rule_in_the_pages_language(new_page: Any, lang: str) -> None:
    """The form checks Clever's bounds itself; with the bounds withheld from it (a page older than the server's
    limits), the number reaches the server, whose refusal names the option in the page's language."""
    page = lobby(new_page, lang, "clever", bounds=False)
    set_rule(page, "rounds", 9)
    error_at(page, "rounds", SAID[lang]["rounds"])
    assert_no_english(page, lang, "the Clever lobby with a refused house rule")


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_a_refused_number_inside_a_list_names_the_option(new_page: Any, lang: str) -> None:
    """A pit bound past the server's limit: a message nested in the refusal ("every number in ...") names the
    option in words too, and the numbers are the language's (grouped as Intl.NumberFormat groups them)."""
    page = lobby(new_page, lang, "thousand", preset="classic", bounds=False)
    set_rule(page, "pits", [[100, 200], [300, 20000]])
    error_at(page, "pits", SAID[lang]["bound"])
    assert_no_english(page, lang, "the lobby with a pit past the limit")


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_a_refused_wurf_table_in_the_pages_language(new_page: Any, lang: str) -> None:
    """15 dice each for three players do not fit the box of 31: only the table's seats tell, so Create is refused."""
    said = SAID[lang]
    page = lobby(new_page, lang, "wurf")
    page.wait_for_selector(".seat-row")
    page.click("#add-seat")
    assert page.locator(".seat-row").count() == 3
    set_rule(page, "dice_per_player", 15)
    page.wait_for_timeout(600)  # the as-you-type check finds nothing wrong with the rules alone
    assert page.locator("[data-error-for=dice_per_player]").is_hidden()
    page.click("#create")
    toast_says(page, said["refused"] + said["box"])
    error_at(page, "dice_per_player", said["box"])
    assert_no_english(page, lang, "the Wurf lobby with a refused table")
