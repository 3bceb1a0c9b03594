"""Helpers for the web tests: a websocket wrapper that never blocks forever, and table creation."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from fastapi.testclient import TestClient


class WS:
    """A TestClient websocket. ``drain()`` sends a ping and returns everything received before the pong, so a
    test reads exactly what the server has queued for this client so far and can never hang."""

    def __init__(self, session: Any) -> None:
        self.s = session

    def send(self, obj: Any) -> None:
        self.s.send_text(json.dumps(obj))

    def send_raw(self, text: str) -> None:
        self.s.send_text(text)

    def drain(self) -> list[dict[str, Any]]:
        self.send({"type": "ping"})
        out = []
        for _ in range(100_000):
            msg = self.s.receive_json()
            if msg["type"] == "pong":
                return out
            out.append(msg)
        raise AssertionError("no pong")

    def request(self, obj: Any) -> list[dict[str, Any]]:
        self.send(obj)
        return self.drain()

    def join(
        self, table: str, tokens: list[str] | None = None, last_seq: int | None = None
    ) -> list[dict[str, Any]]:
        return self.request({"type": "join", "table": table, "tokens": tokens or [], "last_seq": last_seq})

    def act(self, seat: int, seq: int, move: str) -> list[dict[str, Any]]:
        return self.request({"type": "act", "seat": seat, "seq": seq, "move": move})


@contextmanager
def connect(client: TestClient) -> Iterator[WS]:
    with client.websocket_connect("/ws") as session:
        yield WS(session)


def create(
    client: TestClient, game: str = "thousand", seats: list[dict[str, Any]] | None = None, **extra: Any
) -> dict[str, Any]:
    body = {
        "game": game,
        "seats": seats or [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
    }
    body.update(extra)
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    return dict(r.json())


def tokens(table: dict[str, Any]) -> list[str]:
    return [s["token"] for s in table["seats"] if "token" in s]


def latest(msgs: list[dict[str, Any]]) -> dict[str, Any]:
    """The last message carrying a state (event or snapshot)."""
    states = [m for m in msgs if m["type"] in ("event", "snapshot")]
    assert states, msgs
    return states[-1]


def pick(view: dict[str, Any]) -> str:
    """A simple legal policy: bank when allowed, else the first legal action (games end in a few hundred moves)."""
    legal = view["legal_actions"]
    return "bank" if "bank" in legal else str(legal[0])


def play_to_end(ws: WS, view: dict[str, Any]) -> dict[str, Any]:
    """Every seat held by ``ws`` plays :func:`pick` from ``view`` until the game ends; the last view."""
    for _ in range(5000):
        st = view["state"]
        if st["terminal"]:
            break
        view = latest(ws.act(st["current_player"], view["seq"], pick(st)))
    return view


def wait_for(ws: WS, pred: Any, timeout: float = 10.0) -> list[dict[str, Any]]:
    """Drain until ``pred(all messages so far)`` holds (for bots, which move on their own)."""
    got: list[dict[str, Any]] = []
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got.extend(ws.drain())
        if pred(got):
            return got
        time.sleep(0.01)
    raise AssertionError(f"condition not met in {timeout}s; last messages: {got[-3:]}")


def privates(msgs: list[dict[str, Any]], seat: int) -> list[dict[str, Any]]:
    """``seat``'s private choices of a simultaneous phase among ``msgs``."""
    return [m for m in msgs if m["type"] == "private" and m["seat"] == seat]


def private_after_join(ws: WS, table: str, token: str, seat: int) -> list[dict[str, Any]]:
    """Join with ``token`` and wait until ``seat``'s private choice arrives: every message from the join's reply
    on (a bot can open the phase before the join is answered; then the reply holds the private choice)."""
    joined = ws.join(table, [token])
    return joined + wait_for(ws, lambda g: privates(joined + g, seat), timeout=60)


def run_async(coro: Any) -> Any:
    """``asyncio.run`` in a fresh thread: another test (Playwright's sync API) may own this thread's loop."""
    from tools.loadgen import run_fresh

    return run_fresh(coro)
