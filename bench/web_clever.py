"""A four-player online Clever table on loopback: four websocket clients, one per seat, play random legal moves
(the passive players on their own positions while the phase is open). For each move: the time from sending it to
the moment every client that must see a change has it — the mover's own answer (an event, or its ``private``
position), and for a move everybody sees (an event, or a passive player finishing: ``progress``) all four clients.

``measure(games) -> dict``; part of ``bench.web`` (``make bench``); alone: ``python -m
bench.web_clever [--quick]``.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import numpy as np
from websockets.asyncio.client import ClientConnection, connect

from tools.loadgen import run_fresh
from tools.server import free_port, start_server, stop_server

SEATS = 4


class Client:
    """One seat's connection: every message it receives, with its arrival time, in a queue."""

    def __init__(self, seat: int, ws: ClientConnection) -> None:
        self.seat, self.ws = seat, ws
        self.inbox: asyncio.Queue[tuple[float, dict[str, Any]]] = asyncio.Queue()
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for raw in self.ws:
            self.inbox.put_nowait((time.perf_counter(), json.loads(raw)))

    async def until(self, pred: Any, timeout: float = 10.0) -> tuple[float, dict[str, Any]]:
        """The first message (arrival time, message) for which ``pred`` holds; earlier ones are handed to ``seen``."""
        while True:
            at, msg = await asyncio.wait_for(self.inbox.get(), timeout)
            Table.seen(self, msg)
            if pred(msg):
                return at, msg


class Table:
    """What the clients know: the table's state, the simultaneous phase, each seat's own position."""

    current: Table

    def __init__(self) -> None:
        self.seq = 0
        self.state: dict[str, Any] = {}
        self.waiting: list[int] = []
        self.private: dict[int, dict[str, Any]] = {}

    @staticmethod
    def seen(client: Client, msg: dict[str, Any]) -> None:
        t = Table.current
        kind = msg["type"]
        if (kind == "event" and msg["seq"] > t.seq) or (kind == "snapshot" and msg["seq"] >= t.seq):
            t.seq, t.state = msg["seq"], msg["state"]
            t.waiting = list(msg["state"].get("simultaneous", {}).get("waiting_for", []))
            t.private = {}
        elif kind == "progress" and msg["seq"] == t.seq:
            t.waiting = list(msg["simultaneous"]["waiting_for"])
        elif kind == "private" and msg["seq"] == t.seq and msg["seat"] == client.seat:
            t.private[client.seat] = msg

    def next_move(self, rng: random.Random) -> tuple[int, str] | None:
        """A seat that may move now and its random legal move (None: nothing to do yet)."""
        for seat in self.waiting:
            p = self.private.get(seat)
            if p is not None and not p["done"] and p["state"]["legal_actions"]:
                return seat, rng.choice(p["state"]["legal_actions"])
        if self.waiting:
            return None
        cp = self.state.get("current_player")
        if isinstance(cp, int) and self.state["legal_actions"]:
            return cp, rng.choice(self.state["legal_actions"])
        return None


async def play_game(base: str, ws_url: str, rng: random.Random, lat: list[float]) -> int:
    """One whole game; appends each move's latency (ms) to ``lat``; returns refused moves (a stale view)."""
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        body = {"game": "clever", "seats": [{"kind": "human", "name": f"P{i}"} for i in range(SEATS)]}
        r = await http.post("/api/tables", json=body)
        r.raise_for_status()
        created = r.json()
    table = Table.current = Table()
    tid = created["table_id"]
    clients: list[Client] = []
    refused = 0
    try:
        for seat in range(SEATS):
            ws = await connect(ws_url, max_size=None)
            c = Client(seat, ws)
            clients.append(c)
            await ws.send(
                json.dumps(
                    {
                        "type": "join",
                        "table": tid,
                        "tokens": [created["seats"][seat]["token"]],
                        "last_seq": None,
                    }
                )
            )
            await c.until(lambda m: m["type"] == "snapshot")
        while not table.state.get("terminal"):
            move = table.next_move(rng)
            if move is None:  # the rest of a burst (dice after a move, a phase opening) is still arriving
                await asyncio.gather(
                    *(c.until(lambda m: True, timeout=0.05) for c in clients), return_exceptions=True
                )
                continue
            seat, text = move
            mover = clients[seat]
            for c in clients:  # what has arrived already belongs to earlier moves
                while not c.inbox.empty():
                    Table.seen(c, c.inbox.get_nowait()[1])
            sent = table.seq

            def reply(m: dict[str, Any], sent: int = sent, seat: int = seat) -> bool:
                """The answer to this move (not a message of an earlier burst still arriving)."""
                if m["type"] == "event":
                    return int(m["seq"]) > sent
                if m["type"] == "private":
                    return bool(m["seat"] == seat and m["moves"] and m["seq"] == sent)
                return bool(m["type"] == "error")

            start = time.perf_counter()
            await mover.ws.send(json.dumps({"type": "act", "seat": seat, "seq": sent, "move": text}))
            at, answer = await mover.until(reply)
            if answer["type"] == "error":
                refused += 1  # a view a burst behind (the rest of it is still arriving): look again
                await asyncio.gather(
                    *(c.until(lambda m: True, timeout=0.05) for c in clients), return_exceptions=True
                )
                continue
            done = answer["type"] == "event" or answer["done"]
            if done:  # everybody sees it: the event itself, or that this passive player has finished
                want = answer["seq"] + (1 if answer["type"] == "private" else 0)

                def news(m: dict[str, Any], w: int = want, s: int = seat) -> bool:
                    if m["type"] == "progress":  # (not one sent before this move: this seat is done in it)
                        return s not in m["simultaneous"]["waiting_for"]
                    return m["type"] == "event" and int(m["seq"]) >= w

                others = [c.until(news) for c in clients if c is not mover]
                arrivals = [a for a, _ in await asyncio.gather(*others)]
                at = max([at, *arrivals])
            lat.append((at - start) * 1000)
    finally:
        for c in clients:
            c.reader.cancel()
            await c.ws.close()
    return refused


def measure(games: int) -> dict[str, Any]:
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        proc = start_server(f"sqlite:///{Path(tmp) / 'bench.db'}", port)
        try:
            lat: list[float] = []
            started = time.perf_counter()
            refused = 0
            for g in range(games):
                refused += run_fresh(
                    play_game(f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}/ws", random.Random(g), lat)
                )
            elapsed = time.perf_counter() - started
        finally:
            stop_server(proc)
    a = np.array(lat or [0.0])
    return {
        "clever4_games": games,
        "clever4_moves": len(lat),
        "clever4_p50_ms": round(float(np.percentile(a, 50)), 2),
        "clever4_p99_ms": round(float(np.percentile(a, 99)), 2),
        "clever4_max_ms": round(float(a.max()), 2),
        "clever4_refused": refused,
        "clever4_seconds": round(elapsed, 1),
        "clever4_p99_under_100ms": 1.0 if float(np.percentile(a, 99)) < 100 else 0.0,
    }


if __name__ == "__main__":
    print(json.dumps(measure(1 if "--quick" in sys.argv else 3), indent=1))
