"""A puzzle found in a game played here (web/found_puzzles.py) on the real server: opened by its link, answered,
and the verdict links the game at that decision; 1280×800 (English) and 390×844 (Russian)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from dicehall.web.analyst import Analyst
from dicehall.web.db import Store

from .conftest import Server
from .test_analysis_view import finished_table
from .test_profile import BOTS, link_seat_zero
from .test_puzzles import SIZES

pytestmark = pytest.mark.browser
FOUND = {"en-US": "This position came up in a game played here.", "ru-RU": "Эта позиция встретилась в партии"}


def a_found_puzzle(
    server: Server, player: str, game: str = "thousand", seats: list[dict[str, Any]] = BOTS, tries: int = 12
) -> Any:
    """A finished bots' game with the player on seat 0, analysed until one gives a puzzle of seat 0's (most games
    do: the cautious bot meets a clear bank-or-roll in nearly every game, a solo Clever game has about three;
    ``tries`` games at most)."""
    url = f"sqlite:///{server.db}"
    for _ in range(tries):
        tid = finished_table(server, game, seats)
        link_seat_zero(server, tid, player)
        analyst = Analyst(url, inline=True)
        try:
            assert analyst.analyse([tid]) == [tid]
        finally:
            analyst.close()
        store = Store(url)
        try:
            rows = [r for r in store.found_puzzles(game) if r.table_id == tid]
        finally:
            store.close()
        if rows:
            return rows[0]
    raise AssertionError(f"{tries} games gave no puzzle")


def step_shown(info: str) -> int:
    """The step the analysis page's step card names ("1,003/1,362: …" in English, "1 003/1 362: …" in Russian:
    the viewer's own digit grouping, so the digits are read, not the spelling)."""
    return int(re.sub(r"\D", "", info.split("/", 1)[0]))


@pytest.mark.parametrize("size", list(SIZES))
def test_a_found_puzzle_links_the_game_it_came_from(
    new_page: Any, server: Server, artifacts: Path, size: str
) -> None:
    if os.environ.get("DICEHALL_BROWSER_BASE"):
        pytest.skip("runs the analyst on the test server's own database")
    width, height, locale = SIZES[size]
    page = new_page(width, height, locale=locale)
    page.goto("/")
    me = page.evaluate("async () => (await (await fetch('/api/me', {method: 'POST'})).json()).player.id")
    row = a_found_puzzle(server, me)
    best = json.loads(row.body)["best"]
    assert server.get(f"/api/puzzles/thousand/{row.puzzle}")["found"] is True
    page.goto(f"/puzzles/thousand/{row.puzzle}")
    page.wait_for_function("() => document.querySelector('[data-testid=puzzle-bank]')?.disabled === false")
    page.keyboard.press("B" if best == "bank" else "R")
    source = page.get_by_test_id("puzzle-source")
    source.wait_for()
    assert source.inner_text().startswith(FOUND[locale])
    link = source.locator("a")
    assert link.get_attribute("href") == f"/table/{row.table_id}/analysis?step={row.step + 1}"
    page.screenshot(path=str(artifacts / "puzzles" / f"found-{size}.png"))
    link.click()
    page.wait_for_url(f"**/table/{row.table_id}/analysis?step={row.step + 1}")
    info = page.get_by_test_id("step-info")
    info.wait_for()
    assert step_shown(info.inner_text()) == row.step + 1
