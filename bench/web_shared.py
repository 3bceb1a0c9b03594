"""Several server processes on one PostgreSQL (issue 14, docs/scaling.md): moves per second of one process against
two, and how long a table takes to move to the other process after ``kill -9`` of its owner.

``run(quick) -> dict`` (``make bench``, part ``shared``; ``python -m bench.web_shared [--quick]``). Needs
PostgreSQL's server binaries (``make system-deps``): a throw-away cluster is started for the run (``pgtemp.py``).

- ``plain_moves_per_s``: one process without ``--node-url`` (no lease, no fence), the load generator's clients
  on their own tables; ``one_moves_per_s``: the same with ``--node-url`` (each move's transaction also checks the
  lease: the fence's cost); ``two_moves_per_s``: two processes, half of the clients on each (each client's table
  is created on the process it talks to, so nothing is forwarded), moves of both added up.
- ``failover_s``: a client on process B plays a table that A owns (forwarded); A is killed with SIGKILL (with its
  bot workers); the time until B acknowledges the client's next move, with a lease of ``lease_s``.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from tools import ROOT
from tools.pgtemp import Cluster
from tools.server import LOAD_SETTINGS, free_port

LEASE = 2.0


@contextmanager
def _servers(
    db_url: str, count: int, shared: bool, tmp: Path
) -> Iterator[list[tuple[str, subprocess.Popen[bytes]]]]:
    """``count`` server processes on ``db_url`` (each in its own process group, so a kill takes its workers)."""
    settings = tmp / "settings.toml"
    values = {**LOAD_SETTINGS, "lease_seconds": LEASE, "bot_workers": 1}
    settings.write_text("".join(f"{k} = {v!r}\n" for k, v in values.items()), encoding="utf-8")
    procs: list[tuple[str, subprocess.Popen[bytes]]] = []
    try:
        for _ in range(count):
            port = free_port()
            base = f"http://127.0.0.1:{port}"
            cmd = [
                sys.executable, "-m", "dicehall.web", "--port", str(port), "--db", db_url, "--bot-delay", "0",
                "--log-level", "warning", "--settings", str(settings),
                *(["--node-url", base] if shared else []),
            ]  # fmt: skip
            procs.append((base, subprocess.Popen(cmd, stdout=subprocess.DEVNULL, start_new_session=True)))
        for base, proc in procs:
            _wait(base, proc)
        yield procs
    finally:
        for _, proc in procs:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def _wait(base: str, proc: subprocess.Popen[bytes]) -> None:
    end = time.monotonic() + 60
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}")
        try:
            if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.05)
    raise RuntimeError(f"server at {base} did not answer in 60 s")


def _load(bases: list[str], clients: int, duration: float, warmup: float) -> float:
    """Moves per second of ``clients`` load-generator clients split over ``bases``, all at the same time."""
    each = max(2, clients // len(bases))
    runs = []
    for i, base in enumerate(bases):
        cmd = [
            sys.executable, "-m", "tools.loadgen", "--url", base, "--clients", str(each),
            "--duration", str(duration), "--warmup", str(warmup), "--seed", str(i + 1),
        ]  # fmt: skip
        runs.append(subprocess.Popen(cmd, stdout=subprocess.PIPE, cwd=ROOT))
    total = 0.0
    for p in runs:
        out, _ = p.communicate(timeout=duration + warmup + 120)
        total += float(json.loads(out.decode().strip().splitlines()[-1])["moves_per_s"])
    return total


async def _failover(a: str, b: str, pid_a: int) -> float:
    """Seconds from SIGKILL of ``a`` (the owner) to the first move of a client on ``b`` acknowledged again."""
    from websockets.asyncio.client import connect

    seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
    async with httpx.AsyncClient(timeout=10) as http:
        r = await http.post(f"{a}/api/tables", json={"game": "thousand", "seats": seats})
    table = r.json()["table_id"]
    toks = [s["token"] for s in r.json()["seats"] if "token" in s]
    ws_url = b.replace("http", "ws", 1) + "/ws"
    killed: float | None = None
    last: dict[str, Any] | None = None
    while True:
        try:
            async with connect(ws_url, open_timeout=5) as ws:
                seq = None if last is None else last["seq"]
                await ws.send(json.dumps({"type": "join", "table": table, "tokens": toks, "last_seq": seq}))
                while True:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 30))
                    if msg["type"] == "joined" and last is not None and msg["seq"] == last["seq"]:
                        msg = last
                    elif msg["type"] not in ("event", "snapshot"):
                        continue
                    if killed is not None and msg["type"] == "event" and msg is not last:
                        return time.monotonic() - killed
                    last = msg
                    st = msg["state"]
                    if killed is None and msg["seq"] >= 10:
                        os.killpg(pid_a, signal.SIGKILL)
                        killed = time.monotonic()
                        continue
                    if st["legal_actions"]:
                        act = {"type": "act", "seat": st["current_player"], "seq": msg["seq"]}
                        await ws.send(json.dumps({**act, "move": st["legal_actions"][0]}))
        except (OSError, TimeoutError) as exc:
            if killed is None:
                raise RuntimeError(f"the client lost its server before the kill: {exc}") from exc
        except Exception:  # closed by b while a's lease runs: reconnect, as the browser does
            if killed is None:
                raise
        await asyncio.sleep(0.05)


def run(quick: bool = False) -> dict[str, Any]:
    duration, warmup, clients = (3.0, 1.0, 16) if quick else (10.0, 2.0, 32)
    out: dict[str, Any] = {"clients": clients, "lease_s": LEASE}
    with Cluster() as pg, tempfile.TemporaryDirectory(prefix="dicehall-shared-") as tmp:
        for key, count, shared in (("plain", 1, False), ("one", 1, True), ("two", 2, True)):
            with _servers(pg.new_database(), count, shared, Path(tmp)) as procs:
                out[f"{key}_moves_per_s"] = round(_load([b for b, _ in procs], clients, duration, warmup), 1)
        with _servers(pg.new_database(), 2, True, Path(tmp)) as procs:
            (a, proc_a), (b, _) = procs
            out["failover_s"] = round(asyncio.run(_failover(a, b, proc_a.pid)), 2)
    out["two_over_one"] = round(out["two_moves_per_s"] / max(out["one_moves_per_s"], 1e-9), 2)
    out["fence_cost"] = round(1 - out["one_moves_per_s"] / max(out["plain_moves_per_s"], 1e-9), 3)
    return out


if __name__ == "__main__":
    print(json.dumps(run(quick="--quick" in sys.argv), indent=1))
