"""The real web server as a subprocess on loopback, for the benchmarks, the tools and the tests: a free port, the
server started with throughput settings (``LOAD_SETTINGS``) and stopped, and the persistence check of acknowledged
moves against its database.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from typing import Any

import httpx
from sqlalchemy import create_engine, text


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


LOAD_SETTINGS: dict[str, float] = {
    "tables_per_hour": 1_000_000,
    "unfinished_per_client": 1_000_000,
    "tables_per_hour_per_address": 10_000_000,
    "unfinished_per_address": 10_000_000,
    "ws_messages_per_second": 10_000,
    "ws_burst": 100_000,
}
"""Throughput runs: every client comes from 127.0.0.1 and plays as fast as it can, so the per-client limits are
lifted (the abuse mix in ``abuse.py`` runs with real limits and one address per client instead)."""


def start_server(
    db_url: str,
    port: int,
    sqlite_sync: str = "NORMAL",
    extra_env: dict[str, str] | None = None,
    settings: Mapping[str, float] | None = None,
    extra_args: Sequence[str] = (),
    bot_delay: float = 0.0,
) -> subprocess.Popen[bytes]:
    """The real server as a subprocess on 127.0.0.1:``port``; returns once /api/health answers.
    ``settings`` (default ``LOAD_SETTINGS``) go to ``--settings``."""
    env = {**os.environ, **(extra_env or {})}
    cmd = [sys.executable, "-m", "dicehall.web", "--host", "127.0.0.1", "--port", str(port), "--db", db_url]
    cmd += [
        "--bot-delay",
        str(bot_delay),
        "--sqlite-sync",
        sqlite_sync,
        "--log-level",
        "warning",
        *extra_args,
    ]
    values = LOAD_SETTINGS if settings is None else settings
    with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False, encoding="utf-8") as f:
        f.write("".join(f"{k} = {v!r}\n" for k, v in values.items()))
    cmd += ["--settings", f.name]
    try:
        return _start(cmd, env, port)
    finally:
        os.unlink(f.name)  # read once at start


def _start(cmd: list[str], env: dict[str, str], port: int) -> subprocess.Popen[bytes]:
    # stderr goes to an unlinked file, not a pipe: a chatty server must never block on a full pipe.
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=log)
        deadline = time.monotonic() + 60  # generous: a 2-core machine shared with other test runs is slow
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                log.seek(0)
                err = log.read().decode(errors="replace")
                raise RuntimeError(f"server exited with {proc.returncode}: {err[-2000:]}")
            try:
                if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                    return proc
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        proc.kill()
        proc.wait()
        log.seek(0)
        err = log.read().decode(errors="replace")
    raise RuntimeError(f"server did not answer /api/health within 60 s: {err[-2000:]}")


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def missing_moves(db_url: str, acked: list[list[Any]]) -> int:
    """How many acknowledged (table, seq, seat, move) are not in the database log."""
    engine = create_engine(db_url)
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT table_id, seq, actor, move FROM dh_events")).all()
    engine.dispose()
    logged = {(r[0], r[1]): (r[2], r[3]) for r in rows}
    return sum(1 for t, seq, seat, move in acked if logged.get((t, seq)) != (str(seat), move))
