"""Load generator: N concurrent websocket clients on loopback playing bot-vs-bot tables against a running server.

Every table has two human seats, each played by its own client with a random legal policy (the view's
``legal_actions``, so it works for any game). A client sends a move only when it is its turn and waits for the
acknowledging event (the event with its move) before the next one; latency is measured from the send to that
event. Moves acknowledged inside the measurement window are counted; all acknowledged moves are listed so that a
caller can check that each one is in the database. Bounded in time: every client stops by itself.

Run: ``python -m dicehall.web.loadgen --url http://127.0.0.1:8000 --clients 64 --duration 10``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
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
    def __init__(self, warmup: float, duration: float) -> None:
        now = time.perf_counter()
        self.start = now + warmup
        self.end = self.start + duration

    def inside(self, t: float) -> bool:
        return self.start <= t <= self.end

    def over(self) -> bool:
        return time.perf_counter() >= self.end


async def _client(
    ws_url: str, table: str, seats: dict[int, str], rng: np.random.Generator, win: Window, res: LoadResult
) -> bool:
    """Play ``seats`` (seat -> token) until the game ends or the window closes; returns whether it ended."""
    from websockets.asyncio.client import connect

    async with connect(ws_url, compression=None, max_size=2**20, open_timeout=10) as ws:
        await ws.send(
            json.dumps({"type": "join", "table": table, "tokens": list(seats.values()), "last_seq": None})
        )
        seq = 0
        pending: tuple[float, int, str, int] | None = None  # (sent at, seq it was made at, move, seat)
        while not win.over():
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.05, win.end - time.perf_counter()))
            except TimeoutError:
                break
            msg = json.loads(raw)
            kind = msg["type"]
            if kind == "error":
                res.errors[msg["code"]] = res.errors.get(msg["code"], 0) + 1
                pending = None
                continue
            if kind not in ("event", "snapshot"):
                continue
            seq = msg["seq"]
            if (
                kind == "event"
                and pending is not None
                and msg["actor"] == pending[3]
                and msg["seq"] == pending[1] + 1
            ):
                now = time.perf_counter()
                if win.inside(now):
                    res.latencies.append(now - pending[0])
                res.acked.append((table, msg["seq"], pending[3], msg["move"]))
                pending = None
            state = msg["state"]
            if state["terminal"]:
                return True
            seat = state["current_player"]
            if pending is None and seat in seats:
                legal = state["legal_actions"]
                move = str(legal[int(rng.integers(len(legal)))])
                pending = (time.perf_counter(), seq, move, seat)
                await ws.send(json.dumps({"type": "act", "seat": seat, "seq": seq, "move": move}))
    return False


async def _table_slot(
    http: httpx.AsyncClient,
    ws_url: str,
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
                "seats": [{"kind": "human", "name": "load-a"}, {"kind": "human", "name": "load-b"}],
            },
        )
        r.raise_for_status()
        body = r.json()
        res.tables += 1
        toks = {s["seat"]: s["token"] for s in body["seats"]}
        groups = [toks] if hot_seat else [{seat: tok} for seat, tok in toks.items()]
        done = await asyncio.gather(*(_client(ws_url, body["table_id"], g, rng, win, res) for g in groups))
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
) -> LoadResult:
    """Drive ``clients`` websocket clients against the server at ``url``: two per table (one per seat), or with
    ``hot_seat`` one per table holding both seats."""
    ws_url = url.replace("http://", "ws://").rstrip("/") + "/ws"
    res = LoadResult(window=duration)
    win = Window(warmup, duration)
    tables = clients if hot_seat else max(1, clients // 2)
    rngs = [np.random.default_rng([seed, i]) for i in range(tables)]
    limits = httpx.Limits(max_connections=32)
    async with httpx.AsyncClient(base_url=url, timeout=30, limits=limits) as http:
        await asyncio.gather(*(_table_slot(http, ws_url, game, hot_seat, rng, win, res) for rng in rngs))
    return res


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m dicehall.web.loadgen", description=__doc__.split("\n")[0])
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


if __name__ == "__main__":
    main()
