"""The Clever strategy page (web/src/strategy-clever.ts) on the real server: the bars and tables show the API's
numbers (which are the shipped file's), the home page and the how-to link to it, the heading and the first bar
picture lie on screen at 1280×800 and 390×844, in the four languages; no serious axe violation; screenshots go
to ``test-artifacts/strategy/``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from dicehall.clever.strategy import shipped

from .conftest import Server
from .test_accessibility import violations
from .test_one_screen import MEASURE_JS

pytestmark = pytest.mark.browser

CASES = [
    ("desktop", 1280, 800, "en-US"),
    ("phone", 390, 844, "ru-RU"),
    ("desktop-uk", 1280, 800, "uk-UA"),
    ("phone-pl", 390, 844, "pl-PL"),
]
TITLES = {
    "en": "where the master bot",
    "ru": "откуда берутся очки",
    "uk": "звідки беруться очки",
    "pl": "skąd biorą się punkty",
}


def numbers(text: str) -> list[float]:
    """The numbers of a text as written in any of the four languages ("52,4 ± 0,2" → [52.4, 0.2])."""
    clean = text.replace("\u00a0", "").replace("\u202f", "")
    return [float(x.replace(",", ".")) for x in re.findall(r"-?\d+(?:[.,]\d+)?", clean)]


def shown(text: str, value: float, digits: int, at: int = 0) -> bool:
    """The ``at``-th number of ``text`` is ``value`` written with ``digits`` decimals (the page rounds halves
    away from zero, Python's ``round`` to the nearest binary value)."""
    return abs(numbers(text)[at] - value) <= 0.5 * 10**-digits + 1e-9


@pytest.mark.parametrize(("name", "width", "height", "locale"), CASES, ids=[c[0] for c in CASES])
def test_the_page_shows_the_shipped_figures(
    new_page: Any, server: Server, artifacts: Path, name: str, width: int, height: int, locale: str
) -> None:
    shots = artifacts / "strategy"
    shots.mkdir(exist_ok=True)
    page = new_page(width, height, locale=locale)
    with page.expect_response(lambda r: r.url.endswith("/api/strategy/clever")) as got:
        page.goto("/strategy/clever")
    data = got.value.json()
    want = shipped()
    assert data == {k: v for k, v in want.items() if k != "sample"}
    bars = page.get_by_test_id("clever-area-bars")
    bars.wait_for()
    assert TITLES[locale[:2]] in page.locator("h1").inner_text()

    # each bar says its area and its mean (for screen readers in its name, on screen beside it)
    solo = data["tables"]["1"]
    rows = bars.locator("li")
    assert rows.count() == 6
    for k, key in enumerate(["yellow", "blue", "green", "orange", "purple", "fox_points"]):
        mean = solo["areas"][key]["mean"]
        assert shown(rows.nth(k).get_attribute("aria-label") or "", mean, 1, -1)
        assert shown(rows.nth(k).locator(".bar-value").inner_text(), mean, 1)
    gained = page.get_by_test_id("clever-round-bars").locator("li")
    assert gained.count() == len(solo["rounds"]["gained"])
    assert shown(gained.nth(5).locator(".bar-value").inner_text(), solo["rounds"]["gained"][5]["mean"], 1)

    # tables: the areas at every size, the colours (best worth first), the first round's choices
    total = page.get_by_test_id("clever-areas").locator("tbody tr").last.locator("td")
    for i, n in enumerate(("1", "2", "3", "4")):
        assert shown(total.nth(i).inner_text(), data["tables"][n]["areas"]["total"]["mean"], 1)
    best = max(data["colours"], key=lambda c: c["edge"]["mean"])
    first_colour = page.get_by_test_id("clever-colours").locator("tbody tr").first
    assert shown(first_colour.locator("td").last.inner_text(), best["edge"]["mean"], 2)
    choices = page.get_by_test_id("clever-first").locator("tbody tr")
    assert choices.count() == len(data["first_round"]["choices"])
    assert shown(
        choices.first.locator("td").last.inner_text(), data["first_round"]["choices"][0]["margin"], 1
    )
    assert "pick:" not in page.get_by_test_id("clever-first").inner_text()  # words, never codes

    on = page.evaluate(
        MEASURE_JS, ["h1", "[data-testid=clever-intro]", "[data-testid=clever-area-bars] figcaption"]
    )
    page.screenshot(path=str(shots / f"clever-{name}.png"))
    bad = [b for b in on["boxes"] if b.get("missing") or not b["inside"]]
    assert not bad and on["pageWidth"] <= on["W"], f"{name}: {bad} {on}"
    assert not violations(page, f"clever strategy {name}")
    page.screenshot(path=str(shots / f"clever-{name}-full.png"), full_page=True)


def test_linked_from_the_home_page_and_the_rules(new_page: Any) -> None:
    page = new_page(1280, 800)
    page.goto("/")
    page.click("a[data-strategy=clever]")
    page.wait_for_url("**/strategy/clever")
    page.get_by_test_id("clever-area-bars").wait_for()
    page.goto("/rules?game=clever")
    page.click("[data-testid=howto-strategy]")
    page.wait_for_url("**/strategy/clever")
    page.get_by_test_id("clever-first").wait_for()
