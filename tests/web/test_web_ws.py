"""The websocket protocol: full games, every kind of bad input, stale moves, reconnects, restarts, bots."""

from __future__ import annotations

import json
import random
import time
from contextlib import ExitStack
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from webtools import WS, connect, create, latest, pick, tokens, wait_for

from dicehall.core.record import GameRecord, replay
from dicehall.web.tables import Subscriber


def db_log(db_url: str, table_id: str) -> list[tuple[int, str, str]]:
    with create_engine(db_url).connect() as conn:
        rows = conn.execute(
            text("SELECT seq, actor, move FROM dh_events WHERE table_id = :t ORDER BY seq"), {"t": table_id}
        ).all()
    return [(r[0], r[1], r[2]) for r in rows]


def play(ws: WS, msg: dict[str, Any], moves: int) -> dict[str, Any]:
    """Play ``moves`` moves (or to the end) for whoever is to move; every move must be acknowledged in order."""
    for _ in range(moves):
        st = msg["state"]
        if st["terminal"]:
            break
        seat = st["current_player"]
        got = ws.act(seat, msg["seq"], pick(st))
        events = [m for m in got if m["type"] == "event"]
        assert events and events[0]["actor"] == seat and events[0]["seq"] == msg["seq"] + 1, got
        assert [e["seq"] for e in events] == list(range(msg["seq"] + 1, msg["seq"] + 1 + len(events)))
        assert all(e["actor"] == "chance" for e in events[1:])
        msg = events[-1]
    return msg


def test_hot_seat_full_game_with_spectator(server, db_url):
    with server() as c, ExitStack() as stack:
        t = create(c)
        tid = t["table_id"]
        ws = stack.enter_context(connect(c))
        spec = stack.enter_context(connect(c))
        joined, snap = ws.join(tid, tokens(t))
        assert joined == {**joined, "type": "joined", "seats": [0, 1], "spectator": False, "game": "thousand"}
        assert snap["type"] == "snapshot" and snap["seq"] >= 1  # Dice 1000 opens with a roll
        assert snap["state"]["names"] == ["Ann", "Bob"] and snap["state"]["players"][1]["name"] == "Bob"
        sj = spec.join(tid)
        assert sj[0]["spectator"] is True and sj[0]["seats"] == []
        final = play(ws, snap, 10_000)
        assert final["state"]["terminal"] and final["status"] == "finished"
        seen = [m for m in spec.drain() if m["type"] == "event"]
        assert [m["seq"] for m in seen] == list(range(snap["seq"] + 1, final["seq"] + 1))
        # the spectator saw exactly what the database holds, and the record replays to the final view
        logged = db_log(db_url, tid)
        assert [(m["seq"], str(m["actor"]), m["move"]) for m in seen] == logged[snap["seq"] :]
        rec = GameRecord.from_json(c.get(f"/api/tables/{tid}/record").json())
        assert replay(rec).scores() == final["state"]["scores"]
        over = ws.act(0, final["seq"], "roll")
        assert [m["code"] for m in over] == ["game_over"]
        manager = c.app.state.manager  # type: ignore[attr-defined]
        ws.join(t2 := create(c)["table_id"])
        spec.join(t2)
        assert tid not in manager.tables  # finished and unwatched: dropped from memory, still in the database
        again = ws.join(tid, tokens(t))
        assert again[1]["state"] == final["state"] and again[1]["status"] == "finished"


def test_two_players_online(server):
    with server() as c, ExitStack() as stack:
        t = create(c)
        tid = t["table_id"]
        a, b = stack.enter_context(connect(c)), stack.enter_context(connect(c))
        a_tok, b_tok = tokens(t)
        msg = latest(a.join(tid, [a_tok]))
        latest(b.join(tid, [b_tok]))
        clients = {0: a, 1: b}
        moves = 0
        while not msg["state"]["terminal"] and moves < 10_000:
            seat = msg["state"]["current_player"]
            other = clients[1 - seat]
            assert [m["code"] for m in other.act(seat, msg["seq"], pick(msg["state"]))] == ["wrong_seat"]
            assert [m["code"] for m in other.act(1 - seat, msg["seq"], "roll")] == ["not_your_turn"]
            got = clients[seat].act(seat, msg["seq"], pick(msg["state"]))
            assert got[0]["actor"] == seat
            assert (
                other.drain() == got
            )  # the opponent sees the same committed events, and no errors of others
            msg = got[-1]
            moves += 1
        assert msg["state"]["terminal"]


def test_bad_input_gets_an_error_to_that_client_only_and_changes_nothing(server, db_url):
    with server() as c, ExitStack() as stack:
        ws = stack.enter_context(connect(c))
        watcher = stack.enter_context(connect(c))
        ws_fresh = stack.enter_context(connect(c))
        for _ in range(50):  # a table where seat 0 is to move and may only roll (banking is then illegal)
            t = create(c)
            tid = t["table_id"]
            msg = latest(ws.join(tid, tokens(t)[:1]))
            if msg["state"]["current_player"] == 0 and msg["state"]["legal_actions"] == ["roll"]:
                break
        assert msg["state"]["current_player"] == 0 and msg["state"]["legal_actions"] == ["roll"]
        assert [m["code"] for m in ws_fresh.act(0, 0, "roll")] == ["not_joined"]
        assert [m["code"] for m in ws_fresh.join("nope")] == ["no_such_table"]
        assert [m["code"] for m in ws_fresh.join(tid, ["forged-token"])] == ["bad_token"]
        refused = ws_fresh.act(0, 0, "roll")
        assert [m["code"] for m in refused] == ["not_joined"]  # the refused join joined nothing
        watcher.join(tid)
        seq = msg["seq"]
        before = db_log(db_url, tid)
        cases: list[tuple[Any, str, str]] = [
            ("{not json", "bad_message", "JSON"),
            ("[1, 2]", "bad_message", "object"),
            (json.dumps({"no": "type"}), "unknown_type", "None"),
            (json.dumps({"type": "dance"}), "unknown_type", "dance"),
            (json.dumps({"type": "act", "seat": 0, "seq": seq}), "bad_message", "move"),
            (json.dumps({"type": "act", "seat": "0", "seq": seq, "move": "roll"}), "bad_message", "seat"),
            (json.dumps({"type": "act", "seat": 0, "seq": seq, "move": "roll", "x": 1}), "bad_message", "x"),
            (json.dumps({"type": "ping", "pad": "x" * 5000}), "too_large", "4096"),
            (json.dumps({"type": "act", "seat": 1, "seq": seq, "move": "roll"}), "wrong_seat", "seat 1"),
            (json.dumps({"type": "act", "seat": 0, "seq": seq - 1, "move": "roll"}), "stale_seq", str(seq)),
            (json.dumps({"type": "act", "seat": 0, "seq": seq + 5, "move": "roll"}), "stale_seq", str(seq)),
            (json.dumps({"type": "act", "seat": 0, "seq": seq, "move": "bank"}), "illegal_move", "bank"),
            (json.dumps({"type": "act", "seat": 0, "seq": seq, "move": "fly away"}), "illegal_move", "fly"),
        ]
        for raw, code, words in cases:
            ws.send_raw(raw)
            got = ws.drain()
            assert len(got) == 1 and got[0]["type"] == "error", (raw, got)
            assert got[0]["code"] == code and words in got[0]["message"], (raw, got)
        illegal = ws.act(0, seq, "bank")[0]
        assert illegal["rule"]  # the engine names the rule that forbids banking now
        assert ws.act(0, seq, "fly away")[0]["rule"] == "notation"
        ws.s.send_bytes(b"\xff\xfe")
        assert ws.drain()[0]["code"] == "bad_message"
        spectator_act = watcher.act(0, seq, "roll")
        assert spectator_act[0]["code"] == "wrong_seat" and "none" in spectator_act[0]["message"]
        # nothing changed, and the watcher received nothing but its own error
        assert db_log(db_url, tid) == before
        assert c.get(f"/api/tables/{tid}").json()["seq"] == seq
        assert watcher.drain() == []
        # and the connection still works for a good move
        good = ws.act(0, seq, "roll")
        assert good[0]["seq"] == seq + 1 and watcher.drain() == good


def test_oversized_frame_beyond_transport_limit_closes_only_that_connection(server):
    # TestClient has no transport limit; the 64 KiB cut is uvicorn's (checked in the crash test's live server).
    with server() as c, connect(c) as ws:
        ws.send_raw(json.dumps({"type": "ping", "pad": "x" * 70_000}))
        assert ws.drain()[0]["code"] == "too_large"


def test_reconnect_gets_missing_events_or_a_snapshot(server):
    with server() as c, ExitStack() as stack:
        t = create(c, overrides={"target": 3000, "barrel": "none"})
        tid = t["table_id"]
        ws = stack.enter_context(connect(c))
        history: dict[int, dict[str, Any]] = {}
        msg = latest(ws.join(tid, tokens(t)))
        while msg["seq"] < 260 and not msg["state"]["terminal"]:
            st = msg["state"]
            for m in ws.act(
                st["current_player"], msg["seq"], "roll" if "roll" in st["legal_actions"] else pick(st)
            ):
                history[m["seq"]] = m
                msg = m
        head = msg["seq"]
        assert head >= 260
        with connect(c) as again:
            got = again.join(tid, tokens(t), last_seq=head - 5)
            assert got[0]["type"] == "joined" and got[0]["seq"] == head
            assert got[1:] == [history[s] for s in range(head - 4, head + 1)]
            assert again.join(tid, tokens(t), last_seq=head)[1:] == []  # up to date: nothing more
            for last in (None, head + 10, head - 250):  # no state, from the future, too far behind
                snap = again.join(tid, tokens(t), last_seq=last)[1:]
                assert [m["type"] for m in snap] == ["snapshot"], last
                assert snap[0]["seq"] == head and snap[0]["state"] == msg["state"]
                assert [e["seq"] for e in snap[0]["log"]] == list(range(head - 59, head + 1))
            st = msg["state"]
            assert again.act(st["current_player"], head, pick(st))[0]["seq"] == head + 1


def still_going(c: TestClient, ws: WS, moves: int, **extra: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """A table with ``moves`` moves played and its game not over (a game can end in its first moves: five 1s in a
    yard game's first roll, 1 in 900 within 7 moves; a classic one within 25, 1 in 2,200): the table, its last
    message."""
    for _ in range(20):
        table = create(c, **extra)
        last = play(ws, latest(ws.join(table["table_id"], tokens(table))), moves)
        if not last["state"]["terminal"]:
            return table, last
    raise AssertionError(f"20 games over within {moves} moves")


def test_restart_rebuilds_every_table_from_the_log(server, db_url):
    with server() as c, connect(c) as ws:
        t1, m1 = still_going(c, ws, 25)
        t2, m2 = still_going(c, ws, 7, preset="yard")
    with server() as c, connect(c) as ws:
        for t, m in ((t1, m1), (t2, m2)):
            assert c.get(f"/api/tables/{t['table_id']}").json()["seq"] == m["seq"]
            snap = ws.join(t["table_id"], tokens(t))[1]
            assert snap["seq"] == m["seq"] and snap["state"] == m["state"]
            later = play(ws, snap, 5)  # the old tokens still work and the game goes on
            assert later["seq"] > m["seq"]
            assert [r[0] for r in db_log(db_url, t["table_id"])] == list(range(1, later["seq"] + 1))


class Probe(Subscriber):
    """Checks, at the moment a message is pushed to a client, that its event is already in the database."""

    def __init__(self, db_url: str, table_id: str) -> None:
        self.db_url, self.table_id, self.checked = db_url, table_id, 0

    def push(self, text_: str) -> None:
        msg = json.loads(text_)
        if msg["type"] == "event":
            assert (msg["seq"], str(msg["actor"]), msg["move"]) in db_log(self.db_url, self.table_id)
            self.checked += 1


def test_events_are_committed_before_they_are_broadcast(server, db_url, monkeypatch: pytest.MonkeyPatch):
    with server() as c, connect(c) as ws:
        t = create(c)
        tid = t["table_id"]
        manager = c.app.state.manager  # type: ignore[attr-defined]
        probe = Probe(db_url, tid)
        manager.get(tid).subscribers.add(probe)
        msg = play(ws, latest(ws.join(tid, tokens(t))), 10)
        assert probe.checked >= 10
        # a failing commit broadcasts nothing and leaves the table as it was
        before, n_before = msg, len(db_log(db_url, tid))

        def broken(*args: Any, **kwargs: Any) -> None:
            raise OSError("disk full")

        monkeypatch.setattr(manager.store, "append_events", broken)
        st = before["state"]
        got = ws.act(st["current_player"], before["seq"], pick(st))
        assert [m["code"] for m in got] == ["server_error"]
        assert len(db_log(db_url, tid)) == n_before
        monkeypatch.undo()
        snap = ws.join(tid, tokens(t))[1]
        assert snap["seq"] == before["seq"] and snap["state"] == before["state"]
        assert ws.act(st["current_player"], before["seq"], pick(st))[0]["seq"] == before["seq"] + 1


def test_bots_play_their_seats_and_resume_after_restart(server, db_url):
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}]
    with server() as c, connect(c) as ws:
        t = create(c, game="tinytest", seats=seats, overrides={"target": 200})
        tid = t["table_id"]
        msg = latest(ws.join(tid, tokens(t)))
        assert msg["state"]["current_player"] == 0 and msg["seq"] == 0
        msg = ws.act(0, 0, "roll")[-1]
        for _ in range(500):  # Ann rolls until a 1 passes the turn to the bot
            if msg["state"]["current_player"] != 0:
                break
            msg = ws.act(0, msg["seq"], "roll")[-1]
        seq = msg["seq"]
        assert msg["state"]["current_player"] == 1
        # the bot plays its whole turn with no client action, then it is Ann's turn again
        got = wait_for(
            ws, lambda ms: any(m.get("actor") == 1 for m in ms) and ms[-1]["state"]["current_player"] == 0
        )
        assert got[-1]["seq"] > seq
    # a restart with the bot to move: the bot resumes on its own
    with server(bot_delay=60) as c, connect(c) as ws:
        t = create(
            c, game="tinytest", seats=[{"kind": "bot", "bot": "greedy"}, {"kind": "human", "name": "Ann"}]
        )
        tid = t["table_id"]
        time.sleep(0.2)
        assert ws.join(tid)[1]["seq"] == 0  # the bot is still 'thinking' when the server stops
    with server() as c, connect(c) as ws:
        for _ in range(500):  # nobody acts: the resumed bot plays its turn until it is Ann's
            snap = latest(ws.join(tid))  # bot events of the last join may come before 'joined'
            if snap["state"]["current_player"] == 1:
                break
            time.sleep(0.01)
        assert snap["seq"] > 0 and snap["state"]["current_player"] == 1
        assert GameRecord.from_json(c.get(f"/api/tables/{tid}/record").json()).events[0].actor == 0
    with server() as c, connect(c) as ws:
        t = create(
            c, game="tinytest", seats=[{"kind": "bot", "bot": "greedy"}, {"kind": "human", "open": True}]
        )
        tid = t["table_id"]
        assert ws.join(tid)[1]["seq"] == 0  # waiting for a player: the bot does not start
    with server() as c, connect(c) as ws:
        ws.join(tid)
        c.post(f"/api/tables/{tid}/join", json={"seat": 1, "name": "Late"})
        got = wait_for(ws, lambda ms: any(m.get("actor") == 0 for m in ms))
        assert got[0]["type"] == "table"
    with server() as c, connect(c) as ws:
        t = create(c, game="tinytest", seats=[{"kind": "bot", "bot": "greedy"}] * 2, overrides={"target": 30})
        tid = t["table_id"]
        for _ in range(1000):  # a table of bots plays itself to the end
            if c.get(f"/api/tables/{tid}").json()["status"] == "finished":
                break
            time.sleep(0.01)
        snap = ws.join(tid)[1]
        assert snap["status"] == "finished" and snap["state"]["terminal"]
        rec = GameRecord.from_json(c.get(f"/api/tables/{tid}/record").json())
        assert replay(rec).is_terminal()


def test_dice_1000_against_a_server_bot_to_the_end(server):
    with server() as c, connect(c) as ws:
        t = create(c, seats=[{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "expert"}])
        tid = t["table_id"]
        msgs = ws.join(tid, tokens(t))
        msg = latest(msgs)
        bot_moves = 0
        for _ in range(5000):
            st = msg["state"]
            if st["terminal"]:
                break
            if st["current_player"] == 0:
                got = ws.act(0, msg["seq"], pick(st))
                assert got[0]["actor"] == 0, got
            else:  # the bot's turn: it plays by itself until it is Ann's turn or the game ends
                got = wait_for(
                    ws,
                    lambda ms: (
                        bool(ms) and (ms[-1]["state"]["current_player"] == 0 or ms[-1]["state"]["terminal"])
                    ),
                )
                assert all(m["actor"] in (1, "chance") for m in got)
                bot_moves += sum(m["actor"] == 1 for m in got)
            assert [m["seq"] for m in got] == list(range(msg["seq"] + 1, msg["seq"] + 1 + len(got)))
            msg = got[-1]
        assert msg["state"]["terminal"] and bot_moves > 0
        rec = GameRecord.from_json(c.get(f"/api/tables/{tid}/record").json())
        assert rec.players[1]["name"] == "bot:expert" and replay(rec).scores() == msg["state"]["scores"]


def test_a_table_killed_before_its_opening_roll_rolls_it_on_restart(server, db_url):
    with server() as c:
        t = create(c)
    with create_engine(db_url).begin() as conn:  # as if killed right after the table row was committed
        conn.execute(text("DELETE FROM dh_events WHERE table_id = :t"), {"t": t["table_id"]})
    with server() as c, connect(c) as ws:
        snap = ws.join(t["table_id"], tokens(t))[1]
        assert snap["seq"] >= 1 and snap["state"]["current_player"] in (0, 1)
        assert play(ws, snap, 3)["seq"] > snap["seq"]


def test_an_engine_failure_changes_nothing_and_keeps_the_connection(server, monkeypatch: pytest.MonkeyPatch):
    import tinygame

    with server() as c, connect(c) as ws:
        humans = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
        t = create(c, game="tinytest", seats=humans, overrides={"target": 500})
        msg = latest(ws.join(t["table_id"], tokens(t)))
        for _ in range(200):  # roll until someone may stop
            if "stop" in msg["state"]["legal_actions"]:
                break
            msg = ws.act(msg["state"]["current_player"], msg["seq"], "roll")[-1]
        real = tinygame.TinyState.apply_action

        def buggy(self: Any, action: str) -> None:
            if action == "stop":
                self.totals[self.player] += 99  # corrupts the state, then fails
                raise RuntimeError("engine bug")
            real(self, action)

        monkeypatch.setattr(tinygame.TinyState, "apply_action", buggy)
        seat = msg["state"]["current_player"]
        got = ws.act(seat, msg["seq"], "stop")
        assert [m["code"] for m in got] == ["server_error"]
        monkeypatch.undo()
        snap = ws.join(t["table_id"], tokens(t))[1]
        assert snap["seq"] == msg["seq"] and snap["state"] == msg["state"]
        assert ws.act(seat, msg["seq"], "stop")[0]["move"] == "stop"


@pytest.mark.parametrize("game", ["clever", "wurf"])
def test_other_installed_games_run_on_the_same_server_unchanged(server, game: str):
    rnd = random.Random(7)
    with server() as c, connect(c) as ws:
        games = {g["name"]: g for g in c.get("/api/games").json()}
        if game not in games:
            pytest.skip(f"{game} is not installed")
        bot = games[game]["bots"][0]["name"]
        t = create(c, game=game, seats=[{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": bot}])
        msg = latest(ws.join(t["table_id"], tokens(t)))
        for _ in range(40):
            st = msg["state"]
            if st["terminal"]:
                break
            if st["current_player"] == 0:
                got = ws.act(0, msg["seq"], rnd.choice(st["legal_actions"]))
                # A choice in a phase where both seats choose at once (Clever's passive pick) comes back privately
                # first; its event follows once the bot has chosen too (at once or later: on a loaded machine, later).
                if not any(m["type"] == "event" for m in got):
                    got += wait_for(ws, lambda ms: any(m["type"] == "event" for m in ms))
                assert any(m["type"] == "event" and m["actor"] == 0 for m in got), got
            else:
                got = wait_for(ws, lambda ms: any(m["type"] == "event" for m in ms))
            msg = [m for m in got if m["type"] == "event"][-1]
        rec = GameRecord.from_json(c.get(f"/api/tables/{t['table_id']}/record").json())
        assert len(rec.events) >= msg["seq"] and replay(rec, msg["seq"]).scores() == msg["state"]["scores"]


def test_a_move_whose_dice_cannot_be_drawn_on_the_server_is_refused(server):
    """A Wurf throw with real dice needs a typed outcome: online it is an illegal move, not a server error."""
    with server() as c, connect(c) as ws:
        t = create(c, game="wurf")
        msg = latest(ws.join(t["table_id"], tokens(t)))
        seat, seq = msg["state"]["current_player"], msg["seq"]
        got = ws.act(seat, seq, "throw real")
        assert [m["type"] for m in got] == ["error"], got
        assert got[0]["code"] == "illegal_move" and got[0]["rule"] == "real-throw-typed"
        rec = GameRecord.from_json(c.get(f"/api/tables/{t['table_id']}/record").json())
        assert len(rec.events) == seq  # nothing was stored
        aimed = next(a for a in msg["state"]["legal_actions"] if a.startswith("throw"))
        assert ws.act(seat, seq, aimed)[0]["type"] == "event"
