"""Der große Wurf on a live table: MuJoCo throws by default, and each throw's event carries the dice's flight."""

from __future__ import annotations

import json

from webtools import connect, create, latest, tokens

from dicehall.core.record import GameRecord, replay
from dicehall.wurf import motion

THROW = "throw 100,80 p0.50 s0.50"


def _throw(ws, msg):  # type: ignore[no-untyped-def]
    """The player to move ends the turn if they may, then throws; returns the messages of the throw."""
    st = msg["state"]
    seat = st["current_player"]
    if "end" in st["legal_actions"]:
        msg = latest(ws.act(seat, msg["seq"], "end"))
        seat = msg["state"]["current_player"]
    got = ws.act(seat, msg["seq"], THROW)
    assert [m["type"] for m in got] == ["event", "event"], got
    return got


def test_a_live_throw_is_simulated_and_its_event_carries_the_motion(server) -> None:  # type: ignore[no-untyped-def]
    with server() as c, connect(c) as ws:
        t = create(c, game="wurf")
        msg = latest(ws.join(t["table_id"], tokens(t)))
        assert msg["state"]["arena_model"] == "physics"  # the default of live tables
        throw, lands = _throw(ws, msg)
        assert "motion" not in throw and lands["move"].startswith("lands")
        fps, frames, tracks = motion.decode(lands["motion"])
        assert fps >= 30 and frames >= 2 and len(lands["state"]["arena"]) + 1 >= 1 and tracks
        # The record holds moves only: it replays without the motion, to the same view.
        raw = c.get(f"/api/tables/{t['table_id']}/record").text
        assert "motion" not in raw
        assert replay(GameRecord.from_json(json.loads(raw))).public_view()["arena"] == lands["state"]["arena"]
        # A client that comes back sees the throw again: in the missed event, or in a snapshot's extras.
        with connect(c) as late:
            again = late.join(t["table_id"], last_seq=lands["seq"] - 1)
            assert again[-1]["seq"] == lands["seq"] and again[-1]["motion"] == lands["motion"]
        with connect(c) as fresh:
            snap = fresh.join(t["table_id"])[-1]
            assert snap["type"] == "snapshot" and snap["extras"] == {
                "seq": lands["seq"],
                "motion": lands["motion"],
            }
        # Only the latest throw keeps its motion in memory: the older event is resent without it.
        second = _throw(ws, latest([lands]))[1]
        with connect(c) as late:
            missed = {m["seq"]: m for m in late.join(t["table_id"], last_seq=throw["seq"] - 1)}
            assert (
                "motion" not in missed[lands["seq"]] and missed[second["seq"]]["motion"] == second["motion"]
            )


def test_a_table_may_still_choose_the_fast_model(server) -> None:  # type: ignore[no-untyped-def]
    with server() as c, connect(c) as ws:
        t = create(c, game="wurf", overrides={"arena": "fast"})
        msg = latest(ws.join(t["table_id"], tokens(t)))
        assert msg["state"]["arena_model"] == "fast"
        assert "motion" not in _throw(ws, msg)[1]
