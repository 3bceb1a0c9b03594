"""The abuse mix: normal players while hostile clients do their worst, against a server with its default limits.

At the same time, for ``duration`` seconds:
- ``normal`` clients (each from its own address) create a table against the ``expert`` bot and play their seat
  with a random legal move after a short think time (``think`` seconds, like a quick person); latency = from
  sending ``act`` to receiving the event with that move;
- a pathological table: Dice 1000 with ``target`` 5000, ``expert`` against ``expert`` (the largest rules with the
  strongest bot), replaced by another when it ends;
- a flooder sends illegal moves at full speed on its own table, reconnecting whenever it is closed;
- a creator posts bot-only tables in a loop as fast as the server answers;
- ``/api/health`` is asked every 100 ms, and the server's RSS is sampled.

Each simulated client has its own address: the server trusts ``X-Forwarded-For`` from 127.0.0.1 here
(``--trusted-proxy``), as behind a reverse proxy. Bots wait the server's default delay (0.8 s) as on a real site;
``--bot-delay 0`` makes them move at once (then every bot-only table the creator may keep is a continuous load).

Run: ``python -m tools.abuse [--quick]`` (a fresh server and database), or ``run_abuse(url, ...)`` against a
running server started with ``--trusted-proxy 127.0.0.1``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import tempfile
import time
import urllib.parse
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import numpy as np

from tools.loadgen import Window, _open, run_fresh
from tools.server import free_port, start_server, stop_server

PATHOLOGICAL = {"game": "thousand", "overrides": {"target": 5000, "barrel_score": 4700}}
PARTS = ("pathological", "flood", "create")


@dataclass
class AbuseResult:
    latencies: list[float] = field(default_factory=list)
    normal_errors: dict[str, int] = field(default_factory=dict)
    normal_tables: int = 0
    normal_refused: int = 0
    health: list[float] = field(default_factory=list)
    health_failures: int = 0
    flood_sent: int = 0
    flood_codes: dict[str, int] = field(default_factory=dict)
    flood_closes: dict[int, int] = field(default_factory=dict)
    created: int = 0
    refused: int = 0
    refused_with_retry_after: int = 0
    first_refusal: str = ""
    pathological_tables: int = 0
    pathological_seconds: float = 0.0
    rss_mb: list[float] = field(default_factory=list)
    cpu: list[tuple[float, float]] = field(default_factory=list)  # (wall clock, server CPU seconds) samples

    def summary(self) -> dict[str, Any]:
        def pct(values: list[float], q: float) -> float:
            return float(np.percentile(np.array(values) * 1000, q)) if values else float("nan")

        return {
            "normal_moves": len(self.latencies),
            "normal_p50_ms": pct(self.latencies, 50),
            "normal_p99_ms": pct(self.latencies, 99),
            "normal_max_ms": pct(self.latencies, 100),
            "normal_errors": dict(self.normal_errors),
            "normal_tables": self.normal_tables,
            "normal_refused": self.normal_refused,
            "health_requests": len(self.health),
            "health_p50_ms": pct(self.health, 50),
            "health_p99_ms": pct(self.health, 99),
            "health_max_ms": pct(self.health, 100),
            "health_failures": self.health_failures,
            "flood_sent": self.flood_sent,
            "flood_codes": dict(self.flood_codes),
            "flood_closes": {str(k): v for k, v in self.flood_closes.items()},
            "creator_created": self.created,
            "creator_refused_429": self.refused,
            "creator_retry_after_ok": self.refused_with_retry_after == self.refused,
            "creator_first_refusal": self.first_refusal,
            "pathological_tables": self.pathological_tables,
            "server_rss_max_mb": max(self.rss_mb) if self.rss_mb else float("nan"),
            # CPU the server spent per second of the window: independent of what else runs on the machine
            "server_cpu_per_s": _cpu_rate(self.cpu),
        }


def _xff(address: str) -> dict[str, str]:
    return {"X-Forwarded-For": address}


def _own(http: httpx.AsyncClient) -> httpx.AsyncClient:
    """A client with its own cookie jar: each actor is its own player (the quotas count per player)."""
    return httpx.AsyncClient(base_url=http.base_url, timeout=http.timeout)


async def _normal(
    i: int,
    http: httpx.AsyncClient,
    host: str,
    port: int,
    win: Window,
    res: AbuseResult,
    think: float,
    bot: str,
) -> None:
    address = f"10.0.{i // 250}.{i % 250 + 1}"
    rng = np.random.default_rng([15, i])
    async with _own(http) as own:
        await _normal_tables(i, own, host, port, win, res, think, bot, address, rng)


async def _normal_tables(
    i: int,
    http: httpx.AsyncClient,
    host: str,
    port: int,
    win: Window,
    res: AbuseResult,
    think: float,
    bot: str,
    address: str,
    rng: np.random.Generator,
) -> None:
    while not win.over():
        r = await http.post(
            "/api/tables",
            json={
                "game": "thousand",
                "seats": [{"kind": "human", "name": f"n{i}"}, {"kind": "bot", "bot": bot}],
            },
            headers=_xff(address),
        )
        if r.status_code != 201:
            res.normal_refused += 1
            await asyncio.sleep(1.0)
            continue
        res.normal_tables += 1
        table, token = r.json()["table_id"], r.json()["seats"][0]["token"]
        await _normal_table(host, port, table, token, address, win, res, think, rng)


async def _normal_table(
    host: str,
    port: int,
    table: str,
    token: str,
    address: str,
    win: Window,
    res: AbuseResult,
    think: float,
    rng: np.random.Generator,
) -> None:
    """One table of a normal player, to its end or the window's (its own closures: a late timer of one table
    never sends on the next table's socket)."""
    loop = asyncio.get_running_loop()
    done = loop.create_future()
    pending: list[Any] = []  # [sent at, seq] of the move in flight
    ws: Any = None

    def send(seq: int, move: str) -> None:
        pending[:] = [time.perf_counter(), seq]
        ws.send_text(json.dumps({"type": "act", "seat": 0, "seq": seq, "move": move}))

    def on_text(raw: bytes) -> None:
        msg = json.loads(raw)
        if msg["type"] == "error":
            res.normal_errors[msg["code"]] = res.normal_errors.get(msg["code"], 0) + 1
            pending.clear()
            return
        if msg["type"] not in ("event", "snapshot"):
            return
        now = time.perf_counter()
        if pending and msg["type"] == "event" and msg["actor"] == 0 and msg["seq"] == pending[1] + 1:
            if win.inside(now):
                res.latencies.append(now - pending[0])
            pending.clear()
        state = msg["state"]
        if state["terminal"] or win.over():
            if not done.done():
                done.set_result(None)
            return
        if state["current_player"] == 0 and not pending:
            legal = state["legal_actions"]
            pending[:] = [now, -1]  # a move is planned: do not plan another
            loop.call_later(think, send, msg["seq"], legal[int(rng.integers(len(legal)))])

    ws = await _open(host, port, "/ws", on_text, f"X-Forwarded-For: {address}\r\n")
    try:
        ws.send_text(json.dumps({"type": "join", "table": table, "tokens": [token], "last_seq": None}))
        await asyncio.wait({done, ws.closed}, timeout=win.remaining())
    finally:
        ws.close()


async def _flooder(http: httpx.AsyncClient, host: str, port: int, win: Window, res: AbuseResult) -> None:
    address = "10.9.0.1"
    r = await http.post(
        "/api/tables",
        json={
            "game": "thousand",
            "seats": [{"kind": "human", "name": "f1"}, {"kind": "human", "name": "f2"}],
        },
        headers=_xff(address),
    )
    r.raise_for_status()
    table, tokens = r.json()["table_id"], [s["token"] for s in r.json()["seats"]]
    seq = [0]

    def on_text(raw: bytes) -> None:
        msg = json.loads(raw)
        if msg["type"] == "error":
            res.flood_codes[msg["code"]] = res.flood_codes.get(msg["code"], 0) + 1
        elif msg["type"] in ("event", "snapshot"):
            seq[0] = msg["seq"]

    while not win.over():
        ws = await _open(host, port, "/ws", on_text, f"X-Forwarded-For: {address}\r\n")
        ws.send_text(json.dumps({"type": "join", "table": table, "tokens": tokens, "last_seq": None}))
        while not ws.closed.done() and not win.over():
            for _ in range(
                50
            ):  # as fast as the socket takes them, in bursts so this process stays responsive
                ws.send_text(json.dumps({"type": "act", "seat": 0, "seq": seq[0], "move": "keep 9"}))
            res.flood_sent += 50
            await asyncio.sleep(0.002)
        code = ws.close_code or 0
        if ws.closed.done():
            res.flood_closes[code] = res.flood_closes.get(code, 0) + 1
        ws.close()


async def _creator(shared: httpx.AsyncClient, win: Window, res: AbuseResult) -> None:
    async with _own(shared) as http:
        await _create_in_a_loop(http, win, res)


async def _create_in_a_loop(http: httpx.AsyncClient, win: Window, res: AbuseResult) -> None:
    seats = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
    while not win.over():
        r = await http.post(
            "/api/tables", json={"game": "thousand", "seats": seats}, headers=_xff("10.8.0.1")
        )
        if r.status_code == 201:
            res.created += 1
        elif r.status_code == 429:
            res.refused += 1
            res.first_refusal = res.first_refusal or r.json()["detail"]
            if int(r.headers.get("Retry-After", "0")) > 0:
                res.refused_with_retry_after += 1
        else:
            r.raise_for_status()


async def _pathological(shared: httpx.AsyncClient, win: Window, res: AbuseResult) -> None:
    async with _own(shared) as http:
        await _pathological_tables(http, win, res)


async def _pathological_tables(http: httpx.AsyncClient, win: Window, res: AbuseResult) -> None:
    seats = [{"kind": "bot", "bot": "expert"}, {"kind": "bot", "bot": "expert"}]
    while not win.over():
        r = await http.post("/api/tables", json={**PATHOLOGICAL, "seats": seats}, headers=_xff("10.7.0.1"))
        r.raise_for_status()
        res.pathological_tables += 1
        table = r.json()["table_id"]
        while not win.over():
            await asyncio.sleep(0.5)
            if (await http.get(f"/api/tables/{table}")).json()["status"] == "finished":
                break


async def _extend(
    win: Window, res: AbuseResult, until: Callable[[AbuseResult], bool] | None, latest: float
) -> None:
    while until is not None and not win.over():
        await asyncio.sleep(0.1)
        if win.end - time.perf_counter() < 0.3 and win.end < latest and not until(res):
            win.end += 0.5


async def _health(http: httpx.AsyncClient, win: Window, res: AbuseResult, pid: int | None) -> None:
    while not win.over():
        t0 = time.perf_counter()
        try:
            ok = (await http.get("/api/health")).status_code == 200
        except httpx.HTTPError:
            ok = False
        if win.inside(t0):
            res.health.append(time.perf_counter() - t0)
            res.health_failures += not ok
            if pid is not None:
                res.rss_mb.append(_rss_mb(pid))
                res.cpu.append((time.perf_counter(), _cpu_seconds(pid)))
        await asyncio.sleep(0.1)


def _cpu_rate(samples: list[tuple[float, float]]) -> float:
    if len(samples) < 2:
        return float("nan")
    (t0, c0), (t1, c1) = samples[0], samples[-1]
    return (c1 - c0) / (t1 - t0)


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` (Linux ``/proc``)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return float("nan")


def _rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


async def run_abuse(
    url: str,
    normal: int = 32,
    duration: float = 15.0,
    warmup: float = 2.0,
    think: float = 0.1,
    server_pid: int | None = None,
    bot: str = "expert",
    parts: Collection[str] = PARTS,
    until: Callable[[AbuseResult], bool] | None = None,
    max_duration: float = 120.0,
) -> AbuseResult:
    """Run the mix against ``url``; ``bot`` is the normal players' opponent; ``parts`` picks the hostile clients
    (leaving some out shows what each one costs the normal players). With ``until``, the window is extended
    (up to ``max_duration``) until ``until(result)`` holds: tests wait for behaviour, not for a clock."""
    parsed = urllib.parse.urlsplit(url)
    host, port = parsed.hostname or "127.0.0.1", parsed.port or 80
    res = AbuseResult()
    win = Window(warmup, duration)
    limits = httpx.Limits(max_connections=64)
    async with (
        httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as http,
        httpx.AsyncClient(base_url=url, timeout=60) as probe,  # health never waits for a pool slot
    ):
        await asyncio.gather(
            _extend(win, res, until, time.perf_counter() + warmup + max_duration),
            *([_pathological(http, win, res)] if "pathological" in parts else []),
            *([_flooder(http, host, port, win, res)] if "flood" in parts else []),
            *([_creator(http, win, res)] if "create" in parts else []),
            _health(probe, win, res, server_pid),
            *(_normal(i, http, host, port, win, res, think, bot) for i in range(normal)),
        )
    return res


def run(
    quick: bool = False,
    normal: int = 32,
    duration: float | None = None,
    warmup: float | None = None,
    settings: dict[str, float] | None = None,
    bot: str = "expert",
    parts: Collection[str] = PARTS,
    bot_delay: float = 0.8,
    until: Callable[[AbuseResult], bool] | None = None,
) -> dict[str, Any]:
    """The abuse mix against a fresh server (``settings`` or the default limits, trusted proxy 127.0.0.1,
    SQLite)."""
    duration = duration or (4.0 if quick else 15.0)
    warmup = warmup or (1.0 if quick else 3.0)
    with tempfile.TemporaryDirectory(prefix="dicehall-abuse-") as tmp:
        db_url = f"sqlite:///{Path(tmp) / 'abuse.sqlite'}"
        port = free_port()
        server = start_server(
            db_url,
            port,
            settings=settings or {},
            extra_args=["--trusted-proxy", "127.0.0.1"],
            bot_delay=bot_delay,
        )
        try:
            res: AbuseResult = run_fresh(
                run_abuse(
                    f"http://127.0.0.1:{port}",
                    normal,
                    duration,
                    warmup,
                    server_pid=server.pid,
                    bot=bot,
                    parts=parts,
                    until=until,
                )
            )
        finally:
            stop_server(server)
    out = res.summary()
    out.update(duration_s=duration, bot=bot, parts=",".join(parts), bot_delay=bot_delay)
    return out


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m tools.abuse", description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true", help="4 s instead of 15 s")
    p.add_argument("--normal", type=int, default=32, help="normal clients (default 32)")
    p.add_argument("--bot", default="expert", help="the normal players' opponent (default expert)")
    p.add_argument(
        "--parts",
        default=",".join(PARTS),
        help=f"hostile clients to run, comma-separated (default {','.join(PARTS)})",
    )
    p.add_argument(
        "--bot-delay",
        type=float,
        default=0.8,
        help="the server's bot delay (default 0.8 s, as a real site; 0: bots "
        "move at once, which makes every bot-only table a continuous load)",
    )
    a = p.parse_args(argv)
    parts = [x for x in a.parts.split(",") if x]
    unknown = set(parts) - set(PARTS)
    if unknown:
        p.error(f"unknown part(s) {', '.join(sorted(unknown))}; known: {', '.join(PARTS)}")
    out = run(a.quick, a.normal, bot=a.bot, parts=parts, bot_delay=a.bot_delay)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
