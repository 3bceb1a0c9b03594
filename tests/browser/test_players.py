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


def _finished_game_of(server: Server, player_id: str) -> str:
    """A real Dice 1000 game (cautious against bold, to the end) stored as a finished table whose seat 0 is the
    player's, written through the server's own Store as the server writes one."""
    import secrets
    import time

    import numpy as np

    from dicehall.core.agents import make_bot
    from dicehall.core.game import get_game
    from dicehall.core.record import GameRecord
    from dicehall.core.simulate import play_game
    from dicehall.web.db import Store, StoredEvent, TableMeta
    from dicehall.web.manager import finish_of

    game = get_game("thousand")
    rules = game.rules_type.from_preset("classic-nobarrel", {"target": 300, "pits": [], "dump_truck": False})
    state = game.new_initial_state(rules, 2)
    record = GameRecord.start("thousand", rules, ["Ann", "Bob"])
    bots = [make_bot("thousand", "cautious", rules), make_bot("thousand", "bold", rules)]
    play_game(state, bots, np.random.default_rng(7), np.random.default_rng(8), record)
    seat = {"kind": "human", "bot": None, "token": None, "claimed": True, "named": True}
    seats = [{**seat, "name": "Ann", "player": player_id}, {**seat, "name": "Bob", "player": None}]
    table_id, now = secrets.token_hex(6), time.time()
    meta = TableMeta(table_id, "thousand", rules.preset, rules.overrides(), seats, "playing", now, now)
    store = Store(f"sqlite:///{server.db}")
    try:
        store.create_table(meta, (0,))
        events = [StoredEvent(i + 1, e.actor, e.move, now) for i, e in enumerate(record.events)]
        store.append_events(table_id, events, "finished", finish=finish_of(state))
    finally:
        store.close()
    return table_id


@pytest.mark.parametrize("size", list(SIZES))
def test_your_games_resume_and_title(new_page: Any, server: Server, size: str) -> None:
    """Your games on the home page: the solo table where it is this player's turn first (marked in words), a table
    waiting for someone to join next, a finished game with its winner, scores and analysis last; the tab title
    counts the tables to move at; Resume holds the seat through the player, with no token saved in the page."""
    width, height = SIZES[size]
    page = new_page(width, height)
    page.goto("/")
    page.wait_for_selector("[data-testid=open-tables] li, [data-testid=open-tables] p:not(:empty)")
    assert page.get_by_test_id("your-games").is_hidden()  # a new visitor has no games
    page.click("[data-start=clever-solo]")
    page.wait_for_url("**/table/*")
    solo = page.url.rsplit("/", 1)[-1]
    # a table of this player's waiting for somebody to take its free seat (made with this browser's cookie)
    seats = [{"kind": "human", "open": True}, {"kind": "human", "me": True}]
    waiting = page.request.post("/api/tables", data={"game": "thousand", "seats": seats}).json()["table_id"]
    me = page.request.get("/api/me").json()["player"]["id"]
    finished = _finished_game_of(server, me)
    page.goto("/")
    yours = page.get_by_test_id("your-games")
    yours.locator(f"[data-testid=your-finished] li[data-table='{finished}']").wait_for()
    turn_item = yours.locator(f"[data-testid=your-turn] li[data-table='{solo}']")
    assert "Your turn" in turn_item.inner_text()  # said in words, not only by colour
    assert yours.locator(f"[data-testid=your-waiting] li[data-table='{waiting}']").count() == 1
    done = yours.locator(f"[data-testid=your-finished] li[data-table='{finished}']").inner_text()
    record = server.get(f"/api/tables/{finished}/record")["result"]
    winner = ["Ann", "Bob"][record["winners"][0]]
    assert f"Winner: {winner}" in done and ("You won" if winner == "Ann" else "You lost") in done
    assert all(f"{int(s)}" in done for s in record["scores"])
    analysis = yours.locator(f"li[data-table='{finished}'] [data-analysis]")
    assert analysis.get_attribute("href") == f"/table/{finished}/analysis"
    # the open list shows strangers' tables only: not this player's own waiting table
    assert page.locator(f"[data-testid=open-tables] li[data-table='{waiting}']").count() == 0
    # the order on the page: your turn, then waiting, then finished; your turn seen without scrolling
    order = page.evaluate(
        "() => [...document.querySelectorAll('[data-testid=your-games] li[data-table]')].map(li => li.dataset.table)"
    )
    assert order.index(solo) < order.index(waiting) < order.index(finished)
    box = turn_item.bounding_box()
    assert box is not None and box["y"] + box["height"] <= height, box
    page.wait_for_function("() => document.title.startsWith('(1) ')")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"your-games-{size}.png"))
    # Resume with no token left in this browser: the seat is held through the linked player
    page.evaluate("() => localStorage.clear()")
    turn_item.get_by_role("link", name="Resume").click()
    page.wait_for_url(f"**/table/{solo}")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=seat-badge]')?.textContent.includes('You play')"
    )
    page.screenshot(path=str(ARTIFACTS / f"your-games-resumed-{size}.png"))
    # another browser (another player) watches the same table
    other = new_page(width, height)
    other.goto(f"/table/{solo}")
    other.wait_for_function(
        "() => document.querySelector('[data-testid=seat-badge]')?.textContent.includes('Watching')"
    )


@pytest.mark.parametrize("size", list(SIZES))
def test_resign_from_your_games_after_saying_what_follows(new_page: Any, server: Server, size: str) -> None:
    """Your games offers Resign on each open game: a confirm says what follows (the bot wins), then the game moves
    to the finished list as lost."""
    width, height = SIZES[size]
    page = new_page(width, height)
    page.goto("/")
    page.click("[data-start=thousand-bot]")
    page.wait_for_url("**/table/*")
    table = page.url.rsplit("/", 1)[-1]
    page.goto("/")
    row = page.get_by_test_id("your-games").locator(f"li[data-table='{table}']")
    row.locator(f"[data-resign='{table}']").click()
    dialog = page.get_by_test_id("resign-dialog")
    assert "wins" in dialog.inner_text()  # two seats: the other (the bot) wins
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"your-games-resign-{size}.png"))
    page.get_by_test_id("resign-dialog-yes").click()
    done = page.locator(f"[data-testid=your-finished] li[data-table='{table}']")
    done.wait_for()
    assert done.get_attribute("data-result") == "loss"
    assert server.get(f"/api/tables/{table}")["status"] == "finished"
