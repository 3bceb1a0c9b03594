"""How to play: Clever's sheet picture with its area names beside the cells (never on them), the worked turn, the
five areas each with a picture, the bonuses; Der große Wurf's gathering; in every language."""

from __future__ import annotations

from typing import Any

import pytest

from .test_i18n import LOCALES

pytestmark = pytest.mark.browser

# (label box, cell box) pairs that overlap, in the SVG's own units
OVERLAPS_JS = """(svg) => {
  const box = (e) => { const b = e.getBBox(); return [b.x, b.y, b.x + b.width, b.y + b.height]; };
  const cells = [...svg.querySelectorAll('.pic-cell')].map(box);
  const out = [];
  for (const label of svg.querySelectorAll('.pic-label')) {
    const [a, b, c, d] = box(label);
    for (const [x, y, z, w] of cells) if (a < z && x < c && b < w && y < d) out.push(label.textContent);
  }
  return out;
}"""


@pytest.mark.parametrize("locale", ["en-US", *LOCALES.values()])
def test_clever_how_to_play_shows_areas_a_worked_turn_and_bonuses(new_page: Any, locale: str) -> None:
    page = new_page(390, 844, locale=locale)
    page.goto("/rules?game=clever")
    howto = page.locator("[data-testid=howto][data-game=clever]")
    howto.wait_for()
    sheet = howto.locator(".howto-pic svg").first
    assert sheet.evaluate(OVERLAPS_JS) == [], "an area's name sits on its cells"
    # The worked turn: four steps and the picture of its rolls and platter (three dice taken, then one passive).
    example = page.get_by_test_id("howto-example")
    assert example.locator("li").count() == 4
    assert example.locator(".pic-taken").count() == 4 and example.locator(".pic-die.faded").count() == 3
    # Each area with its own picture and words; the bonuses.
    areas = page.get_by_test_id("howto-areas").locator(".howto-area")
    assert areas.evaluate_all("as => as.map((a) => a.dataset.area)") == [
        "yellow",
        "blue",
        "green",
        "orange",
        "purple",
    ]
    for area in areas.all():
        assert (
            area.locator("svg[role=img]").get_attribute("aria-label")
            and len(area.locator("p").inner_text()) > 60
        )
    assert page.get_by_test_id("howto-bonus").locator("p").count() == 5
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_wurf_how_to_play_explains_gathering(new_page: Any) -> None:
    page = new_page()
    page.goto("/rules?game=wurf")
    page.locator("[data-testid=howto][data-game=wurf]").wait_for()
    assert "Gather the dice" in page.inner_text("[data-testid=howto]")
