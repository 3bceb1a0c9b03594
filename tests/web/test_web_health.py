"""Health and metrics (docs/web.md, "Health and metrics"): /healthz, /readyz (the schema at this release's head),
/metrics in Prometheus text with who may read it, the counters equal what happened — and a real Prometheus
(Debian's) scraping a real server during a short load run counts the moves the database holds."""

from __future__ import annotations

import re
import shutil
import subprocess
import threading
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from webtools import connect, create, latest, run_async, tokens

from tools.loadgen import run_load
from tools.server import free_port, start_server, stop_server

TOKEN = "s3cret-metrics-token-0123"


def sample(page: str, name: str, **labels: str) -> float:
    """A sample's value in Prometheus text (0 when absent)."""
    want = ",".join(f'{k}="{v}"' for k, v in sorted(labels.items()))
    for line in page.splitlines():
        m = re.fullmatch(rf"{name}(?:\{{(.*)\}})? (\S+)", line)
        if m and ",".join(sorted((m.group(1) or "").split(","))) == want:
            return float(m.group(2))
    return 0.0


def test_healthz_and_readyz(server, db_url) -> None:
    with server() as c:
        assert c.get("/healthz").json() == {"status": "ok"}
        ready = c.get("/readyz")
        assert ready.status_code == 200 and ready.json() == {"status": "ready", "problems": []}
        engine = create_engine(db_url)
        with engine.begin() as conn:  # as if an older release's schema were in place
            conn.execute(text("UPDATE alembic_version SET version_num = '0007'"))
        engine.dispose()
        ready = c.get("/readyz")
        assert ready.status_code == 503 and "schema at 0007" in ready.json()["problems"][0]
        assert c.get("/healthz").status_code == 200  # the process still answers


def test_metrics_count_moves_refusals_and_limits(server) -> None:
    with server(metrics="open", tables_per_hour=2) as c:
        t = create(c)
        with connect(c) as ws:
            view = latest(ws.join(t["table_id"], tokens(t)))
            for _ in range(3):  # three moves of whoever is to move
                seat = view["state"]["current_player"]
                assert seat in (0, 1)
                view = latest(ws.act(seat, view["seq"], view["state"]["legal_actions"][0]))
            ws.send_raw("{not json")
            ws.request({"type": "act", "seat": 0, "seq": 0, "move": "roll"})  # stale
        other = create(c)
        assert (
            c.post("/api/tables", json={"game": "thousand", "seats": [{"kind": "human"}]}).status_code == 429
        )
        events = [
            e
            for tid in (t["table_id"], other["table_id"])
            for e in c.get(f"/api/tables/{tid}/record").json()["events"]
        ]
        page = c.get("/metrics").text
    moves = sum(1 for e in events if e["actor"] != "chance")
    rolls = sum(1 for e in events if e["actor"] == "chance")
    assert (
        moves >= 1 and sample(page, "dicehall_moves_committed_total", game="thousand", kind="move") == moves
    )
    assert sample(page, "dicehall_moves_committed_total", game="thousand", kind="chance") == rolls
    assert sample(page, "dicehall_commit_seconds_count", game="thousand") >= 1
    assert sample(page, "dicehall_refusals_total", code="bad_message") == 1
    assert sample(page, "dicehall_refusals_total", code="stale_seq") == 1
    assert sample(page, "dicehall_rate_limited_total", limit="too_many_tables") == 1
    assert sample(page, "dicehall_live_tables") == 2 and sample(page, "dicehall_websocket_connections") == 0


def test_who_may_read_the_metrics(server) -> None:
    with server() as c:  # default: this machine only (a test client is not on loopback)
        assert c.get("/metrics").status_code == 403
        local = TestClient(c.app, client=("127.0.0.1", 5000))
        assert local.get("/metrics").status_code == 200
    with server(metrics_token=TOKEN) as c:
        assert c.get("/metrics").status_code == 401
        assert (
            c.get("/metrics", headers={"Authorization": "Bearer wrong-token-wrong-token"}).status_code == 401
        )
        ok = c.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
        assert ok.status_code == 200 and "dicehall_moves_committed" in ok.text
    with server(metrics="off") as c:
        local = TestClient(c.app, client=("127.0.0.1", 5000))
        assert local.get("/metrics").status_code == 404


PROMETHEUS = shutil.which("prometheus") or "/usr/bin/prometheus"


def test_a_real_prometheus_scrapes_the_moves_a_load_run_made(tmp_path: Path) -> None:
    if not Path(PROMETHEUS).exists():
        pytest.fail("prometheus is missing: `make system-deps` installs it (deps/debian-packages.txt)")
    db_url = f"sqlite:///{tmp_path / 'load.sqlite'}"
    port, pport = free_port(), free_port()
    config = tmp_path / "prometheus.yml"
    config.write_text(
        "global: {scrape_interval: 1s}\n"
        f"scrape_configs: [{{job_name: dicehall, static_configs: [{{targets: ['127.0.0.1:{port}']}}]}}]\n",
        encoding="utf-8",
    )
    server = start_server(db_url, port)
    log = tmp_path / "prometheus.log"
    with log.open("wb") as out:  # a file, never a pipe that could fill
        prom = subprocess.Popen(
            [
                PROMETHEUS,
                f"--config.file={config}",
                f"--storage.tsdb.path={tmp_path / 'tsdb'}",
                f"--web.listen-address=127.0.0.1:{pport}",
            ],
            stdout=out,
            stderr=out,
        )
    api = f"http://127.0.0.1:{pport}/api/v1/query"
    try:
        res = run_async(
            run_load(f"http://127.0.0.1:{port}", clients=4, duration=1.5, warmup=0.2, min_moves=25)
        )
        assert res.summary()["errors"] == 0
        engine = create_engine(db_url)

        def in_database() -> int:
            with engine.connect() as conn:
                return int(
                    conn.execute(text("SELECT count(*) FROM dh_events WHERE actor != 'chance'")).scalar_one()
                )

        # a move a client sent as the run ended may be committed after it: both sides are read again until they
        # agree (nothing else moves: Prometheus catches up within a scrape, the database within a commit)
        seen, moves = None, in_database()
        for _ in range(600):
            assert prom.poll() is None, log.read_text()[-2000:]
            moves = in_database()
            try:
                got = httpx.get(
                    api, params={"query": 'sum(dicehall_moves_committed_total{kind="move"})'}
                ).json()
                result = got["data"]["result"]
                seen = float(result[0]["value"][1]) if result else None
            except httpx.HTTPError:
                seen = None
            if seen == moves:
                break
            threading.Event().wait(0.1)
        engine.dispose()
        assert moves >= len(res.acked) > 20
        assert seen == moves, f"Prometheus saw {seen}, the database holds {moves} moves"
    finally:
        prom.terminate()
        prom.wait(timeout=30)
        stop_server(server)
