"""Clever online with the passive players choosing at the same time: two browsers (Ann, Bob) and a bot. Each
passive player acts at once on their own sheet, in either order; neither browser sees the other's choice before the
phase is over, then both see the same sheets; a whole game of five rounds. Screenshots: test-artifacts/clever-together-*.png."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from dicehall.core.record import GameRecord, replay

from .clever_driver import CleverPlayer, look, sheet_html, shown_totals
from .conftest import Server
from .helpers import hold_seats

pytestmark = pytest.mark.browser

SEATS = [
    {"kind": "bot", "bot": "greedy"},
    {"kind": "human", "name": "Ann"},
    {"kind": "human", "name": "Bob"},
]


def join(page: Any, tid: str, seat: int, token: str) -> None:
    hold_seats(page, tid, {seat: token})
    page.wait_for_selector(".clever-sheet", state="attached")
    page.evaluate(WATCH_JS)


# After every message the page handled (a mutation observer runs before the next task: before any click or look):
# note each time it offered its person a passive pick as a turn of their own. With both people passive that never
# happens: their choices are made together, and the phase shows before anything is offered (the event that opens
# it says so) and while it is committed (a choice made already is not asked for again between its events).
WATCH_JS = """() => { window.offers = [];
  new MutationObserver(() => {
    const root = document.querySelector('.clever-root');
    const status = root?.querySelector('[data-testid=turn-status]')?.textContent || '';
    if (root?.dataset.state === 'act' && status.includes('(passive)')) window.offers.push(status);
  }).observe(document.body, {subtree: true, childList: true, attributes: true, characterData: true});
}"""


def peek(page: Any, seat: int, own: int) -> str:
    """``seat``'s sheet as this page shows it (its tab opened, then the page's own tab again)."""
    page.locator(f".clever-tab[data-seat='{seat}']").click()
    page.wait_for_function(f"() => document.querySelector('[data-testid=sheet]').dataset.seat === '{seat}'")
    html = sheet_html(page, marks=True)
    page.locator(f".clever-tab[data-seat='{own}']").click()
    return html


CORE_JS = """() => {
  const svg = document.querySelector('.clever-sheet').cloneNode(true);
  svg.querySelector('[data-testid=round-track]')?.remove();
  return svg.outerHTML.replace(/ fresh/g, '');
}"""


def sheet_core(page: Any) -> str:
    """The sheet's crosses and scores as drawn (without the round track and the last entry's flash)."""
    html: str = page.evaluate(CORE_JS)
    return html


def pending(look_: dict[str, Any], seat: int) -> bool:
    return any(s == seat and not done for s, done in look_["sim"])


def finish_choices(player: CleverPlayer, seat: int) -> None:
    """Every choice of this seat in the phase (a die, bonuses, +1 ...), each answered by the server in private."""
    page = player.page
    # (only this phase's: once it is committed the page may act again for the seat's own turn, which is not this)
    while (seen := look(page))["state"] == "act" and pending(seen, seat):
        player.move(seen)
        page.wait_for_function(
            "(seat) => { const r = document.querySelector('.clever-root');"
            " const li = r.querySelector(`[data-testid=together] li[data-seat='${seat}']`);"
            " return r.dataset.state !== 'wait' || !li || li.dataset.done === 'true'; }",
            arg=seat,
        )


def together_phase(
    server: Server, tid: str, players: dict[int, CleverPlayer], first: int, shots: Path | None = None
) -> None:
    """Both choose now (the two people, keys of ``players``); ``first`` finishes before the other starts. Neither
    sees the other's pending choice."""
    a, b = sorted(players)
    second = b if first == a else a
    for p in players.values():
        p.page.wait_for_selector(".clever-root[data-state=act]")
    seen_before = {s: peek(players[o].page, s, o) for s, o in ((a, b), (b, a))}
    if shots is not None:
        players[a].page.screenshot(path=str(shots / "clever-together.png"), full_page=True)
    finish_choices(players[first], first)
    mine_after = sheet_core(players[first].page)
    other = players[second].page
    other.wait_for_selector(f"[data-testid=together] li[data-seat='{first}'][data-done=true]")
    assert look(other)["state"] == "act", "the second one was never kept waiting"
    assert peek(other, first, second) == seen_before[first], "a pending choice must not show to the other"
    assert look(players[first].page)["state"] == "wait"
    if shots is not None:
        other.screenshot(path=str(shots / "clever-together-done.png"), full_page=True)
    finish_choices(players[second], second)
    # the phase is over: the choices are committed and both browsers show the same sheets
    for p in players.values():
        p.page.wait_for_function(
            "(seat) => !document.querySelector(`[data-testid=together]:not([hidden]) li[data-seat='${seat}']`)"
            " || document.querySelector('.clever-root').dataset.state === 'over'",
            arg=a,
        )
    # Committed: the table's events up to the next move it waits for (a person's, or none at the game's end) were
    # all sent; both pages show the last of them before a sheet is looked at (each event may switch the tab back).
    seq = server.get(f"/api/tables/{tid}")["seq"]
    for p in players.values():
        p.page.wait_for_function(
            "(seq) => Number(document.querySelector('[data-testid=log] > li')?.dataset.seq) >= seq", arg=seq
        )
    if look(other)["state"] == "over":  # the phase was the game's last +1 step: the card covers the board
        other.get_by_test_id("gameover").get_by_role("button", name="Look at the board").click()
    other.locator(f".clever-tab[data-seat='{first}']").click()
    other.wait_for_function(f"() => document.querySelector('[data-testid=sheet]').dataset.seat === '{first}'")
    assert sheet_core(other) == mine_after, "after the phase the choice shows to everyone"
    other.locator(f".clever-tab[data-seat='{second}']").click()


def play_together(
    server: Server, tid: str, players: dict[int, CleverPlayer], timeout: float, shots: Path | None = None
) -> int:
    """The whole game; every phase of both people choosing at once is played and checked. Returns how many were."""
    a, b = sorted(players)
    deadline = time.monotonic() + timeout
    phases = 0
    while time.monotonic() < deadline:
        looks = {s: look(p.page) for s, p in players.items()}
        if all(x["state"] == "over" for x in looks.values()):
            for p in players.values():
                assert not p.page.evaluate("window.offers"), "a passive pick offered outside its phase"
            return phases
        if any(pending(x, a) and pending(x, b) for x in looks.values()):
            together_phase(
                server, tid, players, first=(a, b)[phases % 2], shots=shots if phases == 0 else None
            )
            phases += 1
            continue
        acted = False
        for s, p in players.items():
            if looks[s]["state"] == "act" and not looks[s]["sim"]:
                p.move()
                acted = True
            elif looks[s]["state"] == "act" and pending(looks[s], s):
                p.move()  # a phase with the bot: only this browser's seat of the two chooses
                acted = True
        if not acted:
            time.sleep(0.02)
    raise AssertionError(f"game not over within {timeout} s: {[look(p.page) for p in players.values()]}")


def start(
    new_page: Any,
    server: Server,
    overrides: dict[str, Any],
    width: int = 1280,
    height: int = 800,
    seats: list[dict[str, str]] = SEATS,
    player: type[CleverPlayer] = CleverPlayer,
) -> tuple[str, dict[int, CleverPlayer]]:
    """A table of ``seats``; each person's seat opened in a browser of its own, played by a ``player``."""
    created = server.post(
        "/api/tables", {"game": "clever", "preset": None, "overrides": overrides, "seats": seats}
    )
    tid: str = created["table_id"]
    players = {}
    for s, seat in enumerate(seats):
        if seat["kind"] == "human":
            page = new_page(width, height)
            join(page, tid, s, created["seats"][s]["token"])
            players[s] = player(page, seed=40 + s)
    return tid, players


def check_record(server: Server, tid: str, players: dict[int, CleverPlayer]) -> None:
    state = replay(GameRecord.from_json(server.get(f"/api/tables/{tid}/record")))
    assert state.is_terminal()
    for p in players.values():
        # (attached: a browser whose player closed the card to look at the board still has it)
        p.page.get_by_test_id("gameover").wait_for(state="attached")
        assert shown_totals(p.page) == [int(x) for x in state.scores()]


def test_two_browsers_and_a_bot_choose_passively_at_once(
    new_page: Any, server: Server, artifacts: Path
) -> None:
    """A whole game (five rounds): every passive phase of both humans is played concurrently and checked."""
    tid, players = start(new_page, server, {})
    phases = play_together(server, tid, players, timeout=240, shots=artifacts)
    assert phases >= 5, "every round the bot is active and both humans choose at once"
    check_record(server, tid, players)


def test_together_on_a_phone_and_a_reload_mid_phase(new_page: Any, server: Server, artifacts: Path) -> None:
    _, players = start(new_page, server, {"rounds": 1}, 390, 844)
    deadline = time.monotonic() + 120  # (generous: a fresh server's bot workers may still be starting)
    while not any(pending(look(p.page), 1) and pending(look(p.page), 2) for p in players.values()):
        assert time.monotonic() < deadline, "no passive phase of both humans"
        for p in players.values():
            if look(p.page)["state"] == "act":
                p.move()
        time.sleep(0.02)
    page = players[2].page
    page.wait_for_selector(".clever-root[data-state=act]")
    page.screenshot(path=str(artifacts / "clever-together-phone.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, "no sideways scrolling on a phone"

    # Ann finishes and reloads: her own choice comes back (from the server, to her only), still hidden from Bob
    ann = players[1]
    ann.page.wait_for_selector(".clever-root[data-state=act]")
    bob_sees = peek(page, 1, 2)
    finish_choices(ann, 1)
    mine = sheet_core(ann.page)
    ann.page.reload()
    ann.page.wait_for_selector("[data-testid=together] li[data-seat='1'][data-done=true]")
    ann.page.wait_for_function(f"(mine) => ({CORE_JS})() === mine", arg=mine)  # (the snapshot, then her own)
    assert look(ann.page)["state"] == "wait" and sheet_core(ann.page) == mine
    assert peek(page, 1, 2) == bob_sees


class Saver(CleverPlayer):
    """Keeps every +1 for the end: the game's last step, where everybody who still has one chooses at once."""

    def move(self, seen: dict[str, Any] | None = None) -> None:
        s = look(self.page)
        still = seen is None or all(s.get(k) == seen.get(k) for k in ("state", "seat", "seq"))
        if still and s["state"] == "act" and "stop-btn" in s["buttons"]:
            self.page.get_by_test_id("stop-btn").click()
            self.moves += 1
            return
        super().move(seen)


def test_the_last_plus_ones_are_chosen_at_once_and_the_game_is_over(new_page: Any, server: Server) -> None:
    """The game's last step is a phase of both people at once: two rounds (round 2 gives everybody a +1) and both
    keep theirs; Ann (seat 0) leads the end-of-game +1 step, so it opens for her and Bob together. It ends the
    game: the card covers the board, and the choices show on the board once it is closed. (The bot sits between
    them: both choose at once after its turns too, in the middle of a round.)"""
    seats = [
        {"kind": "human", "name": "Ann"},
        {"kind": "bot", "bot": "greedy"},
        {"kind": "human", "name": "Bob"},
    ]
    tid, players = start(new_page, server, {"rounds": 2}, seats=seats, player=Saver)
    phases = play_together(server, tid, players, timeout=120)
    assert phases == 3, "after the bot's turn in rounds 1 and 2, then the last +1 step"
    check_record(server, tid, players)
