"""Correspondence tables in the page: the time control of the new-table form (and its refusals), the time left at
the table, and "Your games" with each game's deadline, the nearest first, and "deadline soon" once the reminder is
due (docs/web.md, "Correspondence tables")."""

from __future__ import annotations

import re
import secrets
import time
from pathlib import Path
from typing import Any

import pytest

from .conftest import Server

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
HOUR, DAY = 3600, 86_400


def _table_on_the_clock(server: Server, player_id: str, days: int, left: float) -> str:
    """A two-player Dice 1000 table of ``player_id`` (seat 0, to move) with ``days`` a move and ``left`` seconds
    to its deadline, written straight into the server's database (the server loads it when asked). Its first roll
    is written too, one that scores: a roll the server made on loading could end Ann's turn (no scoring die)."""
    from dicehall.core.game import CHANCE, get_game
    from dicehall.web.db import Store, StoredEvent, TableMeta

    seat = {"kind": "human", "bot": None, "token": None, "claimed": True, "named": True}
    seats = [{**seat, "name": "Ann", "player": player_id}, {**seat, "name": "Bob", "player": None}]
    table_id, now = secrets.token_hex(6), time.time()
    meta = TableMeta(table_id, "thousand", "classic", {}, seats, "playing", now, now)
    meta.move_seconds, meta.deadline = days * DAY, now + left
    game = get_game("thousand")
    state = game.new_initial_state(game.rules_type.from_preset("classic", {}), 2)
    assert state.current_player() == CHANCE
    state.apply_action(state.string_to_action("1,2,3,4,6"))  # one 1 to keep: Ann is to move
    assert state.current_player() == 0
    roll = StoredEvent(1, "chance", "1,2,3,4,6", now)
    store = Store(f"sqlite:///{server.db}")
    try:
        store.create_table(meta, (0,))
        store.append_events(table_id, [roll])
    finally:
        store.close()
    return table_id


@pytest.mark.parametrize("size", list(SIZES))
def test_your_games_and_the_table_show_the_time_left(new_page: Any, server: Server, size: str) -> None:
    width, height = SIZES[size]
    page = new_page(width, height)
    page.goto("/")
    page.request.post("/api/me")
    me = page.request.get("/api/me").json()["player"]["id"]
    week = _table_on_the_clock(server, me, 7, 6 * DAY + 5 * HOUR)
    day = _table_on_the_clock(server, me, 1, 2 * HOUR + 30 * 60)  # within 3 hours: the reminder is due
    page.goto("/")
    yours = page.get_by_test_id("your-games")
    soon = yours.locator(f"[data-testid=your-turn] li[data-table='{day}']")
    soon.wait_for()
    clock = soon.locator(f"[data-clock='{day}']").inner_text()
    assert "deadline soon" in clock and "1 day a move" in clock
    assert re.search(r"Your move — 2 hours \d+ minutes left", clock), clock
    later = yours.locator(f"[data-clock='{week}']").inner_text()
    assert "7 days a move" in later and re.search(r"Your move — 6 days (4|5) hours left", later), later
    assert "deadline soon" not in later and yours.locator(f"[data-soon='{week}']").count() == 0
    order = page.evaluate(
        "() => [...document.querySelectorAll('[data-testid=your-turn] li[data-table]')].map(li => li.dataset.table)"
    )
    assert order.index(day) < order.index(week)  # the nearest deadline first
    box = soon.bounding_box()
    assert box is not None and box["y"] + box["height"] <= height, box
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"correspondence-your-games-{size}.png"))
    soon.get_by_role("link", name="Resume").click()
    page.wait_for_url(f"**/table/{day}")
    line = page.get_by_test_id("clock-line")
    line.wait_for()
    page.wait_for_function(
        "() => /Your move — 2 hours/.test(document.querySelector('[data-testid=clock-line]')?.textContent ?? '')"
    )
    assert line.inner_text().startswith("1 day a move · ")
    box = line.bounding_box()
    assert box is not None and box["y"] + box["height"] <= height, box
    page.screenshot(path=str(ARTIFACTS / f"correspondence-table-{size}.png"))


def test_the_form_sets_days_a_move_and_says_when_it_cannot(new_page: Any, server: Server) -> None:
    page = new_page(1280, 800)
    page.goto("/new?game=thousand")
    page.wait_for_selector(".seat-row")
    control = page.get_by_test_id("time-control")
    assert control.get_by_label("Live (play now)").is_checked()
    control.get_by_label("3 days a move").check()
    control.scroll_into_view_if_needed()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "correspondence-time-control-desktop.png"))
    # the default seats: this player and a bot — nobody to play over days with
    page.click("#create")
    toast = page.locator("#toast")
    toast.wait_for(state="visible")
    assert "needs at least two people" in toast.inner_text()
    rows = page.locator(".seat-row")
    rows.nth(1).locator(".seat-kind").select_option("human")
    rows.nth(1).locator(".seat-where").select_option("here")  # both on this device: a hot seat
    page.click("#create")
    page.wait_for_function(
        "() => document.querySelector('#toast')?.textContent.includes('on their own devices')"
    )
    rows.nth(1).locator(".seat-where").select_option("invite")
    rows.nth(1).locator(".seat-name").fill("Bob")
    page.click("#create")
    page.wait_for_selector("#go-table")
    table_id = (page.get_attribute("#go-table", "href") or "").rsplit("/", 1)[-1]
    info = server.get(f"/api/tables/{table_id}")
    assert info["move_seconds"] == 3 * DAY and info["deadline"] > time.time() + 3 * DAY - 120
    page.screenshot(path=str(ARTIFACTS / "correspondence-form-desktop.png"))
    phone = new_page(390, 844)
    phone.goto("/new?game=thousand")
    phone.wait_for_selector(".seat-row")
    phone.get_by_test_id("time-control").scroll_into_view_if_needed()
    phone.screenshot(path=str(ARTIFACTS / "correspondence-time-control-phone.png"))
