"""Load generator: N concurrent websocket clients on loopback playing bot-vs-bot tables against a running server.

Every table has two human seats, each played by its own client with a random legal policy (the view's
``legal_actions``, so it works for any game). A client sends a move only when it is its turn and waits for the
acknowledging event (the event with its move) before the next one; latency is measured from the send to that
event. Moves acknowledged inside the measurement window are counted; all acknowledged moves are listed so that a
caller can check that each one is in the database. Bounded in time: every client stops by itself.

Run: ``python -m tools.loadgen --url http://127.0.0.1:8000 --clients 64 --duration 10``.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import threading
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import numpy as np


@dataclass
class LoadResult:
    latencies: list[float] = field(default_factory=list)  # seconds, moves inside the window
    acked: list[tuple[str, int, int, str]] = field(
        default_factory=list
    )  # (table, seq, seat, move), all moves
    errors: dict[str, int] = field(default_factory=dict)
    tables: int = 0
    games_finished: int = 0
    window: float = 0.0

    def summary(self) -> dict[str, Any]:
        lat = np.array(self.latencies) * 1000.0 if self.latencies else np.zeros(1)
        return {
            "moves": len(self.latencies),
            "moves_per_s": len(self.latencies) / self.window if self.window else 0.0,
            "p50_ms": float(np.percentile(lat, 50)),
            "p99_ms": float(np.percentile(lat, 99)),
            "max_ms": float(lat.max()),
            "acked_total": len(self.acked),
            "tables": self.tables,
            "games_finished": self.games_finished,
            "errors": sum(self.errors.values()),
            "error_codes": dict(self.errors),
        }


class Window:
    """The measured stretch of a run: from ``warmup`` seconds on, for ``duration`` seconds, and on past that until
    ``min_moves`` moves were measured (a busy machine makes fewer moves a second; a check of "it plays" must not
    depend on how fast), but never more than ``MAX_EXTRA`` seconds longer. Must be made inside the event loop."""

    MAX_EXTRA = 120.0

    def __init__(self, warmup: float, duration: float, min_moves: int = 0) -> None:
        now = time.perf_counter()
        self.start = now + warmup
        self.end = self.start + duration
        self.min_moves, self.moves = min_moves, 0
        self._loop = asyncio.get_running_loop()
        self.closed: asyncio.Future[None] = self._loop.create_future()
        self._loop.call_later(warmup + duration, self._due)
        self._loop.call_later(warmup + duration + self.MAX_EXTRA, self._close)

    def inside(self, t: float) -> bool:
        return self.start <= t and not self.closed.done()

    def measured(self) -> None:
        """A move was measured inside the window."""
        self.moves += 1
        if self.moves >= self.min_moves and time.perf_counter() >= self.end:
            self._close()

    def _due(self) -> None:
        left = self.end - time.perf_counter()
        if left > 0:  # moved on meanwhile (the abuse mix extends ``end`` until its condition holds)
            self._loop.call_later(left, self._due)
        elif self.moves >= self.min_moves:
            self._close()

    def _close(self) -> None:
        if not self.closed.done():
            self.end = time.perf_counter()
            self.closed.set_result(None)

    def over(self) -> bool:
        return self.closed.done()

    def remaining(self) -> float:
        """Seconds until the window closes on time (it may stay open longer, for ``min_moves``)."""
        return max(0.0, self.end - time.perf_counter())


class _WS(asyncio.Protocol):
    """A minimal websocket client (RFC 6455: handshake, masked client frames, unfragmented server frames).

    The load generator shares the machine with the server, so it must cost little per message: the ``websockets``
    library's per-message overhead (tasks, timeouts, buffers) would take CPU away from the server being measured.
    """

    def __init__(self, on_text: Callable[[bytes], None]) -> None:
        self.on_text = on_text
        self.buf = bytearray()
        loop = asyncio.get_running_loop()
        self.opened: asyncio.Future[None] = loop.create_future()
        self.closed: asyncio.Future[None] = loop.create_future()
        self.transport: asyncio.Transport | None = None
        self.close_code: int | None = None  # from the server's close frame

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]  # uvloop's TCP transport is not a subclass

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.opened.done():
            self.opened.set_exception(ConnectionError("connection lost during the handshake"))
        if not self.closed.done():
            self.closed.set_result(None)

    def data_received(self, data: bytes) -> None:
        buf = self.buf
        buf += data
        if not self.opened.done():
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                return
            head = bytes(buf[:end])
            del buf[: end + 4]
            if not head.startswith(b"HTTP/1.1 101"):
                self.opened.set_exception(ConnectionError(head.split(b"\r\n")[0].decode()))
                return
            self.opened.set_result(None)
        while len(buf) >= 2:
            b0, n = buf[0], buf[1] & 0x7F
            off = 2
            if n == 126:
                if len(buf) < 4:
                    return
                n, off = int.from_bytes(buf[2:4], "big"), 4
            elif n == 127:
                if len(buf) < 10:
                    return
                n, off = int.from_bytes(buf[2:10], "big"), 10
            if len(buf) < off + n:
                return
            payload = bytes(buf[off : off + n])
            del buf[: off + n]
            op = b0 & 0x0F
            if not b0 & 0x80:
                raise ConnectionError("fragmented frames are not expected from the server")
            if op == 1:
                self.on_text(payload)
            elif op == 9:
                self.send(0xA, payload)
            elif op == 8 and self.transport is not None:
                self.close_code = int.from_bytes(payload[:2], "big") if len(payload) >= 2 else 1005
                self.transport.close()

    def send(self, opcode: int, payload: bytes) -> None:
        n = len(payload)
        if n < 126:
            head = bytes((0x80 | opcode, 0x80 | n))
        elif n < 65536:
            head = bytes((0x80 | opcode, 0x80 | 126)) + n.to_bytes(2, "big")
        else:
            head = bytes((0x80 | opcode, 0x80 | 127)) + n.to_bytes(8, "big")
        mask = os.urandom(4)
        key = int.from_bytes((mask * (n // 4 + 1))[:n], "big")
        body = (int.from_bytes(payload, "big") ^ key).to_bytes(n, "big") if n else b""
        assert self.transport is not None
        self.transport.write(head + mask + body)

    def send_text(self, text: str) -> None:
        self.send(0x1, text.encode())

    def close(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.send(0x8, (1000).to_bytes(2, "big"))
            self.transport.close()


async def _open(host: str, port: int, path: str, on_text: Callable[[bytes], None], headers: str = "") -> _WS:
    """Open a websocket; ``headers`` are extra request header lines, each ending in CRLF."""
    loop = asyncio.get_running_loop()
    transport, proto = await loop.create_connection(lambda: _WS(on_text), host, port)
    proto.transport = transport  # uvloop may call connection_made only after this returns
    key = base64.b64encode(os.urandom(16)).decode()
    transport.write(
        (
            f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n{headers}\r\n"
        ).encode()
    )
    await asyncio.wait_for(proto.opened, timeout=10)
    return proto


class _Player:
    """Plays ``seats`` (seat -> token) of one table: reacts to each message as it arrives."""

    def __init__(
        self, table: str, seats: dict[int, str], rng: np.random.Generator, win: Window, res: LoadResult
    ) -> None:
        self.table, self.seats, self.rng, self.win, self.res = table, seats, rng, win, res
        self.pending: tuple[float, int, int] | None = None  # (sent at, seq it was made at, seat)
        self.finished = asyncio.get_running_loop().create_future()
        self.ws: _WS | None = None

    def on_text(self, raw: bytes) -> None:
        msg = json.loads(raw)
        kind = msg["type"]
        res = self.res
        if kind == "error":
            res.errors[msg["code"]] = res.errors.get(msg["code"], 0) + 1
            self.pending = None
            return
        if kind != "event" and kind != "snapshot":
            return
        seq = msg["seq"]
        pending = self.pending
        if kind == "event" and pending is not None and msg["actor"] == pending[2] and seq == pending[1] + 1:
            now = time.perf_counter()
            if self.win.inside(now):
                res.latencies.append(now - pending[0])
                self.win.measured()
            res.acked.append((self.table, seq, pending[2], msg["move"]))
            self.pending = pending = None
        state = msg["state"]
        if state["terminal"]:
            if not self.finished.done():
                self.finished.set_result(True)
            return
        seat = state["current_player"]
        if pending is None and seat in self.seats and not self.win.over() and self.ws is not None:
            legal = state["legal_actions"]
            move = legal[int(self.rng.integers(len(legal)))]
            self.pending = (time.perf_counter(), seq, seat)
            self.ws.send_text(json.dumps({"type": "act", "seat": seat, "seq": seq, "move": move}))


async def _client(
    host: str,
    port: int,
    table: str,
    seats: dict[int, str],
    rng: np.random.Generator,
    win: Window,
    res: LoadResult,
) -> bool:
    """Play ``seats`` until the game ends or the window closes; returns whether the game ended."""
    player = _Player(table, seats, rng, win, res)
    ws = await _open(host, port, "/ws", player.on_text)
    player.ws = ws
    try:
        ws.send_text(
            json.dumps({"type": "join", "table": table, "tokens": list(seats.values()), "last_seq": None})
        )
        done, _ = await asyncio.wait(
            {player.finished, ws.closed, win.closed}, return_when=asyncio.FIRST_COMPLETED
        )
        return player.finished in done
    finally:
        ws.close()


async def _table_slot(
    http: httpx.AsyncClient,
    host: str,
    port: int,
    game: str,
    hot_seat: bool,
    rng: np.random.Generator,
    win: Window,
    res: LoadResult,
) -> None:
    while not win.over():
        r = await http.post(
            "/api/tables",
            json={
                "game": game,
                # seat 0 is the creator's own, as the home page makes it: its turns are kept for "Your games"
                "seats": [
                    {"kind": "human", "name": "load-a", "me": True},
                    {"kind": "human", "name": "load-b"},
                ],
            },
        )
        r.raise_for_status()
        body = r.json()
        res.tables += 1
        toks = {s["seat"]: s["token"] for s in body["seats"]}
        groups = [toks] if hot_seat else [{seat: tok} for seat, tok in toks.items()]
        done = await asyncio.gather(
            *(_client(host, port, body["table_id"], g, rng, win, res) for g in groups)
        )
        if all(done):
            res.games_finished += 1


async def run_load(
    url: str,
    clients: int = 64,
    duration: float = 10.0,
    warmup: float = 2.0,
    game: str = "thousand",
    seed: int = 1,
    hot_seat: bool = False,
    min_moves: int = 0,
) -> LoadResult:
    """Drive ``clients`` websocket clients against the server at ``url``: two per table (one per seat), or with
    ``hot_seat`` one per table holding both seats; the window stays open until ``min_moves`` were measured."""
    parsed = urllib.parse.urlsplit(url)
    host, port = parsed.hostname or "127.0.0.1", parsed.port or 80
    res = LoadResult()
    win = Window(warmup, duration, min_moves)
    tables = clients if hot_seat else max(1, clients // 2)
    rngs = [np.random.default_rng([seed, i]) for i in range(tables)]
    limits = httpx.Limits(max_connections=32)
    async with httpx.AsyncClient(base_url=url, timeout=30, limits=limits) as http:
        await asyncio.gather(*(_table_slot(http, host, port, game, hot_seat, rng, win, res) for rng in rngs))
    res.window = win.end - win.start
    return res


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m tools.loadgen", description=__doc__.split("\n")[0])
    p.add_argument("--url", default="http://127.0.0.1:8000")
    p.add_argument("--clients", type=int, default=64)
    p.add_argument("--duration", type=float, default=10.0)
    p.add_argument("--warmup", type=float, default=2.0)
    p.add_argument("--game", default="thousand")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--hot-seat", action="store_true", help="one client per table holding both seats")
    p.add_argument("--acked-out", default=None, help="write every acknowledged move as JSON to this file")
    a = p.parse_args(argv)
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    res = asyncio.run(run_load(a.url, a.clients, a.duration, a.warmup, a.game, a.seed, a.hot_seat))
    if a.acked_out:
        with open(a.acked_out, "w", encoding="utf-8") as f:
            json.dump(res.acked, f)
    print(json.dumps(res.summary()))


def run_fresh(coro: Any) -> Any:
    """``asyncio.run`` in a thread of its own: the caller's thread may already run a loop (a test session with
    Playwright's sync API does)."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = asyncio.run(coro)
        except BaseException as exc:
            box["error"] = exc

    thread = threading.Thread(target=target, name="fresh-loop")
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    return box["value"]


if __name__ == "__main__":
    main()
