"""A Clever puzzle found in a solo game played here (web/found_puzzles.py) on the real server: opened by its link,
answered by its button, and the verdict links the game at that decision; 1280×800 (English) and 390×844
(Polish)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from .conftest import Server
from .test_found_puzzles import a_found_puzzle, step_shown
from .test_puzzles_clever import SIZES

pytestmark = pytest.mark.browser
FOUND = {"en-US": "This position came up in a game played here.", "pl-PL": "Ta pozycja pojawiła się w partii"}
SOLO = [{"kind": "bot", "bot": "greedy"}]


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
    row = a_found_puzzle(server, me, "clever", SOLO, tries=6)  # (about three puzzles a game)
    best = json.loads(row.body)["best"]
    shown = server.get(f"/api/puzzles/clever/{row.puzzle}")
    assert shown["found"] is True
    page.goto(f"/puzzles/clever/{row.puzzle}")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=puzzle-choice-1]')?.disabled === false"
    )
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
    assert step_shown(info.inner_text()) == row.step + 1
    page.screenshot(path=str(artifacts / "puzzles" / f"found-clever-game-{size}.png"))
