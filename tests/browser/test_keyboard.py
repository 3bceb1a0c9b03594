"""Keyboard-only play: each game played with Tab, Enter, Space and the arrow keys (and the games' letter keys), no
mouse; the focus is always visible, and after a move it stays on the board's controls (no Tab from the top bar)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .clever_driver import look
from .conftest import Server
from .helpers import hold_seats

pytestmark = pytest.mark.browser

TOP_SEQ = "() => Number(document.querySelector('[data-testid=log] > li')?.dataset.seq || 0)"

# The focused element, and whether the keyboard's ring is drawn on it (an outline on HTML controls, a thick
# dashed stroke on a lit SVG cell of the Clever sheet).
FOCUS_JS = """() => {
  const a = document.activeElement;
  if (!a || a === document.body) return null;
  let ring;
  if (a instanceof SVGElement) {
    const rect = a.querySelector('rect');
    ring = !!rect && parseFloat(getComputedStyle(rect).strokeWidth) >= 5;
  } else {
    const cs = getComputedStyle(a);
    ring = cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) >= 2;
  }
  return {testid: a.dataset.testid || null, move: a.dataset.move || null, die: a.dataset.die || null,
          target: a.dataset.target || null, cls: a.getAttribute('class') || '', visible: a.matches(':focus-visible'),
          ring};
}"""


def focused(page: Any) -> dict[str, Any] | None:
    f: dict[str, Any] | None = page.evaluate(FOCUS_JS)
    return f


def tab_to(page: Any, selector: str, limit: int = 80) -> int:
    """Press Tab until the focus is on an element matching ``selector`` (none if it is there); returns the presses."""
    here = "(s) => !!document.activeElement && document.activeElement.matches(s)"
    if page.evaluate(here, selector):
        return 0
    for n in range(1, limit + 1):
        page.keyboard.press("Tab")
        if page.evaluate(here, selector):
            return n
    raise AssertionError(f"Tab never reached {selector}")


def assert_ring(page: Any) -> dict[str, Any]:
    f = focused(page)
    assert f is not None, "the focus fell to the page"
    assert f["visible"] and f["ring"], f"the focus is not visible: {f}"
    return f


def press_and_wait(page: Any, key: str) -> None:
    seq = page.evaluate(TOP_SEQ)
    page.keyboard.press(key)
    page.wait_for_function(f"() => ({TOP_SEQ})() > {seq}")


def open_table(page: Any, server: Server, game: str, seats: list[dict[str, Any]], **extra: Any) -> str:
    created = server.post("/api/tables", {"game": game, "seats": seats, **extra})
    hold_seats(page, created["table_id"], {s["seat"]: s["token"] for s in created["seats"] if s.get("token")})
    return str(created["table_id"])


ANN = {"kind": "human", "name": "Ann"}
# "over", "act" when a control of the Dice 1000 table is live (Roll, Bank or a choice of dice to keep), else false
THOUSAND_ACT = """() => {
  if (document.querySelector('[data-testid=gameover]')) return 'over';
  if (!document.querySelector('[data-testid=turn-total] strong')) return false;
  return document.querySelector('.thousand .controls button:not(:disabled):not([hidden])') ? 'act' : false;
}"""


def test_dice_1000_by_keyboard(new_page: Any, server: Server, artifacts: Path) -> None:
    """Roll, choose which scoring dice to keep (free set-aside), bank: Tab to a control, Enter or Space."""
    page = new_page(1280, 800)
    open_table(
        page,
        server,
        "thousand",
        [ANN, {"kind": "bot", "bot": "cautious"}],
        overrides={"free_set_aside": True},
    )
    page.wait_for_function(THOUSAND_ACT)
    controls = (
        "[data-testid=roll-btn]:not(:disabled), [data-testid=bank-btn]:not(:disabled), .extra-actions button"
    )
    tab_to(page, controls)
    assert_ring(page)
    page.screenshot(path=str(artifacts / "keyboard-thousand.png"))
    used: set[str] = set()
    # Keep when there is a choice, bank whenever the rules allow it, else roll: the first turn that reaches the
    # opening bank uses all three (a turn that scores nothing only passes the dice; 400 steps are many such turns).
    for _ in range(400):
        if page.evaluate(THOUSAND_ACT) == "over" or {"keep", "bank", "roll"} <= used:
            break
        page.wait_for_function(THOUSAND_ACT)
        # the focus came back to the controls by itself: the player never Tabs through the page again
        f = assert_ring(page)
        assert f["testid"] in ("roll-btn", "bank-btn") or (f["move"] or "").startswith("keep"), f
        keeps = page.locator(".extra-actions button[data-move^=keep]")
        if keeps.count():
            tab_to(page, ".extra-actions button[data-move^=keep]")
            press_and_wait(page, " ")
            used.add("keep")
        elif page.get_by_test_id("bank-btn").is_enabled():
            tab_to(page, "[data-testid=bank-btn]")
            assert_ring(page)
            press_and_wait(page, "Enter")
            used.add("bank")
        else:
            tab_to(page, "[data-testid=roll-btn]")
            press_and_wait(page, "Enter" if len(used) % 2 else " ")
            used.add("roll")
    assert {"keep", "bank", "roll"} <= used, f"not every kind of move was made by keyboard: {used}"


def test_clever_by_keyboard(new_page: Any, server: Server, artifacts: Path) -> None:
    """A die chosen with Tab and Enter (or its number key), its lit cells walked with the arrows, one taken with
    Enter or Space; buttons reached with Tab."""
    page = new_page(1280, 800)
    open_table(page, server, "clever", [ANN, {"kind": "bot", "bot": "greedy"}])
    page.wait_for_selector(".clever-root[data-state=act]")
    moves = walked = 0
    first = True
    while moves < 8:
        page.wait_for_function(
            "() => ['act', 'over'].includes(document.querySelector('.clever-root')?.dataset.state)"
            " || !!document.querySelector('[data-testid=gameover]')",
            timeout=60000,
        )
        s = look(page)
        if s["state"] == "over":
            break
        if s["targets"] and not s["dice"]:  # a bonus cross: its cells are lit
            tab_to(page, ".clever-sheet .cell.target")
            press_and_wait(page, "Enter")
        elif s["dice"]:
            if first or moves % 2:
                tab_to(page, ".cdie.pickable")
                first = False
            else:  # the focus is back on a die by itself
                assert page.evaluate("() => document.activeElement.matches('.cdie.pickable')")
            f = assert_ring(page)
            if first is False and moves == 0:
                page.screenshot(path=str(artifacts / "keyboard-clever-die.png"))
            seq = page.evaluate(TOP_SEQ)
            page.keyboard.press("Enter")
            if page.evaluate(f"() => ({TOP_SEQ})() > {seq}") or not page.locator(".cdie.selected").count():
                # a die with one cell goes there at once
                page.wait_for_function(f"() => ({TOP_SEQ})() > {seq}")
            else:
                # the focus is on the first lit cell; the arrows walk the lit cells
                page.wait_for_function("() => document.activeElement.matches('.clever-sheet .cell.target')")
                start = focused(page)
                if len(look(page)["targets"]) > 1:
                    page.keyboard.press("ArrowRight")
                    after = assert_ring(page)
                    assert after["target"] != (start or {}).get("target"), (
                        "the arrow moved along the lit cells"
                    )
                    walked += 1
                    page.screenshot(path=str(artifacts / "keyboard-clever-cell.png"))
                press_and_wait(page, " " if moves % 2 else "Enter")
            assert f["die"]
        else:
            tab_to(page, ".clever-controls button")
            assert_ring(page)
            press_and_wait(page, "Enter")
        moves += 1
    assert moves >= 8 and walked >= 1, (moves, walked)


def test_wurf_by_keyboard(new_page: Any, server: Server, artifacts: Path) -> None:
    """Aim with the arrows, power with the slider's arrows, throw with Enter, end the turn from its button."""
    page = new_page(1280, 800)
    page.emulate_media(reduced_motion="reduce")
    open_table(
        page,
        server,
        "wurf",
        # three people at this screen: every turn is this page's, however the dice fall (against a bot a take
        # back hands it a master throw that can end a two-player game before the third throw)
        [ANN, {"kind": "human", "name": "Bob"}, {"kind": "human", "name": "Cid"}],
        overrides={"dice_per_player": 4},
    )
    act = """() => { const b = document.querySelector('[data-testid=wurf-throw]');
      return !!b && !b.disabled || !!document.querySelector('[data-testid=gameover]'); }"""
    page.wait_for_function(act, timeout=60000)
    aim = page.get_by_test_id("wurf-power-value")
    before = aim.inner_text()
    for key in ["ArrowUp"] * 5 + ["ArrowLeft"] * 4 + ["+"]:
        page.keyboard.press(key)
    assert aim.inner_text() == "Aim b4, power 0.55" != before, "the arrows move the aim, + the power"
    tab_to(page, "[data-testid=wurf-power]")
    assert_ring(page)
    value = page.get_by_test_id("wurf-power").input_value()
    page.keyboard.press("ArrowRight")
    assert page.get_by_test_id("wurf-power").input_value() != value, "the slider's arrows change the power"
    page.screenshot(path=str(artifacts / "keyboard-wurf.png"))
    throws = ends = 0
    for _ in range(12):
        page.wait_for_function(act, timeout=60000)
        if page.locator("[data-testid=gameover]").count():
            break
        if page.get_by_test_id("wurf-end").is_enabled() and throws and not ends:
            tab_to(page, "[data-testid=wurf-end]")
            assert_ring(page)
            press_and_wait(page, " ")
            ends += 1
        elif throws >= 3:
            break
        else:
            tab_to(page, "[data-testid=wurf-throw]")
            assert_ring(page)
            press_and_wait(page, "Enter")
            throws += 1
    assert throws >= 3, throws
