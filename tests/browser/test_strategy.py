"""The Dice 1000 strategy page (web/src/strategy.ts) on the real server: a cell hovered, then one reached by the
arrow keys, is said in words with the win % and the thresholds the API sent (and the API's numbers are the
shipped table's); the bank map shows the API's threshold in its cells; the explanation, the legend and the map
lie on screen at 1280×800 and 390×844 (English and Russian); no serious axe violation; screenshots go to
``test-artifacts/strategy/``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from .conftest import Server
from .test_accessibility import violations
from .test_one_screen import MEASURE_JS

pytestmark = pytest.mark.browser

SIZES = {"desktop": (1280, 800, "en-US"), "phone": (390, 844, "ru-RU")}
SEEN = ["[data-testid=strategy-details]", "[data-testid=strategy-legend]"]
"""On screen without scrolling the page; the map's box starts on screen too (on a phone it scrolls inside its box
and the page scrolls on to the rest of it)."""


CENTRE_JS = """(e) => {
  e.scrollIntoView({block: 'center', inline: 'center', behavior: 'instant'});
  const r = e.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  return {x, y, hit: e.contains(document.elementFromPoint(x, y))};
}"""
"""Scrolls a cell to the middle of the map's box (and the page) and gives its centre on screen."""


def number(text: str) -> float:
    return float(re.sub(r"[\s %\u00a0\u202f]", "", text.replace(",", ".")))


def said_win(page: Any) -> float:
    return number(page.get_by_test_id("strategy-win").inner_text())


@pytest.mark.parametrize("size", list(SIZES))
def test_cells_said_in_words_with_the_apis_numbers(
    new_page: Any, server: Server, artifacts: Path, size: str
) -> None:
    width, height, locale = SIZES[size]
    shots = artifacts / "strategy"
    shots.mkdir(exist_ok=True)
    page = new_page(width, height, locale=locale)
    with page.expect_response(lambda r: r.url.endswith("/api/strategy/thousand")) as got:
        page.goto("/strategy/thousand")
    data = got.value.json()
    scores = data["scores"]
    plain = data["situations"]["plain"]
    page.locator("[data-testid=strategy-map] .cell").first.wait_for()

    # hover: a cell in the 500 row against 300
    i, j = scores.index(500), scores.index(300)
    target = page.locator("[data-testid=strategy-map] .cell[data-own='500'][data-opp='300']")
    # into the middle of the map's own scrolling box first (on a phone the cell starts outside it)
    box = target.evaluate(CENTRE_JS)
    assert box["hit"], f"the cell is under the pointer at its centre: {box}"
    page.mouse.move(box["x"], box["y"])
    expected = round(plain["win"][i][j] * 100, 1)
    page.wait_for_function(
        "(w) => document.querySelector('[data-testid=strategy-win]').textContent.replace(',', '.').startsWith(w)",
        arg=str(expected),
    )
    assert said_win(page) == expected
    words = page.get_by_test_id("strategy-position").inner_text().replace("\u00a0", "")
    assert "500" in words and "300" in words
    advice = (
        page.locator("[data-testid=strategy-advice] li[data-dice='5']").inner_text().replace("\u00a0", "")
    )
    assert str(plain["bank"][i][j][4]) in advice

    # keyboard: focus the first cell, move right twice and down once (0 vs 0 → 50 vs 100)
    page.locator("[data-testid=strategy-map] .cell[tabindex='0']").focus()
    for key in ("ArrowRight", "ArrowRight", "ArrowDown"):
        page.keyboard.press(key)
    focused = page.evaluate("() => [document.activeElement.dataset.own, document.activeElement.dataset.opp]")
    assert focused == [str(scores[1]), str(scores[2])]
    assert said_win(page) == round(plain["win"][1][2] * 100, 1)
    assert page.get_by_test_id("strategy-details").get_attribute("aria-live") == "polite"
    on = page.evaluate(MEASURE_JS, [*SEEN, "[data-testid=strategy-map-box]"])  # from the top of the page
    page.screenshot(path=str(shots / f"win-{size}.png"))
    bad = [b for b in on["boxes"][:-1] if b.get("missing") or not b["inside"]]
    box = on["boxes"][-1]
    assert not bad and on["pageWidth"] <= on["W"], f"{size}: {bad} {on}"
    assert box["top"] <= on["H"] - 120 and box["right"] <= on["W"], f"{size}: the map's box {box}"
    if size == "desktop":
        assert box["inside"], f"the whole map's box on screen at 1280×800: {box}"
    assert not violations(page, f"strategy win map {size}")

    # the bank map with 2 dice: the cell's number is the API's threshold
    page.locator("label[for=strategy-kind-bank]").click()
    page.locator("label[for=strategy-dice-2]").click()
    cell = page.locator("[data-testid=strategy-map] .cell[data-own='300'][data-opp='0']")
    cell.evaluate(CENTRE_JS)
    k, m = scores.index(300), scores.index(0)
    shown = (cell.locator("text").text_content() or "").replace("\u00a0", "").rstrip("*")
    assert shown == str(plain["bank"][k][m][1])
    cell.click()
    chosen = page.locator("[data-testid=strategy-advice] li.chosen")
    assert chosen.get_attribute("data-dice") == "2"
    page.screenshot(path=str(shots / f"bank-{size}.png"))
    assert not violations(page, f"strategy bank map {size}")


def first_line(cell: Any) -> float:
    return number(cell.inner_text().split("\n")[0])


def test_the_house_rules_table_shows_the_apis_figures(new_page: Any, artifacts: Path) -> None:
    page = new_page(1280, 800, locale="pl-PL")
    with page.expect_response(lambda r: r.url.endswith("/api/strategy/thousand")) as got:
        page.goto("/strategy/thousand")
    house = got.value.json()["house_rules"]
    table = page.get_by_test_id("strategy-house-rules")
    table.scroll_into_view_if_needed()
    for row in house["presets"]:
        cells = table.locator(f"tr[data-preset='{row['preset']}'] td")
        assert first_line(cells.nth(0)) == round(row["first_player_wins"]["value"] * 100, 1)
        assert cells.nth(1).inner_text() == "—"  # the solver's figure is the exact row's
        assert first_line(cells.nth(2)) == round(row["turns"]["value"], 1)
    title = page.get_by_test_id("strategy-house-rules-title").inner_text()
    assert str(house["games"]) in title.replace("\u00a0", "").replace(" ", "")
    assert table.get_attribute("aria-labelledby") == "strategy-house-rules-title"
    page.screenshot(path=str(artifacts / "strategy" / "notes-desktop-pl.png"), full_page=True)
    assert not violations(page, "strategy notes")


UNSOLVED = {"en-US": "Not solved yet", "ru-RU": "Ещё не рассчитано"}
TOO_LARGE = {"en-US": "Too large to solve exactly", "ru-RU": "Слишком велико для точного решения"}


@pytest.mark.parametrize("size", list(SIZES))
def test_the_house_rules_exact_rows_show_the_solver_beside_the_games(
    new_page: Any, artifacts: Path, size: str
) -> None:
    """Under each preset its exact row: the games of optimal play and the table's own first-player chance beside
    them where the preset is solved (classic, yard), "not solved yet" in words where not."""
    w, h, locale = SIZES[size]
    page = new_page(w, h, locale=locale)
    with page.expect_response(lambda r: r.url.endswith("/api/strategy/thousand")) as got:
        page.goto("/strategy/thousand")
    house = got.value.json()["house_rules"]
    table = page.get_by_test_id("strategy-house-rules")
    rows = table.locator("tbody tr")
    order = [
        (rows.nth(i).get_attribute("data-preset"), rows.nth(i).get_attribute("data-rules"))
        for i in range(rows.count())
    ]
    want = []
    solved = {row["preset"]: row for row in house["exact"]}
    assert {"classic", "yard"} <= set(solved)
    for row in house["presets"]:
        want.append((row["preset"], None))
        if row["preset"] in solved or row["preset"] in house["unsolved"] + house["too_large"]:
            want.append(("exact", row["preset"]))
    assert order == want
    decimal = "," if locale == "ru-RU" else "."
    for preset, ex in solved.items():
        cells = table.locator(f"tr[data-preset='exact'][data-rules='{preset}'] td")
        assert first_line(cells.nth(0)) == round(ex["first_player_wins"]["value"] * 100, 1)
        solver = f"{100 * ex['solver_first_player_wins']:.2f}".replace(".", decimal)
        assert cells.nth(1).inner_text().replace("\u00a0", " ") == f"{solver} %"
        assert first_line(cells.nth(2)) == round(ex["turns"]["value"], 1)
    for preset in house["unsolved"]:
        row = table.locator(f"tr[data-preset='exact'][data-rules='{preset}']")
        assert row.locator("td").count() == 1 and UNSOLVED[locale] in row.inner_text()
    for preset in house["too_large"]:
        row = table.locator(f"tr[data-preset='exact'][data-rules='{preset}']")
        assert row.locator("td").count() == 1 and TOO_LARGE[locale] in row.inner_text()
    swings = page.get_by_test_id("strategy-house-swing")
    assert swings.count() == len(solved)
    page.get_by_test_id("strategy-house-rules-title").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "strategy" / f"house-rules-{size}.png"))
    table.locator("tr[data-preset='exact'][data-rules='yard']").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "strategy" / f"house-rules-{size}-yard.png"))
    box = table.locator("xpath=..")
    if box.evaluate("e => e.scrollWidth > e.clientWidth"):  # the phone: the figures scroll under the names
        box.evaluate("e => { e.scrollLeft = e.scrollWidth / 3; }")
        page.screenshot(path=str(artifacts / "strategy" / f"house-rules-{size}-scrolled.png"))
    assert not violations(page, f"strategy house rules table {size}")


@pytest.mark.parametrize("size", list(SIZES))
def test_the_decided_table_shows_the_apis_figures(new_page: Any, artifacts: Path, size: str) -> None:
    """How often each house rule decided a game: every preset's rates, and the exact table's classic row (under
    classic, in words) with its swings, as the API sent them; the table scrolls in its own box on a phone."""
    w, h, locale = SIZES[size]
    page = new_page(w, h, locale=locale)
    with page.expect_response(lambda r: r.url.endswith("/api/strategy/thousand")) as got:
        page.goto("/strategy/thousand")
    house = got.value.json()["house_rules"]
    table = page.get_by_test_id("strategy-house-decided")
    table.scroll_into_view_if_needed()
    for row in house["presets"]:
        cells = table.locator(f"tr[data-preset='{row['preset']}'] td")
        want = [
            (row["decided_by"]["dump_truck"], row["dump_truck"]),
            (row["decided_by"]["barrel"], row["barrel"] != "none"),
            (row["games_with_pit_refusal"], bool(row["pits"])),
            (row["decided_by"]["pit"], bool(row["pits"])),
        ]
        for k, (rate, shown) in enumerate(want):
            text = cells.nth(k).inner_text()
            assert (first_line(cells.nth(k)) == round(rate["value"] * 100, 1)) if shown else text == "—"
    (exact,) = (row for row in house["exact"] if row["preset"] == "classic")
    rows = table.locator("tbody tr")
    names = [rows.nth(i).get_attribute("data-preset") for i in range(rows.count())]
    assert names[names.index("classic") + 1] == "exact"
    classic = "tr[data-preset='exact'][data-rules='classic']"
    cells = table.locator(f"{classic} td")
    for k, rate in enumerate(
        [exact["decided_by"]["dump_truck"], exact["decided_by"]["barrel"], exact["games_with"]["pit"]]
    ):
        assert first_line(cells.nth(k)) == round(rate["value"] * 100, 1)
    label = {"en-US": "exact table, optimal play", "ru-RU": "точная таблица, безупречная игра"}[locale]
    assert label in table.locator(f"{classic} th").inner_text()
    swing = page.locator("[data-testid=strategy-house-swing][data-rules=classic]").inner_text()
    assert str(round(100 * exact["swing"]["barrel"]["value"], 2)).replace(
        ".", "," if locale == "ru-RU" else "."
    ) in (swing.replace("\u2212", "-"))
    box = table.locator("xpath=..")  # the table's own scrolling box: the page itself never scrolls sideways
    assert page.evaluate("document.documentElement.scrollWidth") <= w
    assert box.evaluate("e => e.clientWidth") <= w
    page.get_by_test_id("strategy-house-decided-title").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "strategy" / f"house-decided-{size}.png"))
    if box.evaluate("e => e.scrollWidth > e.clientWidth"):  # the phone: the figures scroll under the names
        box.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
        page.screenshot(path=str(artifacts / "strategy" / f"house-decided-{size}-scrolled.png"))
    assert not violations(page, f"strategy house rules {size}")


@pytest.mark.parametrize("size", list(SIZES))
def test_the_rule_to_remember_shows_the_apis_figures(new_page: Any, artifacts: Path, size: str) -> None:
    """ "A rule to remember": the rule's numbers and every measured row (share and interval) as the API sent them."""
    w, h, locale = SIZES[size]
    page = new_page(w, h, locale=locale)
    with page.expect_response(lambda r: r.url.endswith("/api/strategy/thousand")) as got:
        page.goto("/strategy/thousand")
    practical = got.value.json()["practical"]
    section = page.get_by_test_id("strategy-rule")
    section.scroll_into_view_if_needed()
    rule = practical["rule"]
    said = page.get_by_test_id("strategy-rule-text").inner_text()
    found = [int(x) for x in re.findall(r"\d+", said)]
    assert found == [rule["few"] + 1, 5, rule["threshold"], rule["few"], rule["climb"]]
    assert practical["rows"][0]["bot"] == "practical" and practical["rows"][0]["games"] >= 100_000
    for row in practical["rows"]:
        cells = section.locator(f"tr[data-bot='{row['bot']}'] td")
        share, interval = cells.nth(0).inner_text().split("\n")
        assert number(share) == round(100 * row["wins"] / row["games"], 1)
        lo, hi = (number(x) for x in interval.split("–"))
        assert (lo, hi) == (round(row["ci95"][0] * 100, 1), round(row["ci95"][1] * 100, 1))
    section.evaluate("(e) => e.scrollIntoView({block: 'start', behavior: 'instant'})")
    page.screenshot(path=str(artifacts / "strategy" / f"rule-{size}.png"))
    assert not violations(page, f"strategy rule {size}")
