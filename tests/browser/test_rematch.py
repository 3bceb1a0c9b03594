"""Rematch in real browsers (issue 23): after a game between two browsers, Ann offers a rematch from the game-over
card, Bob's open page says so and he accepts with one click; both pages go to the new table, seats rotated."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Server
from .helpers import Player, hold_seats, play

pytestmark = pytest.mark.browser

QUICK = {"target": 100, "barrel": "none", "pits": [], "dump_truck": False, "bolts": False}  # solved at once


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_rematch_accepted_by_the_other_browser(
    new_page: Any, server: Server, artifacts: Any, width: int, height: int
) -> None:
    created = server.post(
        "/api/tables",
        {
            "game": "thousand",
            "preset": "classic-nobarrel",
            "overrides": QUICK,
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
        },
    )
    table = created["table_id"]
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    ann, bob = new_page(width, height), new_page(width, height)
    hold_seats(ann, table, {0: tokens[0]})
    hold_seats(bob, table, {1: tokens[1]})
    play([Player(ann, bank_at=50), Player(bob, bank_at=50)], timeout=90)

    ann.get_by_test_id("rematch-offer").click()
    ann.get_by_test_id("rematch-waiting").wait_for()
    assert "Bob" in ann.get_by_test_id("rematch-waiting").inner_text()
    offered = bob.get_by_test_id("rematch-offered")
    offered.wait_for()  # pushed to Bob's open page
    assert "Ann offers a rematch" in offered.inner_text()
    accept = bob.get_by_test_id("rematch-accept")
    box = accept.bounding_box()
    assert box is not None and box["y"] + box["height"] <= height  # no scrolling to decide
    bob.screenshot(path=str(artifacts / f"rematch-offered-{width}.png"))
    accept.click()

    bob.wait_for_url(lambda url: "/table/" in url and table not in url)
    ann.wait_for_url(lambda url: "/table/" in url and table not in url)
    new_id = bob.url.rsplit("/", 1)[1]
    assert new_id != table and ann.url.rsplit("/", 1)[1] == new_id
    meta = server.get(f"/api/tables/{new_id}")
    assert [s["name"] for s in meta["seats"]] == ["Bob", "Ann"] and meta["status"] == "playing"
    assert meta["overrides"]["target"] == 100
    for page, name in ((ann, "Ann"), (bob, "Bob")):  # each holds their rotated seat at the new table
        page.wait_for_function(
            "n => document.querySelector('[data-testid=seat-badge]')?.textContent.includes(n)", arg=name
        )
