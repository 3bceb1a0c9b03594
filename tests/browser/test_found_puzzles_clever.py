"""A Clever puzzle found in a solo game played here (web/found_puzzles.py) on the real server: opened by its link,
answered by its button, and the verdict links the game at that decision; 1280×800 (English) and 390×844
(Polish)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from dicehall.web.analyst import Analyst
from dicehall.web.db import Store

from .conftest import Server
from .test_analysis_view import finished_table
from .test_profile import link_seat_zero
from .test_puzzles_clever import SIZES

pytestmark = pytest.mark.browser
FOUND = {"en-US": "This position came up in a game played here.", "pl-PL": "Ta pozycja pojawiła się w partii"}
SOLO = [{"kind": "bot", "bot": "greedy"}]


def a_found_puzzle(server: Server, player: str) -> Any:
    """A finished solo game of bot:greedy with the player on its seat, analysed until one gives a puzzle (most
    do: about three a game; six games at most)."""
    url = f"sqlite:///{server.db}"
    for _ in range(6):
        tid = finished_table(server, "clever", SOLO)
        link_seat_zero(server, tid, player)
        analyst = Analyst(url, inline=True)
        try:
            assert analyst.analyse([tid]) == [tid]
        finally:
            analyst.close()
        store = Store(url)
        try:
            rows = [r for r in store.found_puzzles("clever") if r.table_id == tid]
        finally:
            store.close()
        if rows:
            return rows[0]
    raise AssertionError("six games gave no puzzle")


@pytest.mark.parametrize("size", list(SIZES))
def test_a_found_clever_puzzle_links_the_game_it_came_from(
    new_page: Any, server: Server, artifacts: Path, size: str
) -> None:
    if os.environ.get("DICEHALL_BROWSER_BASE"):
        pytest.skip("runs the analyst on the test server's own database")
    width, height, locale = SIZES[size]
    (artifacts / "puzzles").mkdir(exist_ok=True)
    page = new_page(width, height, locale=locale)
    page.goto("/")
    me = page.evaluate("async () => (await (await fetch('/api/me', {method: 'POST'})).json()).player.id")
    row = a_found_puzzle(server, me)
    best = json.loads(row.body)["best"]
    shown = server.get(f"/api/puzzles/clever/{row.puzzle}")
    assert shown["found"] is True
    page.goto(f"/puzzles/clever/{row.puzzle}")
    page.wait_for_function("() => document.querySelector('[data-testid=puzzle-choice-1]')?.disabled === false")
    at = shown["view"]["legal_actions"].index(best)
    page.get_by_test_id(f"puzzle-choice-{at + 1}").click()
    source = page.get_by_test_id("puzzle-source")
    source.wait_for()
    assert page.get_by_test_id("puzzle-result").get_attribute("data-correct") == "true"
    assert source.inner_text().startswith(FOUND[locale])
    link = source.locator("a")
    assert link.get_attribute("href") == f"/table/{row.table_id}/analysis?step={row.step + 1}"
    link.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "puzzles" / f"found-clever-{size}.png"))
    link.click()
    page.wait_for_url(f"**/table/{row.table_id}/analysis?step={row.step + 1}")
    info = page.get_by_test_id("step-info")
    info.wait_for()
    assert str(row.step + 1) in info.inner_text()
    page.screenshot(path=str(artifacts / "puzzles" / f"found-clever-game-{size}.png"))
