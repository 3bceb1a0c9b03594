"""Clever as a score pad for real dice: a solo game made in the lobby whose throws are tapped in by colour (the
active rolls and the solo passive roll with its silver platter, a tie settled by tapping), one entry taken back;
the record marks every outcome as entered and replays. Screenshots: test-artifacts/clever-realdice-*.png."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from dicehall.core.record import GameRecord, replay

from .clever_driver import confirm, look, play_real, shown_totals, tap
from .conftest import Server
from .helpers import lobby_here

pytestmark = pytest.mark.browser


def open_real(page: Any, rounds: int | None) -> str:
    """A solo table with real dice, made in the lobby like a person (straight to the table)."""
    tid = lobby_here(page, "clever", ["Ann"], rules={} if rounds is None else {"rounds": rounds}, dice="real")
    page.wait_for_selector(".clever-root[data-state]")
    return tid


def slot_colours(page: Any) -> list[str]:
    return page.evaluate(
        "() => [...document.querySelectorAll('[data-testid=entry-slot] > .die')]"
        ".map((d) => [...d.classList].find((c) => c.startsWith('die-')) || '')"
    )


def shown_dice(page: Any) -> dict[str, int]:
    return page.evaluate(
        "() => Object.fromEntries([...document.querySelectorAll('.clever-tray .cdie')]"
        ".filter((d) => !d.classList.contains('slot')).map((d) => [d.dataset.die, d.querySelectorAll('.pip, .pip-red').length]))"
    )


def test_a_solo_game_with_real_dice_entered_by_taps(new_page: Any, server: Server, artifacts: Path) -> None:
    page = new_page(1280, 800)
    tid = open_real(page, 3)
    assert server.get(f"/api/tables/{tid}")["dice"] == "real"
    assert look(page)["state"] == "enter"
    assert slot_colours(page) == [
        "die-white",
        "die-yellow",
        "die-blue",
        "die-green",
        "die-orange",
        "die-purple",
    ]
    # a wrong tap is fixed with Back before anything is sent
    tap(page, [3, 5, 1, 6, 2, 2])
    page.get_by_test_id("entry-back").click()
    tap(page, [4])
    page.screenshot(path=str(artifacts / "clever-realdice-entry.png"), full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(artifacts / "clever-realdice-entry-phone.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, "no sideways scrolling on a phone"
    page.set_viewport_size({"width": 1280, "height": 800})
    confirm(page)
    assert look(page)["state"] == "act"
    assert shown_dice(page) == {"white": 3, "yellow": 5, "blue": 1, "green": 6, "orange": 2, "purple": 4}

    # a wrong entry is taken back before the first decision on it, and entered again
    undo = page.get_by_test_id("undo-entry")
    assert "white die 3" in undo.inner_text().lower()
    undo.click()
    page.wait_for_selector(".clever-root[data-state=enter]")
    assert page.locator("[data-testid=log] li.retracted").count() == 1
    tap(page, [2, 5, 1, 6, 2, 4])
    confirm(page)
    assert shown_dice(page)["white"] == 2

    # the rest of the active turn, to the solo passive roll: all six dice, the three lowest to the platter
    rng = random.Random(7)
    play_real(page, rng, 60, stop=lambda s: s["state"] == "enter" and "passive" in s["status"].lower())
    assert page.get_by_test_id("entry-slot").count() == 6
    tap(page, [5, 2, 2, 1, 2, 6])  # white 5, yellow/blue/orange 2 (a tie for two places), green 1, purple 6
    pick = page.get_by_test_id("platter-pick")
    pick.wait_for(state="visible")
    page.screenshot(path=str(artifacts / "clever-realdice-platter.png"), full_page=True)
    pick.locator("[data-die=blue]").click()
    pick.locator("[data-die=orange]").click()
    confirm(page)
    assert sorted(
        page.evaluate(
            "() => [...document.querySelectorAll('[data-testid=platter] .cdie')].map((d) => d.dataset.die)"
        )
    ) == ["blue", "green", "orange"]

    play_real(page, rng, 90)
    page.get_by_test_id("gameover").wait_for()
    rec = GameRecord.from_json(server.get(f"/api/tables/{tid}/record"))
    chance = [e for e in rec.events if e.actor == "chance"]
    assert chance and all(e.entered_by == 0 for e in chance), "every outcome was entered, none drawn"
    assert any(e.move.endswith("platter B,G,O") for e in chance)
    assert replay(rec).is_terminal()


@pytest.mark.slow
def test_a_whole_solo_game_with_real_dice(new_page: Any, server: Server) -> None:
    page = new_page(1100, 820)
    tid = open_real(page, None)
    entries = play_real(page, random.Random(11), 400)
    assert entries >= 12
    assert replay(GameRecord.from_json(server.get(f"/api/tables/{tid}/record"))).is_terminal()


def test_a_hot_seat_table_of_two_with_real_dice(new_page: Any, server: Server) -> None:
    """Ann and Bob at one screen with real dice for a whole round: each enters the throws of their own turn (the
    other takes a passive pick meanwhile), the record marks who entered each throw, the sheets show the record."""
    page = new_page(1100, 820)
    tid = lobby_here(page, "clever", ["Ann", "Bob"], rules={"rounds": 1}, dice="real")
    page.wait_for_selector(".clever-root[data-state]")
    first = play_real(page, random.Random(3), 60, stop=lambda s: s["state"] == "enter")
    assert first == 0 and "Ann" in page.get_by_test_id("dice-entry").inner_text()
    entries = play_real(page, random.Random(5), 240)
    page.get_by_test_id("gameover").wait_for()

    rec = GameRecord.from_json(server.get(f"/api/tables/{tid}/record"))
    throws = [i for i, e in enumerate(rec.events) if e.actor == "chance"]
    assert len(throws) == entries >= 2
    for i in throws:  # entered by the seat whose throw it was: the active player
        assert rec.events[i].entered_by == replay(rec, i).roller(), f"event {i + 1}"
    assert {rec.events[i].entered_by for i in throws} == {0, 1}
    bob_first_throw = next(i for i in throws if rec.events[i].entered_by == 1)
    assert any(e.actor == 1 for e in rec.events[:bob_first_throw]), "Bob chose passively in Ann's turn"
    assert any(e.actor == 0 for e in rec.events[bob_first_throw:]), "Ann chose passively in Bob's turn"
    state = replay(rec)
    assert state.is_terminal()
    totals = [int(x) for x in state.scores()]
    assert shown_totals(page) == totals
    page.get_by_test_id("look-at-board").click()  # look at the table
    for seat in (0, 1):  # each player's sheet as drawn
        page.locator(f".clever-tab[data-seat='{seat}']").click()
        page.wait_for_function(
            f"() => document.querySelector('[data-testid=sheet]').dataset.seat === '{seat}'"
        )
        assert look(page)["total"] == totals[seat]
