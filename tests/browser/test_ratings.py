"""Ratings in the page (web/src/ratings.ts): the change on the game-over card of a rated game, the rating and its
chart on the profile, the leaderboard (established, active players only), and the form's "Rated game" control;
screenshots at 1280×800 and 390×844."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from .conftest import Server
from .test_accessibility import violations
from .test_players import SIZES

pytestmark = pytest.mark.browser

BOARD = [("Mira", 31.0), ("Jonas", 29.5), ("Olena", 28.25), ("Piotr", 27.0), ("Sasha", 26.1), ("Kai", 24.0)]
"""Established players seeded for the leaderboard (mu; sigma 1.5, a rated game yesterday)."""


def seed_board(server: Server, tag: str = "board") -> None:
    """Players with ratings straight in the database (once per server): the established ones of ``BOARD``, a
    provisional one and one not seen for 60 days (neither is listed)."""
    from sqlalchemy import create_engine, insert, select

    from dicehall.web.db import PlayerRow, RatingRow

    now = time.time()
    engine = create_engine(f"sqlite:///{server.db}")
    with engine.begin() as conn:
        if conn.execute(select(PlayerRow.id).where(PlayerRow.id == f"{tag}00")).first():
            return
        rows = [(n, mu, 1.5, now - 86400) for n, mu in BOARD]
        rows += [("Newbie", 40.0, 6.0, now), ("Gone", 45.0, 1.0, now - 60 * 86400)]
        for k, (name, mu, sigma, at) in enumerate(rows):
            pid = f"{tag}{k:02d}"
            conn.execute(insert(PlayerRow).values(id=pid, name=name, kind="guest", created=at, seen=at))
            conn.execute(
                insert(RatingRow).values(
                    player_id=pid,
                    game="wurf",
                    mu=mu,
                    sigma=sigma,
                    ordinal=mu - 3 * sigma,
                    games=40,
                    updated=at,
                )
            )
    engine.dispose()


def named_player(page: Any, name: str) -> str:
    page.goto("/")
    return str(
        page.evaluate(
            """async (name) => {
                const me = (await (await fetch('/api/me', {method: 'POST'})).json()).player;
                await fetch('/api/me/name', {method: 'PUT', headers: {'Content-Type': 'application/json'},
                                             body: JSON.stringify({name})});
                return me.id;
            }""",
            name,
        )
    )


def rated_game_resigned(page: Any) -> dict[str, Any]:
    """A rated Der große Wurf table against a bot, made by the page's player, who resigns at once (the bot wins)."""
    return dict(
        page.evaluate(
            """async () => {
                const post = async (url, body) => (await fetch(url, {method: 'POST',
                    headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)})).json();
                const t = await post('/api/tables', {game: 'wurf', preset: null, overrides: {},
                    seats: [{kind: 'human', me: true}, {kind: 'bot', bot: 'random'}]});
                await post(`/api/tables/${t.table_id}/resign`, {seat: 0});
                return t;
            }"""
        )
    )


@pytest.mark.parametrize("size", list(SIZES))
def test_rating_on_the_card_the_profile_and_the_leaderboard(
    new_page: Any, server: Server, artifacts: Path, size: str
) -> None:
    if os.environ.get("DICEHALL_BROWSER_BASE"):
        pytest.skip("seeds the test server's own database")
    width, height = SIZES[size]
    page = new_page(width, height)
    me = named_player(page, "Ann")
    seed_board(server)
    tables = [rated_game_resigned(page) for _ in range(3)]
    assert all(t["rated"] is True for t in tables)

    # the game-over card: the rating before and after, the loss, the provisional mark
    page.goto(f"/table/{tables[-1]['table_id']}")
    card = page.get_by_test_id("rating-changes")
    card.wait_for()
    line = card.locator("li[data-seat='0']")
    assert int(str(line.get_attribute("data-delta"))) < 0
    assert line.locator("[data-provisional=true]").count() == 1 and "?" in line.inner_text()
    assert "Ann" in line.inner_text()
    page.screenshot(path=str(artifacts / f"ratings-gameover-{size}.png"))
    found = violations(page, "game-over card")

    # the profile: the rating, a chart of the three games and the same figures as a table
    page.goto(f"/player/{me}")
    section = page.get_by_test_id("rating-wurf")
    section.wait_for()
    assert "3 rated games" in section.locator("figcaption").inner_text()
    assert section.locator("svg[role=img]").get_attribute("aria-label")
    assert section.locator("svg circle.provisional").count() == 3  # hollow marks: provisional
    section.locator("summary").click()
    ratings = [int(x.rstrip("?")) for x in section.locator("tbody td:nth-child(2)").all_inner_texts()]
    assert len(ratings) == 3 and ratings[0] > ratings[1] > ratings[2]  # three losses, oldest first
    section.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / f"ratings-profile-{size}.png"))
    found += violations(page, "profile with ratings")

    # the leaderboard: established, active players by rating; Ann (provisional) sees her own line only
    page.goto("/")
    page.locator("a[data-board=wurf]").click()
    page.get_by_test_id("board-table").wait_for()
    names = page.locator("[data-testid=board-table] tbody td:nth-child(2)").all_inner_texts()
    seeded = [n for n in names if n in {b[0] for b in BOARD} | {"Newbie", "Gone", "Ann"}]
    assert seeded[: len(BOARD)] == [n for n, _ in BOARD] and "Newbie" not in names and "Gone" not in names
    assert "Ann" not in names
    mine = page.get_by_test_id("board-me").inner_text()
    assert "provisional" in mine
    page.screenshot(path=str(artifacts / f"ratings-leaderboard-{size}.png"))
    found += violations(page, "leaderboard")
    assert not found, "\n".join(found)


def test_the_form_rated_control_turns_hints_off_and_real_dice_say_why(new_page: Any, server: Server) -> None:
    page = new_page(1280, 800)
    page.goto("/new?game=thousand")
    page.wait_for_selector(".seat-row")
    rated, hints = page.get_by_test_id("rated-option"), page.get_by_test_id("hints-option")
    assert hints.is_checked() and not rated.is_checked()  # you and a bot: hints on, so not rated
    page.locator(".seat-row").nth(1).locator(".seat-kind").select_option("human")
    assert not hints.is_checked() and rated.is_checked()  # two people: no hints, rated
    page.locator(".seat-row").nth(1).locator(".seat-kind").select_option("bot")
    rated.check()
    assert not hints.is_checked()  # a rated game has no hints
    hints.check()
    assert not rated.is_checked()
    rated.check()
    page.get_by_test_id("dice-mode").select_option("real")
    page.click("#create")
    page.get_by_text("with real dice nobody can check what fell").wait_for()
