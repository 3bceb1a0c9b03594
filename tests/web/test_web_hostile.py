"""The real server (``python -m dicehall.web``, uvicorn, access log on) against a hostile or careless client:
oversized frames always close cleanly with 1009, invalid UTF-8 closes with 1007 without flooding the log, seat
tokens never reach the log, X-Forwarded-For is ignored unless a proxy is trusted, security headers are sent."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import signal
import socket
import struct
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed
from webtools import run_async

from dicehall.web.security import CSP
from tools.server import free_port


@dataclass
class Running:
    base: str
    port: int
    log: Path
    proc: subprocess.Popen[bytes]

    def stop(self) -> str:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.log.read_text(encoding="utf-8", errors="replace")


def start(tmp: Path, settings: str, *args: str) -> Running:
    port = free_port()
    (tmp / "settings.toml").write_text(settings, encoding="utf-8")
    log = tmp / "server.log"
    cmd = [
        sys.executable,
        "-m",
        "dicehall.web",
        "--port",
        str(port),
        "--db",
        f"sqlite:///{tmp / 'db.sqlite'}",
    ]
    cmd += [
        "--bot-delay",
        "0",
        "--access-log",
        "--log-level",
        "debug",
        "--settings",
        str(tmp / "settings.toml"),
    ]
    with log.open("wb") as out:
        proc = subprocess.Popen([*cmd, *args], stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(log.read_text())
        try:
            if httpx.get(base + "/api/health", timeout=1).status_code == 200:
                return Running(base, port, log, proc)
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("server did not start")


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    running = start(
        tmp_path_factory.mktemp("hostile"), "tables_per_hour_per_address = 4\nws_messages_per_second = 1000\n"
    )
    yield running
    running.stop()


def raw_frame_close(
    port: int, size: int, pause: float, text: bool = True, payload: bytes | None = None
) -> object:
    """Open a websocket by hand, send one frame (its header and first KB, a pause, the rest), read to the end:
    the close code the server sent, or how the connection broke."""
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    try:
        key = base64.b64encode(os.urandom(16)).decode()
        s.sendall(
            f"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        got = b""
        while b"\r\n\r\n" not in got:
            got += s.recv(4096)
        body = payload if payload is not None else b"x" * size
        mask = b"\0\0\0\0"  # a zero mask keeps the payload as written
        head = bytes([0x81 if text else 0x82, 0x80 | 127]) + struct.pack("!Q", len(body)) + mask
        s.sendall(head + body[:1024])
        time.sleep(pause)
        with contextlib.suppress(OSError):  # the server may stop reading; what matters is what it sent
            s.sendall(body[1024:])
        data = got.split(b"\r\n\r\n", 1)[1]
        try:
            while chunk := s.recv(65536):
                data += chunk
        except OSError as exc:
            return f"reset after {len(data)} bytes ({exc.errno})"
        if len(data) >= 4 and data[0] == 0x88:
            return struct.unpack("!H", data[2:4])[0]
        return f"no close frame: {data[:20]!r}"
    finally:
        s.close()


def test_oversized_frames_always_close_with_1009(srv: Running) -> None:
    codes = [
        raw_frame_close(srv.port, n, p) for n, p in [(70_000, 0.0), (70_000, 0.05), (3_000_000, 0.0)] * 4
    ]
    assert codes == [1009] * len(codes)

    async def library_client(size: int) -> int | None:
        # Not `async with`: its close() after the server has closed may abort a transport asyncio has already let
        # go of (CPython's close-with-buffered-data race, as in anyio#1250): AttributeError on a loaded machine.
        ws = await connect(f"ws://127.0.0.1:{srv.port}/ws", max_size=None)
        try:
            await ws.send("y" * size)
            await ws.recv()
        except ConnectionClosed as exc:
            return exc.rcvd.code if exc.rcvd else None
        await ws.close()
        return None

    assert [run_async(library_client(n)) for n in (65_537, 200_000, 8_000_000)] == [1009] * 3
    assert httpx.get(srv.base + "/api/health", timeout=5).json()["status"] == "ok"


def test_invalid_utf8_closes_with_1007_and_logs_at_most_a_line(srv: Running) -> None:
    junk = b'{"type": "ping", "x": "\xff\xfe\xc3"}'
    codes = [raw_frame_close(srv.port, 0, 0, payload=junk + b" " * 1100) for _ in range(30)]
    assert codes == [1007] * 30

    # a binary frame is read as UTF-8 JSON too: bad bytes there are a bad_message, the connection stays
    async def binary() -> dict[str, object]:
        async with connect(f"ws://127.0.0.1:{srv.port}/ws") as ws:
            await ws.send(junk)
            reply = json.loads(await ws.recv())
            await ws.send(json.dumps({"type": "ping"}))
            assert json.loads(await ws.recv()) == {"type": "pong"}
            return dict(reply)

    assert run_async(binary())["code"] == "bad_message"
    log = srv.log.read_text(errors="replace")
    assert "Traceback" not in log and "Invalid UTF-8" not in log
    assert log.count("not UTF-8") <= 1


def test_x_forwarded_for_is_ignored_without_a_trusted_proxy(srv: Running) -> None:
    seats = [{"kind": "human", "name": "A"}, {"kind": "human", "name": "B"}]
    statuses = [
        httpx.post(
            srv.base + "/api/tables",
            json={"game": "thousand", "seats": seats},
            headers={"X-Forwarded-For": f"203.0.113.{i}"},
            timeout=10,
        ).status_code
        for i in range(6)
    ]
    assert 429 in statuses and statuses.count(201) <= 4  # every request counted for the socket peer


def test_behind_a_trusted_proxy_each_forwarded_address_has_its_own_quota(tmp_path: Path) -> None:
    running = start(tmp_path, "tables_per_hour_per_address = 1\n", "--trusted-proxy", "127.0.0.1")
    try:
        seats = [{"kind": "bot", "bot": "bold"}] * 2

        def post(addr: str) -> int:
            return httpx.post(
                running.base + "/api/tables",
                json={"game": "thousand", "seats": seats},
                headers={"X-Forwarded-For": addr},
                timeout=10,
            ).status_code

        assert [post("203.0.113.1"), post("203.0.113.2"), post("203.0.113.1")] == [201, 201, 429]
    finally:
        running.stop()


def test_security_headers_on_every_response(srv: Running) -> None:
    for path in ("/", "/table/abc", "/api/health", "/api/games", "/api/tables/nope", "/favicon.ico"):
        r = httpx.get(srv.base + path, timeout=10)
        assert r.headers["content-security-policy"] == CSP, path
        assert "frame-ancestors 'none'" in CSP and "script-src 'self'" in CSP
        assert r.headers["x-frame-options"] == "DENY"
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["referrer-policy"] == "no-referrer"
    docs = httpx.get(srv.base + "/docs", timeout=10)
    assert "cdn.jsdelivr.net" in docs.headers["content-security-policy"]  # Swagger UI's own page
    assert docs.headers["x-frame-options"] == "DENY"


def test_seat_tokens_never_reach_the_log(tmp_path: Path) -> None:
    """A game over REST + websocket with uvicorn's access log and debug logging on; tokens also sent where they
    do not belong (a query string, a websocket URL, a bad join): none of them appears in the log."""
    running = start(tmp_path, "ws_messages_per_second = 1000\n")
    try:
        seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "open": True}]
        created = httpx.post(
            running.base + "/api/tables", json={"game": "thousand", "seats": seats}, timeout=10
        )
        tid, tok0 = created.json()["table_id"], created.json()["seats"][0]["token"]
        tok1 = httpx.post(f"{running.base}/api/tables/{tid}/join", json={"seat": 1}, timeout=10).json()[
            "token"
        ]
        tokens = [tok0, tok1]
        httpx.get(f"{running.base}/table/{tid}?seat=0&token={tok0}", timeout=10)  # a mangled invite link
        httpx.get(f"{running.base}/api/tables/{tid}", params={"token": tok1}, timeout=10)

        async def play() -> int:
            moves = 0
            async with connect(f"ws://127.0.0.1:{running.port}/ws?token={tok0}") as ws:
                await ws.send(json.dumps({"type": "join", "table": tid, "tokens": ["x" + tok0]}))  # bad token
                assert json.loads(await ws.recv())["code"] == "bad_token"
                await ws.send(json.dumps({"type": "join", "table": tid, "tokens": tokens}))
                msg = json.loads(await ws.recv())
                while moves < 40 and not (msg.get("state") or {}).get("terminal"):
                    if msg["type"] in ("event", "snapshot") and isinstance(
                        msg["state"]["current_player"], int
                    ):
                        legal = msg["state"]["legal_actions"]
                        move = "bank" if "bank" in legal else legal[0]
                        act = {
                            "type": "act",
                            "seat": msg["state"]["current_player"],
                            "seq": msg["seq"],
                            "move": move,
                        }
                        await ws.send(json.dumps(act))
                        moves += 1
                    msg = json.loads(await asyncio_wait(ws.recv()))
            return moves

        assert run_async(play()) > 10
    finally:
        log = running.stop()
    assert '"GET /api/health' in log and "WebSocket /ws" in log  # the access log was on
    assert "[redacted]" in log  # the query-string tokens were there and were cut out
    for token in tokens:
        assert token not in log


async def asyncio_wait(coro: object) -> str:
    import asyncio

    result: str = await asyncio.wait_for(coro, timeout=10)  # type: ignore[arg-type]
    return result
