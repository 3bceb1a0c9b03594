"""Der große Wurf online: a move is any throw inside the documented bounds, not only the sample the view lists
(docs/web-protocol.md, "act"); outside them it is refused with the rule and nothing is stored."""

from __future__ import annotations

from webtools import connect, create, latest, tokens

from dicehall.core.record import GameRecord


def test_any_throw_inside_the_bounds_is_a_move_and_one_outside_is_refused(server):
    with server() as c, connect(c) as ws:
        t = create(c, game="wurf")
        msg = latest(ws.join(t["table_id"], tokens(t)))
        seat, seq = msg["state"]["current_player"], msg["seq"]
        listed = msg["state"]["legal_actions"]
        for move, rule in (
            ("throw 200.5,100 p0.50 s0.50", "throw-range"),
            ("throw 100,100 p1.01 s0.50", "throw-range"),
            ("throw 100,100 p0.50 s-0.1", "throw-range"),
        ):
            got = ws.act(seat, seq, move)
            assert [(m["type"], m.get("code"), m.get("rule")) for m in got] == [
                ("error", "illegal_move", rule)
            ]
        rec = GameRecord.from_json(c.get(f"/api/tables/{t['table_id']}/record").json())
        assert len(rec.events) == seq, "nothing was stored"

        unlisted = "throw 37.3,151.9 p0.83 s0.21"
        assert unlisted not in listed and all(a.split(" p")[0] != "throw 37.3,151.9" for a in listed)
        got = ws.act(seat, seq, unlisted)
        event = next(m for m in got if m["type"] == "event")
        assert event["actor"] == seat and event["move"] == unlisted
