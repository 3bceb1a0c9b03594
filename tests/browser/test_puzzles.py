"""The Dice 1000 puzzle page (web/src/puzzles.ts) on the real server: one puzzle solved right by key, one wrong by
click; the verdict, every option's chance to win, the reason and the rating change the server gave are shown;
the position and the question lie on screen at 1280×800 and 390×844 (English and Russian); screenshots go to
``test-artifacts/puzzles/``."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from dicehall.web.puzzles_api import position, puzzle_set

from .conftest import Server
from .test_accessibility import violations
from .test_one_screen import MEASURE_JS

pytestmark = pytest.mark.browser

SIZES = {"desktop": (1280, 800, "en-US"), "phone": (390, 844, "ru-RU")}
DECISION = [
    "[data-testid=puzzle-scores]",
    "[data-testid=puzzle-roll-dice]",
    "[data-testid=puzzle-turn]",
    "#puzzle-question",
    "[data-testid=puzzle-bank]",
    "[data-testid=puzzle-roll]",
    "[data-testid=puzzle-theme-name]",
]
RIGHT = {"en-US": "✓ Right!", "ru-RU": "✓ Верно!"}
WRONG = {"en-US": "✗ Not the best.", "ru-RU": "✗ Не лучший ход."}


def number(text: str) -> float:
    """A number as the page formats it in either language (57.9 %, 57,9 %, −5,4, +162)."""
    said = re.sub(r"[\s %+]", "", text.replace("−", "-").replace(",", "."))
    return float(said)


def on_screen(page: Any, selectors: list[str], at: str) -> None:
    seen = page.evaluate(MEASURE_JS, selectors)
    bad = [b for b in seen["boxes"] if b.get("missing") or not b["inside"]]
    assert not bad and not seen["scrollY"] and seen["pageWidth"] <= seen["W"], f"{at}: {bad} {seen}"


def next_puzzle(page: Any, action: Any) -> dict[str, Any]:
    """Do ``action`` and return the puzzle the page was sent (its id names the shipped puzzle)."""
    with page.expect_response(lambda r: "/api/puzzles/thousand/next" in r.url) as got:
        action()
    data: dict[str, Any] = got.value.json()
    page.get_by_test_id("puzzle-bank").wait_for(state="visible")
    page.wait_for_function("() => !document.querySelector('[data-testid=puzzle-bank]').disabled")
    return data


def answer(page: Any, action: Any) -> dict[str, Any]:
    with page.expect_response(lambda r: r.url.endswith("/answer")) as got:
        action()
    data: dict[str, Any] = got.value.json()
    page.get_by_test_id("puzzle-result").wait_for()
    return data


def check_verdict(page: Any, pid: str, said: dict[str, Any], locale: str) -> None:
    p = puzzle_set().get(pid)
    result = page.get_by_test_id("puzzle-result")
    assert result.get_attribute("data-correct") == str(said["correct"]).lower()
    assert result.inner_text().startswith(RIGHT[locale] if said["correct"] else WRONG[locale])
    for move, value in p.options.items():
        row = page.locator(f"[data-testid=puzzle-values] li[data-move={move}]")
        assert abs(number(row.locator("b").inner_text()) - value) <= 0.05 + 1e-9  # shown to a tenth
    first = page.locator("[data-testid=puzzle-values] li").first
    assert first.get_attribute("data-move") == p.best  # best first, as the hint panel lists
    assert page.get_by_test_id("puzzle-why").inner_text().strip()
    delta = number(page.get_by_test_id("puzzle-delta").inner_text().strip(" ()"))
    assert delta == said["rating"]["delta"] and (delta > 0) == said["correct"]
    assert str(said["rating"]["rating"]) in page.get_by_test_id("puzzle-rating").inner_text().replace(
        "\u00a0", ""
    )


@cache
def busiest() -> str:
    """The shipped puzzle whose position puts the most on the page: the most status badges (pits, bolts, barrel,
    falls, not opened), then the most dice on the felt."""

    def weight(pid: str) -> tuple[int, int, str]:
        v = position("thousand", pid)["view"]
        badges = sum(
            bool(pl["pit"])
            + (pl["bolts"] > 0)
            + pl["on_barrel"]
            + (pl["barrel_falls"] > 0)
            + (not pl["opened"])
            for pl in v["players"]
        )
        return badges, len(v["last_roll"] or []) + len(v["set_aside"]), pid

    return max(weight(pid) for pid in puzzle_set().by_id)[2]


@pytest.mark.parametrize("size", list(SIZES))
def test_a_puzzle_right_by_key_and_one_wrong_by_click(
    new_page: Any, server: Server, artifacts: Path, size: str
) -> None:
    width, height, locale = SIZES[size]
    shots = artifacts / "puzzles"
    shots.mkdir(exist_ok=True)
    page = new_page(width, height, locale=locale)
    # the first by its link: the position that puts the most on the page (the same every run)
    busiest_id = busiest()
    with page.expect_response(lambda r: f"/api/puzzles/thousand/{busiest_id}" in r.url) as got:
        page.goto(f"/puzzles/thousand/{busiest_id}")
    first = got.value.json()
    page.wait_for_function("() => !document.querySelector('[data-testid=puzzle-bank]').disabled")
    assert first["id"] == busiest_id and page.url.endswith(f"/puzzles/thousand/{busiest_id}")
    on_screen(page, DECISION, f"{size}: the question")
    page.screenshot(path=str(shots / f"question-{size}.png"))

    best = puzzle_set().get(first["id"]).best
    said = answer(page, lambda: page.keyboard.press("B" if best == "bank" else "R"))
    assert said["correct"] and said["rated"]
    check_verdict(page, first["id"], said, locale)
    on_screen(page, ["[data-testid=puzzle-result]", "[data-testid=puzzle-next]"], f"{size}: the verdict")
    page.screenshot(path=str(shots / f"right-{size}.png"))

    second = next_puzzle(page, lambda: page.keyboard.press("N"))
    assert second["id"] != first["id"] and second["rating"]["rating"] == said["rating"]["rating"]
    p = puzzle_set().get(second["id"])
    wrong = next(m for m in p.options if m != p.best)
    said = answer(page, lambda: page.get_by_test_id(f"puzzle-{wrong}").click())
    assert not said["correct"] and said["rated"]
    check_verdict(page, second["id"], said, locale)
    assert page.get_by_test_id("puzzle-streak").inner_text().endswith("0")
    page.screenshot(path=str(shots / f"wrong-{size}.png"))
    assert not violations(page, f"puzzle verdict {size}")

    # the profile shows the puzzle rating and the streak the server keeps
    me = page.evaluate("() => fetch('/api/me').then((r) => r.json()).then((d) => d.player.id)")
    page.goto(f"/player/{me}")
    line = page.get_by_test_id("profile-puzzles").inner_text()
    assert str(said["rating"]["rating"]) in line and ("1 из 2" in line or "1 of 2" in line), line


def test_the_theme_filter_and_the_links(new_page: Any, server: Server) -> None:
    page = new_page()
    page.goto("/")
    next_puzzle(page, lambda: page.locator("a[data-puzzles=thousand]").click())
    got = next_puzzle(page, lambda: page.get_by_test_id("puzzle-theme").select_option("pit escape"))
    assert got["theme"] == "pit escape"
    assert "theme=pit%20escape" in page.url
    assert page.get_by_test_id("puzzle-theme-name").inner_text() == "Theme: Pit escape"
    page.goto("/rules?game=thousand")
    page.get_by_test_id("howto-puzzles").click()
    page.get_by_test_id("puzzle-page").wait_for()
