"""Clever's passive players choose without seeing each other's choice: at a table of three people on three
connections (and a spectator), no message to another seat or to the spectator carries a passive player's choice
before all have chosen; then everybody sees all of them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

from webtools import WS, connect, create, latest, pick, wait_for

from dicehall.core.record import GameRecord


class Client:
    """A connection that keeps every message it received."""

    def __init__(self, ws: WS) -> None:
        self.ws = ws
        self.frames: list[dict[str, Any]] = []

    def got(self, msgs: list[dict[str, Any]]) -> list[dict[str, Any]]:
        self.frames += msgs
        return msgs

    def drain(self) -> list[dict[str, Any]]:
        return self.got(self.ws.drain())

    def act(self, seat: int, seq: int, move: str) -> list[dict[str, Any]]:
        got = self.got(self.ws.act(seat, seq, move))
        assert not [m for m in got if m["type"] == "error"], got
        return got


def views(obj: Any) -> Iterator[dict[str, Any]]:
    """Every game view anywhere in a message (an event's, a snapshot's, a private choice's)."""
    if isinstance(obj, dict):
        if "sheets" in obj and "current_player" in obj:
            yield obj
        for value in obj.values():
            yield from views(value)
    elif isinstance(obj, list):
        for value in obj:
            yield from views(value)


def leaks(frame: dict[str, Any], seat: int, unchosen: dict[str, Any]) -> list[str]:
    """What of ``seat``'s choices ``frame`` shows: its private messages, its moves, its sheet changed, its bonuses."""
    found = []
    if frame["type"] == "private" and frame["seat"] == seat:
        found.append("its private message")
    if frame["type"] == "event" and frame["actor"] == seat:
        found.append(f"its move {frame['move']}")
    for view in views(frame):
        if view["sheets"][seat] != unchosen:
            found.append("its sheet with the choice")
        if [b for b in view.get("bonuses", []) if b["player"] == seat]:
            found.append("a bonus it fired")
    return found


def own(frames: list[dict[str, Any]], seat: int) -> dict[str, Any]:
    return [m for m in frames if m["type"] == "private" and m["seat"] == seat][-1]


def choose(client: Client, seat: int, prefer_entry: bool) -> None:
    """``seat`` makes all its choices of the phase: a die from the platter if ``prefer_entry``, then no +1."""
    client.drain()
    mine = own(client.frames, seat)
    while not mine["done"]:
        legal = mine["state"]["legal_actions"]
        entries = [m for m in legal if m not in ("pass", "stop")]
        move = entries[0] if prefer_entry and entries else "stop" if "stop" in legal else legal[0]
        mine = own(client.act(seat, mine["seq"], move), seat)


def test_a_passive_choice_reaches_nobody_before_all_have_chosen(server):
    names = ["Cat", "Ann", "Bob"]
    with server() as c, ExitStack() as stack:
        t = create(c, game="clever", seats=[{"kind": "human", "name": n} for n in names])
        tid = t["table_id"]
        cat, ann, bob, spectator = (Client(stack.enter_context(connect(c))) for _ in range(4))
        for seat, client in enumerate((cat, ann, bob)):
            client.got(client.ws.join(tid, [t["seats"][seat]["token"]]))
        spectator.got(spectator.ws.join(tid))

        # Cat (seat 0) plays her turn; then Ann (1) and Bob (2) are passive and choose at once
        cat.drain()
        view = latest(cat.frames)
        while not [m for m in cat.frames if m["type"] == "progress"]:
            view = latest(cat.act(0, view["seq"], pick(view["state"])))
        assert [m for m in cat.frames if m["type"] == "progress"][-1]["simultaneous"]["seats"] == [1, 2]
        ann.drain(), spectator.drain()
        start = own(bob.drain(), 2)
        unchosen = start["state"]["sheets"][2]
        watched = {
            "Ann": len(ann.frames),
            "Cat": len(cat.frames),
            "spectator": len(spectator.frames),
            "Bob": 0,
        }

        choose(bob, 2, prefer_entry=True)  # Bob first: he takes a die
        chosen = own(bob.frames, 2)["state"]["sheets"][2]
        assert chosen != unchosen, "Bob entered a value"
        choose(ann, 1, prefer_entry=False)  # then Ann, whose last choice ends the phase
        for who, client in (("Ann", ann), ("Cat", cat), ("spectator", spectator), ("Bob", bob)):
            client.drain()
            frames = client.frames[watched.get(who, len(client.frames) - 1) :]
            commit = next(i for i, m in enumerate(frames) if m["type"] == "event")
            if who != "Bob":  # every message before all had chosen
                for frame in frames[:commit]:
                    assert not leaks(frame, 2, unchosen), (who, frame["type"], leaks(frame, 2, unchosen))
            # then everybody sees Bob's choice: his moves, and his sheet as he saw it
            assert [m for m in frames[commit:] if m["type"] == "event" and m["actor"] == 2], who
            assert latest(frames)["state"]["sheets"][2] == chosen, who
        assert not [m for m in spectator.frames if m["type"] == "private"]
        record = GameRecord.loads(c.get(f"/api/tables/{tid}/record").text)
        assert [e for e in record.events if e.actor == 2], "the record keeps every choice"


def test_a_passive_player_gets_hints_on_its_own_position(server):
    """Alone against bots, a passive player choosing at once with a bot is weighed on its own branch (before: 409,
    'not to move', because the table's position has the first seat of the group to move)."""
    seats = [
        {"kind": "bot", "bot": "greedy"},
        {"kind": "bot", "bot": "greedy"},
        {"kind": "human", "name": "Ann"},
    ]
    with server() as c, connect(c) as ws:
        t = create(c, game="clever", seats=seats)
        ann = Client(ws)
        ann.got(ws.join(t["table_id"], [t["seats"][2]["token"]]))
        ann.got(
            wait_for(ws, lambda g: [m for m in g if m["type"] == "private" and m["seat"] == 2], timeout=60)
        )
        mine = own(ann.frames, 2)
        assert mine["state"]["current_player"] == 2
        progress = [m for m in ann.frames if m["type"] == "progress"][-1]
        assert progress["simultaneous"]["seats"][0] != 2, "a bot chooses at once with Ann"
        r = c.post(f"/api/tables/{t['table_id']}/hints", json={"seat": 2, "token": t["seats"][2]["token"]})
        assert r.status_code == 200, r.text
        moves = [o["move"] for o in r.json()["options"]]
        assert moves and set(moves) <= set(mine["state"]["legal_actions"])


def hidden_last_plus(seed: int) -> Any:
    """A 2-player game played at random until one seat, alone in the hidden last +1 of the game, has begun
    choosing (what the spectators' view hides, so its legal moves are not in it)."""
    import numpy as np

    from dicehall.clever.game import CleverGame
    from dicehall.clever.rules import CleverRules
    from dicehall.core.game import TERMINAL

    rng = np.random.default_rng(seed)
    s = CleverGame().new_initial_state(CleverRules.from_preset("standard", {}), 2)
    while s.current_player() != TERMINAL:
        mover = s.current_player()
        hidden = not s.is_chance_node() and mover in s.hidden_from(None) and s.began_choosing(mover)
        if hidden and len(s.simultaneous_seats()) < 2:
            return s
        legal = s.legal_actions()
        s.apply_action(s.sample_chance(rng) if s.is_chance_node() else int(rng.choice(legal)))
    return None


def test_a_reconnecting_page_holding_the_hidden_mover_gets_its_own_moves(server):
    """Reconnecting (or reloading) during a hidden choice only one seat makes: the page holding that seat gets its
    own position with its moves, the others the position as the phase found it."""
    state = next(s for s in map(hidden_last_plus, range(400)) if s is not None)
    mover = state.current_player()
    with server() as c:
        t = create(c, game="clever")
        manager = c.app.state.manager  # type: ignore[attr-defined]
        table = manager.get(t["table_id"])
        table.state = state  # the position under test, as the table would hold it after those moves
        spectator_view = table.view()
        assert spectator_view["legal_actions"] == [], "the others do not see the mover's moves"
        own_moves = [state.action_to_string(a) for a in state.legal_actions()]
        for last_seq in (None, table.seq, table.seq - 1):
            sent = [json.loads(text) for text in manager.catch_up(table, last_seq, [mover])]
            assert sent and sent[-1]["type"] == "snapshot", last_seq
            assert sent[-1]["state"]["legal_actions"] == own_moves, last_seq
        (other,) = [json.loads(text) for text in manager.catch_up(table, None, [1 - mover])]
        assert other["state"]["legal_actions"] == [] and other["state"] == spectator_view
