"""``--log-format json`` (docs/web.md, "Logs"): one JSON object a line with the table's fields where the code knows
them, the access log too, and never a seat token or session cookie, in either format."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from dicehall.web import logs
from dicehall.web.logs import table_fields
from tests.web.served import clean_env, serving


@pytest.fixture
def root_logging() -> Iterator[None]:
    root = logging.getLogger()
    saved = (list(root.handlers), root.level)
    yield
    root.handlers[:] = saved[0]
    root.setLevel(saved[1])


def _lines_of(log_format: str, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    out = io.StringIO()
    monkeypatch.setattr("sys.stderr", out)
    logs.configure(log_format, logging.INFO)
    log = logging.getLogger("dicehall.web.bots")  # a child logger: its parents' filters do not run on it
    secret = "Sx7vQ2mZ9kLwR4tY"
    log.warning(
        "table %s: bot failed on token=%s", "t1", secret, extra=table_fields("t1", 2, 17, duration=1.2345678)
    )
    try:
        raise RuntimeError(f"Cookie: dh_sid={secret}; lang=en")
    except RuntimeError:
        log.exception("move not saved", extra=table_fields("t1", event=18))
    text = out.getvalue()
    assert secret not in text
    return text.splitlines()


@pytest.mark.usefixtures("root_logging")
def test_json_lines_carry_the_table_fields_and_no_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = _lines_of("json", monkeypatch)
    first, second = (json.loads(line) for line in lines if line.startswith("{"))
    assert first["level"] == "warning" and first["logger"] == "dicehall.web.bots"
    assert (first["table"], first["seat"], first["event"], first["duration"]) == ("t1", 2, 17, 1.234568)
    assert first["message"] == "table t1: bot failed on token=[redacted]" and first["time"].endswith("+00:00")
    assert second["event"] == 18 and "seat" not in second and "dh_sid=[redacted]" in second["exception"]


@pytest.mark.usefixtures("root_logging")
def test_text_lines_are_redacted_too(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _lines_of("text", monkeypatch)[0] == "WARNING: table t1: bot failed on token=[redacted]"


def test_serve_logs_json_with_the_access_log_and_never_a_token(tmp_path: Path) -> None:
    log = tmp_path / "serve.log"
    env = clean_env(
        DICEHALL_DB=f"sqlite:///{tmp_path / 'db.sqlite'}",
        DICEHALL_LOG_FORMAT="json",
        DICEHALL_ACCESS_LOG="true",
    )
    with serving(env, log) as base, httpx.Client(base_url=base, timeout=10) as client:
        body = {
            "game": "thousand",
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
        }
        made = client.post("/api/tables", json=body)
        assert made.status_code == 201
        table = made.json()
        token = table["seats"][0]["token"]
        cookie = client.cookies.get("dh_sid")
        assert token and cookie
        # an invite link pasted with ?token= (browsers keep #token= to themselves), and the cookie sent back
        assert client.get(f"/table/{table['table_id']}?token={token}").status_code == 200
        assert client.get(f"/api/tables/{table['table_id']}", params={"token": token}).status_code < 500
    text = log.read_text(encoding="utf-8")
    assert token not in text and cookie not in text
    records = [json.loads(line) for line in text.splitlines()]  # every line an object
    assert all({"time", "level", "logger", "message"} <= r.keys() for r in records)
    assert any(r["logger"] == "dicehall.web" and "dicehall server: database" in r["message"] for r in records)
    pasted = [r for r in records if r.get("path", "").startswith(f"/table/{table['table_id']}")]
    assert pasted == [pasted[0]] and pasted[0]["path"].endswith("?token=[redacted]")
    assert pasted[0]["client"].startswith("127.0.0.1:")
    assert (pasted[0]["method"], pasted[0]["status"]) == ("GET", 200)
