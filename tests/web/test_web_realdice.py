"""Real-dice tables over the websocket: entries by the roller only, checked by the engine, undo before the first
decision, every refusal to the sender only; the log keeps everything and the record replays."""

from __future__ import annotations

from contextlib import ExitStack

from sqlalchemy import create_engine, text
from webtools import connect, create, latest, wait_for

from dicehall.core.record import GameRecord, replay


def enter(ws, seat, seq, outcome):
    return ws.request({"type": "enter", "seat": seat, "seq": seq, "outcome": outcome})


def undo(ws, seat, seq):
    return ws.request({"type": "undo", "seat": seat, "seq": seq})


def errors(msgs):
    return [m for m in msgs if m["type"] == "error"]


def test_real_dice_entries_undo_and_record(server, db_url):
    with server() as c, ExitStack() as stack:
        t = create(c, dice="real")
        tid = t["table_id"]
        ann, bob = (stack.enter_context(connect(c)) for _ in range(2))
        _, snap = ann.join(tid, [t["seats"][0]["token"]])
        bob.join(tid, [t["seats"][1]["token"]])
        assert snap["seq"] == 0, "nothing is rolled on a real-dice table"
        st = snap["state"]
        assert st["dice_mode"] == "real" and st["current_player"] == "chance"
        assert st["real_dice"] == {"enter": [0], "roller": 0, "undo": None, "undo_move": None}

        # refusals go to the sender only and change nothing
        got = enter(bob, 1, 0, "1,1,5,5,2")
        assert [m["code"] for m in got] == ["not_your_turn"] and "seat 0 throws" in got[0]["message"]
        got = enter(bob, 0, 0, "1,1,5,5,2")
        assert [m["code"] for m in got] == ["wrong_seat"]
        for bad, rule in (("9,9,9,9,9", "notation"), ("1,2,3", "dice-count"), ("roll", None)):
            got = enter(ann, 0, 0, bad)
            assert [m["code"] for m in got] == ["illegal_move"], got
            if rule:
                assert got[0]["rule"] == rule, got
        got = ann.request({"type": "enter", "seat": 0, "seq": 0, "outcome": ""})
        assert [m["code"] for m in got] == ["bad_message"]
        got = ann.act(0, 0, "roll")
        assert [m["code"] for m in got] == ["not_your_turn"]
        assert undo(ann, 0, 0)[0]["code"] == "nothing_to_undo"
        assert bob.drain() == []

        # an entry, taken back, entered again
        got = enter(ann, 0, 0, "1,1,5,5,2")
        ev = latest(got)
        assert (ev["seq"], ev["actor"], ev["move"], ev["entered_by"]) == (1, "chance", "1,1,5,5,2", 0)
        assert ev["state"]["real_dice"]["undo"] == 0 and "entered by Ann" in ev["text"]
        assert latest(bob.drain())["seq"] == 1
        assert undo(bob, 0, 1)[0]["code"] == "wrong_seat"
        ev = latest(undo(ann, 0, 1))
        assert (ev["seq"], ev["actor"], ev["retracts"], ev["entered_by"]) == (2, "undo", 1, 0)
        assert ev["state"]["current_player"] == "chance" and ev["state"]["real_dice"]["undo"] is None
        assert latest(bob.drain())["actor"] == "undo"
        assert undo(ann, 0, 2)[0]["code"] == "nothing_to_undo"

        # a zero roll ends Ann's turn with no decision: Ann may still take it back until Bob decides
        ev = latest(enter(ann, 0, 2, "2,3,4,6,6"))
        assert ev["state"]["real_dice"]["enter"] == [1]
        ev = latest(enter(bob, 1, 3, "1,5,2,3,4"))
        assert ev["seq"] == 4 and ev["state"]["current_player"] == 1
        assert errors(undo(ann, 0, 4))[0]["code"] == "wrong_seat"  # Bob's entry is the last one
        bob.drain()
        legal = ev["state"]["legal_actions"]
        got = bob.act(1, 4, "bank" if "bank" in legal else legal[0])
        assert latest(got)["seq"] == 5
        assert errors(undo(bob, 1, 5))[0]["code"] == "nothing_to_undo"  # a decision was taken on it
        ann.drain()

        # the log keeps the undone entry and the undo; the record is the game
        with create_engine(db_url).connect() as conn:
            rows = conn.execute(
                text("SELECT seq, actor, move, entered_by FROM dh_events WHERE table_id=:t ORDER BY seq"),
                {"t": tid},
            ).all()
        assert [tuple(r) for r in rows[:3]] == [
            (1, "chance", "1,1,5,5,2", 0),
            (2, "undo", "1,1,5,5,2", 0),
            (3, "chance", "2,3,4,6,6", 0),
        ]
        rec = GameRecord.loads(c.get(f"/api/tables/{tid}/record").text)
        assert [(e.move, e.entered_by) for e in rec.events[:2]] == [("2,3,4,6,6", 0), ("1,5,2,3,4", 1)]
        assert "entered_by" in rec.to_json()["events"][0] and rec.seed is None
        replayed = replay(rec)
        view_before = ev["state"]
    with server() as c, connect(c) as ws:  # a restart rebuilds the same game from the log
        _, snap = ws.join(tid)
        assert snap["seq"] == 5 and snap["state"]["scores"] == replayed.scores()
        assert snap["state"]["turn_player"] == view_before["turn_player"]


def test_entries_refused_on_a_rolled_table(server):
    with server() as c, connect(c) as ws:
        t = create(c)
        _, snap = ws.join(t["table_id"], [s["token"] for s in t["seats"]])
        seq = snap["seq"]
        assert snap["state"]["dice_mode"] == "rolled" and "real_dice" not in snap["state"]
        got = enter(ws, 0, seq, "1,1,5,5,2")
        assert [m["code"] for m in got] == ["rolled_here"]
        assert [m["code"] for m in undo(ws, 0, seq)] == ["rolled_here"]
        assert ws.drain() == []


def test_real_dice_bot_seat_is_entered_by_a_human(server):
    with server() as c, connect(c) as ws:
        t = create(
            c, dice="real", seats=[{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "cautious"}]
        )
        _, snap = ws.join(t["table_id"], [t["seats"][0]["token"]])
        msg = snap
        bot_moves = 0
        for _ in range(20):  # Ann enters every throw, hers and the bot's; the bot decides on the server
            st = msg["state"]
            if st["current_player"] == "chance":
                assert st["real_dice"]["enter"] == [0]
                k = st["dice_in_hand"]
                dice = "1,5,2,3,6" if st["turn_player"] == 1 and k == 5 else ",".join("23466"[:k])
                got = enter(ws, 0, msg["seq"], dice)
            elif st["current_player"] == 0:
                legal = st["legal_actions"]
                got = ws.act(0, msg["seq"], "bank" if "bank" in legal else legal[0])
            else:
                got = wait_for(ws, lambda g: any(m["type"] in ("event", "error") for m in g), timeout=60)
            assert not errors(got), got
            bot_moves += sum(m["type"] == "event" and m["actor"] == 1 for m in got)
            if any(m["type"] == "event" for m in got):
                msg = latest(got)
        assert msg["seq"] > 8 and bot_moves >= 2


def test_wurf_referee_table_uses_the_same_messages(server):
    """Wurf (engine untouched): 'throw real' is a decision, what lies in the arena is entered like any dice."""
    with server() as c, connect(c) as ws:
        t = create(c, game="wurf", dice="real")
        _, snap = ws.join(t["table_id"], [s["token"] for s in t["seats"]])
        assert snap["seq"] == 0 and snap["state"]["real_dice"]["enter"] == [0, 1]  # the game names no thrower
        ev = latest(enter(ws, 0, 0, "start 4"))
        assert ev["entered_by"] == 0
        ev = latest(ws.act(ev["state"]["current_player"], ev["seq"], "throw real"))
        assert ev["state"]["current_player"] == "chance"
        ev = latest(enter(ws, 1, ev["seq"], "lands 4 2"))
        assert ev["move"] == "lands 4 2" and ev["entered_by"] == 1
        assert (
            errors(enter(ws, 0, ev["seq"], "lands 4 2")) and latest(undo(ws, 1, ev["seq"]))["actor"] == "undo"
        )
