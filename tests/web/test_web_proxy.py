"""dicehall behind Debian's real Caddy with deploy/Caddyfile, on loopback (docs/self-hosting.md): the lobby page
and its script load through the proxy, a game is played to the end over the proxied websocket, and the address
the per-address limit and the access log see is the client's (Caddy's X-Forwarded-For, trusted from the proxy
only; a header the client forges is not believed).

Clients bind to other loopback addresses (127.0.0.2, ...) so that "the client" and "the proxy" differ."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect as ws_connect

from tests.web.served import clean_env, serving
from tests.web.webtools import WS, latest, play_to_end
from tools.server import free_port

ROOT = Path(__file__).resolve().parents[2]
CADDY = shutil.which("caddy")
pytestmark = pytest.mark.skipif(CADDY is None, reason="Debian's caddy is not installed (make system-deps)")
SEATS = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]


class _Session:
    """What tests/web/webtools.WS drives, over a real websocket connection."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    def send_text(self, text: str) -> None:
        self.conn.send(text)

    def receive_json(self) -> Any:
        return json.loads(self.conn.recv(timeout=10))


@pytest.fixture(scope="module")
def proxied(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """(the proxy's URL, dicehall's JSON log)."""
    tmp = tmp_path_factory.mktemp("proxy")
    log = tmp / "serve.log"
    env = clean_env(
        DICEHALL_DB=f"sqlite:///{tmp / 'db.sqlite'}",
        DICEHALL_TRUSTED_PROXY="127.0.0.1",
        DICEHALL_LOG_FORMAT="json",
        DICEHALL_ACCESS_LOG="true",
        DICEHALL_TABLES_PER_HOUR_PER_ADDRESS="2",
        DICEHALL_BOT_DELAY="0",
        DICEHALL_WS_MESSAGES_PER_SECOND="10000",  # a test plays as fast as it can
        DICEHALL_WS_BURST="100000",
    )
    with serving(env, log) as upstream:
        port = free_port()
        caddy_env = clean_env(
            HOME=str(tmp),
            XDG_DATA_HOME=str(tmp),
            XDG_CONFIG_HOME=str(tmp),
            CADDY_ADMIN="off",
            DICEHALL_SITE=f"http://127.0.0.1:{port}",
            DICEHALL_UPSTREAM=upstream.removeprefix("http://"),
        )
        caddy_log = tmp / "caddy.log"
        cmd = [str(CADDY), "run", "--config", str(ROOT / "deploy/Caddyfile"), "--adapter", "caddyfile"]
        with caddy_log.open("wb") as out:
            proc = subprocess.Popen(cmd, env=caddy_env, stdout=out, stderr=out)
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(400):
                assert proc.poll() is None, caddy_log.read_text()[-2000:]
                try:
                    if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                threading.Event().wait(0.05)
            else:
                raise AssertionError(caddy_log.read_text()[-2000:])
            yield base, log
        finally:
            proc.terminate()
            proc.wait(timeout=10)


def _client(base: str, address: str) -> httpx.Client:
    return httpx.Client(base_url=base, timeout=10, transport=httpx.HTTPTransport(local_address=address))


def test_the_lobby_page_and_its_script_load_through_the_proxy(proxied: tuple[str, Path]) -> None:
    base, _ = proxied
    with _client(base, "127.0.0.2") as client:
        page = client.get("/")
        assert page.status_code == 200 and 'id="app"' in page.text, page.text[:300]
        script = re.search(r'src="(/assets/[^"]+\.js)"', page.text)
        assert script is not None
        assert client.get(script.group(1)).status_code == 200


def test_a_game_is_played_over_the_proxied_websocket(proxied: tuple[str, Path]) -> None:
    base, _ = proxied
    with _client(base, "127.0.0.3") as client:
        made = client.post("/api/tables", json={"game": "thousand", "seats": SEATS})
        assert made.status_code == 201, made.text
        table = made.json()
    tokens = [s["token"] for s in table["seats"]]
    with ws_connect(base.replace("http", "ws", 1) + "/ws", open_timeout=10) as conn:
        ws = WS(_Session(conn))
        view = latest(ws.join(table["table_id"], tokens))
        end = play_to_end(ws, view)
    assert end["state"]["terminal"] and end["seq"] > 10


def test_the_limits_and_the_log_see_the_forwarded_client(proxied: tuple[str, Path]) -> None:
    """Two tables an hour per address: the third from 127.0.0.4 is refused, though it claims to be someone else;
    127.0.0.5, through the same proxy, still may."""
    base, log = proxied
    forged = {"X-Forwarded-For": "10.9.9.9"}
    codes = []
    for _ in range(3):
        with _client(base, "127.0.0.4") as client:  # a new guest each time: only the address links them
            codes.append(
                client.post("/api/tables", json={"game": "thousand", "seats": SEATS}, headers=forged)
            )
    assert [r.status_code for r in codes] == [201, 201, 429]
    with _client(base, "127.0.0.5") as client:
        assert client.post("/api/tables", json={"game": "thousand", "seats": SEATS}).status_code == 201
    seen = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    posts = [r["client"].split(":")[0] for r in seen if r.get("method") == "POST"]
    assert posts[-4:] == ["127.0.0.4", "127.0.0.4", "127.0.0.4", "127.0.0.5"]
    assert not any("10.9.9.9" in line for line in log.read_text(encoding="utf-8").splitlines())
