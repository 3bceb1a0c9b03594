"""Driving the Dice 1000 table like a person: wait until a button is live, then press R/B or click."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

# "over" once the game-over card shows, "act" when this page may roll or bank, else false.
WAIT_JS = """() => {
  if (document.querySelector('[data-testid=gameover]')) return 'over';
  const r = document.querySelector('[data-testid=roll-btn]');
  const b = document.querySelector('[data-testid=bank-btn]');
  // the buttons exist (and may be live) a moment before the first state is drawn: wait for the drawn board too
  if (!document.querySelector('[data-testid=turn-total] strong')) return false;
  if ((r && !r.disabled) || (b && !b.disabled)) return 'act';
  return false;
}"""

READ_JS = """() => {
  const q = (s) => document.querySelector(s);
  const n = (el) => el ? Number((el.textContent || '').replace(/[^0-9-]/g, '')) : null;
  return {
    rollEnabled: !!q('[data-testid=roll-btn]') && !q('[data-testid=roll-btn]').disabled,
    bankEnabled: !!q('[data-testid=bank-btn]') && !q('[data-testid=bank-btn]').disabled,
    turnTotal: n(q('[data-testid=turn-total] strong')),
    reason: (q('[data-testid=bank-reason]') || {}).textContent || '',
    roll: [...document.querySelectorAll('[data-testid=roll] .die')].map((d) => Number(d.dataset.face)),
    setAside: [...document.querySelectorAll('[data-testid=set-aside] .die')].map((d) => Number(d.dataset.face)),
    scores: [...document.querySelectorAll('[data-testid=scoreboard] tbody td.score')].map(n),
    status: (q('[data-testid=turn-status]') || {}).textContent || '',
    topSeq: Number((q('[data-testid=log] > li') || {dataset: {}}).dataset.seq || 0),
  };
}"""


def read(page: Any) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate(READ_JS)
    return result


def seat_to_move(server: Any, table_id: str) -> int:
    """The seat to move now at a table (its log from the server, replayed). A Dice 1000 table throws the first
    player's dice as it opens, before any page looks: when they score nothing (about 1 game in 15) the turn has
    passed to the next seat already."""
    from dicehall.core.record import GameRecord, replay

    seat: int = replay(GameRecord.from_json(server.get(f"/api/tables/{table_id}/record"))).current_player()
    return seat


@dataclass
class Player:
    """A simple policy: bank once the turn total reaches ``bank_at`` (or few dice are left), else roll."""

    page: Any
    keyboard: bool = True
    bank_at: int = 60
    moves: int = 0
    refusals: list[str] = field(default_factory=list)

    def ready(self) -> str | bool:
        state: str | bool = self.page.evaluate(WAIT_JS)
        return state

    def move(self) -> str:
        s = read(self.page)
        if s["reason"]:
            self.refusals.append(s["reason"])
        dice_left = 5 - len(s["setAside"]) if s["setAside"] else 5
        bank = s["bankEnabled"] and (
            not s["rollEnabled"] or s["turnTotal"] >= self.bank_at or 0 < dice_left <= 2
        )
        move = "bank" if bank else "roll"
        if self.keyboard:
            self.page.keyboard.press("b" if bank else "r")
        else:
            self.page.get_by_test_id("bank-btn" if bank else "roll-btn").click()
        self.moves += 1
        return move


def answered(page: Any) -> None:
    """Wait until this page may roll or bank again, or shows the game over. For a page holding every seat (hot
    seat) that is when the server has answered its last press with the move and the dice it threw: the press
    locks the buttons until then."""
    page.wait_for_function(WAIT_JS)


def play(
    players: list[Player], *, max_moves: int = 600, timeout: float = 90.0, stop_after: int | None = None
) -> None:
    """Let the players move whenever their page allows it, until every page shows the game over
    (or ``stop_after`` moves have been made in total)."""
    deadline = time.monotonic() + timeout
    total = 0
    while time.monotonic() < deadline:
        states = [p.ready() for p in players]
        if all(s == "over" for s in states):
            return
        acted = False
        for p, s in zip(players, states, strict=True):
            if s == "act":
                p.move()
                total += 1
                acted = True
                # (pressing locks the page's buttons at once, until the server answers with the next event)
                if stop_after is not None and total >= stop_after:
                    return
                if total >= max_moves:
                    raise AssertionError(f"no game over after {max_moves} moves")
        if not acted:
            time.sleep(0.02)
    pages = [read(p.page) for p in players]
    raise AssertionError(f"game not over within {timeout} s ({total} moves); pages: {pages}")


def set_rule(page: Any, key: str, value: Any) -> None:
    """Set one house rule as a person would: open its topic, then tick, pick, type, or edit the pit rows."""
    import json

    sel = f"#opt-{key}"
    page.locator(f"details.rule-group:has({sel}) > summary").evaluate(
        "s => { if (!s.parentElement.open) s.click(); }"
    )
    kind = page.eval_on_selector(sel, "el => el.tagName + ':' + (el.type || '')")
    if kind == "INPUT:checkbox":
        page.set_checked(sel, bool(value))
    elif kind.startswith("SELECT"):
        page.select_option(sel, str(value))
    elif kind.startswith("DIV"):  # a list of ranges (pits): remove the rows, add one per range
        while page.locator(f"{sel} .range-row").count():
            page.locator(f"{sel} .range-row button").first.click()
        for low, high in value:
            page.click(f"{sel} .range-add")
            row = page.locator(f"{sel} .range-row").last
            row.locator(".range-low").fill(str(low))
            row.locator(".range-high").fill(str(high))
    else:
        page.fill(sel, value if isinstance(value, str) else json.dumps(value))


def lobby_create(
    page: Any,
    *,
    my_name: str,
    preset: str,
    rules: dict[str, Any],
    seats: list[dict[str, str]],
    dice: str = "rolled",
    game: str = "thousand",
) -> dict[str, Any]:
    """Fill the lobby form like a person and create the table. ``seats``: {"kind": "human", "name", "where":
    here|invite|open} or {"kind": "bot", "bot": level}; ``dice``: rolled or real. Returns the table id and the
    invite links shown."""
    page.goto(f"/new?game={game}")
    page.wait_for_selector(".seat-row")
    page.fill("#my-name", my_name)
    page.check(f"input[name=preset][value='{preset}']")
    page.wait_for_selector(f"[data-testid=rules-box][data-preset='{preset}']", state="attached")
    for key, value in rules.items():
        set_rule(page, key, value)
    rows = page.locator(".seat-row")
    while rows.count() > 1:
        rows.nth(rows.count() - 1).locator("button[aria-label='Remove seat']").click()
    for i, seat in enumerate(seats):
        if i > 0:
            page.click("text=+ Add seat")
        row = rows.nth(i)
        row.locator(".seat-kind").select_option(seat["kind"])
        if seat["kind"] == "bot":
            row.locator(".seat-bot").select_option(seat.get("bot", "expert"))
        else:
            row.locator(".seat-where").select_option(seat.get("where", "here"))
            if seat.get("where") != "open":
                row.locator(".seat-name").fill(seat.get("name", ""))
    page.select_option("[data-testid=dice-mode]", dice)
    page.click("#create")
    # Only seats on this device (and bots): straight to the table; else the card with the invite links.
    # (the first table with a bot may build its tables: generous timeout)
    page.wait_for_function(
        "() => location.pathname.startsWith('/table/') || !!document.querySelector('#go-table')",
        timeout=90000,
    )
    if page.url.split("?")[0].rsplit("/", 2)[-2] == "table":
        href = "/table/" + page.url.split("?")[0].rsplit("/", 1)[-1]
        return {"table_id": href.rsplit("/", 1)[-1], "href": href, "invites": {}, "straight": True}
    href = page.get_attribute("#go-table", "href") or ""
    invites = {
        int(li.get_attribute("data-seat") or -1): li.locator("input.invite").input_value()
        for li in page.locator(".created-seats li").all()
        if li.locator("input.invite").count()
    }
    return {"table_id": href.rsplit("/", 1)[-1], "href": href, "invites": invites, "straight": False}


def lobby_here(
    page: Any,
    game: str,
    names: list[str],
    *,
    preset: str = "standard",
    rules: dict[str, Any] | None = None,
    dice: str = "rolled",
) -> str:
    """A table from the lobby whose seats are all on this device (solo or hot seat): it opens at once; returns
    its id."""
    created = lobby_create(
        page,
        game=game,
        my_name=names[0],
        preset=preset,
        rules=rules or {},
        seats=[{"kind": "human", "name": n, "where": "here"} for n in names],
        dice=dice,
    )
    assert created["straight"], "every seat on this device: straight to the table"
    return str(created["table_id"])


def hold_seats(page: Any, table_id: str, tokens: dict[int, str]) -> None:
    """Open a table as the holder of these seats (their tokens in localStorage, as the lobby stores them)."""
    import json

    page.goto("/")
    stored = json.dumps({str(s): t for s, t in tokens.items()})
    page.evaluate(f"localStorage.setItem('dicehall.tokens.{table_id}', {json.dumps(stored)})")
    page.goto(f"/table/{table_id}")


class SocketSwitch:
    """A page's websocket through the test's hands, to take the network down and up again: ``down()`` closes the
    live sockets and refuses new ones (the page sees a dropped connection and retries), ``up()`` lets it back."""

    def __init__(self, page: Any) -> None:
        self.blocked = False
        self.live: list[Any] = []
        page.route_web_socket("**/ws", self._route)

    def _route(self, ws: Any) -> None:
        if self.blocked:
            ws.close(code=1011, reason="test: network down")
            return
        ws.connect_to_server()
        self.live.append(ws)

    def down(self) -> None:
        self.blocked = True
        for ws in self.live:
            ws.close(code=1011, reason="test: network down")

    def up(self) -> None:
        self.blocked = False
