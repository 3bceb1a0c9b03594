"""Players in the page (web/src/me.ts): the name asked once at the first table and used at the next, the name chip,
and seats nobody named worded in each visitor's own language."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .conftest import Server
from .helpers import hold_seats

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


@pytest.mark.parametrize("size", list(SIZES))
def test_a_visitor_named_once_is_seen_by_name_at_a_second_table(
    new_page: Any, server: Server, size: str
) -> None:
    width, height = SIZES[size]
    page = new_page(width, height, ask_name=True)
    page.goto("/")
    assert page.get_by_test_id("name-chip").inner_text() == "Set your name"
    page.click("[data-start=thousand-bot]")
    prompt = page.get_by_test_id("name-prompt")
    prompt.wait_for(state="visible")
    box = prompt.bounding_box()  # seen without scrolling, wherever the button was
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height, box
    assert page.evaluate("() => document.activeElement?.dataset.testid") == "name-input"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"name-prompt-{size}.png"))
    # a refused name is said in the page's words, and nothing starts
    page.fill("[data-testid=name-input]", "Ann\u202e")
    page.click("[data-testid=name-save]")
    page.get_by_test_id("name-error").wait_for(state="visible")
    assert "invisible" in page.get_by_test_id("name-error").inner_text()
    assert "/table/" not in page.url
    page.fill("[data-testid=name-input]", "Ann")
    page.click("[data-testid=name-save]")
    page.wait_for_url("**/table/*")
    page.wait_for_selector("[data-testid=scoreboard] tbody tr")
    first = page.url.rsplit("/", 1)[-1]
    assert "Ann" in page.inner_text("[data-testid=seat-badge]")
    assert page.get_by_test_id("name-chip").inner_text() == "Ann"
    # the second table: no question, the same name
    page.goto("/")
    page.click("[data-start=clever-solo]")
    page.wait_for_url("**/table/*")
    second = page.url.rsplit("/", 1)[-1]
    assert second != first and page.get_by_test_id("name-prompt").count() == 0
    assert server.get(f"/api/tables/{second}")["seats"][0]["name"] == "Ann"
    # renamed from the top bar: the next table takes the new name
    page.get_by_test_id("name-chip").click()
    page.fill("[data-testid=name-input]", "Ann Lee")
    page.click("[data-testid=name-save]")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=name-chip]')?.textContent === 'Ann Lee'"
    )
    page.screenshot(path=str(ARTIFACTS / f"name-chip-{size}.png"))
    page.goto("/")
    page.click("[data-start=thousand-bot]")
    page.wait_for_url("**/table/*")
    third = page.url.rsplit("/", 1)[-1]
    assert server.get(f"/api/tables/{third}")["seats"][0]["name"] == "Ann Lee"


def test_polish_and_russian_see_default_names_in_their_own(new_page: Any, server: Server) -> None:
    """Two unnamed seats: the Russian visitor reads the Polish visitor's seat as "Игрок 2", the Polish visitor reads
    the Russian's as "Gracz 1" (issue 23: not in the language of whoever created the table)."""
    created = server.post(
        "/api/tables", {"game": "thousand", "seats": [{"kind": "human"}, {"kind": "human"}]}
    )
    table_id, tokens = created["table_id"], [s["token"] for s in created["seats"]]
    ru = new_page(locale="ru-RU")
    hold_seats(ru, table_id, {0: tokens[0]})
    pl = new_page(390, 844, locale="pl-PL")
    hold_seats(pl, table_id, {1: tokens[1]})
    for page, mine, theirs in ((ru, "Игрок 1", "Игрок 2"), (pl, "Gracz 2", "Gracz 1")):
        page.wait_for_selector("[data-testid=scoreboard] tbody tr")
        board = page.inner_text("[data-testid=scoreboard]")
        assert mine in board and theirs in board, board
        assert "Player" not in board
