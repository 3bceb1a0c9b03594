"""The server's core under load and time: bots in worker processes (budget, fallback, caches, reproducible
randomness), live tables unloaded and rebuilt identically, abandoned tables closed for good."""

from __future__ import annotations

import logging
import time
from contextlib import ExitStack
from typing import Any

import numpy as np
import pytest
from webtools import WS, connect, create, latest, pick, tokens, wait_for

from dicehall.core.record import GameRecord, replay
from dicehall.web import manager as manager_module
from dicehall.web.botworker import BotRequest, Worker

HUMANS = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
DAY = 86_400.0


def play(ws: WS, msg: dict[str, Any], moves: int) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """Play ``moves`` moves for whoever is to move (the client holds every human seat); all events by seq."""
    seen: dict[int, dict[str, Any]] = {}
    for _ in range(moves):
        st = msg["state"]
        if st["terminal"]:
            break
        got = ws.act(st["current_player"], msg["seq"], pick(st))
        assert got and got[0]["type"] == "event", got
        for m in got:
            seen[m["seq"]] = m
        msg = got[-1]
    return msg, seen


# -- bots in worker processes ------------------------------------------------------------------------------------
def test_a_bot_over_its_budget_plays_a_fallback_and_never_holds_up_another_table(server, caplog):
    caplog.set_level(logging.WARNING, logger="dicehall.web")
    with server(bot_budget=1.0) as c, ExitStack() as stack:
        manager = c.app.state.manager  # type: ignore[attr-defined]
        manager.bots.pool.runaway = 2.0  # killed after 2 s instead of 10 budgets, to keep the test short
        watcher, player = stack.enter_context(connect(c)), stack.enter_context(connect(c))
        slow = create(c, game="tinytest", seats=[{"kind": "bot", "bot": "sleepy"}, HUMANS[0]])
        sid = slow["table_id"]
        watcher.join(sid)
        # while the sleepy bot's worker is busy, another table's moves are answered at once
        other = create(c, game="tinytest", seats=HUMANS)
        msg = latest(player.join(other["table_id"], tokens(other)))
        for _ in range(5):
            msg = player.act(msg["state"]["current_player"], msg["seq"], "roll")[-1]
            assert c.get("/api/health").json()["status"] == "ok"
        assert c.get(f"/api/tables/{sid}").json()["seq"] == 0  # the sleepy bot has not moved yet
        # its budget runs out: a random legal move is played for it, logged, and its worker replaced
        got = wait_for(watcher, lambda ms: any(m.get("actor") == 0 for m in ms), timeout=20)
        assert any(m.get("actor") == 0 and m["move"] in ("roll", "stop") for m in got)
        warned = [r for r in caplog.records if r.levelno == logging.WARNING and sid in r.getMessage()]
        assert warned and "sleepy" in warned[0].getMessage() and "random legal move" in warned[0].getMessage()
        assert manager.bots.fallbacks >= 1
        for _ in range(200):  # the killed worker is replaced (in a thread, off the loop)
            if manager.bots.pool.replaced >= 1 and all(p is not None for p in manager.bots.pool.pids()):
                break
            time.sleep(0.02)
        assert (
            manager.bots.pool.replaced >= 1 and len(manager.bots.pool.pids()) == manager.settings.worker_count
        )


def test_a_failing_bot_is_logged_and_its_table_goes_on(server, caplog):
    caplog.set_level(logging.ERROR, logger="dicehall.web")
    with server() as c, connect(c) as ws:
        t = create(c, game="tinytest", seats=[{"kind": "bot", "bot": "broken"}, HUMANS[0]])
        ws.join(t["table_id"])
        wait_for(ws, lambda ms: any(m.get("actor") == 0 for m in ms))
        assert any("broken" in r.getMessage() and "bot bug" in r.getMessage() for r in caplog.records)


def test_bot_randomness_is_reproducible_per_table(server, monkeypatch: pytest.MonkeyPatch):
    """Dice come from the table's committed seed and bot seeds from its own generator; the same seeds give the same
    game, move by move."""
    monkeypatch.setattr(
        manager_module, "new_rngs", lambda: (np.random.default_rng(11), np.random.default_rng(22))
    )
    monkeypatch.setattr(manager_module, "new_seed", lambda: "11" * 32)
    bots = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
    with server() as c:
        ids = [create(c, seats=bots)["table_id"] for _ in range(2)]

        def events(tid: str) -> list[Any]:
            return GameRecord.from_json(c.get(f"/api/tables/{tid}/record").json()).events

        for _ in range(2000):
            if all(len(events(t)) >= 60 for t in ids):
                break
            time.sleep(0.01)
        a, b = (events(t)[:60] for t in ids)
        assert len(a) == 60 and a == b
        assert {e.move for e in a if e.actor in (0, 1)} == {"roll", "bank"}  # the bots chose, not only dice


def _request(target: int, seq: int = 0, base: int = -1, seed: int = 1, table: str = "t1") -> BotRequest:
    return BotRequest(
        table=table,
        game="tinytest",
        preset="short",
        overrides={"target": target},
        names=("a", "b"),
        bot="greedy",
        seat=0,
        seq=seq,
        base=base,
        events=(),
        seed=seed,
    )


def test_worker_caches_are_bounded_and_a_missing_state_asks_for_the_whole_log():
    worker = Worker(cache_size=2)
    for target in (12, 20, 30):
        assert worker.answer(_request(target, table=f"t{target}")) == ("move", "roll")
    assert len(worker.bots) == 2 and [k[2].target for k in worker.bots] == [20, 30]  # least recently used out
    assert worker.answer(_request(12, seq=3, base=2, table="unknown")) == ("resync", None)
    assert worker.answer(_request(12, seq=0, base=0, table="t12"))[0] == "move"  # continues from its state
    kind, message = Worker(1).answer(BotRequest(**{**_request(12).__dict__, "bot": "nope"}))
    assert kind == "error" and "nope" in message


# -- live tables bounded -----------------------------------------------------------------------------------------
def test_an_unloaded_table_rebuilds_identically_from_its_log(server):
    with server(live_tables=1) as c, ExitStack() as stack:
        manager = c.app.state.manager  # type: ignore[attr-defined]
        ws = stack.enter_context(connect(c))
        t = create(c, overrides={"target": 3000, "barrel": "none"})
        tid = t["table_id"]
        msg, seen = play(ws, latest(ws.join(tid, tokens(t))), 40)
        snapshot = ws.join(tid, tokens(t))[1]
        head = msg["seq"]
        other = create(c)
        ws.join(other["table_id"], tokens(other))  # leaves the first table: beyond the bound, it is unloaded
        assert tid not in manager.tables
        with connect(c) as again:
            got = again.join(tid, tokens(t), last_seq=head - 5)  # the recent-event window came back exactly
            assert got[0]["seq"] == head and got[1:] == [seen[s] for s in range(head - 4, head + 1)]
            assert again.join(tid, tokens(t))[1] == snapshot
            later, _ = play(again, snapshot, 3)
            assert later["seq"] > head


def test_an_idle_table_is_unloaded_and_its_bot_continues_after_the_rebuild(server):
    with server(idle_unload_seconds=60) as c, connect(c) as ws:
        manager = c.app.state.manager  # type: ignore[attr-defined]
        t = create(
            c, game="tinytest", seats=[HUMANS[0], {"kind": "bot", "bot": "greedy"}], overrides={"target": 40}
        )
        tid = t["table_id"]
        msg = latest(ws.join(tid, tokens(t)))
        msg = ws.act(0, msg["seq"], "roll")[-1]
        if msg["state"]["current_player"] == 1:  # rolled a 1: let the bot play its turn first
            msg = wait_for(ws, lambda ms: bool(ms) and ms[-1]["state"]["current_player"] == 0)[-1]
        ws.join(create(c, game="tinytest", seats=HUMANS)["table_id"])  # Ann walks away
        c.portal.call(manager.lifecycle.unload_idle)  # type: ignore[attr-defined]
        assert tid in manager.tables  # touched a moment ago
        real = manager.clock
        manager.clock = lambda: real() + 61
        c.portal.call(manager.lifecycle.unload_idle)  # type: ignore[attr-defined]
        assert tid not in manager.tables
        manager.clock = real
        snap = latest(ws.join(tid, tokens(t), last_seq=msg["seq"] - 1))
        assert snap["seq"] == msg["seq"] and snap["state"] == msg["state"]
        for _ in range(100):  # Ann plays on (stops as soon as she may): then the bot must take its turn
            st = msg["state"]
            if st["current_player"] != 0:
                break
            msg = ws.act(0, msg["seq"], "stop" if "stop" in st["legal_actions"] else "roll")[-1]
        got = wait_for(ws, lambda ms: any(m.get("actor") == 1 for m in ms) or msg["state"]["terminal"])
        assert got


def test_start_loads_only_bot_tables_in_play_and_the_rest_on_demand(server):
    with server(bot_delay=60) as c:
        human = create(c)["table_id"]
        bot = create(c, seats=[HUMANS[0], {"kind": "bot", "bot": "cautious"}])["table_id"]
    with server(bot_delay=60) as c:
        manager = c.app.state.manager  # type: ignore[attr-defined]
        assert bot in manager.tables and human not in manager.tables
        assert c.get(f"/api/tables/{human}").json()["status"] == "playing"
        assert human in manager.tables


# -- abandoned tables --------------------------------------------------------------------------------------------
def test_a_table_nobody_moved_in_is_closed_as_abandoned_and_stays_closed(server):
    with server(abandon_after_days=7) as c, ExitStack() as stack:
        manager = c.app.state.manager  # type: ignore[attr-defined]
        ws, watcher = stack.enter_context(connect(c)), stack.enter_context(connect(c))
        live, cold = create(c), create(c)
        msg = latest(ws.join(live["table_id"], tokens(live)))
        watcher.join(live["table_id"])
        third = create(c)["table_id"]
        ws.join(third)
        c.portal.call(manager.lifecycle.unload, manager.tables[cold["table_id"]])  # type: ignore[attr-defined]
        real = manager.clock
        manager.clock = lambda: real() + 6 * DAY
        c.portal.call(manager.lifecycle.sweep_abandoned)  # type: ignore[attr-defined]
        assert c.get(f"/api/tables/{live['table_id']}").json()["status"] == "playing"  # 6 days: not yet
        manager.clock = lambda: real() + 8 * DAY
        assert c.get(f"/api/tables/{cold['table_id']}").json()["status"] == "abandoned"  # checked at load
        c.portal.call(manager.lifecycle.sweep_abandoned)  # type: ignore[attr-defined]
        assert c.get(f"/api/tables/{live['table_id']}").json()["status"] == "abandoned"  # by the sweep
        told = watcher.drain()
        assert [m["type"] for m in told] == ["table"] and told[0]["status"] == "abandoned"
        listed = {x["table_id"]: x["status"] for x in c.get("/api/tables?status=abandoned").json()}
        assert listed == {t: "abandoned" for t in (live["table_id"], cold["table_id"], third)}
        assert live["table_id"] not in {x["table_id"] for x in c.get("/api/tables").json()}
        record = c.get(f"/api/tables/{live['table_id']}/record").json()
        assert record["closed"]["reason"] == "abandoned" and record["result"] is None
        replay(GameRecord.from_json(record))
        with connect(c) as again:
            again.join(live["table_id"], tokens(live))
            refused = again.act(msg["state"]["current_player"], msg["seq"], "roll")
            assert refused[0]["code"] == "game_over" and "abandoned" in refused[0]["message"]
    with server(abandon_after_days=7) as c:
        manager = c.app.state.manager  # type: ignore[attr-defined]
        assert live["table_id"] not in manager.tables
        assert c.get(f"/api/tables/{live['table_id']}").json()["status"] == "abandoned"
        assert c.get(f"/api/tables/{cold['table_id']}/record").json()["closed"]["reason"] == "abandoned"
