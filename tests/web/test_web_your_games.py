""" "Your games" (dicehall/web/yourgames.py): seats linked to players, turn and result kept in dh_seats, the
keyset pages, the index the queries walk, and the ``mine``/``link`` joins."""

from __future__ import annotations

import secrets
import time
from typing import Any

from sqlalchemy import create_engine, event, text, update
from sqlalchemy.dialects import sqlite
from webtools import WS, connect, create, latest

from dicehall.web.db import Finish, SeatRow, Store, StoredEvent, TableMeta
from dicehall.web.live import hash_token
from dicehall.web.players import COOKIE

TWO = [{"kind": "human", "me": True}, {"kind": "human", "name": "Bob"}]


def become(c: Any, name: str | None = None) -> str:
    """Switch the test client to a new guest (a fresh cookie jar); returns its player id."""
    c.cookies.clear()
    player = c.post("/api/me").json()["player"]
    if name:
        assert c.put("/api/me/name", json={"name": name}).status_code == 200
    return str(player["id"])


def tiny_policy(view: dict[str, Any]) -> str:
    """Bank whenever something was rolled (tinytest ends in a few turns)."""
    return "stop" if "stop" in view["legal_actions"] else str(view["legal_actions"][0])


def play_out(ws: WS, table: dict[str, Any]) -> dict[str, Any]:
    view = latest(ws.join(table["table_id"], [s["token"] for s in table["seats"] if "token" in s]))
    for _ in range(2000):
        st = view["state"]
        if st["terminal"]:
            return view
        view = latest(ws.act(st["current_player"], view["seq"], tiny_policy(st)))
    raise AssertionError("the game did not end")


def test_your_turn_first_then_waiting_then_finished(server):
    with server() as c, connect(c) as ws:
        ann = become(c, "Ann")
        fin = create(c, game="tinytest", seats=TWO)
        last = play_out(ws, fin)
        mine_turn = create(c, game="tinytest", seats=TWO)  # seat 0 (Ann's) moves first
        others_turn = create(c, game="tinytest", seats=[{"kind": "human", "name": "Zed"}, TWO[0]])
        open_seat = create(c, game="tinytest", seats=[TWO[0], {"kind": "human", "open": True}])
        assert mine_turn["seats"][0]["player"] == ann and mine_turn["seats"][0]["name"] == "Ann"
        page = c.get("/api/me/games").json()
        assert [t["table_id"] for t in page["your_turn"]] == [mine_turn["table_id"]]
        assert [t["table_id"] for t in page["waiting"]] == [open_seat["table_id"], others_turn["table_id"]]
        assert [t["my_seats"] for t in page["waiting"]] == [[0], [1]]
        assert page["your_turn"][0]["turn"] is True and page["waiting"][1]["turn"] is False
        assert [t["table_id"] for t in page["finished"]] == [fin["table_id"]] and page["next"] is None
        # the finished game's result is its record's
        record = c.get(f"/api/tables/{fin['table_id']}/record").json()
        result = page["finished"][0]["result"]
        assert (result["scores"], result["winners"]) == (
            record["result"]["scores"],
            record["result"]["winners"],
        )
        assert result["mine"] == ("win" if record["result"]["winners"] == [0] else "loss")
        assert last["state"]["winners"] == record["result"]["winners"]
        assert c.get("/api/me/summary").json() == {"your_turn": 1}
        # a rename shows in the list (names are read from dh_players), the record keeps the name it had
        assert c.put("/api/me/name", json={"name": "Anna"}).status_code == 200
        page = c.get("/api/me/games").json()
        assert page["finished"][0]["seats"][0]["name"] == "Anna"
        assert c.get(f"/api/tables/{fin['table_id']}/record").json()["players"][0]["name"] == "Ann"
        # the home page's open list is what a stranger can join, never the caller's own tables
        assert c.get("/api/tables", params={"joinable": "true"}).json() == []
        become(c)
        joinable = c.get("/api/tables", params={"joinable": "true"}).json()
        assert [t["table_id"] for t in joinable] == [open_seat["table_id"]]


def test_a_move_that_keeps_the_turn_writes_no_seat_row(server):
    with server() as c, connect(c) as ws:
        become(c, "Ann")
        t = create(c, game="tinytest", seats=TWO, overrides={"target": 1000})
        seats_sql: list[str] = []

        def spy(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
            if "dh_seats" in statement:
                seats_sql.append(statement)

        engine = c.app.state.manager.store.engine
        event.listen(engine, "before_cursor_execute", spy)
        try:
            view = latest(ws.join(t["table_id"], [s["token"] for s in t["seats"]]))
            kept = passed = 0
            for _ in range(300):
                st = view["state"]
                before = len(seats_sql)
                view = latest(ws.act(st["current_player"], view["seq"], "roll"))
                written = seats_sql[before:]
                if view["state"]["current_player"] == st["current_player"]:
                    assert written == [], written  # rolled 2–6: still this seat's turn, no seat row touched
                    kept += 1
                else:  # a 1 passes the turn: one UPDATE of the table's seat rows
                    assert len(written) == 1 and written[0].lstrip().upper().startswith("UPDATE"), written
                    passed += 1
                if kept >= 3 and passed >= 2:
                    break
            assert kept >= 3 and passed >= 2
        finally:
            event.remove(engine, "before_cursor_execute", spy)
        turn = c.get("/api/me/games").json()
        to_move = view["state"]["current_player"]
        assert bool(turn["your_turn"]) == (to_move == 0)


def _session(store: Store) -> tuple[str, str]:
    token = secrets.token_urlsafe(32)
    now = time.time()
    player = store.create_player(hash_token(token), now, now + 3600)
    return player.id, token


def _finished_table(store: Store, table_id: str, player_id: str, updated: float) -> None:
    seats = [{"name": "A", "kind": "human", "bot": None, "token": None, "claimed": True, "player": player_id}]
    seats.append({"name": "B", "kind": "human", "bot": None, "token": None, "claimed": True})
    store.create_table(TableMeta(table_id, "tinytest", "short", {}, seats, "playing", updated, updated), (0,))
    store.append_events(
        table_id, [StoredEvent(1, 0, "stop", updated)], "finished", finish=Finish([12.0, 3.0], [0])
    )
    store._write(update(SeatRow).where(SeatRow.table_id == table_id).values(updated=updated))


def test_finished_pages_are_a_keyset_walk(server, db_url):
    with server() as c:
        store = c.app.state.manager.store
        me, token = _session(store)
        other, _ = _session(store)
        ids = [f"t{i:02d}" for i in range(11)]
        for i, tid in enumerate(ids):  # several share an `updated`: ties go by table id
            _finished_table(store, tid, me, 1000.0 + i // 3)
        _finished_table(store, "x99", other, 5000.0)  # another player's: never on my pages
        c.cookies.set(COOKIE, token)
        walked, cursor, pages = [], None, 0
        while True:
            params: dict[str, Any] = {"limit": 4}
            if cursor:
                params.update(before=cursor["before"], before_id=cursor["before_id"])
            page = c.get("/api/me/games", params=params).json()
            pages += 1
            walked += [t["table_id"] for t in page["finished"]]
            assert all(
                t["result"]["mine"] == "win" and t["result"]["winners"] == [0] for t in page["finished"]
            )
            if cursor:
                assert page["your_turn"] == page["waiting"] == []  # later pages are finished games only
            cursor = page["next"]
            if cursor is None:
                break
        expected = sorted(ids, key=lambda t: (1000.0 + ids.index(t) // 3, t), reverse=True)
        assert walked == expected and pages == 3


def _plan(db_url: str, stmt: Any) -> str:
    sql = str(stmt.compile(dialect=sqlite.dialect(), compile_kwargs={"literal_binds": True}))
    with create_engine(db_url).connect() as conn:
        return " | ".join(str(r[-1]) for r in conn.execute(text("EXPLAIN QUERY PLAN " + sql)))


def test_your_games_queries_use_the_player_index(server, db_url):
    with server():
        pass  # the schema, migrated
    for stmt in (
        Store.seats_stmt("p1", "playing", 200),
        Store.seats_stmt("p1", "waiting", 200),
        Store.seats_stmt("p1", "finished", 20),
        Store.seats_stmt("p1", "finished", 20, (1234.5, "abc")),
        Store.your_turn_stmt("p1"),
    ):
        plan = _plan(db_url, stmt)
        assert "ix_dh_seats_player" in plan and "TEMP B-TREE" not in plan, plan


def test_a_forged_session_sees_no_games(server):
    with server() as c:
        become(c, "Ann")
        create(c, game="tinytest", seats=TWO)
        assert c.get("/api/me/summary").json() == {"your_turn": 1}
        c.cookies.clear()
        c.cookies.set(COOKIE, secrets.token_urlsafe(32))  # the right shape, no session behind it
        r = c.get("/api/me/games")
        assert r.json() == {"your_turn": [], "offers": [], "waiting": [], "finished": [], "next": None}
        assert COOKIE in r.headers.get("set-cookie", "") and "Max-Age=0" in r.headers["set-cookie"]
        assert c.get("/api/me/summary").json() == {"your_turn": 0}
        become(c, "Eve")  # another player sees none of Ann's
        assert c.get("/api/me/games").json()["your_turn"] == []


def test_mine_join_holds_only_linked_seats(server):
    with server() as c:
        ann = become(c, "Ann")
        hot = create(c, game="tinytest", seats=TWO)  # seat 0 linked to Ann, seat 1 a hot-seat token
        invite = create(c, game="tinytest", seats=[TWO[0], {"kind": "human"}])
        with connect(c) as ws:
            joined = ws.request({"type": "join", "table": hot["table_id"], "mine": True})[0]
            assert joined["seats"] == [0]  # the linked seat only: the other is held by its token alone
            joined = ws.request(
                {"type": "join", "table": hot["table_id"], "tokens": [hot["seats"][1]["token"]], "mine": True}
            )[0]
            assert joined["seats"] == [0, 1]
        # Bob opens the invite link: its seat is linked to him; a token without "link" links nothing
        bob = become(c, "Bob")
        with connect(c) as ws:
            token1 = invite["seats"][1]["token"]
            ws.request({"type": "join", "table": invite["table_id"], "tokens": [token1]})
            assert c.get(f"/api/tables/{invite['table_id']}").json()["seats"][1]["player"] is None
            ws.request({"type": "join", "table": invite["table_id"], "tokens": [token1], "link": [1]})
            seats = c.get(f"/api/tables/{invite['table_id']}").json()["seats"]
            assert [(s["player"], s["name"]) for s in seats] == [(ann, "Ann"), (bob, "Bob")]
            # Ann's seat stays Ann's even for a holder of its token; Bob's "mine" holds only Bob's seat
            ws.request(
                {"type": "join", "table": hot["table_id"], "tokens": [hot["seats"][0]["token"]], "link": [0]}
            )
            assert c.get(f"/api/tables/{hot['table_id']}").json()["seats"][0]["player"] == ann
            assert ws.request({"type": "join", "table": hot["table_id"], "mine": True})[0]["seats"] == []
            assert ws.request({"type": "join", "table": invite["table_id"], "mine": True})[0]["seats"] == [1]
        assert [t["table_id"] for t in c.get("/api/me/games").json()["waiting"]] == [invite["table_id"]]
        c.cookies.clear()  # no session: "mine" holds nothing
        with connect(c) as ws:
            assert ws.request({"type": "join", "table": invite["table_id"], "mine": True})[0]["seats"] == []


def test_a_table_nobody_is_linked_to_keeps_no_turn_until_a_seat_is(server):
    with server() as c, connect(c) as ws:
        become(c, "Ann")
        seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]  # hot seat, no "me"
        t = create(c, game="tinytest", seats=seats, overrides={"target": 1000})
        toks = [s["token"] for s in t["seats"]]
        seats_sql: list[str] = []
        engine = c.app.state.manager.store.engine

        def spy(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
            if "dh_seats" in statement:
                seats_sql.append(statement)

        event.listen(engine, "before_cursor_execute", spy)
        try:
            view = latest(ws.join(t["table_id"], toks))
            while view["state"]["current_player"] == 0:  # until a 1 passes the turn to seat 1
                view = latest(ws.act(0, view["seq"], "roll"))
            assert seats_sql == []  # nobody reads this table's turn: nothing written
        finally:
            event.remove(engine, "before_cursor_execute", spy)
        assert c.get("/api/me/games").json()["waiting"] == []
        with connect(c) as mine:  # a connection made with Ann's cookie (the first one had none)
            mine.request({"type": "join", "table": t["table_id"], "tokens": toks, "link": [1]})
        page = c.get("/api/me/games").json()  # linked now, with the turn as it is: seat 1 to move
        assert [(g["table_id"], g["my_seats"], g["turn"]) for g in page["your_turn"]] == [
            (t["table_id"], [1], True)
        ]


def test_hints_for_a_seat_held_through_the_player(server):
    with server(bot_delay=60) as c:  # the bot keeps thinking: the table stays as it is
        become(c, "Ann")
        # hints asked for (a rated game, the default here, has none)
        t = create(c, seats=[{"kind": "human", "me": True}, {"kind": "bot", "bot": "cautious"}], hints=True)
        hints = f"/api/tables/{t['table_id']}/hints"
        r = c.post(hints, json={"seat": 0})  # no token: Ann's linked seat
        assert r.status_code in (200, 409), r.text  # held (409 only when the bot is to move first)
        assert c.post(hints, json={"seat": 1}).status_code == 403
        become(c, "Eve")
        r = c.post(hints, json={"seat": 0})
        assert r.status_code == 403 and "do not hold seat 0" in r.json()["detail"]


def test_unnamed_seats_narrate_as_a_message_each_page_words(server):
    from dicehall.i18n.message import Message, message_json

    with server() as c:
        t = create(c, seats=[{"kind": "human"}, {"kind": "human", "name": "Zoe"}])
        names = c.app.state.manager.tables[t["table_id"]].state.names  # what the engine narrates with
        assert isinstance(names[0], Message) and (names[0].msgid, names[0].params) == (
            "seat.player",
            {"n": 1},
        )
        assert names[1] == "Zoe" and not isinstance(names[1], Message)
        said = message_json(Message("thousand.narrate.starts", name=names[0]))
        assert said["params"]["name"] == {"id": "seat.player", "params": {"n": 1}}  # worded per reader
