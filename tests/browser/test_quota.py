"""The unfinished-tables quota in a real browser (issue 23): a newcomer's eleventh one-click table is not a dead
end. The page shows the server's reason in the reader's words, the oldest games, a way to "Your games", and
"Resign the oldest and start" makes the new table at once."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import CSP_WATCH, NAME_ASKED, Server

pytestmark = pytest.mark.browser

QUOTA = 10
"""The default unfinished tables per player: this server keeps the public defaults."""


class PublicLimitsServer(Server):
    def _settings(self) -> Path:  # the defaults a public server has (no limit lifted)
        path = self.db.with_suffix(".settings.toml")
        path.write_text("[server]\n")
        return path


@pytest.fixture
def public_server(server: Server, tmp_path: Path) -> Iterator[Server]:
    srv = PublicLimitsServer(tmp_path / "quota.sqlite", tmp_path / "server.log")
    srv.start()
    yield srv
    srv.stop()


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_eleventh_table_after_resigning_the_oldest(
    browser: Any, public_server: Server, tmp_path: Path, width: int, height: int
) -> None:
    ctx = browser.new_context(base_url=public_server.base, viewport={"width": width, "height": height})
    ctx.set_default_timeout(30000)
    errors: list[str] = []
    try:
        page = ctx.new_page()
        page.add_init_script(CSP_WATCH)
        page.add_init_script(NAME_ASKED)
        page.on("pageerror", lambda e: errors.append(str(e)))
        made: list[str] = []
        for _ in range(QUOTA):
            page.goto("/")
            page.click("[data-start=thousand-bot]")
            page.wait_for_url("**/table/*")
            made.append(page.url.rsplit("/", 1)[1])
            # The dialog offers the table with the longest wait since its last move. A first roll that scores
            # nothing hands the dice to the bot, whose moves come after the table was made: await the player's
            # turn, so that the tables' last moves come in the order they were made (the first bot's worker may
            # take seconds to start on a loaded machine: expect's own 5 s is too short a bound).
            expect(page.get_by_test_id("roll-btn")).to_be_enabled(timeout=60000)
        page.goto("/")
        page.click("[data-start=thousand-bot]")
        dialog = page.locator("[data-testid=quota-dialog]")
        dialog.wait_for()
        reason = dialog.locator("[data-testid=quota-reason]").inner_text()
        assert f"{QUOTA} unfinished games" in reason and "resign" in reason
        assert "Too many requests" not in dialog.inner_text()
        assert dialog.locator("[data-testid=quota-your-games]").is_visible()
        button = dialog.locator("[data-testid=quota-resign-oldest]")
        assert button.is_visible() and button.bounding_box()["y"] + 40 < height  # no scrolling to decide
        page.screenshot(path=str(tmp_path / f"quota-{width}.png"))
        button.click()
        dialog.locator("[data-testid=quota-confirm]").click()
        page.wait_for_url("**/table/*")
        new_id = page.url.rsplit("/", 1)[1]
        assert new_id not in made
        oldest = public_server.get(f"/api/tables/{made[0]}")
        assert oldest["status"] == "finished"  # two players: the bot won when the player resigned
        assert all(public_server.get(f"/api/tables/{t}")["status"] != "finished" for t in made[1:])
        assert not errors, errors
    finally:
        ctx.close()
