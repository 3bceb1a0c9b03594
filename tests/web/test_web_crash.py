"""Crash test: the real server as a subprocess, scripted clients playing, ``kill -9`` at random moments, restart,
and every event any client was sent (each is committed before it is sent) must be in the log; the games go on.

Iterations: ``$CHAOS_ITERATIONS`` (3 by default; ``make chaos`` runs 100: 100 kill -9 moments), each with
``TABLES_PER_KIND`` unfinished tables of every kind playing at once.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from webtools import run_async

from dicehall.core.record import GameRecord, replay
from tools.server import free_port, start_server

pytestmark = pytest.mark.chaos

ITERATIONS = int(os.environ.get("CHAOS_ITERATIONS", "3"))
TABLES_PER_KIND = 3


@dataclass
class Table:
    id: str
    kind: int
    clients: list[list[tuple[int, str]]]  # per client: (seat, token) pairs
    seen: dict[int, tuple[Any, str]] = field(default_factory=dict)  # seq -> (actor, move) sent to any client
    last: dict[str, Any] | None = (
        None  # the newest event or snapshot seen (a rejoin that is up to date gets none)
    )
    finished: bool = False
    closes: list[tuple[int, str]] = field(
        default_factory=list
    )  # (code, reason) of each close the server sent


SETUPS: list[list[dict[str, Any]]] = [
    [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],  # hot seat: one client, both seats
    [{"kind": "human", "name": "Cy"}, {"kind": "human", "name": "Di"}],  # online: one client per seat
    [{"kind": "human", "name": "Eve"}, {"kind": "bot", "bot": "expert"}],  # against a server-side bot
]


def new_table(base: str, kind: int) -> Table:
    r = httpx.post(f"{base}/api/tables", json={"game": "thousand", "seats": SETUPS[kind]}, timeout=10)
    r.raise_for_status()
    seats = [(s["seat"], s["token"]) for s in r.json()["seats"] if "token" in s]
    clients = [seats] if kind == 0 else [[s] for s in seats]
    return Table(r.json()["table_id"], kind, clients)


async def play_seat(ws_url: str, table: Table, seats: list[tuple[int, str]], rng: random.Random) -> None:
    """Play until the game ends or the server dies; record every event this client is sent."""
    mine = {s for s, _ in seats}
    try:
        async with connect(ws_url, open_timeout=5) as ws:
            last = max(table.seen) if table.seen else None
            await ws.send(
                json.dumps(
                    {"type": "join", "table": table.id, "tokens": [t for _, t in seats], "last_seq": last}
                )
            )
            pending = False
            while True:
                msg = json.loads(await ws.recv())
                if msg["type"] == "error":
                    assert msg["code"] == "stale_seq", msg  # only a race with the other client is acceptable
                    pending = False
                    continue
                if msg["type"] == "snapshot":
                    for e in msg["log"]:
                        table.seen[e["seq"]] = (e["actor"], e["move"])
                elif msg["type"] == "event":
                    table.seen[msg["seq"]] = (msg["actor"], msg["move"])
                    if msg["actor"] in mine:
                        pending = False
                elif msg["type"] == "joined" and table.last is not None and msg["seq"] == table.last["seq"]:
                    msg = table.last  # up to date: nothing follows, play on from what we have
                else:
                    continue
                if table.last is None or msg["seq"] >= table.last["seq"]:
                    table.last = msg
                st = msg["state"]
                if st["terminal"]:
                    table.finished = True
                    return
                if not pending and st["current_player"] in mine:
                    move = rng.choice(st["legal_actions"])
                    pending = True
                    await ws.send(
                        json.dumps(
                            {"type": "act", "seat": st["current_player"], "seq": msg["seq"], "move": move}
                        )
                    )
    except ConnectionClosed as exc:
        if exc.rcvd is not None:
            table.closes.append((exc.rcvd.code, exc.rcvd.reason))
    except (OSError, InvalidHandshake):
        return  # killed (also in the middle of the websocket handshake)


async def play_until_killed(port: int, proc_pid: int, tables: list[Table], rng: random.Random) -> None:
    ws_url = f"ws://127.0.0.1:{port}/ws"
    players = [
        asyncio.create_task(play_seat(ws_url, t, seats, random.Random(rng.random())))
        for t in tables
        for seats in t.clients
    ]
    start = sum(len(t.seen) for t in tables)
    for _ in range(1000):  # the first new event, then a random moment
        if sum(len(t.seen) for t in tables) > start:
            break
        await asyncio.sleep(0.01)
    await asyncio.sleep(rng.uniform(0.0, 0.8))
    os.kill(proc_pid, signal.SIGKILL)
    await asyncio.wait_for(asyncio.gather(*players), timeout=20)


def check_log(base: str, table: Table) -> int:
    """Every event a client was sent is in the persisted record, and the record replays."""
    rec = GameRecord.from_json(httpx.get(f"{base}/api/tables/{table.id}/record", timeout=10).json())
    for seq, (actor, move) in table.seen.items():
        assert seq <= len(rec.events), f"table {table.id}: event {seq} was sent but is not in the log"
        ev = rec.events[seq - 1]
        assert (ev.actor, ev.move) == (actor, move), (
            f"table {table.id} event {seq}: log {ev} != sent {(actor, move)}"
        )
    state = replay(rec)
    if table.finished:
        assert state.is_terminal()
    return len(rec.events)


def assert_live_matches_log(base: str, table: Table) -> None:
    """Resumed once: the live table and its log agree (a second copy would have moved apart). A resumed bot may
    move between two requests, so the log is read between two looks at the live table that agree."""
    for _ in range(50):
        before = httpx.get(f"{base}/api/tables/{table.id}", timeout=10).json()["seq"]
        rec = httpx.get(f"{base}/api/tables/{table.id}/record", timeout=10).json()
        after = httpx.get(f"{base}/api/tables/{table.id}", timeout=10).json()["seq"]
        if before == after:
            assert len(rec["events"]) == before, (
                f"table {table.id}: live seq {before}, log {len(rec['events'])}"
            )
            return
        time.sleep(0.05)
    raise AssertionError(f"table {table.id} never held still for a look at its log")


async def _oversized(port: int) -> int | None:
    async with connect(f"ws://127.0.0.1:{port}/ws", max_size=None) as ws:
        await ws.send(json.dumps({"type": "ping", "pad": "x" * 70_000}))
        try:
            await asyncio.wait_for(ws.recv(), timeout=5)
        except ConnectionClosed as exc:
            return exc.rcvd.code if exc.rcvd else None
    return None


@pytest.mark.timeout(120 + 20 * ITERATIONS)
def test_kill_9_loses_no_acknowledged_move_and_games_continue() -> None:
    rng = random.Random(int.from_bytes(os.urandom(4), "big"))
    with tempfile.TemporaryDirectory(prefix="dicehall-chaos-") as tmp:
        db_url = f"sqlite:///{Path(tmp) / 'chaos.sqlite'}"
        tables: list[Table] = []
        lengths: dict[str, int] = {}
        for iteration in range(ITERATIONS + 1):
            port = free_port()
            started = time.monotonic()
            proc = start_server(db_url, port)
            print(f"iteration {iteration}: server up in {time.monotonic() - started:.1f} s", flush=True)
            base = f"http://127.0.0.1:{port}"
            try:
                for t in tables:  # after the restart: everything that was sent is there, nothing went back
                    n = check_log(base, t)
                    assert n >= lengths.get(t.id, 0)
                    lengths[t.id] = n
                    assert_live_matches_log(base, t)
                listed = [x["table_id"] for x in httpx.get(f"{base}/api/tables?status=all&limit=500").json()]
                assert len(listed) == len(set(listed)) == len(tables)
                if iteration == ITERATIONS:
                    break
                if iteration == 0:
                    assert run_async(_oversized(port)) == 1009  # a frame over 64 KiB closes that connection
                    assert httpx.get(f"{base}/api/health", timeout=5).json()["status"] == "ok"
                for kind in range(len(SETUPS)):  # keep TABLES_PER_KIND unfinished tables of each kind
                    playing = sum(t.kind == kind and not t.finished for t in tables)
                    tables.extend(new_table(base, kind) for _ in range(TABLES_PER_KIND - playing))
                before = {t.id: max(t.seen, default=0) for t in tables}
                run_async(play_until_killed(port, proc.pid, [t for t in tables if not t.finished], rng))
                proc.wait(timeout=10)
                assert proc.returncode == -signal.SIGKILL
                moved = [t for t in tables if max(t.seen, default=0) > before[t.id]]
                assert moved, (
                    f"no table made progress in iteration {iteration}: {[(t.id, before[t.id], max(t.seen, default=0), t.finished) for t in tables]}"
                )
            finally:
                if proc.poll() is None:
                    proc.send_signal(signal.SIGTERM)
                    proc.wait(timeout=10)
        assert sum(len(t.seen) for t in tables) > 0


async def _play_until_sigterm(port: int, proc: Any, tables: list[Table], rng: random.Random) -> float:
    ws_url = f"ws://127.0.0.1:{port}/ws"
    players = [
        asyncio.create_task(play_seat(ws_url, t, seats, random.Random(rng.random())))
        for t in tables
        for seats in t.clients
    ]
    for _ in range(1000):  # play a while: every table has moved
        if all(len(t.seen) > 3 for t in tables):
            break
        await asyncio.sleep(0.01)
    await asyncio.sleep(rng.uniform(0.0, 0.3))
    start = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    while proc.poll() is None and time.monotonic() - start < 10:
        await asyncio.sleep(0.01)
    took = time.monotonic() - start
    await asyncio.wait_for(asyncio.gather(*players), timeout=20)
    return took


@pytest.mark.timeout(120)
def test_sigterm_closes_every_connection_with_1012_in_the_grace_and_keeps_every_acknowledged_move() -> None:
    rng = random.Random(int.from_bytes(os.urandom(4), "big"))
    with tempfile.TemporaryDirectory(prefix="dicehall-term-") as tmp:
        db_url = f"sqlite:///{Path(tmp) / 'term.sqlite'}"
        port = free_port()
        proc = start_server(db_url, port)
        base = f"http://127.0.0.1:{port}"
        try:
            tables = [new_table(base, kind) for kind in range(len(SETUPS)) for _ in range(2)]
            took = run_async(_play_until_sigterm(port, proc, tables, rng))
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.wait(timeout=10)
        assert took < 2.5, f"the server took {took:.2f} s to stop after SIGTERM"
        for t in tables:
            if not t.finished:
                assert t.closes and all(c == (1012, "server restarting") for c in t.closes), (t.id, t.closes)
        port = free_port()
        proc = start_server(db_url, port)
        try:
            for t in tables:
                check_log(f"http://127.0.0.1:{port}", t)
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=10)
