"""The game-over card's proficiency (web/src/proficiency.ts): while the server analyses the game the card says so;
then each player's mean loss per decision, band and costliest decision, the same as the analysis API's; the link
opens the analysis board at that decision. Screenshots at 1280×800 and 390×844, the card on screen, axe-core."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from .conftest import Server
from .test_accessibility import violations
from .test_analysis_view import PHONE, counter, finished_table
from .test_i18n import LOCALES, assert_no_english

pytestmark = pytest.mark.browser
EN = json.loads(
    (Path(__file__).resolve().parents[2] / "web" / "src" / "locales" / "en.json").read_text("utf-8")
)


def analysis_of(server: Server, tid: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{server.base}/api/tables/{tid}/analysis", timeout=300) as r:
        return dict(json.load(r))


def percent(v: float) -> str:
    """A win-% loss as the card writes it: two decimals, or two significant digits below 0.1."""
    return (f"{v:.2g}" if v < 0.1 else f"{round(v, 2):g}") + "%"


def on_screen(page: Any, testid: str) -> None:
    box = page.get_by_test_id(testid).bounding_box()
    size = page.viewport_size
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size["height"], (
        testid,
        box,
        size,
    )
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], (testid, box, size)


def test_the_game_over_card_shows_each_players_proficiency(
    new_page: Any, server: Server, artifacts: Path
) -> None:
    seats = [
        {"kind": "bot", "bot": "random", "name": "Rand"},
        {"kind": "bot", "bot": "cautious", "name": "Cau"},
    ]
    tid = finished_table(server, "thousand", seats)
    page = new_page(1280, 800)
    # the analysis held back until the card has said that it is being made (the server's own answer follows)
    held: list[Any] = []
    page.route(f"**/api/tables/{tid}/analysis", lambda route: held.append(route))
    page.goto(f"/table/{tid}")
    page.get_by_test_id("gameover").wait_for()
    waiting = page.get_by_test_id("proficiency-waiting")
    waiting.wait_for()
    assert waiting.inner_text() == EN["proficiency.waiting"]
    page.wait_for_function("() => document.querySelector('[data-testid=proficiency] [aria-live]') !== null")
    assert page.locator("[data-testid=proficiency] [aria-live=polite]").get_attribute("aria-busy") == "true"
    assert len(held) == 1
    held[0].continue_()
    page.unroute(f"**/api/tables/{tid}/analysis")
    page.get_by_test_id("prof-list").wait_for()
    assert page.locator("[data-testid=proficiency] [aria-live=polite]").get_attribute("aria-busy") is None

    # the figures shown are the API's: mean loss, band, costliest decision
    a = analysis_of(server, tid)
    assert a["unit"] == "win%"
    rows = page.get_by_test_id("prof-player")
    assert rows.count() == 2
    assert page.locator(".prof-unit").inner_text() == EN["proficiency.unit_win"]
    for row in a["totals"]:
        li = page.locator(f"[data-testid=prof-player][data-seat='{row['seat']}']")
        assert float(li.get_by_test_id("prof-loss").get_attribute("data-value")) == row["mean_loss"]
        assert li.get_by_test_id("prof-loss").inner_text() == f"{percent(row['mean_loss'])} lost per decision"
        assert li.get_by_test_id("prof-band").get_attribute("data-band") == row["band"]
        assert li.get_by_test_id("prof-band").inner_text() == EN[f"proficiency.band.{row['band']}"]
        link = li.get_by_test_id("prof-costliest")
        assert row["costliest"] is not None, row  # random bots always lose something in a whole game
        worst = row["costliest"]
        assert link.get_attribute("href") == f"/table/{tid}/analysis?step={worst['n']}"
        # the move number as the page writes numbers in English (a random bot's game can pass move 1,000)
        assert link.inner_text() == f"costliest: move {worst['n']:,}, −{percent(worst['loss'])}"
    assert violations(page, "the game-over card with proficiency") == []

    # on screen at both sizes (looked at: test-artifacts/proficiency*.png)
    on_screen(page, "proficiency")
    page.get_by_test_id("gameover").screenshot(path=str(artifacts / "proficiency.png"))
    page.screenshot(path=str(artifacts / "proficiency-page.png"))
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    page.get_by_test_id("prof-costliest").first.scroll_into_view_if_needed()
    on_screen(page, "prof-list")
    page.screenshot(path=str(artifacts / "proficiency-phone.png"))
    # the card fits the phone's width (the board behind it is the game view's own business)
    box = page.get_by_test_id("gameover").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE[0], box
    page.set_viewport_size({"width": 1280, "height": 800})
    # in every language, on a phone (test-artifacts/proficiency-LANG-phone.png)
    for lang, locale in LOCALES.items():
        other = new_page(*PHONE, locale=locale)
        other.goto(f"/table/{tid}")
        other.get_by_test_id("prof-list").wait_for()
        assert_no_english(other, lang, "the game-over card's proficiency")
        other.get_by_test_id("prof-costliest").last.scroll_into_view_if_needed()
        other.screenshot(path=str(artifacts / f"proficiency-{lang}-phone.png"))
        other.close()

    # the link opens the analysis board at that decision
    worst = max(a["totals"], key=lambda r: r["costliest"]["loss"])["costliest"]
    page.locator(
        f"[data-testid=prof-player][data-seat='{worst['seat']}'] [data-testid=prof-costliest]"
    ).click()
    page.wait_for_url(f"**/table/{tid}/analysis?step={worst['n']}")
    page.get_by_test_id("step-info").wait_for()
    k, n = counter(page)
    assert k == worst["n"] < n or k == worst["n"] == n
    assert page.get_by_test_id("step-class").get_attribute("data-class") in (
        "good",
        "inaccuracy",
        "mistake",
        "blunder",
    )
    assert page.locator("[data-testid=moves] li.current").get_attribute("data-step") == str(worst["n"])
    # a reload opens the same step; stepping keeps the address in step
    page.reload()
    page.get_by_test_id("step-info").wait_for()
    assert counter(page)[0] == worst["n"]
    page.keyboard.press("Home")
    page.wait_for_url(f"**/table/{tid}/analysis?step=0")


def test_a_clever_game_over_card_in_points(new_page: Any, server: Server, artifacts: Path) -> None:
    seats = [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}]
    tid = finished_table(server, "clever", seats)
    page = new_page(*PHONE)
    page.goto(f"/table/{tid}")
    page.get_by_test_id("prof-list").wait_for()
    a = analysis_of(server, tid)
    assert a["unit"] == "points"
    assert page.locator(".prof-unit").count() == 0  # points need no explaining
    for row in a["totals"]:
        li = page.locator(f"[data-testid=prof-player][data-seat='{row['seat']}']")
        assert li.get_by_test_id("prof-band").get_attribute("data-band") == row["band"]
        mean = row["mean_loss"]
        shown = f"{mean:.2g}" if mean < 0.1 else f"{round(mean, 2):g}"
        assert li.get_by_test_id("prof-loss").inner_text() == f"{shown} points lost per decision"
        href = f"/table/{tid}/analysis?step={row['costliest']['n']}"
        assert li.get_by_test_id("prof-costliest").get_attribute("href") == href
    page.get_by_test_id("prof-costliest").last.scroll_into_view_if_needed()
    on_screen(page, "prof-list")
    page.screenshot(path=str(artifacts / "proficiency-clever-phone.png"))
