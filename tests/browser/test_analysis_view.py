"""The Analysis / replay page: opened from the game-over card of a finished Dice 1000 game (a rule set small
enough to be solved, so win %) and of a Clever solo game (expected final points); stepping with the keyboard, the
slider and the chart; a classified decision with its best alternative; the totals; the finished-games list with its
pages; the hints option of the table form. Screenshots at 1280×800 and 390×844 (no sideways scrolling)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from .conftest import Server
from .test_i18n import LOCALES, assert_no_english

pytestmark = pytest.mark.browser

PHONE = (390, 844)
# A game to 100 without a barrel or bolts (with a pit and the dump truck): small enough for the server to solve on
# first use in about 3 s (19,600 positions; with bolts 88,804 and 15 s, to 300 half a minute), so the analysis is
# in win %.
SMALL = {"target": 100, "barrel": "none", "bolts": False, "pits": [[50, 75]], "dump_truck_score": 55}


def finished_table(server: Server, game: str, seats: list[dict[str, Any]], **extra: Any) -> str:
    created = server.post("/api/tables", {"game": game, "seats": seats, **extra})
    tid = str(created["table_id"])
    end = time.monotonic() + 180
    while server.get(f"/api/tables/{tid}")["status"] != "finished":
        assert time.monotonic() < end, f"the bots did not finish table {tid}"
        time.sleep(0.2)
    return tid


def analysed(server: Server, tid: str) -> dict[str, Any]:
    """The analysis of the finished table ``tid``, awaited: the first one may build the evaluator (solve the small
    table, load a kernel), which takes longer than a page waits on a loaded machine; the server keeps it, so a
    page asking next is answered at once."""
    result: dict[str, Any] = server.get(f"/api/tables/{tid}/analysis", timeout=300)
    return result


def with_an_error(server: Server, game: str, seats: list[dict[str, Any]], **extra: Any) -> str:
    """A finished table where someone made a classified error (a random bot does in most games, not all: in about
    half of the short Dice 1000 games, so up to twelve games)."""
    for _ in range(12):
        tid = finished_table(server, game, seats, **extra)
        totals = analysed(server, tid)["totals"]
        if any(t["inaccuracies"] + t["mistakes"] + t["blunders"] for t in totals):
            return tid
    raise AssertionError("twelve games without a single classified error")


def counter(page: Any) -> tuple[int, int]:
    k, n = page.get_by_test_id("replay-slider").evaluate("(el) => [Number(el.value), Number(el.max)]")
    cursor = page.get_by_test_id("chart-cursor").get_attribute("data-step")
    assert cursor == str(k), (cursor, k)
    return int(k), int(n)


def open_from_game_over(page: Any, tid: str) -> int:
    page.goto(f"/table/{tid}")
    page.get_by_test_id("gameover").wait_for()
    page.get_by_test_id("analysis-link").click()
    page.wait_for_url(f"**/table/{tid}/analysis")
    page.get_by_test_id("step-info").wait_for()
    k, n = counter(page)
    assert k == n > 0  # opens at the end of the game
    return n


def step_around(page: Any, n: int) -> None:
    page.keyboard.press("Home")
    assert counter(page) == (0, n)
    assert "Start of the game" in page.inner_text("[data-testid=step-info]")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert counter(page) == (2, n)
    page.keyboard.press("ArrowLeft")
    assert counter(page)[0] == 1
    assert page.locator("[data-testid=moves] li.current").get_attribute("data-step") == "1"
    page.keyboard.press("End")
    assert counter(page) == (n, n)
    # the slider, then the keyboard while it has the focus: one step per key
    slider = page.get_by_test_id("replay-slider")
    slider.evaluate(
        "(el, v) => { el.value = String(v); el.dispatchEvent(new Event('input', { bubbles: true })); }",
        n // 2,
    )
    assert counter(page)[0] == n // 2
    slider.focus()
    page.keyboard.press("ArrowRight")
    assert counter(page)[0] == n // 2 + 1
    # a click on the chart jumps there (its middle: about half way)
    box = page.get_by_test_id("chart").bounding_box()
    page.mouse.click(box["x"] + box["width"] * 0.75, box["y"] + box["height"] / 2)
    k, _ = counter(page)
    assert abs(k - 0.75 * n) <= max(2, n * 0.05), (k, n)


def check_a_classified_decision(page: Any) -> None:
    marked = page.locator("[data-testid=moves] li:has(b.cls)")
    assert marked.count() > 0, "the random bot made no classified error"
    marked.first.click()
    step = int(marked.first.get_attribute("data-step"))
    assert counter(page)[0] == step
    cls = page.get_by_test_id("step-class").get_attribute("data-class")
    assert cls in ("inaccuracy", "mistake", "blunder")
    assert page.get_by_test_id("step-best").inner_text().startswith("Best was:")
    # the chart marks the same decision
    assert page.locator(f"[data-testid=chart] circle.mark.{cls}[data-step='{step}']").count() == 1


def screenshots(page: Any, artifacts: Path, name: str) -> None:
    page.set_viewport_size({"width": 1280, "height": 800})
    page.wait_for_timeout(150)
    page.screenshot(path=str(artifacts / f"{name}.png"), full_page=True)
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    page.wait_for_timeout(200)
    page.screenshot(path=str(artifacts / f"{name}-phone.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE[0], (
        f"{name} scrolls sideways on a phone"
    )


def test_dice_1000_analysis_from_the_game_over_card(new_page: Any, server: Server, artifacts: Path) -> None:
    seats = [{"kind": "bot", "bot": "random", "name": "Rand"}, {"kind": "bot", "bot": "expert", "name": "Ex"}]
    tid = with_an_error(server, "thousand", seats, overrides=SMALL)
    page = new_page(1280, 800)
    n = open_from_game_over(page, tid)
    assert "chance to win under best play" in page.inner_text("[data-testid=unit-note]")
    assert page.locator("[data-testid=chart] polyline").count() == 2
    # the position as at the table: the scoreboard of the end shows the winner's target reached
    board = page.get_by_test_id("replay-board")
    assert board.locator("[data-testid=scoreboard] tbody tr").count() == 2
    step_around(page, n)
    check_a_classified_decision(page)
    rows = page.locator("[data-testid=totals] tbody tr")
    assert rows.count() == 2 and "%" in rows.first.inner_text()
    # a roll shows the luck of the roller
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    assert "Luck of" in page.inner_text("[data-testid=step-info]")
    screenshots(page, artifacts, "analysis-thousand")
    # every word in the page's language: the table with its game-over card, then the analysis
    for lang, locale in LOCALES.items():
        other = new_page(1280, 800, locale=locale)
        other.goto(f"/table/{tid}")
        other.get_by_test_id("gameover").wait_for()
        other.wait_for_timeout(300)
        assert_no_english(other, lang, "a finished Dice 1000 table with its game-over card")
        other.goto(f"/table/{tid}/analysis")
        other.get_by_test_id("step-info").wait_for()
        other.keyboard.press("Home")
        other.keyboard.press("ArrowRight")
        assert_no_english(other, lang, "the analysis page")


def test_clever_solo_analysis_from_the_game_over_card(new_page: Any, server: Server, artifacts: Path) -> None:
    tid = with_an_error(server, "clever", [{"kind": "bot", "bot": "random", "name": "Solo"}])
    page = new_page(1280, 800)
    n = open_from_game_over(page, tid)
    assert "expected final score" in page.inner_text("[data-testid=unit-note]")
    assert page.locator("[data-testid=replay-board].clever-root").count() == 1
    assert page.locator("[data-testid=chart] polyline").count() == 1
    step_around(page, n)
    check_a_classified_decision(page)
    assert page.locator("[data-testid=totals] tbody tr").count() == 1
    screenshots(page, artifacts, "analysis-clever")
    for lang, locale in LOCALES.items():  # the finished sheet and its game-over card in every language
        other = new_page(1280, 800, locale=locale)
        other.goto(f"/table/{tid}")
        other.get_by_test_id("gameover").wait_for()
        other.wait_for_timeout(300)
        assert_no_english(other, lang, "a finished Clever table with its game-over card")


def test_finished_games_list_pages_and_opens_the_analysis(new_page: Any, server: Server) -> None:
    seats = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "expert"}]
    made = [
        server.post("/api/tables", {"game": "thousand", "seats": seats, "overrides": SMALL})["table_id"]
        for _ in range(9)
    ]
    end = time.monotonic() + 180
    while any(server.get(f"/api/tables/{t}")["status"] != "finished" for t in made):
        assert time.monotonic() < end, "the bots did not finish"
        time.sleep(0.3)
    page = new_page()
    page.goto("/")
    box = page.get_by_test_id("finished-games")
    box.locator("li").first.wait_for()
    assert box.locator("li").count() == 8
    more = page.get_by_test_id("finished-more")
    more.click()
    page.wait_for_function("() => document.querySelectorAll('[data-testid=finished-games] li').length > 8")
    shown = box.locator("li").evaluate_all("(els) => els.map((e) => e.dataset.table)")
    assert len(shown) == len(set(shown))  # the next page follows, nothing twice
    assert set(made) <= set(shown) or made[-1] in shown
    analysed(server, made[-1])
    box.locator(f"li[data-table='{made[-1]}'] [data-analysis]").click()
    page.wait_for_url(f"**/table/{made[-1]}/analysis")
    page.get_by_test_id("chart").wait_for()
    # the lobby form lists them too
    page.goto("/new?game=clever")
    page.get_by_test_id("finished-games").locator("li").first.wait_for()


def test_hints_option_in_the_table_form(new_page: Any, server: Server) -> None:
    page = new_page()
    page.goto("/new?game=thousand")
    page.wait_for_selector(".seat-row")
    option = page.get_by_test_id("hints-option")
    assert option.is_checked()  # you and a bot: on
    page.locator(".seat-row").nth(1).locator(".seat-kind").select_option("human")
    assert not option.is_checked()  # two people: off
    page.locator(".seat-row").nth(1).locator(".seat-where").select_option("here")
    option.check()  # the players agree to hints
    page.click("#create")
    page.wait_for_url("**/table/*")
    tid = page.url.rstrip("/").split("/")[-1]
    assert server.get(f"/api/tables/{tid}")["hints"] is True
    page.get_by_test_id("hint-btn").wait_for(state="visible")

    # against a bot with hints switched off: no button, and the server refuses them
    page.goto("/new?game=thousand")
    page.wait_for_selector(".seat-row")
    page.get_by_test_id("hints-option").uncheck()
    page.click("#create")
    page.wait_for_url("**/table/*")
    tid = page.url.rstrip("/").split("/")[-1]
    assert server.get(f"/api/tables/{tid}")["hints"] is False
    page.get_by_test_id("scoreboard").wait_for()
    page.wait_for_timeout(500)
    assert page.get_by_test_id("hint-btn").is_hidden()
