"""Resign and Delete on the table page: a confirm dialog that says what follows for the game and the seats in,
then one event; at 1280×800 and 390×844."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import Server

pytestmark = pytest.mark.browser

BOTS = {"thousand": "cautious", "clever": "greedy", "wurf": "random"}
SIZES = {2: (1280, 800), 3: (390, 844)}
# what the dialog says follows (docs/thousand.md, clever.md, wurf.md "Resigning")
AMONG_MANY = {
    "thousand": "the others play on without you",
    "clever": "A bot fills in your sheet",
    "wurf": "your dice leave the game",
}


def open_table(page: Any, server: Server, game: str, n: int) -> str:
    seats = [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "bot": BOTS[game]}] * (n - 1)
    created = server.post("/api/tables", {"game": game, "seats": seats})
    token = created["seats"][0]["token"]
    page.goto(f"/table/{created['table_id']}#seat=0&token={token}")
    return str(created["table_id"])


@pytest.mark.parametrize("n", [2, 3])
@pytest.mark.parametrize("game", ["thousand", "clever", "wurf"])
def test_resign_in_each_game(new_page: Any, server: Server, artifacts: Path, game: str, n: int) -> None:
    width, height = SIZES[n]
    page = new_page(width, height)
    table_id = open_table(page, server, game, n)
    button = page.get_by_test_id("resign-btn")
    expect(button).to_be_visible()
    assert button.bounding_box()["y"] < height  # at hand without scrolling
    button.click()
    dialog = page.get_by_role("alertdialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_have_accessible_name("Resign this game?")
    what = page.get_by_test_id("resign-what")
    if n == 2:
        expect(what).to_contain_text("wins the game.")
    else:
        expect(what).to_contain_text(AMONG_MANY[game])
    # keyboard: the safe choice has the focus, Escape keeps playing, focus goes back to the button
    expect(page.get_by_test_id("resign-dialog-no")).to_be_focused()
    page.screenshot(path=str(artifacts / f"resign-{game}-{n}-{width}x{height}.png"))
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    expect(button).to_be_focused()
    assert server.get(f"/api/tables/{table_id}")["status"] == "playing"
    # resign for real: one event, said in the log
    button.click()
    page.get_by_test_id("resign-dialog-yes").click()
    expect(page.get_by_test_id("log")).to_contain_text("Ann resigns")
    expect(button).to_be_hidden()
    if n == 2:
        expect(page.get_by_test_id("gameover")).to_be_visible()
        assert server.get(f"/api/tables/{table_id}")["status"] == "finished"
    else:
        info = server.get(f"/api/tables/{table_id}")
        assert info["seats"][0]["resigned"] is True
        if game == "thousand":
            expect(page.get_by_test_id("seat-out")).to_be_visible()


def test_delete_a_table_nobody_joined(new_page: Any, server: Server, artifacts: Path) -> None:
    for width, height in ((1280, 800), (390, 844)):
        page = new_page(width, height)
        seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "open": True}]
        created = page.request.post("/api/tables", data={"game": "thousand", "seats": seats}).json()
        token, table_id = created["seats"][0]["token"], created["table_id"]
        page.goto(f"/table/{table_id}#seat=0&token={token}")
        page.get_by_test_id("delete-btn").click()
        dialog = page.get_by_role("alertdialog")
        expect(dialog).to_have_accessible_name("Delete this table?")
        expect(dialog).to_contain_text("deleted for good")
        page.screenshot(path=str(artifacts / f"delete-{width}x{height}.png"))
        page.get_by_test_id("delete-dialog-yes").click()
        expect(page.get_by_test_id("table-deleted")).to_be_visible()
        assert page.request.get(f"/api/tables/{table_id}").status == 404
