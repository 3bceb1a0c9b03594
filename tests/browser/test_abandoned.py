"""An abandoned table in a real browser: the server closes it while a player looks at it, the table says so and
offers no seat, and the home page lists it as closed (issue 15: "closed as abandoned, visibly in the lobby")."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import CSP_WATCH, Server

pytestmark = pytest.mark.browser

ABANDON_DAYS = 0.0001
"""8.6 s without a move: the server's sweep then closes the table (the smallest value the settings allow)."""


class QuickAbandonServer(Server):
    def _settings(self) -> Path:
        path = self.db.with_suffix(".settings.toml")
        path.write_text(
            "[server]\ntables_per_hour = 100000\nunfinished_per_client = 100000\n"
            "tables_per_hour_per_address = 1000000\nunfinished_per_address = 1000000\n"
            f"abandon_after_days = {ABANDON_DAYS}\n"
        )
        return path


@pytest.fixture
def quick_server(server: Server, tmp_path: Path) -> Iterator[Server]:
    srv = QuickAbandonServer(tmp_path / "abandon.sqlite", tmp_path / "server.log")
    srv.start()
    yield srv
    srv.stop()


def test_a_table_nobody_moves_in_is_closed_visibly(browser: Any, quick_server: Server) -> None:
    created = quick_server.post(
        "/api/tables",
        {"game": "thousand", "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "open": True}]},
    )
    table_id = created["table_id"]
    ctx = browser.new_context(base_url=quick_server.base, viewport={"width": 1100, "height": 820})
    ctx.set_default_timeout(30000)
    try:
        page = ctx.new_page()
        page.add_init_script(CSP_WATCH)
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"/table/{table_id}")
        page.wait_for_selector("[data-testid=abandoned]", timeout=40000)  # pushed by the server's sweep
        assert "abandoned" in page.inner_text("[data-testid=abandoned]")
        assert quick_server.get(f"/api/tables/{table_id}")["status"] == "abandoned"
        page.goto("/")
        row = page.locator(f"[data-testid=abandoned-tables] [data-table='{table_id}']")
        row.wait_for()
        assert "abandoned" in row.inner_text()
        assert row.locator("[data-join]").count() == 0  # closed: nothing to join
        assert not errors, errors
    finally:
        ctx.close()
