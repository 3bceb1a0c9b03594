"""REST API: games, table creation and its validation, listing, claiming seats, records, health, static pages."""

from __future__ import annotations

import hashlib
import json
from contextlib import ExitStack
from pathlib import Path

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from webtools import connect, create, latest, play_to_end, tokens

from dicehall.core.record import GameRecord, replay
from dicehall.web.app import create_app


def test_health_and_games(server):
    with server() as c:
        assert c.get("/api/health").json()["status"] == "ok"
        games = {g["name"]: g for g in c.get("/api/games").json()}
        th = games["thousand"]
        assert th["title"] == "Dice 1000" and th["default_preset"] in th["presets"]
        keys = {o["key"]: o for o in th["options"]}
        assert "target" in keys and keys["target"]["type"] == "int" and keys["target"]["doc"]
        yard = c.get("/api/games/thousand/rules", params={"preset": "yard"}).json()
        assert {o["key"] for o in yard} == set(keys)
        assert c.get("/api/games/thousand/rules", params={"preset": "nope"}).status_code == 400
        assert c.get("/api/games/nope/rules").status_code == 400


def test_create_refuses_bad_tables_and_changes_nothing(server):
    human = {"kind": "human", "name": "Ann"}
    cases = [
        ({"game": "chess", "seats": [human]}, 400, "unknown game"),
        ({"game": "thousand", "preset": "nope", "seats": [human]}, 400, "unknown preset"),
        ({"game": "thousand", "overrides": {"no_such_rule": 1}, "seats": [human]}, 400, "no_such_rule"),
        ({"game": "thousand", "overrides": {"target": "lots"}, "seats": [human]}, 400, "target"),
        ({"game": "thousand", "seats": [human] * 9}, 400, "players"),
        ({"game": "tinytest", "seats": [human, {"kind": "bot", "bot": "nobody"}]}, 400, "unknown bot"),
        ({"game": "tinytest", "seats": [human, {"kind": "bot"}]}, 400, "needs 'bot'"),
        ({"game": "thousand", "seats": []}, 422, ""),
        ({"game": "thousand", "seats": [{"kind": "alien"}]}, 422, ""),
        ({"game": "thousand", "seats": [human], "colour": "red"}, 422, ""),
    ]
    with server() as c:
        for body, status, words in cases:
            r = c.post("/api/tables", json=body)
            assert r.status_code == status, (body, r.text)
            assert words in str(r.json()["detail"]), (body, r.json())
        assert c.get("/api/tables", params={"status": "all"}).json() == []


def test_tokens_are_stored_only_as_hashes(server, db_url):
    with server() as c:
        t = create(c)
    raw = tokens(t)
    assert len(raw) == 2 and len(set(raw)) == 2
    with create_engine(db_url).connect() as conn:
        seats_json = conn.execute(text("SELECT seats FROM dh_tables")).scalar_one()
    for tok in raw:
        assert tok not in seats_json
        assert hashlib.sha256(tok.encode()).hexdigest() in seats_json


def test_open_seat_claim_flow(server):
    with server() as c, ExitStack() as stack:
        t = create(c, seats=[{"kind": "human", "name": "Ann"}, {"kind": "human", "open": True}])
        tid = t["table_id"]
        assert (
            t["status"] == "waiting"
            and "token" not in t["seats"][1]
            and t["seats"][1]["invite"].endswith("join=1")
        )
        listed = {x["table_id"]: x for x in c.get("/api/tables").json()}
        assert listed[tid]["seats"][1]["claimed"] is False
        ws = stack.enter_context(connect(c))
        first = latest(ws.join(tid, tokens(t)))
        seq = first["seq"]
        refused = ws.act(0, seq, "roll")
        assert [m["code"] for m in refused] == ["not_started"]
        assert c.post(f"/api/tables/{tid}/join", json={"seat": 0, "name": "X"}).status_code == 409
        assert c.post(f"/api/tables/{tid}/join", json={"seat": 5}).status_code == 400
        assert c.post("/api/tables/nope/join", json={"seat": 1}).status_code == 404
        r = c.post(f"/api/tables/{tid}/join", json={"seat": 1, "name": "Bob"})
        assert r.status_code == 200
        bob = r.json()["token"]
        assert c.post(f"/api/tables/{tid}/join", json={"seat": 1, "name": "Eve"}).status_code == 409
        pushed = ws.drain()
        assert pushed[0]["type"] == "table" and pushed[0]["status"] == "playing"
        assert pushed[0]["seats"][1] == {
            "seat": 1,
            "name": "Bob",
            "kind": "human",
            "bot": None,
            "claimed": True,
            "named": True,
            "player": c.get("/api/me").json()["player"]["id"],  # the joiner's seat is linked to it
        }
        assert c.get(f"/api/tables/{tid}").json()["status"] == "playing"
        ws2 = stack.enter_context(connect(c))
        assert ws2.join(tid, [bob])[0]["seats"] == [1]
        mover = first["state"]["current_player"]
        played = (ws, ws2)[mover].act(mover, seq, "roll")
        assert played[0]["type"] == "event" and played[0]["actor"] == mover


def test_record_endpoint_replays_and_lists_finished(server):
    with server() as c, ExitStack() as stack:
        t = create(c)
        tid = t["table_id"]
        ws = stack.enter_context(connect(c))
        view = play_to_end(ws, latest(ws.join(tid, tokens(t))))
        assert view["state"]["terminal"]
        r = c.get(f"/api/tables/{tid}/record")
        assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
        rec = GameRecord.from_json(r.json())
        assert len(rec.events) == view["seq"] and [p["name"] for p in rec.players] == ["Ann", "Bob"]
        final = replay(rec)
        assert final.is_terminal() and final.scores() == view["state"]["scores"]
        assert rec.result is not None and rec.result["winners"] == view["state"]["winners"]
        assert [x["table_id"] for x in c.get("/api/tables", params={"status": "finished"}).json()] == [tid]
        assert c.get("/api/tables").json() == []
        assert c.get("/api/tables/nope/record").status_code == 404


def test_front_end_pages(db_url, tmp_path: Path):
    with TestClient(create_app(db_url, bot_delay=0, static_dir=tmp_path / "missing")) as c:
        r = c.get("/table/abc")
        assert r.status_code == 200 and "front end is not built" in r.text and "make" in r.text
    site = tmp_path / "site"
    (site / "assets").mkdir(parents=True)
    (site / "index.html").write_text("<html>dicehall app</html>")
    (site / "assets" / "app.js").write_text("console.log(1)")
    (site / "favicon.svg").write_text("<svg/>")
    with TestClient(create_app(db_url, bot_delay=0, static_dir=site)) as c:
        for path in ("/", "/table/abc123", "/table/abc123/extra"):
            assert c.get(path).text == "<html>dicehall app</html>", path
        assert c.get("/assets/app.js").text == "console.log(1)"
        assert c.get("/favicon.svg").text == "<svg/>"
        assert c.get("/api/health").json()["status"] == "ok"
        assert json.loads(c.get("/api/tables").text) == []


def test_default_database_is_a_wal_sqlite_file_in_the_user_data_dir(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    with TestClient(create_app(None, bot_delay=0)) as c:
        t = create(c, seats=[{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "cautious"}])
        assert t["seats"][1]["bot"] == "cautious"
    path = tmp_path / "xdg" / "dicehall" / "dicehall.sqlite"
    assert path.is_file()
    engine = create_engine(f"sqlite:///{path}")
    with engine.connect() as conn:
        assert conn.execute(text("PRAGMA journal_mode")).scalar_one() == "wal"
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one() == "0010"
        assert conn.execute(text("SELECT count(*) FROM dh_tables")).scalar_one() == 1
    engine.dispose()


def test_serve_command_refuses_bad_options_before_starting():
    from typer.testing import CliRunner

    from dicehall.cli import app

    runner = CliRunner()
    bad_sync = runner.invoke(app, ["serve", "--sqlite-sync", "sometimes", "--port", "1"])
    assert bad_sync.exit_code == 2 and "NORMAL" in bad_sync.output
    bad_delay = runner.invoke(app, ["serve", "--bot-delay", "-1", "--port", "1"])
    assert bad_delay.exit_code == 2 and "negative" in bad_delay.output
