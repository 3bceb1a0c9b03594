"""Der große Wurf hints in the browser: the Hint button draws the map of where to aim over the arena with its
legend and the best throw in words; "Use this throw" sets the aim and power (the player still throws)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from dicehall.wurf.actions import cell_of

from .conftest import Server
from .test_accessibility import violations
from .wurf_driver import create, hold_every_seat

pytestmark = pytest.mark.browser

# Three people at one screen: whoever's turn comes after the first throw, this page plays it (against a bot a take
# back could hand it a master throw that ends the game, and there would be no next position to hint).
HOT_SEAT = [{"kind": "human", "name": n} for n in ("Ann", "Bob", "Cid")]
HEAT_SHOWN = "() => document.querySelector('[data-testid=wurf-stage]').wurf?.heatShown === true"


@pytest.mark.parametrize(
    "size",
    [(1280, 800), (390, 844)],
    ids=["desktop", "phone"],
)
def test_the_hint_map_shows_over_the_arena_and_sets_the_aim(
    new_page: Any, server: Server, artifacts: Path, size: tuple[int, int]
) -> None:
    page = new_page(*size)
    table = create(server, seats=HOT_SEAT, hints=True)
    hold_every_seat(page, table)
    expect(page.get_by_test_id("wurf-throw")).to_be_enabled(timeout=60000)
    legend = page.get_by_test_id("wurf-heat")
    assert legend.is_hidden()
    page.get_by_test_id("hint-btn").click()
    expect(legend).to_be_visible(timeout=30000)
    page.wait_for_function(HEAT_SHOWN)
    # the same hint the server gives the seat (a seed fixed by the position)
    hint = server.post(
        f"/api/tables/{table['table_id']}/hints", {"seat": 0, "token": table["seats"][0]["token"]}
    )
    best = hint["map"]["best"]
    cell = cell_of(best["x"], best["y"])
    best_text = page.get_by_test_id("wurf-heat-best")
    expect(best_text).to_contain_text(f"Best throw (cross-hair): aim at {cell}")
    assert best_text.get_attribute("aria-live") == "polite"  # a screen reader hears the best throw
    low, high = (
        page.get_by_test_id("wurf-heat-low").inner_text(),
        page.get_by_test_id("wurf-heat-high").inner_text(),
    )
    assert float(low) <= float(high)
    assert "dice" in page.locator(".wurf-heat-bar").get_attribute("aria-label")
    # the hint list names the moves in words, the best first
    expect(page.locator("[data-testid=hints] li.best")).to_have_count(1)
    assert "throw at" in page.locator("[data-testid=hints] li").first.inner_text() or "end the turn" in (
        page.locator("[data-testid=hints] li").first.inner_text()
    )
    # the legend lies over the arena's corner: it never moves the arena or the controls
    stage, box = page.get_by_test_id("wurf-stage").bounding_box(), legend.bounding_box()
    assert (
        stage and box and stage["y"] <= box["y"] and box["y"] + box["height"] <= stage["y"] + stage["height"]
    )
    if (
        size[0] >= 1000
    ):  # on a desktop it is on the first screen (a phone's hint list is placed by the layout)
        assert box["y"] + box["height"] <= size[1]
    page.screenshot(path=str(artifacts / f"wurf-hint-{size[0]}x{size[1]}.png"))
    assert not violations(page, "Wurf table with the hint map")  # axe-core: no serious or critical violation
    page.get_by_test_id("wurf-stage").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / f"wurf-hint-{size[0]}x{size[1]}-arena.png"))
    page.get_by_test_id("wurf-heat-use").click()
    expect(page.get_by_test_id("wurf-power")).to_have_value(str(best["power"]).rstrip("0").rstrip("."))
    expect(page.get_by_test_id("wurf-power-value")).to_contain_text(cell)
    expect(page.get_by_test_id("wurf-throw")).to_be_focused()  # Enter throws it
    # the player still throws: nothing was sent
    expect(page.get_by_test_id("wurf-throw")).to_be_enabled()
    # thrown with Enter: the map goes while the dice fly and comes back for the next position (the hint stays on)
    before = page.get_by_test_id("wurf-heat-best").inner_text()
    page.keyboard.press("Enter")
    page.locator("[data-testid=log] li[data-seq='3']").wait_for(
        timeout=60000
    )  # the start, the throw, its dice
    expect(page.get_by_test_id("wurf-throw")).to_be_enabled(timeout=60000)
    expect(legend).to_be_visible(timeout=30000)
    page.wait_for_function(HEAT_SHOWN)
    if size[0] >= 1000:
        page.screenshot(path=str(artifacts / "wurf-hint-later-1280x800.png"), full_page=True)
    assert (
        page.get_by_test_id("wurf-heat-best").inner_text() != before
        or page.locator("[data-testid=hints] li").count() > 1
    )
    # the Hint button closes the map
    page.get_by_test_id("hint-btn").click()
    expect(legend).to_be_hidden()
    page.wait_for_function(HEAT_SHOWN.replace("=== true", "=== false"))
