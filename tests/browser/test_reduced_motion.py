"""A player whose system asks for less motion (prefers-reduced-motion) sees the same Der große Wurf throw over in a
quarter of the time, and Dice 1000's dice land without tumbling."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Server
from .wurf_driver import create, open_seat, wait_state

pytestmark = pytest.mark.browser


def test_the_wurf_throw_plays_in_a_quarter_of_the_time(new_page: Any, server: Server) -> None:
    table = create(server, seats=[{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}])
    calm = new_page(1280, 800)
    calm.emulate_media(reduced_motion="reduce")
    full = new_page(1280, 800)
    open_seat(calm, table, 0)
    full.goto(f"/table/{table['table_id']}")  # a spectator: the same throw, with motion
    full.wait_for_selector("[data-testid=wurf-stage][data-state]")
    assert wait_state(calm) == "act"
    calm.get_by_test_id("wurf-throw").click()
    took = {}
    for name, page in (("calm", calm), ("full", full)):
        canvas = page.get_by_test_id("wurf-canvas")
        page.wait_for_function("() => !!document.querySelector('[data-testid=wurf-canvas]')?.dataset.throwMs")
        took[name] = int(canvas.get_attribute("data-throw-ms") or 0)
    assert took["full"] >= 1500 and abs(took["calm"] * 4 - took["full"]) <= 4, took


def test_dice_1000_dice_do_not_tumble(new_page: Any, server: Server) -> None:
    page = new_page(390, 844)
    page.emulate_media(reduced_motion="reduce")
    page.goto("/")
    page.click("[data-start=thousand-bot]")
    page.wait_for_selector("[data-testid=roll] .die")
    # freshly thrown dice (class "rolling") may be redrawn at once by the next event: note each as it comes
    page.evaluate(
        """() => { window.__tumbles = [];
          new MutationObserver(() => document.querySelectorAll('[data-testid=roll] .die.rolling').forEach(
            (d) => window.__tumbles.push(getComputedStyle(d).animationName))
          ).observe(document.querySelector('[data-testid=roll]'), { childList: true }); }"""
    )
    page.wait_for_function("() => !!document.querySelector('[data-testid=roll-btn]:not([disabled])')")
    page.keyboard.press("r")
    page.wait_for_function("() => window.__tumbles.length > 0")
    names = page.evaluate("() => window.__tumbles")
    assert names and set(names) == {"none"}, names
