"""Ganz schön clever in a real browser: a solo game by clicks to the rating, a hot-seat game with its handover
screen (and a passive choice hidden from the next player at the screen), a table with bots and a reload mid-turn,
an illegal click refused with the reason, the table on a phone. Screenshots go to test-artifacts/clever-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from dicehall.core.record import GameRecord, replay

from .clever_driver import CleverPlayer, click_cell, look, play_clever, sheet_html, shown_totals
from .conftest import Server
from .helpers import hold_seats, lobby_here

pytestmark = pytest.mark.browser


def open_table(page: Any, server: Server, seats: list[dict[str, Any]], overrides: dict[str, Any]) -> str:
    """A table made over the API, its human seats held by this page."""
    created = server.post(
        "/api/tables", {"game": "clever", "preset": None, "overrides": overrides, "seats": seats}
    )
    tid: str = created["table_id"]
    hold_seats(page, tid, {s["seat"]: s["token"] for s in created["seats"] if s.get("token")})
    page.wait_for_selector(".clever-sheet", state="attached")
    return tid


def final_totals(server: Server, table_id: str) -> list[int]:
    """The downloadable record replays (with the core's replay) to a finished game; its totals."""
    state = replay(GameRecord.from_json(server.get(f"/api/tables/{table_id}/record")))
    assert state.is_terminal()
    return [int(s) for s in state.scores()]


def test_illegal_click_and_a_solo_game_by_clicks_to_the_rating(
    new_page: Any, server: Server, artifacts: Path
) -> None:
    page = new_page(1280, 800)
    page.goto("/")
    page.click("[data-start=clever-solo]")
    page.wait_for_selector(".clever-root[data-state=act]")
    assert "Round 1 of 6" in page.inner_text("[data-testid=round]")

    # A die with several cells: they light up; a cell it cannot take says why, and nothing changes.
    before = look(page)
    die = next(d for d, n in before["dice"] if n > 1)
    page.locator(f'.cdie.pickable[data-die="{die}"]').click()
    page.wait_for_selector(".clever-sheet .cell.target")
    lit = look(page)["targets"]
    wrong = page.locator(
        ".clever-sheet .area-yellow .cell:not(.target):not(.printed)[data-target], "
        ".clever-sheet .area-blue .cell:not(.target)[data-target]"
    ).first
    wrong.click()
    after = look(page)
    assert after["why"], "an illegal cell says why"
    assert any(w in after["why"] for w in ("needs", "only go to", "Blue + white")), after["why"]
    assert not any(x in after["why"] for x in ("{", "clever.")), (
        f"the server's reason worded whole: {after['why']}"
    )
    assert after["targets"] == lit and after["seq"] == before["seq"] and after["total"] == before["total"]
    page.wait_for_timeout(300)
    assert look(page)["seq"] == before["seq"], "nothing was sent"
    page.keyboard.press("Escape")
    assert look(page)["targets"] == []

    me = CleverPlayer(page, seed=3)
    play_clever([me], stop=lambda looks: me.moves >= 6)
    page.screenshot(path=str(artifacts / "clever-table.png"), full_page=True)
    play_clever([me], timeout=150)

    card = page.get_by_test_id("gameover")
    card.wait_for()
    page.screenshot(path=str(artifacts / "clever-solo-end.png"), full_page=True)
    assert "Solo game over" in card.inner_text()
    assert page.get_by_test_id("rating").inner_text().startswith("Rating (")
    assert shown_totals(page) == final_totals(server, page.url.rsplit("/", 1)[-1])
    assert {"die", "bonus"} & me.used and me.handovers == 0
    assert page.get_by_test_id("record-download").get_attribute("href", timeout=1000)


def test_hot_seat_game_of_two_from_the_lobby(new_page: Any, server: Server, artifacts: Path) -> None:
    page = new_page(1100, 820)
    tid = lobby_here(page, "clever", ["Ann", "Bob"], rules={"rounds": 2})
    page.wait_for_selector(".clever-root[data-state]")
    assert look(page)["state"] == "handover"
    assert "Pass the device to Ann" in page.inner_text("[data-testid=handover]")
    assert page.locator(".clever-board").is_hidden(), "the handover screen hides the sheets"
    ann = CleverPlayer(page, seed=5)
    play_clever([ann], timeout=120)
    assert ann.handovers >= 4
    card = page.get_by_test_id("gameover")
    page.screenshot(path=str(artifacts / "clever-gameover.png"), full_page=True)
    text = card.inner_text()
    assert "Ann wins" in text or "Bob wins" in text or "Shared win" in text, text
    totals = final_totals(server, tid)
    assert shown_totals(page) == totals
    if totals[0] == totals[1]:
        assert page.get_by_test_id("tie-break").is_visible()


def test_hot_seat_hides_a_passive_choice_from_the_next_player(new_page: Any, server: Server) -> None:
    """Bob and Cid choose at once (on the server); at one screen Cid never sees Bob's choice before the phase
    is over, not even after a reload in the middle of it."""
    page = new_page(1100, 820)
    seats = [{"kind": "human", "name": n} for n in ("Ann", "Bob", "Cid")]
    open_table(page, server, seats, {"rounds": 1})
    driver = CleverPlayer(page, seed=2)
    # Ann's active turn (three picks); then the passive phase opens and the device goes to Bob.
    play_clever([driver], stop=lambda looks: looks[0]["state"] == "handover" and bool(looks[0]["sim"]))
    assert "Bob" in page.inner_text("[data-testid=handover]")
    page.get_by_test_id("handover-ready").click()
    page.wait_for_selector(".clever-root[data-state=act]")
    bob_before = sheet_html(page, marks=True)
    s = look(page)
    assert s["seat"] == 1 and s["dice"] and s["sim"] == [[1, False], [2, False]], s
    die, n = s["dice"][0]
    page.locator(f'.cdie.pickable[data-die="{die}"]').click()
    if n > 1:
        click_cell(page, look(page)["targets"][0])
    page.wait_for_function("() => document.querySelector('.clever-root').dataset.state !== 'wait'")
    while look(page)["state"] == "act":  # a bonus the die fired, ...
        driver.move()
        page.wait_for_function("() => document.querySelector('.clever-root').dataset.state !== 'wait'")
    assert "Cid" in page.inner_text("[data-testid=handover]")

    # a reload in the middle of the phase: Bob's choice is still kept from Cid
    page.reload()
    page.wait_for_selector(".clever-root[data-state=handover]")
    assert "Cid" in page.inner_text("[data-testid=handover]")
    page.get_by_test_id("handover-ready").click()
    page.wait_for_selector(".clever-root[data-state=act]")
    assert look(page)["sim"] == [[1, True], [2, False]]
    page.locator(".clever-tab[data-seat='1']").click()
    assert sheet_html(page, marks=True) == bob_before, "Cid must not see Bob's passive choice yet"
    assert "Bob" not in page.inner_text("[data-testid=log]"), "nothing of Bob's is logged yet"
    page.locator(".clever-tab[data-seat='2']").click()
    page.get_by_test_id("pass-btn").click()
    page.wait_for_selector(".clever-root[data-state=handover]")
    assert "Bob" in page.inner_text("[data-testid=handover]"), "Bob's active turn is next"
    page.get_by_test_id("handover-ready").click()
    page.locator(".clever-tab[data-seat='1']").click()
    assert sheet_html(page) != bob_before, "after the passive phase Bob's choice shows"


def test_table_with_bots_reload_mid_turn_and_a_phone(new_page: Any, server: Server, artifacts: Path) -> None:
    page = new_page(390, 844)
    seats = [
        {"kind": "human", "name": "Ann"},
        {"kind": "bot", "bot": "greedy"},
        {"kind": "bot", "bot": "expert"},
    ]
    tid = open_table(page, server, seats, {"rounds": 2})
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, "no sideways scrolling on a phone"
    me = CleverPlayer(page, seed=9)
    # (generous: a fresh server's bot workers may still be compiling the master bot's kernels)
    play_clever([me], stop=lambda looks: looks[0]["state"] == "act" and me.moves >= 2, timeout=300)
    page.wait_for_selector(".clever-root[data-state=act]")
    page.screenshot(path=str(artifacts / "clever-table-phone.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    # Reload mid-turn: the identical sheet, status and dice come back.
    shown = (sheet_html(page), look(page)["status"], look(page)["dice"])
    page.reload()
    page.wait_for_selector(".clever-root[data-state=act]")
    assert (sheet_html(page), look(page)["status"], look(page)["dice"]) == shown

    play_clever([me], timeout=150)
    page.get_by_test_id("gameover").wait_for()
    page.screenshot(path=str(artifacts / "clever-gameover-phone.png"))
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    totals = final_totals(server, tid)
    assert shown_totals(page) == totals
    assert len(totals) == 3
    tabs = page.locator(".clever-tab").all_inner_texts()
    assert len(tabs) == 3 and any("greedy" in t for t in tabs) and any("expert" in t for t in tabs)


@pytest.mark.slow
def test_whole_standard_games_hot_seat_and_with_every_bot(new_page: Any, server: Server) -> None:
    """The full length: six rounds of hot seat for two, five rounds with the greedy and master bots."""
    page = new_page(1100, 820)
    tid = open_table(page, server, [{"kind": "human", "name": n} for n in ("Ann", "Bob")], {})
    players = [CleverPlayer(page, seed=21)]
    play_clever(players, timeout=400)
    assert shown_totals(page) == final_totals(server, tid)
    assert players[0].handovers >= 12

    page = new_page(1100, 820)
    seats = [
        {"kind": "human", "name": "Ann"},
        {"kind": "bot", "bot": "greedy"},
        {"kind": "bot", "bot": "master"},
    ]
    tid = open_table(page, server, seats, {})
    play_clever([CleverPlayer(page, seed=22)], timeout=400)
    assert shown_totals(page) == final_totals(server, tid)
    assert "Round 5 of 5" in page.inner_text("[data-testid=round]")
