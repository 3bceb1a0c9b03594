"""Real dice in the browser: a Dice 1000 table whose throws are entered by tapping faces, corrected before
confirming and taken back after; the record marks the entered dice and replays."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from dicehall.core.record import GameRecord, replay

from .conftest import Server
from .helpers import lobby_here, read

pytestmark = pytest.mark.browser


def tap(page: Any, faces: str) -> None:
    for f in faces:
        page.get_by_test_id(f"entry-face-{f}").click()


def slots(page: Any) -> list[str]:
    return [s.get_attribute("data-face") or "" for s in page.get_by_test_id("entry-slot").all()]


def confirm_and_wait(page: Any, seq_before: int) -> None:
    page.get_by_test_id("entry-confirm").click()
    page.wait_for_function(
        f"() => Number(document.querySelector('[data-testid=log] > li')?.dataset.seq) > {seq_before}"
    )


def test_real_dice_game_entered_by_taps(new_page: Any, server: Server, artifacts: Path) -> None:
    page = new_page()
    tid = lobby_here(page, "thousand", ["Ann", "Bob"], preset="classic", dice="real")
    assert server.get(f"/api/tables/{tid}")["dice"] == "real"
    entry = page.get_by_test_id("dice-entry")
    entry.wait_for(state="visible")
    assert "Ann" in entry.inner_text() and page.get_by_test_id("real-dice").is_visible()
    assert page.get_by_test_id("entry-confirm").is_disabled()

    # a wrong tap is corrected with Back and by tapping its slot, before anything is sent
    tap(page, "11552")
    assert slots(page) == ["1", "1", "5", "5", "2"]
    page.get_by_test_id("entry-back").click()
    tap(page, "3")
    page.get_by_test_id("entry-slot").nth(0).click()  # clears the first die
    assert slots(page) == ["", "1", "5", "5", "3"]
    tap(page, "1")
    page.screenshot(path=str(artifacts / "realdice-entry.png"), full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(artifacts / "realdice-entry-phone.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, "no sideways scrolling on a phone"
    page.set_viewport_size({"width": 1100, "height": 820})
    confirm_and_wait(page, 0)
    assert read(page)["roll"] == [1, 1, 5, 5, 3]
    assert page.locator("[data-testid=log] > li").first.locator(".entered").count() == 1

    # taken back before anyone decides on it: the log strikes it out and the throw is entered again
    undo = page.get_by_test_id("undo-entry")
    assert "1 1 5 5 3" in undo.inner_text()
    undo.click()
    page.wait_for_selector("[data-testid=log] > li[data-seq='2']")
    entry.wait_for(state="visible")
    assert page.locator("[data-testid=log] li.retracted[data-seq='1']").count() == 1
    assert undo.is_hidden()

    # a zero roll passes the turn to Bob (the same screen: hot seat); Bob scores and banks what he may
    tap(page, "23466")
    confirm_and_wait(page, 2)
    entry.wait_for(state="visible")
    assert "Bob" in entry.inner_text()
    page.keyboard.press("1")  # keys work as well as taps
    page.keyboard.press("5")
    tap(page, "233")
    page.keyboard.press("Enter")
    page.wait_for_function("() => Number(document.querySelector('[data-testid=log] > li')?.dataset.seq) > 3")
    page.get_by_test_id("roll-btn").wait_for(state="visible")
    page.wait_for_function("() => !document.querySelector('[data-testid=roll-btn]').disabled")
    page.get_by_test_id("roll-btn").click()
    entry.wait_for(state="visible")
    assert len(slots(page)) == 3, "three dice are left to throw"
    tap(page, "555")
    confirm_and_wait(page, 5)
    page.screenshot(path=str(artifacts / "realdice-table.png"), full_page=True)
    shown = read(page)

    rec = GameRecord.from_json(server.get(f"/api/tables/{tid}/record"))
    assert [(e.actor, e.move, e.entered_by) for e in rec.events] == [
        ("chance", "2,3,4,6,6", 0),
        ("chance", "1,5,2,3,3", 1),
        (1, "roll", None),
        ("chance", "5,5,5", 1),
    ]
    state = replay(rec)
    assert state.turn_total == shown["turnTotal"] > 15  # the engine scored what was tapped: 1, 5, then 5 5 5
