"""Resigning and deleting tables over the websocket and REST (docs/web-protocol.md, "Resign" and "Delete")."""

from __future__ import annotations

import sqlite3
from contextlib import ExitStack
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect
from webtools import WS, connect, create, latest, pick, private_after_join, privates, tokens, wait_for

from dicehall.core.record import GameRecord, replay


def events_of(msgs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in msgs if m["type"] == "event"]


def rows(db_url: str, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db_url.removeprefix("sqlite:///")) as db:
        return list(db.execute(sql, args))


def play(ws: WS, view: dict[str, Any], moves: int) -> dict[str, Any]:
    for _ in range(moves):
        st = view["state"]
        view = latest(ws.act(st["current_player"], view["seq"], pick(st)))
    return view


def test_resign_is_one_event_and_ends_a_two_player_table(server, db_url):
    with server() as c, connect(c) as ann, connect(c) as watcher:
        t = create(c)
        ann_token = t["seats"][0]["token"]
        ann.join(
            t["table_id"], [ann_token]
        )  # her decision, or Bob's after a zero roll: she may resign either way
        watcher.join(t["table_id"])
        before = rows(db_url, "SELECT count(*) FROM dh_events WHERE table_id = ?", t["table_id"])[0][0]
        got = ann.request({"type": "resign", "seat": 0})
        (event,) = events_of(got)
        assert (event["actor"], event["move"], event["text"]) == (0, "resign", "Ann resigns")
        assert event["status"] == "finished" and event["state"]["winners"] == [1]
        table = [m for m in got if m["type"] == "table"][-1]
        assert table["status"] == "finished" and table["seats"][0]["resigned"] is True
        assert events_of(watcher.drain())[-1]["move"] == "resign"
        after = rows(db_url, "SELECT count(*) FROM dh_events WHERE table_id = ?", t["table_id"])[0][0]
        assert after == before + 1
        record = GameRecord.from_json(c.get(f"/api/tables/{t['table_id']}/record").json())
        assert record.events[-1].actor == 0 and record.events[-1].move == "resign"
        assert record.result is not None and record.result["winners"] == [1]
        assert replay(record).winners() == [1]
        assert ann.request({"type": "resign", "seat": 0})[0]["code"] == "game_over"
        # the replay page and the analysis step over it
        steps = c.get(f"/api/tables/{t['table_id']}/analysis").json()["steps"]
        assert steps[-1]["kind"] == "resign" and steps[-1]["seat"] == 0 and steps[-1]["loss"] == 0
        positions = c.get(f"/api/tables/{t['table_id']}/positions").json()
        assert positions["events"][-1] == {"seq": len(positions["events"]), "actor": 0, "move": "resign"}


def test_resign_needs_the_seat(server, db_url):
    with server() as c, connect(c) as bob, connect(c) as watcher:
        t = create(c)
        tid = t["table_id"]
        latest(bob.join(tid, [t["seats"][1]["token"]]))
        watcher.join(tid)
        seq = c.get(f"/api/tables/{tid}").json()["seq"]
        assert bob.request({"type": "resign", "seat": 0})[0]["code"] == "wrong_seat"
        assert watcher.request({"type": "resign", "seat": 1})[0]["code"] == "wrong_seat"
        assert bob.request({"type": "resign", "seat": 9})[0]["code"] == "wrong_seat"
        forged = c.post(f"/api/tables/{tid}/resign", json={"seat": 0, "token": "forged-token"})
        assert forged.status_code == 400 and forged.json()["code"] == "bad_token"
        bob_for_ann = c.post(f"/api/tables/{tid}/resign", json={"seat": 0, "token": t["seats"][1]["token"]})
        assert bob_for_ann.status_code == 400 and bob_for_ann.json()["code"] == "wrong_seat"
        no_token = c.post(f"/api/tables/{tid}/resign", json={"seat": 0})
        assert no_token.status_code == 400 and no_token.json()["code"] == "wrong_seat"
        now = c.get(f"/api/tables/{tid}").json()
        assert now["seq"] == seq and now["status"] == "playing"
        assert not [m for m in watcher.drain() if m["type"] in ("event", "table")]
        assert rows(db_url, "SELECT count(*) FROM dh_events WHERE move = 'resign'") == [(0,)]
        ok = c.post(f"/api/tables/{tid}/resign", json={"seat": 0, "token": t["seats"][0]["token"]})
        assert ok.status_code == 200 and ok.json()["status"] == "finished"
        assert events_of(watcher.drain())[-1]["text"] == "Ann resigns"


def test_resign_during_a_simultaneous_phase(server, db_url):
    seats = [
        {"kind": "bot", "bot": "greedy"},
        {"kind": "human", "name": "Ann"},
        {"kind": "human", "name": "Bob"},
    ]
    with server() as c, ExitStack() as stack:
        t = create(c, game="clever", seats=seats)
        tid = t["table_id"]
        ann, bob = (stack.enter_context(connect(c)) for _ in range(2))
        private_after_join(ann, tid, t["seats"][1]["token"], 1)
        opened = private_after_join(bob, tid, t["seats"][2]["token"], 2)
        phase_seq = privates(opened, 2)[-1]["seq"]
        # Bob gives up while he and Ann choose at once: one event, out of turn; the phase opens again
        got = bob.request({"type": "resign", "seat": 2})
        (event,) = events_of(got)
        assert event["seq"] == phase_seq + 1 and (event["actor"], event["move"]) == (2, "resign")
        assert event["text"] == "Bob resigns; a bot plays the seat on"
        heard = wait_for(ann, lambda g: privates(g, 1) and [m for m in g if m["type"] == "progress"])
        assert privates(heard, 1)[-1]["seq"] == phase_seq + 1
        # the bot now playing seat 2 chooses on its own; Ann's choices commit the phase after it
        private = privates(heard, 1)[-1]
        seen: list[dict[str, Any]] = []
        while not private["done"]:
            got = ann.act(1, private["seq"], private["state"]["legal_actions"][0])
            assert not [m for m in got if m["type"] == "error"], got
            seen += got
            private = privates(got, 1)[-1]
        wait_for(ann, lambda g: any(e["actor"] == 2 for e in events_of(seen + g)), timeout=60)
        logged = rows(db_url, "SELECT seq, actor, move FROM dh_events WHERE table_id = ? ORDER BY seq", tid)
        assert logged[phase_seq] == (phase_seq + 1, "2", "resign")
        assert any(actor == "2" for _, actor, _ in logged[phase_seq + 1 :])  # seat 2 moves on, as a bot


def test_clever_seat_goes_to_a_bot(server, db_url):
    seats = [{"kind": "human", "name": n} for n in ("Ann", "Bob", "Cy")]
    with server() as c, connect(c) as ws:
        t = create(c, game="clever", seats=seats)
        tid = t["table_id"]
        start = latest(ws.join(tid, tokens(t)))
        assert start["state"]["current_player"] == 0  # Ann picks a die of the first roll
        got = ws.request({"type": "resign", "seat": 0})
        assert events_of(got)[0]["text"] == "Ann resigns; a bot plays the seat on"
        table = [m for m in got if m["type"] == "table"][-1]
        assert table["status"] == "playing"
        assert table["seats"][0] == {
            "seat": 0,
            "name": "Ann",
            "kind": "bot",
            "bot": "expert",
            "claimed": True,
            "named": True,
            "player": None,  # nobody's: a hot-seat table made without "me"
            "resigned": True,
        }
        (stored,) = rows(db_url, "SELECT seats FROM dh_tables WHERE id = ?", tid)
        assert '"token": null' in stored[0] and '"resigned": true' in stored[0]
        assert ws.request({"type": "resign", "seat": 0})[0]["code"] == "already_out"
        assert ws.act(0, start["seq"] + 1, start["state"]["legal_actions"][0])[0]["code"] == "already_out"
        # the bot picks for seat 0 on its own (the scheduler took the seat)
        moved = wait_for(ws, lambda g: any(e["actor"] == 0 for e in events_of(g)), timeout=60)
        assert next(e for e in events_of(moved) if e["actor"] == 0)["seq"] == start["seq"] + 2
        # two of three out: the last seat in wins at once, whatever the sheets say
        finished = events_of(ws.request({"type": "resign", "seat": 2}))[-1]
        assert finished["status"] == "finished" and finished["state"]["winners"] == [1]


def test_a_resigned_table_rebuilds_identically(server):
    seats = [{"kind": "human", "name": n} for n in ("Ann", "Bob", "Cy")]
    with server() as c, connect(c) as ws:
        t = create(c, seats=seats)
        tid = t["table_id"]
        view = play(ws, latest(ws.join(tid, tokens(t))), 3)
        resigned = ws.request({"type": "resign", "seat": 1})
        view = play(ws, latest(resigned), 4)
        assert view["state"]["players"][1]["out"] is True
        live = {k: v for k, v in view["state"].items() if k != "events"}
        record = c.get(f"/api/tables/{tid}/record").json()
    with server() as c, connect(c) as ws:
        again = latest(ws.join(tid, tokens(t)))
        assert again["seq"] == view["seq"]
        assert {k: v for k, v in again["state"].items() if k != "events"} == live
        assert c.get(f"/api/tables/{tid}/record").json()["events"] == record["events"]
        assert [e["text"] for e in again["log"] if e["move"] == "resign"] == ["Bob resigns"]


def test_delete_only_when_nobody_else_joined(server, db_url):
    open_seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "open": True}]
    with server() as c, connect(c) as ws:
        # nobody joined: the creator deletes it; a watcher hears it, then the connection closes
        t = create(c, seats=open_seats)
        tid, ann = t["table_id"], t["seats"][0]["token"]
        ws.join(tid, [ann])
        refused = c.request("DELETE", f"/api/tables/{tid}", json={"tokens": []})
        assert refused.status_code == 409 and refused.json()["code"] == "others_joined"
        rows(db_url, "UPDATE dh_tables SET creator = 'someone else' WHERE id = ?", tid)
        assert (
            c.request("DELETE", f"/api/tables/{tid}", json={"tokens": [ann]}).json()["code"] == "not_creator"
        )
        t2 = create(c, seats=open_seats)  # a table of this client, to learn its creator key
        (key,) = rows(db_url, "SELECT creator FROM dh_tables WHERE id = ?", t2["table_id"])[0]
        rows(db_url, "UPDATE dh_tables SET creator = ? WHERE id = ?", key, tid)
        deleted = c.request("DELETE", f"/api/tables/{tid}", json={"tokens": [ann]})
        assert deleted.status_code == 200 and deleted.json() == {"table_id": tid, "status": "deleted"}
        heard = ws.s.receive_json()
        assert heard == {"type": "table", "table_id": tid, "status": "deleted"}
        with pytest.raises(WebSocketDisconnect):
            ws.s.receive_json()
    for table in ("dh_events", "dh_seats", "dh_rematches"):
        assert rows(db_url, f"SELECT count(*) FROM {table} WHERE table_id = ?", tid) == [(0,)]
    assert rows(db_url, "SELECT count(*) FROM dh_tables WHERE id = ?", tid) == [(0,)]
    with server() as c:
        assert c.get(f"/api/tables/{tid}").status_code == 404
        # someone joined: the creator may only resign; a finished table stays
        t3 = create(c, seats=open_seats)
        joined = c.post(f"/api/tables/{t3['table_id']}/join", json={"seat": 1, "name": "Bob"})
        assert joined.status_code == 200
        r = c.request("DELETE", f"/api/tables/{t3['table_id']}", json={"tokens": [t3["seats"][0]["token"]]})
        assert r.status_code == 409 and r.json()["code"] == "others_joined"
        t4 = create(c)
        c.post(f"/api/tables/{t4['table_id']}/resign", json={"seat": 0, "token": t4["seats"][0]["token"]})
        r = c.request("DELETE", f"/api/tables/{t4['table_id']}", json={"tokens": tokens(t4)})
        assert r.status_code == 400 and r.json()["code"] == "game_over"
        assert c.get(f"/api/tables/{t4['table_id']}").status_code == 200


def test_a_game_without_a_ruling_refuses_the_resign(server, db_url):
    with server() as c, connect(c) as ws:
        t = create(c, game="tinytest")
        tid = t["table_id"]
        ws.join(tid, tokens(t))
        (refused,) = ws.request({"type": "resign", "seat": 0})
        assert (refused["code"], refused["rule"], refused["msgid"]) == (
            "illegal_move",
            "resign",
            "refusal.resign.unsupported",
        )
        assert c.get(f"/api/tables/{tid}").json()["status"] == "playing"
        assert rows(db_url, "SELECT count(*) FROM dh_events WHERE move = 'resign'") == [(0,)]
