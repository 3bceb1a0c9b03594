"""Two server processes on one PostgreSQL (``serve --node-url``, docs/scaling.md): one lobby, each table owned by
one process at a time, requests for the other's tables forwarded, no move ever applied twice; the owner killed
(kill -9) or paused past its lease (SIGSTOP) and the other one takes over from the log.

The servers are real ``python -m dicehall.web`` processes on a throw-away PostgreSQL cluster (``pg.py``). The
kill and pause scenarios wait out a lease and are marked ``chaos`` and ``slow`` (``make chaos``, ``make slow``;
not ``make test``); the fence test and one two-process test of lobby, forwarding and racing moves stay quick.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from pg import Cluster
from webtools import run_async

from dicehall.core.record import GameRecord, replay
from dicehall.web.app import check_node_url
from dicehall.web.db import Store, StoredEvent, TableMeta
from dicehall.web.owners import Elsewhere, LeaseLost, Owners
from tools.server import LOAD_SETTINGS, free_port

LEASE = 2.0
HOT_SEAT = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]


@dataclass
class Node:
    port: int
    proc: subprocess.Popen[bytes]
    log: Path

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def signal(self, sig: int) -> None:
        os.killpg(self.proc.pid, sig)  # the server and its bot workers, as a real kill -9 of the host would

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.signal(signal.SIGCONT)
            self.signal(signal.SIGKILL)
        self.proc.wait(timeout=10)


def _start(db_url: str, tmp: Path, name: str) -> Node:
    port = free_port()
    settings = tmp / f"{name}.toml"
    values = {**LOAD_SETTINGS, "lease_seconds": LEASE, "bot_workers": 1}
    settings.write_text("".join(f"{k} = {v}\n" for k, v in values.items()), encoding="utf-8")
    log = tmp / f"{name}.log"
    cmd = [
        sys.executable, "-m", "dicehall.web", "--db", db_url, "--port", str(port), "--bot-delay", "0",
        "--settings", str(settings), "--node-url", f"http://127.0.0.1:{port}", "--log-level", "warning",
    ]  # fmt: skip
    with log.open("ab") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=out, start_new_session=True)
    return Node(port, proc, log)


def _wait_healthy(node: Node) -> None:
    end = time.monotonic() + 60
    while time.monotonic() < end:
        if node.proc.poll() is not None:
            raise AssertionError(f"server exited with {node.proc.returncode}: {node.log.read_text()[-2000:]}")
        try:
            if httpx.get(f"{node.base}/api/health", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.05)
    raise AssertionError(f"server did not answer in 60 s: {node.log.read_text()[-2000:]}")


@contextmanager
def two_nodes(pg_cluster: Cluster, tmp: Path) -> Iterator[tuple[Node, Node, str]]:
    db_url = pg_cluster.new_database()
    Store(db_url).close()  # migrate once, before the two start side by side
    nodes = [_start(db_url, tmp, "a"), _start(db_url, tmp, "b")]
    try:
        for n in nodes:
            _wait_healthy(n)
        yield nodes[0], nodes[1], db_url
    finally:
        for n in nodes:
            n.stop()


def create(node: Node, seats: list[dict[str, Any]] | None = None) -> tuple[str, list[str]]:
    r = httpx.post(
        f"{node.base}/api/tables", json={"game": "thousand", "seats": seats or HOT_SEAT}, timeout=10
    )
    assert r.status_code == 201, r.text
    return r.json()["table_id"], [s["token"] for s in r.json()["seats"] if "token" in s]


def owner_row(db_url: str, table_id: str) -> tuple[str, int]:
    store = Store(db_url)
    try:
        row = store._conn.exec_driver_sql(
            "SELECT url, epoch FROM dh_owners WHERE table_id = %(t)s", {"t": table_id}
        ).one()
        store._conn.rollback()
        return str(row[0]), int(row[1])
    finally:
        store.close()


def db_log(db_url: str, table_id: str) -> list[tuple[int, Any, str]]:
    store = Store(db_url)
    try:
        return [(e.seq, e.actor, e.move) for e in store.events(table_id)]
    finally:
        store.close()


@dataclass
class Player:
    """A client holding every seat of a hot-seat table, moving the moment it sees a position (racing the others)."""

    url: str
    table: str
    tokens: list[str]
    seed: int
    seen: dict[int, tuple[Any, str]] = field(default_factory=dict)
    refused: dict[str, int] = field(default_factory=dict)
    closes: list[tuple[int, str]] = field(default_factory=list)
    last: dict[str, Any] | None = None

    def note(self, msg: dict[str, Any]) -> None:
        if msg["type"] == "snapshot":
            for e in msg["log"]:
                self._see(e["seq"], e["actor"], e["move"])
        elif msg["type"] == "event":
            self._see(msg["seq"], msg["actor"], msg["move"])
        if msg["type"] in ("event", "snapshot") and (self.last is None or msg["seq"] >= self.last["seq"]):
            self.last = msg

    def _see(self, seq: int, actor: Any, move: str) -> None:
        old = self.seen.setdefault(seq, (actor, move))
        assert old == (actor, move), f"event {seq} sent twice, differently: {old} then {(actor, move)}"

    async def play(self, until_seq: int, deadline: float) -> None:
        """Play (with reconnects, as the browser does) until the table reaches ``until_seq`` or the game ends."""
        from websockets.asyncio.client import connect
        from websockets.exceptions import WebSocketException

        rng = random.Random(self.seed)
        while time.monotonic() < deadline:
            try:
                async with connect(self.url, open_timeout=5) as ws:
                    last = max(self.seen) if self.seen else None
                    await ws.send(
                        json.dumps(
                            {"type": "join", "table": self.table, "tokens": self.tokens, "last_seq": last}
                        )
                    )
                    while True:
                        msg = json.loads(
                            await asyncio.wait_for(ws.recv(), timeout=max(0.1, deadline - time.monotonic()))
                        )
                        if msg["type"] == "error":
                            self.refused[msg["code"]] = self.refused.get(msg["code"], 0) + 1
                            continue
                        if (
                            msg["type"] == "joined"
                            and self.last is not None
                            and msg["seq"] == self.last["seq"]
                        ):
                            msg = self.last  # up to date: go on from what we have
                        elif msg["type"] not in ("event", "snapshot"):
                            continue
                        self.note(msg)
                        st = msg["state"]
                        if st["terminal"] or msg["seq"] >= until_seq:
                            return
                        if msg["seq"] == self.last["seq"] and st["legal_actions"]:  # type: ignore[index]
                            move = rng.choice(st["legal_actions"])
                            act = {
                                "type": "act",
                                "seat": st["current_player"],
                                "seq": msg["seq"],
                                "move": move,
                            }
                            await ws.send(json.dumps(act))
            except (OSError, TimeoutError, WebSocketException) as exc:
                rcvd = getattr(exc, "rcvd", None)
                if rcvd is not None:
                    self.closes.append((rcvd.code, rcvd.reason))
                await asyncio.sleep(0.1)
        raise AssertionError(
            f"table {self.table}: not at event {until_seq} in time (at {max(self.seen, default=0)})"
        )


async def collide(urls: tuple[str, str], table: str, tokens: list[str]) -> tuple[list[str], list[str]]:
    """Two clients of one table (one per process) both send a move for the same event before reading anything:
    exactly one may be applied. Returns the refusals' codes and the moves applied after that event."""
    from websockets.asyncio.client import connect

    async with connect(urls[0], open_timeout=5) as x, connect(urls[1], open_timeout=5) as y:
        views = []
        for ws in (x, y):
            await ws.send(json.dumps({"type": "join", "table": table, "tokens": tokens, "last_seq": None}))
            while (msg := json.loads(await asyncio.wait_for(ws.recv(), 10)))["type"] != "snapshot":
                pass
            views.append(msg)
        seq, st = views[0]["seq"], views[0]["state"]
        assert views[1]["seq"] == seq and not st["terminal"], "both clients at the same open position"
        act = {"type": "act", "seat": st["current_player"], "seq": seq, "move": st["legal_actions"][0]}
        for ws in (x, y):
            await ws.send(json.dumps(act))
        refused, applied = [], []
        for ws in (x, y):  # a pong answers after every message sent before it, the act included
            await ws.send(json.dumps({"type": "ping"}))
            while (msg := json.loads(await asyncio.wait_for(ws.recv(), 10)))["type"] != "pong":
                if msg["type"] == "error":
                    refused.append(msg["code"])
                elif msg["type"] == "event" and msg["seq"] == seq + 1 and ws is x:
                    applied.append(msg["move"])
        return refused, applied


def check_against_log(db_url: str, table_id: str, *players: Player) -> int:
    """The log is 1..n without a gap; every event any client was sent is that event of the log; the log replays."""
    log = db_log(db_url, table_id)
    assert [s for s, _, _ in log] == list(range(1, len(log) + 1))
    by_seq = {s: (a, m) for s, a, m in log}
    for p in players:
        for seq, sent in p.seen.items():
            assert by_seq.get(seq) == sent, f"event {seq}: sent {sent}, log {by_seq.get(seq)}"
    return len(log)


def record(node: Node, table_id: str) -> GameRecord:
    return GameRecord.from_json(httpx.get(f"{node.base}/api/tables/{table_id}/record", timeout=10).json())


# -- quick: the lease and its fence on one database, no server processes ----------------------------------------
def test_the_fence_refuses_a_stale_owner_and_the_log_stays_whole(pg_cluster: Cluster) -> None:
    url = pg_cluster.new_database()
    a, b = Store(url), Store(url)
    try:
        now = time.time()
        a.create_table(TableMeta("t1", "thousand", "classic", {}, [], "playing", now, now))
        la, lb = Owners(lambda: a._conn, "http://a:1", 0.3), Owners(lambda: b._conn, "http://b:1", 0.3)
        assert la.acquire("t1") == 1
        with pytest.raises(Elsewhere) as moved:
            lb.acquire("t1")
        assert moved.value.url == "http://a:1"
        a.append_events("t1", [StoredEvent(1, 0, "roll", now)], fence=la.fence("t1"))
        time.sleep(0.4)  # a is 'paused' past its lease
        assert lb.acquire("t1") == 2  # taken over: a new epoch
        with pytest.raises(LeaseLost):  # the old owner wakes up and tries to write the next event: refused
            a.append_events("t1", [StoredEvent(2, 0, "bank", now)], fence=la.fence("t1"))
        with pytest.raises(LeaseLost):
            a.update_table("t1", status="finished", fence=la.fence("t1"))
        assert la.renew() == ["t1"] and la.held == {}  # and learns it has lost the table
        b.append_events("t1", [StoredEvent(2, "chance", "31", now)], fence=lb.fence("t1"))
        assert [(e.seq, e.actor) for e in b.events("t1")] == [(1, 0), (2, "chance")]
        assert b.get_table("t1").status == "playing"  # type: ignore[union-attr]
        lb.release("t1")  # given up (unloaded): the next taker need not wait for the expiry
        assert la.acquire("t1") == 3
        assert la.acquire("t1") == 4  # loaded again by its own holder: a new epoch all the same
        with pytest.raises(LeaseLost):
            a.append_events("t1", [StoredEvent(3, 0, "roll", now)], fence=Owners.fence(lb, "t1"))
    finally:
        a.close()
        b.close()


def test_node_url_needs_postgresql_and_an_address() -> None:
    with pytest.raises(ValueError, match="needs PostgreSQL"):
        check_node_url("http://127.0.0.1:8000", "sqlite:///x.sqlite")
    with pytest.raises(ValueError, match="must be an address"):
        check_node_url("127.0.0.1:8000", "postgresql+psycopg://u@h/d")
    check_node_url("http://10.0.0.5:8000", "postgresql+psycopg://u@h/d")


# -- two real server processes ----------------------------------------------------------------------------------
@pytest.mark.timeout(180)
def test_two_processes_one_lobby_and_no_move_applied_twice(pg_cluster: Cluster, tmp_path: Path) -> None:
    with two_nodes(pg_cluster, tmp_path) as (a, b, db_url):
        t1, tok1 = create(a)
        t2, _ = create(b, [{"kind": "human", "name": "Cy"}, {"kind": "human", "name": "Di", "open": True}])
        assert owner_row(db_url, t1)[0] == a.base and owner_row(db_url, t2)[0] == b.base
        for node in (a, b):  # one lobby: both processes list both tables
            listed = {t["table_id"] for t in httpx.get(f"{node.base}/api/tables", timeout=10).json()}
            assert {t1, t2} <= listed

        async def scenario() -> tuple[list[dict[str, Any]], Player, Player]:
            from websockets.asyncio.client import connect

            async with connect(a.ws, open_timeout=5) as lobby:  # live lobby updates cross processes (NOTIFY)
                await lobby.send(json.dumps({"type": "lobby"}))
                first = json.loads(await asyncio.wait_for(lobby.recv(), 10))
                assert first["type"] == "lobby" and {t1, t2} <= {t["table_id"] for t in first["tables"]}
                # the seat of b's table is claimed through a (forwarded to b, the owner)
                r = httpx.post(f"{a.base}/api/tables/{t2}/join", json={"seat": 1, "name": "Di"}, timeout=10)
                assert r.status_code == 200, r.text
                t3, _ = create(b)
                updates = []
                while len(updates) < 2:
                    updates.append(json.loads(await asyncio.wait_for(lobby.recv(), 10)))
                # two clients of one table, one on each process, racing for every move
                on_a = Player(a.ws, t1, tok1, 1)
                on_b = Player(b.ws, t1, tok1, 2)
                end = time.monotonic() + 60
                await asyncio.gather(on_a.play(120, end), on_b.play(120, end))
                assert {u["table"]["table_id"] for u in updates} == {t2, t3}
                return updates, on_a, on_b

        updates, on_a, on_b = run_async(scenario())
        claimed = next(u for u in updates if u["table"]["table_id"] == t2)["table"]
        assert claimed["status"] == "playing" and claimed["seats"][1]["claimed"]
        n = check_against_log(db_url, t1, on_a, on_b)
        assert n >= 120 or on_a.last["state"]["terminal"]  # type: ignore[index]
        assert set(on_a.refused) | set(on_b.refused) <= {"stale_seq", "game_over"}
        if not on_a.last["state"]["terminal"]:  # type: ignore[index]
            refused, applied = run_async(collide((a.ws, b.ws), t1, tok1))  # a certain collision: one wins
            assert refused == ["stale_seq"] and len(applied) == 1, (refused, applied)
            n = check_against_log(db_url, t1)
        assert owner_row(db_url, t1) == (a.base, 1)  # never moved: b forwarded its client to a
        assert httpx.get(f"{b.base}/api/tables/{t1}", timeout=10).json()["seq"] == n  # REST forwarded to a
        replay(record(b, t1))


@pytest.mark.chaos
@pytest.mark.slow
@pytest.mark.timeout(180)
def test_kill_9_of_the_owner_moves_its_tables_to_the_other_process(
    pg_cluster: Cluster, tmp_path: Path
) -> None:
    with two_nodes(pg_cluster, tmp_path) as (a, b, db_url):
        tid, toks = create(a)
        bot_table, _ = create(
            a, [{"kind": "human", "name": "Eve", "open": True}, {"kind": "bot", "bot": "random"}]
        )
        httpx.post(f"{b.base}/api/tables/{bot_table}/join", json={"seat": 0}, timeout=10).raise_for_status()
        player = Player(b.ws, tid, toks, 3)  # a client on b, forwarded to a
        run_async(player.play(40, time.monotonic() + 30))
        before = check_against_log(db_url, tid, player)
        a.signal(signal.SIGKILL)
        killed = time.monotonic()
        run_async(player.play(before + 40, time.monotonic() + 60))  # reconnects until b has taken over
        after = check_against_log(db_url, tid, player)
        assert after >= before + 40
        assert owner_row(db_url, tid) == (b.base, 2)
        assert player.closes and all(code in (1012, 1013) for code, _ in player.closes)
        for _ in range(100):  # the bot table, which nobody watches, is taken over by b's sweep
            if owner_row(db_url, bot_table)[0] == b.base:
                break
            time.sleep(0.1)
        assert owner_row(db_url, bot_table) == (b.base, 2)
        print(f"failover: moves again {time.monotonic() - killed:.1f} s after kill -9 (lease {LEASE} s)")
        replay(record(b, tid))


@pytest.mark.chaos
@pytest.mark.slow
@pytest.mark.timeout(180)
def test_a_paused_owner_cannot_write_after_the_other_took_over(pg_cluster: Cluster, tmp_path: Path) -> None:
    with two_nodes(pg_cluster, tmp_path) as (a, b, db_url):
        tid, toks = create(a)

        async def scenario() -> tuple[list[dict[str, Any]], int]:
            from websockets.asyncio.client import connect

            async with connect(a.ws, open_timeout=5) as stale:  # joined on a, the owner
                await stale.send(json.dumps({"type": "join", "table": tid, "tokens": toks}))
                msg: dict[str, Any] = {}
                while msg.get("type") not in ("event", "snapshot"):
                    msg = json.loads(await asyncio.wait_for(stale.recv(), 10))
                seq, st = msg["seq"], msg["state"]
                a.signal(signal.SIGSTOP)
                await asyncio.sleep(LEASE + 0.5)
                # b takes the table over on the next request for it
                r = httpx.get(f"{b.base}/api/tables/{tid}", timeout=10)
                assert r.status_code == 200 and r.json()["seq"] == seq
                assert owner_row(db_url, tid) == (b.base, 2)
                # the stale owner's client moves (a reads it when it wakes up), then a wakes up
                act = {
                    "type": "act",
                    "seat": st["current_player"],
                    "seq": seq,
                    "move": st["legal_actions"][0],
                }
                await stale.send(json.dumps(act))
                a.signal(signal.SIGCONT)
                got: list[dict[str, Any]] = []
                try:
                    while True:
                        got.append(json.loads(await asyncio.wait_for(stale.recv(), 10)))
                except Exception as exc:  # a drops the table and closes: "reconnect"
                    got.append({"closed": getattr(getattr(exc, "rcvd", None), "code", None)})
                return got, seq

        got, seq = run_async(scenario())
        assert not [m for m in got if m.get("type") == "event"], got  # the stale owner applied nothing
        assert got[-1].get("closed") in (1012, 1013), got
        assert len(db_log(db_url, tid)) == seq  # and wrote nothing
        fresh = Player(a.ws, tid, toks, 4)  # a client of a is forwarded to b, the owner now, and plays on
        run_async(fresh.play(seq + 10, time.monotonic() + 30))
        check_against_log(db_url, tid, fresh)
        assert owner_row(db_url, tid) == (b.base, 2)


# -- one process (SQLite): the lobby feed works the same, and no lease is ever written -----------------------------
def test_one_process_lobby_feed_and_no_leases(server: Any, db_url: str) -> None:
    from webtools import connect
    from webtools import create as create_here

    with server() as c, connect(c) as ws:
        old = create_here(c)
        first = ws.request({"type": "lobby"})
        assert first[0]["type"] == "lobby" and [t["table_id"] for t in first[0]["tables"]] == [
            old["table_id"]
        ]
        new = create_here(c, seats=[{"kind": "human", "name": "Ann"}, {"kind": "human", "open": True}])
        c.post(f"/api/tables/{new['table_id']}/join", json={"seat": 1, "name": "Bo"}).raise_for_status()
        updates = ws.drain()
        assert [(u["type"], u["table"]["status"]) for u in updates] == [
            ("lobby_update", "waiting"),
            ("lobby_update", "playing"),
        ]
        assert updates[1]["table"]["seats"][1] == {
            "seat": 1,
            "name": "Bo",
            "kind": "human",
            "bot": None,
            "claimed": True,
            "named": True,
            "player": c.get("/api/me").json()["player"]["id"],
        }
        assert c.app.state.manager.owners is None  # type: ignore[attr-defined]
    store = Store(db_url)
    try:
        assert store._conn.exec_driver_sql("SELECT count(*) FROM dh_owners").scalar() == 0
    finally:
        store.close()


@pytest.mark.slow
@pytest.mark.timeout(180)
def test_sigterm_hands_the_tables_over_without_waiting_for_the_lease(
    pg_cluster: Cluster, tmp_path: Path
) -> None:
    with two_nodes(pg_cluster, tmp_path) as (a, b, db_url):
        tid, toks = create(a)
        player = Player(b.ws, tid, toks, 5)  # on b, forwarded to a
        run_async(player.play(20, time.monotonic() + 30))
        before = check_against_log(db_url, tid, player)
        a.proc.send_signal(signal.SIGTERM)  # a stops cleanly: its leases expire at once
        stopped = time.monotonic()
        assert a.proc.wait(timeout=30) in (0, -signal.SIGTERM)  # uvicorn re-raises the signal after its stop
        run_async(player.play(before + 10, time.monotonic() + 30))
        check_against_log(db_url, tid, player)
        assert owner_row(db_url, tid) == (b.base, 2)
        print(f"hand-over on SIGTERM: moves again {time.monotonic() - stopped:.1f} s after the signal")


def test_with_a_shared_database_only_the_owner_closes_an_abandoned_table(pg_cluster: Cluster) -> None:
    """Two managers (two processes' worth) on one database: the abandonment sweep of one closes the stale table
    nobody holds (taking its lease, fenced), and leaves alone the one the other process holds."""
    from dicehall.web.lifecycle import DAY
    from dicehall.web.manager import TableManager
    from dicehall.web.protocol import CreateTable
    from dicehall.web.settings import ServerSettings

    url = pg_cluster.new_database()
    spec = CreateTable.model_validate({"game": "thousand", "seats": HOT_SEAT})
    now = [time.time()]

    async def scenario() -> None:
        stores = [Store(url), Store(url)]
        owners = [Owners(lambda s=s: s._conn, f"http://{n}:1", 60) for s, n in zip(stores, "ab", strict=True)]
        a, b = (
            TableManager(s, ServerSettings(), clock=lambda: now[0], owners=o)
            for s, o in zip(stores, owners, strict=True)
        )
        try:
            held_by_b, _ = b.create(spec)
            free, _ = a.create(spec)
            a.lifecycle.unload(free)  # released: nobody holds it
            assert owners[0].held == {}
            now[0] += 8 * DAY  # a week and a day later, as a's clock sees it
            a.lifecycle.sweep_abandoned()
            assert stores[0].get_table(free.id).status == "abandoned"  # type: ignore[union-attr]
            assert stores[0].get_table(held_by_b.id).status == "playing"  # type: ignore[union-attr]
            assert free.id not in a.tables and owners[0].held == {}  # closed, unloaded, released
        finally:
            for m, s in ((a, stores[0]), (b, stores[1])):
                await m.close()
                s.close()

    run_async(scenario())


def test_resign_is_forwarded_to_the_owner(pg_cluster: Cluster, tmp_path: Path) -> None:
    """A resign or delete sent to the process that does not own the table is done by the owner (forward.py)."""
    with two_nodes(pg_cluster, tmp_path) as (a, b, db_url):
        tid, toks = create(a)
        owner = owner_row(db_url, tid)
        assert owner[0] == a.base
        r = httpx.post(f"{b.base}/api/tables/{tid}/resign", json={"seat": 1, "token": toks[1]}, timeout=10)
        assert r.status_code == 200 and r.json()["status"] == "finished", r.text
        assert db_log(db_url, tid)[-1][1:] == (1, "resign")
        assert owner_row(db_url, tid) == owner  # the owner wrote it: no takeover
        assert httpx.get(f"{b.base}/api/tables/{tid}", timeout=10).json()["seats"][1]["resigned"] is True
        forged = httpx.post(f"{b.base}/api/tables/{tid}/resign", json={"seat": 0, "token": "x"}, timeout=10)
        assert forged.status_code == 400
        # a delete travels the same way; the owner's lease row goes with the table
        gone, toks2 = create(a)
        r = httpx.request("DELETE", f"{b.base}/api/tables/{gone}", json={"tokens": toks2}, timeout=10)
        assert r.status_code == 200, r.text
        assert httpx.get(f"{a.base}/api/tables/{gone}", timeout=10).status_code == 404
        assert db_log(db_url, gone) == []
