"""The Clever puzzle page (web/src/puzzles.ts with puzzles-clever.ts) on the real server: the position drawn as
at the table (the sheet, the dice, the round), the question and every legal choice on screen at 1280×800 and
390×844 (English and Polish) for the puzzle with the most choices; one solved right by a digit key, one wrong by
arrows and Enter; the verdict with every option's expected points, the choice marked, the reason and the rating
change; axe clean. Screenshots go to ``test-artifacts/puzzles/``."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from dicehall.web.puzzles_api import puzzle_set

from .conftest import Server
from .test_accessibility import violations
from .test_one_screen import MEASURE_JS

pytestmark = pytest.mark.browser

SIZES = {"desktop": (1280, 800, "en-US"), "phone": (390, 844, "pl-PL")}
RIGHT = {"en-US": "✓ Right!", "pl-PL": "✓ Dobrze!"}
WRONG = {"en-US": "✗ Not the best.", "pl-PL": "✗ Nie najlepszy"}


def number(text: str) -> float:
    return float(re.sub(r"[\s %+]", "", text.replace("−", "-").replace(",", ".")))


def on_screen(page: Any, selectors: list[str], at: str) -> None:
    seen = page.evaluate(MEASURE_JS, selectors)
    bad = [b for b in seen["boxes"] if b.get("missing") or not b["inside"]]
    assert not bad and not seen["scrollY"] and seen["pageWidth"] <= seen["W"], f"{at}: {bad} {seen}"


@cache
def most_choices() -> str:
    """The shipped puzzle with the most choices (a round-4 bonus early in a sheet): the most to fit on screen."""
    ps = puzzle_set("clever")
    return max(ps.by_id, key=lambda pid: (len(ps.by_id[pid].options), pid))


def answer(page: Any, action: Any) -> dict[str, Any]:
    with page.expect_response(lambda r: r.url.endswith("/answer")) as got:
        action()
    data: dict[str, Any] = got.value.json()
    page.get_by_test_id("puzzle-result").wait_for()
    return data


def check_verdict(page: Any, pid: str, said: dict[str, Any], locale: str, choice: str) -> None:
    p = puzzle_set("clever").get(pid)
    result = page.get_by_test_id("puzzle-result")
    assert result.get_attribute("data-correct") == str(said["correct"]).lower()
    assert result.inner_text().startswith(RIGHT[locale] if said["correct"] else WRONG[locale])
    rows = page.locator("[data-testid=puzzle-values] li")
    assert rows.count() == len(p.options) and rows.first.get_attribute("data-move") == p.best
    for i in range(rows.count()):
        row = rows.nth(i)
        value = p.options[row.get_attribute("data-move")]
        assert abs(number(row.locator("b").inner_text()) - value) <= 0.05 + 1e-9
    mine = page.locator("[data-testid=puzzle-values] li", has=page.get_by_test_id("puzzle-your-choice"))
    assert mine.get_attribute("data-move") == choice
    assert page.get_by_test_id("puzzle-why").inner_text().strip()
    delta = number(page.get_by_test_id("puzzle-delta").inner_text().strip(" ()"))
    assert delta == said["rating"]["delta"] and (delta > 0) == said["correct"]


@pytest.mark.parametrize("size", list(SIZES))
def test_a_clever_puzzle_right_by_digit_and_one_wrong_by_arrows(
    new_page: Any, server: Server, artifacts: Path, size: str
) -> None:
    width, height, locale = SIZES[size]
    shots = artifacts / "puzzles"
    shots.mkdir(exist_ok=True)
    page = new_page(width, height, locale=locale)
    pid = most_choices()
    with page.expect_response(lambda r: f"/api/puzzles/clever/{pid}" in r.url) as got:
        page.goto(f"/puzzles/clever/{pid}")
    first = got.value.json()
    page.wait_for_function("() => !document.querySelector('[data-testid=puzzle-choice-1]').disabled")
    p = puzzle_set("clever").get(pid)
    buttons = page.locator("[data-testid=puzzle-choices] button")
    assert buttons.count() == len(p.options) == len(first["view"]["legal_actions"])
    decision = ["[data-testid=puzzle-sheet]", "[data-testid=puzzle-dice]", "[data-testid=puzzle-where]"]
    decision += ["#puzzle-question", "[data-testid=puzzle-theme-name]"]
    decision += [f"[data-testid=puzzle-choice-{i + 1}]" for i in range(buttons.count())]
    on_screen(page, decision, f"{size}: the question")
    page.screenshot(path=str(shots / f"clever-question-{size}.png"))

    # the best by its digit when it has one, else by the arrows and Enter
    at = first["view"]["legal_actions"].index(p.best)
    if at < 9:
        said = answer(page, lambda: page.keyboard.press(str(at + 1)))
    else:
        page.get_by_test_id("puzzle-choice-1").focus()
        for _ in range(at):
            page.keyboard.press("ArrowRight")
        said = answer(page, lambda: page.keyboard.press("Enter"))
    assert said["correct"] and said["rated"]
    check_verdict(page, pid, said, locale, p.best)
    box = page.get_by_test_id("puzzle-result").bounding_box()  # (brought on screen, scrolling if it must)
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height, box
    page.screenshot(path=str(shots / f"clever-right-{size}.png"))

    with page.expect_response(lambda r: "/api/puzzles/clever/next" in r.url) as got:
        page.keyboard.press("N")
    second = got.value.json()
    page.wait_for_function("() => !document.querySelector('[data-testid=puzzle-choice-1]').disabled")
    q = puzzle_set("clever").get(second["id"])
    legal = second["view"]["legal_actions"]
    wrong = next(m for m in legal if m != q.best)
    page.get_by_test_id("puzzle-choice-1").focus()
    for _ in range(legal.index(wrong)):
        page.keyboard.press("ArrowDown")
    said = answer(page, lambda: page.keyboard.press("Enter"))
    assert not said["correct"] and said["rated"]
    check_verdict(page, second["id"], said, locale, wrong)
    assert page.get_by_test_id("puzzle-streak").inner_text().endswith("0")
    page.screenshot(path=str(shots / f"clever-wrong-{size}.png"))
    assert not violations(page, f"clever puzzle verdict {size}")

    me = page.evaluate("() => fetch('/api/me').then((r) => r.json()).then((d) => d.player.id)")
    page.goto(f"/player/{me}")
    line = page.get_by_test_id("profile-puzzles-clever").inner_text()
    assert str(said["rating"]["rating"]) in line and ("1 of 2" in line or "1 z 2" in line), line


def test_the_theme_filter_and_the_links(new_page: Any, server: Server) -> None:
    page = new_page()
    page.goto("/")
    with page.expect_response(lambda r: "/api/puzzles/clever/next" in r.url):
        page.locator("a[data-puzzles=clever]").click()
    with page.expect_response(lambda r: "/api/puzzles/clever/next" in r.url) as got:
        page.get_by_test_id("puzzle-theme").select_option("round 4")
    assert got.value.json()["theme"] == "round 4" and "theme=round%204" in page.url
    page.get_by_test_id("puzzle-choice-1").wait_for()
    assert page.get_by_test_id("puzzle-theme-name").inner_text() == "Theme: Round 4 bonus"
    assert (
        page.locator("#puzzle-question").inner_text()
        == "Where does your round-4 bonus go: a black X or a black 6?"
    )
    page.goto("/rules?game=clever")
    page.get_by_test_id("howto-puzzles").click()
    page.get_by_test_id("puzzle-page").wait_for()
    assert page.get_by_test_id("puzzle-page").get_attribute("data-game") == "clever"
