"""The profile page (web/src/profile.ts): the figures a player's finished games give (their records analysed by
the server's analyst), the chart with its table, the last games linking to their analysis; 1280×800 and 390×844."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from dicehall.core.analysis import analyze
from dicehall.core.record import GameRecord
from dicehall.web.analyst import Analyst

from .conftest import Server
from .test_analysis_view import finished_table
from .test_players import SIZES

pytestmark = pytest.mark.browser
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
BOTS = [{"kind": "bot", "bot": "cautious"}, {"kind": "bot", "bot": "random"}]


def link_seat_zero(server: Server, table_id: str, player_id: str) -> None:
    """The page's player takes seat 0 of a bots' game (bots finish a game on their own in seconds; a person's seat
    is linked the same way when it joins: ``dh_seats.player_id``)."""
    from sqlalchemy import create_engine, update

    from dicehall.web.db import SeatRow

    engine = create_engine(f"sqlite:///{server.db}")
    with engine.begin() as conn:
        conn.execute(
            update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == 0).values(player_id=player_id)
        )
    engine.dispose()


@pytest.mark.parametrize("size", list(SIZES))
def test_profile_figures_equal_what_the_records_give(new_page: Any, server: Server, size: str) -> None:
    if os.environ.get("DICEHALL_BROWSER_BASE"):
        pytest.skip("runs the analyst on the test server's own database")
    width, height = SIZES[size]
    page = new_page(width, height)
    page.goto("/")
    me = page.evaluate(
        """async () => {
            const me = (await (await fetch('/api/me', {method: 'POST'})).json()).player;
            await fetch('/api/me/name', {method: 'PUT', headers: {'Content-Type': 'application/json'},
                                         body: JSON.stringify({name: 'Ann'})});
            return me.id;
        }"""
    )
    tables = [finished_table(server, "thousand", BOTS) for _ in range(2)]
    for tid in tables:
        link_seat_zero(server, tid, me)
    analyst = Analyst(f"sqlite:///{server.db}", inline=True)
    try:  # these two (the suite's server holds other tests' finished games too, in any order)
        assert sorted(analyst.analyse(tables)) == sorted(tables)
    finally:
        analyst.close()
    records = [GameRecord.from_json(server.get(f"/api/tables/{tid}/record")) for tid in tables]
    wins = sum(1 for r in records if r.result and r.result["winners"] == [0])
    losses = [analyze(r).totals[0].mean_loss for r in records]

    page.goto(f"/player/{me}")
    row = page.locator("[data-testid=profile-games] tr[data-game=thousand]")
    row.wait_for()
    assert page.get_by_test_id("profile-name").inner_text() == "Ann"
    figure = {k: row.locator(f"[data-figure={k}]").inner_text() for k in ("played", "wins", "losses", "loss")}
    assert figure["played"] == "2" and figure["wins"] == str(wins) and figure["losses"] == str(2 - wins)
    assert float(figure["loss"]) == pytest.approx(sum(losses) / 2, abs=0.006)
    # the chart has its figures as a table (its text alternative), oldest first
    chart = page.get_by_test_id("profile-chart-thousand")
    assert chart.locator("svg[role=img]").get_attribute("aria-label")
    chart.locator("summary").click()
    cells = chart.locator("tbody tr td:nth-child(2)").all_inner_texts()
    assert [float(c) for c in cells] == pytest.approx(losses, abs=0.006)
    # the last games, newest first, each linking to its analysis
    links = page.locator("[data-testid=profile-last] [data-analysis]")
    assert links.evaluate_all("els => els.map(e => e.dataset.analysis)") == tables[::-1]
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"profile-{size}.png"), full_page=True)
    page.screenshot(path=str(ARTIFACTS / f"profile-{size}-top.png"))
    links.first.click()
    page.wait_for_url(f"**/table/{tables[-1]}/analysis")
    # the account dialog links to one's own profile
    page.get_by_test_id("name-chip").click()
    page.get_by_test_id("your-profile").click()
    page.wait_for_url(f"**/player/{me}")
    page.get_by_test_id("profile-name").wait_for()
