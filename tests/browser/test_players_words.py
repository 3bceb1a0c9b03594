"""A table in the players' words: the hint note names no command, the table's code waits under "Share / details",
and why Bank is not possible yet is a neutral note beside the button, not a refusal of a move never tried."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .conftest import Server
from .helpers import seat_to_move

pytestmark = pytest.mark.browser

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


def my_turn_against_a_bot(page: Any, server: Server) -> str:
    """A Dice 1000 table against a bot, at the player's first decision (the table throws the first dice as it
    opens; when they score nothing the turn passed: a new table then)."""
    for _ in range(10):
        created = server.post(
            "/api/tables",
            {
                "game": "thousand",
                "seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "cautious"}],
            },
        )
        tid = str(created["table_id"])
        if seat_to_move(server, tid) == 0:
            page.goto(f"/table/{tid}#seat=0&token={created['seats'][0]['token']}")
            page.wait_for_function("() => !!document.querySelector('[data-testid=roll-btn]:not([disabled])')")
            return tid
    raise AssertionError("ten openings that scored nothing")


@pytest.mark.parametrize("size", list(SIZES))
def test_the_table_code_is_under_share_details(
    new_page: Any, server: Server, artifacts: Path, size: str
) -> None:
    page = new_page(*SIZES[size])
    tid = my_turn_against_a_bot(page, server)
    assert tid not in page.inner_text(".table-head h1")
    details = page.get_by_test_id("table-details")
    assert details.get_attribute("open") is None and not page.get_by_test_id("table-id").is_visible()
    page.screenshot(path=str(artifacts / f"words-table-{size}.png"))
    details.locator("summary").click()
    assert page.get_by_test_id("table-id").inner_text() == tid
    link = details.locator("input")
    assert link.input_value().endswith(f"/table/{tid}") and link.get_attribute("aria-label")
    page.screenshot(path=str(artifacts / f"words-details-{size}.png"))


@pytest.mark.parametrize("size", list(SIZES))
def test_bank_not_yet_is_a_note_beside_the_button(
    new_page: Any, server: Server, artifacts: Path, size: str
) -> None:
    page = new_page(*SIZES[size])
    bank = page.get_by_test_id("bank-btn")
    note = page.get_by_test_id("bank-reason")
    # a first throw worth 50 or more opens at once, five scoring dice must be rolled again: then another table
    for _ in range(15):
        my_turn_against_a_bot(page, server)
        if bank.is_disabled() and "50" in note.inner_text():
            break
    # a new player has not opened: Bank waits for 50 points (classic), nothing was pressed, nothing refused
    assert bank.is_disabled()
    text = note.inner_text()
    assert text.startswith("Bank — ") and "50" in text, text
    assert "refused" not in page.inner_text("main").lower()
    assert bank.get_attribute("aria-describedby") == note.get_attribute("id")
    # beside the button (same row on a desktop, or the line under it on a phone), in the page's muted ink, not red
    b, n = bank.bounding_box(), note.bounding_box()
    assert b is not None and n is not None and 0 <= n["y"] - b["y"] <= b["height"] + 16, (b, n)
    colour = note.evaluate("(el) => getComputedStyle(el).color")
    warn = page.evaluate("() => getComputedStyle(document.documentElement).getPropertyValue('--warn').trim()")
    assert colour != page.evaluate(
        "(c) => { const e = document.createElement('i'); e.style.color = c; document.body.append(e);"
        " const v = getComputedStyle(e).color; e.remove(); return v; }",
        warn,
    )
    page.screenshot(path=str(artifacts / f"words-bank-note-{size}.png"))


def test_the_hint_note_names_no_command(new_page: Any, server: Server) -> None:
    for locale in ("en-US", "ru-RU", "uk-UA", "pl-PL"):
        page = new_page(1280, 800, locale=locale)
        my_turn_against_a_bot(page, server)
        page.get_by_test_id("hint-btn").click()
        page.wait_for_selector("[data-testid=hints] li", timeout=60000)
        note = page.inner_text("[data-testid=hint-note]")
        assert note and "dicehall solve" not in note and "--" not in note, (locale, note)
