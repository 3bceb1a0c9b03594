"""Simultaneous seats over the websocket (Clever's passive players): each chooses on its own, in any order, sees
only its own choice until the phase is over; the log holds the choices in the game's order."""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any

import pytest
from webtools import WS, connect, create, private_after_join, privates, wait_for

from dicehall.core.record import GameRecord, replay


def choose_all(ws: WS, seat: int, private: dict[str, Any]) -> list[dict[str, Any]]:
    """Make ``seat``'s choices of this phase (the first legal one each time); returns every message received."""
    seen: list[dict[str, Any]] = []
    while not private["done"]:
        st = private["state"]
        assert st["current_player"] == seat
        got = ws.act(seat, private["seq"], st["legal_actions"][0])
        assert not [m for m in got if m["type"] == "error"], got
        seen += got
        private = privates(got, seat)[-1]
    return seen


@pytest.mark.parametrize("bob_first", [True, False])
def test_passive_players_choose_at_once_and_privately(server, bob_first):
    with server() as c, ExitStack() as stack:
        t = create(
            c,
            game="clever",
            seats=[
                {"kind": "bot", "bot": "greedy"},
                {"kind": "human", "name": "Ann"},
                {"kind": "human", "name": "Bob"},
            ],
        )
        tid = t["table_id"]
        ann, bob = (stack.enter_context(connect(c)) for _ in range(2))
        # the bot is active first; then Ann (seat 1) and Bob (seat 2) are both passive
        got_a = private_after_join(ann, tid, t["seats"][1]["token"], 1)
        got_b = private_after_join(bob, tid, t["seats"][2]["token"], 2)
        assert not privates(got_a, 2) and not privates(got_b, 1)
        pa, pb = privates(got_a, 1)[-1], privates(got_b, 2)[-1]
        assert pa["seq"] == pb["seq"] and pa["moves"] == [] == pb["moves"]
        assert pb["state"]["current_player"] == 2, "Bob chooses now, without waiting for Ann"
        # the event that left the table in the phase (or the snapshot after it) shows the phase already: no page
        # shows a passive seat choosing in turn before the progress message
        before = [m for m in got_a if m["type"] in ("event", "snapshot")][-1]
        progress = [m["simultaneous"] for m in got_a if m["type"] == "progress"]
        opened = progress[-1] if progress else before["state"]["simultaneous"]  # open before Ann joined
        assert opened == {"seats": [1, 2], "waiting_for": [1, 2]}
        assert before["state"]["simultaneous"] == opened, before
        seq = pa["seq"]

        # bad input: a forged seat, Bob acting for himself with a move that is not his, at a stale seq
        assert ann.act(2, seq, pb["state"]["legal_actions"][0])[0]["code"] == "wrong_seat"
        assert ann.act(1, seq, "W:Y.r9c9")[0]["code"] == "illegal_move"
        assert bob.act(2, seq - 1, pb["state"]["legal_actions"][0])[0]["code"] == "stale_seq"
        assert ann.act(1, seq, "reroll")[0]["code"] == "illegal_move"

        # either order: the one who finishes first is told nothing but that the other is still choosing
        players = {1: (ann, pa), 2: (bob, pb)}
        first, second = (2, 1) if bob_first else (1, 2)
        (ws1, p1), (ws2, p2) = players[first], players[second]
        seen = choose_all(ws1, first, p1)
        assert not [m for m in seen if m["type"] == "event"], "nothing is committed before both are done"
        heard = ws2.drain()
        assert [m["type"] for m in heard] == ["progress"], heard
        assert heard[0]["simultaneous"] == {"seats": [1, 2], "waiting_for": [second]}
        again = ws1.act(first, seq, p1["state"]["legal_actions"][0])
        assert again[0]["code"] == "not_your_turn" and f"waiting for seats [{second}]" in again[0]["message"]

        # the second one finishes: everything is committed in the game's order and shown to both
        last_seen = choose_all(ws2, second, p2)
        events = [m for m in last_seen if m["type"] == "event"]
        assert events and events[0]["seq"] == seq + 1
        actors = [e["actor"] for e in events if e["actor"] in (1, 2)]
        assert actors == sorted(actors) and set(actors) == {1, 2}
        other_events = [m for m in ws1.drain() if m["type"] == "event"]
        assert [e["seq"] for e in other_events] == [e["seq"] for e in events]
        assert not [e for e in events if e["actor"] in (1, 2) and "simultaneous" in e["state"]]

        rec = GameRecord.loads(c.get(f"/api/tables/{tid}/record").text)
        replay(rec)  # the record is one ordinary sequence of moves
        assert [e.move for e in rec.events[seq : seq + len(actors)]] == [
            e["move"] for e in events if e["actor"] in (1, 2)
        ]


def test_reconnect_restores_only_your_own_choice(server):
    with server() as c, ExitStack() as stack:
        t = create(
            c,
            game="clever",
            seats=[
                {"kind": "bot", "bot": "greedy"},
                {"kind": "human", "name": "Ann"},
                {"kind": "human", "name": "Bob"},
            ],
        )
        tid = t["table_id"]
        ann = stack.enter_context(connect(c))
        pa = privates(private_after_join(ann, tid, t["seats"][1]["token"], 1), 1)[-1]
        got = ann.act(1, pa["seq"], pa["state"]["legal_actions"][0])
        mine = privates(got, 1)[-1]
        assert len(mine["moves"]) == 1
        bob = stack.enter_context(connect(c))
        _, snap, *rest = bob.join(tid, [t["seats"][2]["token"]])
        assert snap["state"]["simultaneous"]["waiting_for"] == ([2] if mine["done"] else [1, 2])
        assert [m["seat"] for m in rest] == [2] and rest[0]["moves"] == []
        again = stack.enter_context(connect(c))
        _, _, *back = again.join(tid, [t["seats"][1]["token"]])
        assert back[0]["moves"] == mine["moves"] and back[0]["state"] == mine["state"]


def test_bots_in_simultaneous_seats_finish_a_game(server):
    with server() as c, connect(c) as spectator:
        bots = [{"kind": "bot", "bot": b} for b in ("greedy", "random", "greedy")]
        t = create(c, game="clever", seats=bots)
        spectator.join(t["table_id"])
        got = wait_for(spectator, lambda g: any(m.get("status") == "finished" for m in g), timeout=60)
        assert not [m for m in got if m["type"] == "private"], "a spectator never sees a private choice"
        assert any(m["type"] == "progress" for m in got)
        rec = GameRecord.loads(c.get(f"/api/tables/{t['table_id']}/record").text)
        assert replay(rec).is_terminal() and rec.result is not None
        assert c.app.state.manager.bots.fallbacks == 0, "every bot choice came from a worker, on its branch"


def test_a_restart_mid_phase_opens_it_again(server):
    """Provisional choices are never committed before the phase ends: after a restart the seats choose again."""
    seats = [
        {"kind": "bot", "bot": "greedy"},
        {"kind": "human", "name": "Ann"},
        {"kind": "human", "name": "Bob"},
    ]
    with server() as c, connect(c) as ann:
        t = create(c, game="clever", seats=seats)
        tid, token = t["table_id"], t["seats"][1]["token"]
        pa = privates(private_after_join(ann, tid, token, 1), 1)[-1]
        ann.act(1, pa["seq"], pa["state"]["legal_actions"][0])
    with server() as c, connect(c) as ann:
        _, snap, *rest = ann.join(tid, [token])
        assert snap["seq"] == pa["seq"] and snap["state"]["simultaneous"]["waiting_for"] == [1, 2]
        assert [(m["type"], m["seat"], m["moves"]) for m in rest] == [("private", 1, [])]
        assert rest[0]["state"] == pa["state"]
