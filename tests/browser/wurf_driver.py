"""Driving the Der große Wurf table like a person: drag from the thrower's edge to aim, drag dice, tap entries."""

from __future__ import annotations

import time
from typing import Any

from .conftest import Server

# "over" when the game is over, "act" when this page may throw, "busy" otherwise.
STATE_JS = """() => {
  if (document.querySelector('[data-testid=gameover]')) return 'over';
  const b = document.querySelector('[data-testid=wurf-throw]');
  const aim = document.querySelector('[data-testid=wurf-aim]');
  if (b && !b.disabled && aim && !aim.hidden) return 'act';
  return 'busy';
}"""


def create(
    server: Server,
    *,
    seats: list[dict[str, Any]],
    overrides: dict[str, Any] | None = None,
    preset: str | None = None,
    dice: str = "rolled",
    hints: bool | None = None,
) -> dict[str, Any]:
    body: dict[str, Any] = {"game": "wurf", "preset": preset, "overrides": overrides or {}, "seats": seats}
    if dice != "rolled":
        body["dice"] = dice
    if hints is not None:
        body["hints"] = hints
    table: dict[str, Any] = server.post("/api/tables", body)
    return table


def open_seat(page: Any, table: dict[str, Any], seat: int = 0) -> None:
    """Open the table holding ``seat`` (its invite link carries the token), and wait for the 3D arena."""
    page.goto(table["seats"][seat]["invite"])
    page.wait_for_selector("[data-testid=wurf-stage][data-state]")


def hold_every_seat(page: Any, table: dict[str, Any]) -> None:
    """Open every human seat's invite at this page (a hot seat): whoever's turn it is, this page plays it, so a
    test's next decision never depends on how the dice fell (a take, a master throw, an elimination)."""
    for seat in table["seats"]:
        if seat.get("invite"):
            page.goto(seat["invite"])
    page.wait_for_selector("[data-testid=wurf-stage][data-state]")


def screen_of(page: Any, x: float, y: float, z: float = 0.0) -> tuple[float, float]:
    """Page coordinates of an arena point (mm)."""
    p = page.evaluate(
        """([x, y, z]) => { const s = document.querySelector('[data-testid=wurf-stage]');
        const r = s.wurf.canvas.getBoundingClientRect(); const q = s.wurf.screenOf(x, y, z);
        return [r.left + q.x, r.top + q.y]; }""",
        [x, y, z],
    )
    return float(p[0]), float(p[1])


def drag_throw(page: Any, x: float, y: float, run_up_mm: float = 40.0, *, release: bool = True) -> None:
    """Press on the thrower's edge ``run_up_mm`` behind the arena's south wall (at rim height) and drag to the
    landing point (x, y): the longer the run-up, the harder the throw."""
    sx, sy = screen_of(page, x, -run_up_mm, 30.0)
    ex, ey = screen_of(page, x, y)
    page.mouse.move(sx, sy)
    page.mouse.down()
    for k in range(1, 9):
        page.mouse.move(sx + (ex - sx) * k / 8, sy + (ey - sy) * k / 8)
    if release:
        page.mouse.up()


def drag_die(page: Any, frm: tuple[float, float], to: tuple[float, float]) -> None:
    sx, sy = screen_of(page, frm[0], frm[1], 16.0)
    ex, ey = screen_of(page, to[0], to[1], 8.0)
    page.mouse.move(sx, sy)
    page.mouse.down()
    for k in range(1, 9):
        page.mouse.move(sx + (ex - sx) * k / 8, sy + (ey - sy) * k / 8)
    page.mouse.up()


def arena(page: Any) -> list[dict[str, Any]]:
    dice: list[dict[str, Any]] = page.evaluate(
        """() => [...document.querySelectorAll('[data-testid=wurf-dice] li[data-face]')].map((li) => ({
          face: li.dataset.face, x: li.dataset.x === '' ? null : Number(li.dataset.x),
          y: li.dataset.y === '' ? null : Number(li.dataset.y)}))"""
    )
    return dice


def top_seq(page: Any) -> int:
    return int(
        page.evaluate("() => Number(document.querySelector('[data-testid=log] > li')?.dataset.seq || 0)")
    )


def wait_state(page: Any, timeout: float = 60.0) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        s: str = page.evaluate(STATE_JS)
        if s != "busy":
            return s
        page.wait_for_timeout(100)
    raise AssertionError(
        f"the table never became playable: {page.get_by_test_id('turn-status').inner_text()}"
    )


def play_by_drag(page: Any, *, max_throws: int = 60, flight_shot: Any = None) -> int:
    """Play this page's seat to the end of the game by drag-aiming; returns the throws made. The first throw's
    flight is photographed with ``flight_shot(page)`` if given. Ends the turn when allowed after one extra throw."""
    throws = 0
    aims = [(100, 100), (70, 120), (130, 90), (100, 140), (60, 70)]
    while throws < max_throws:
        if wait_state(page) == "over":
            return throws
        end = page.get_by_test_id("wurf-end")
        if not end.is_disabled() and throws % 2 == 0:
            page.keyboard.press("e")
            page.wait_for_timeout(150)
            continue
        x, y = aims[throws % len(aims)]
        seq = top_seq(page)
        drag_throw(page, x, y, run_up_mm=10 + 15 * (throws % 3))
        page.wait_for_function(
            f"() => Number(document.querySelector('[data-testid=log] > li')?.dataset.seq) > {seq}"
        )
        throws += 1
        if flight_shot is not None and throws == 1:
            flight_shot(page)
    raise AssertionError("the game did not end")
