"""The pending bonus chain in words, with where each bonus came from, in the browser: a solo real-dice game
played from a scripted record (tests/clever/golden/bonus-chain.json) by taps and clicks, to a blue X from yellow
row 1 and then a yellow X from blue row 2 with a re-roll from blue column 1 queued behind it.
Screenshots: test-artifacts/clever-bonus-*.png (desktop and phone)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from dicehall.core.record import GameRecord

from .clever_driver import click_cell, confirm, look, seq, tap
from .conftest import Server
from .helpers import lobby_here

pytestmark = pytest.mark.browser

SCENARIO = Path(__file__).resolve().parents[1] / "clever" / "golden" / "bonus-chain.json"
DIE = {"W": "white", "Y": "yellow", "B": "blue", "G": "green", "O": "orange", "P": "purple"}
AREA = {"Y": "yellow", "B": "blue", "G": "green", "O": "orange", "P": "purple"}


def target_key(cell: str) -> str:
    """Notation ``B.r2c1`` / ``G`` → the sheet's ``data-target`` (``blue.r2c1`` / ``green``)."""
    area, _, rc = cell.partition(".")
    return f"{AREA[area]}.{rc}" if rc else AREA[area]


def play_event(page: Any, actor: Any, move: str) -> None:
    """One event of the script as a person makes it: a throw tapped in, or a die and a cell clicked."""
    if actor == "chance":
        page.wait_for_selector(".clever-root[data-state=enter]")
        tap(page, [int(tok[1]) for tok in move.split(" platter ")[0].split()])
        assert page.get_by_test_id("platter-pick").is_hidden(), "the script's platters have no ties"
        confirm(page)
        return
    page.wait_for_selector(".clever-root[data-state=act]")
    before = seq(page)
    if move in ("stop", "pass", "reroll", "forfeit"):
        page.get_by_test_id(f"{move}-btn").click()
    elif move.startswith("X "):
        click_cell(page, target_key(move[2:]))
    else:
        letter, cell = move.split(":")
        moves = dict(look(page)["dice"])[DIE[letter]]
        page.locator(f'.cdie.pickable[data-die="{DIE[letter]}"]').first.click()
        if moves > 1:
            page.wait_for_selector(".clever-sheet .cell.target")
            click_cell(page, target_key(cell))
    page.wait_for_function(
        f"() => Number(document.querySelector('[data-testid=log] > li')?.dataset.seq) > {before}"
    )


def pending_text(page: Any) -> str:
    box = page.get_by_test_id("pending-bonus")
    box.wait_for(state="visible")
    return str(box.inner_text())


def test_the_pending_bonus_chain_names_where_each_bonus_came_from(
    new_page: Any, server: Server, artifacts: Path
) -> None:
    script = GameRecord.from_json(json.loads(SCENARIO.read_text(encoding="utf-8")))
    page = new_page(1280, 800)
    tid = lobby_here(page, "clever", ["Ann"], dice="real")
    page.wait_for_selector(".clever-root[data-state]")
    *setup, last = script.events
    for e in setup:
        play_event(page, e.actor, e.move)

    # yellow row 1 is complete: a blue X, and the sheet lights every free blue cell
    assert pending_text(page) == "Ann places blue X from yellow row 1: cross any free blue cell"
    assert len(look(page)["targets"]) == 7
    page.screenshot(path=str(artifacts / "clever-bonus-desktop.png"), full_page=True)

    play_event(page, last.actor, last.move)
    # the blue X completes blue row 2 (a yellow X, to place now) and blue column 1 (a re-roll, queued behind)
    chain = (
        "Ann places yellow X from blue row 2: cross any free yellow cell\nThen: re-roll from blue column 1."
    )
    assert pending_text(page) == chain
    assert all(t.startswith("yellow.") for t in look(page)["targets"])
    assert "Ann gets a bonus: blue X from yellow row 1" in page.inner_text("[data-testid=log]")
    page.screenshot(path=str(artifacts / "clever-bonus-chain-desktop.png"), full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(artifacts / "clever-bonus-chain-phone.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, "no sideways scrolling on a phone"
    page.reload()
    assert pending_text(page) == chain, "a reload shows the same chain"

    # the table recorded exactly the script, every throw as entered by Ann
    rec = GameRecord.from_json(server.get(f"/api/tables/{tid}/record"))
    assert [(e.actor, e.move, e.entered_by) for e in rec.events] == [
        (e.actor, e.move, e.entered_by) for e in script.events
    ]
