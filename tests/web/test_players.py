"""Guest identities (dicehall/web/players.py): the session cookie, ``/api/me``, names, forged cookies, Origin."""

from __future__ import annotations

import hashlib

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, inspect, text
from starlette.websockets import WebSocketDisconnect
from webtools import create

from dicehall.web.players import COOKIE, MAX_AGE, SECURE_COOKIE

ORIGIN = {"Origin": "http://testserver"}


def set_cookie_headers(r) -> list[str]:
    return [v for k, v in r.headers.multi_items() if k.lower() == "set-cookie"]


def test_first_write_makes_a_guest_with_the_cookie_flags(server):
    with server() as c:
        assert c.get("/api/me").json() == {"player": None}
        r = c.put("/api/me/name", json={"name": " Ann "}, headers=ORIGIN)
        assert r.status_code == 200, r.text
        player = r.json()["player"]
        assert player["name"] == "Ann" and player["kind"] == "guest" and len(player["id"]) == 16
        (cookie,) = set_cookie_headers(r)
        parts = [p.strip() for p in cookie.split(";")]
        assert parts[0].startswith(f"{COOKIE}=") and len(parts[0]) == len(COOKIE) + 1 + 43
        flags = {p.split("=")[0].lower(): p for p in parts[1:]}
        assert {"httponly", "path", "samesite", "max-age"} <= set(flags) and "secure" not in flags
        assert flags["samesite"].lower() == "samesite=lax" and flags["path"] == "Path=/"
        assert flags["max-age"] == f"Max-Age={MAX_AGE}"
        # the same browser is the same player, and its name stays
        assert c.get("/api/me").json() == {"player": player}
        r = c.put("/api/me/name", json={"name": "Ann Lee"}, headers=ORIGIN)
        assert r.json()["player"] == {**player, "name": "Ann Lee"} and set_cookie_headers(r) == []
        # creating and joining tables keeps the player and sets no new cookie
        assert set_cookie_headers(c.post("/api/tables", json=table_body(), headers=ORIGIN)) == []
        assert c.get("/api/me").json()["player"]["id"] == player["id"]


def table_body() -> dict:
    return {"game": "thousand", "seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}]}


def test_https_gets_the_host_prefixed_secure_cookie(db_url):
    from conftest import BOT_SETUP, UNLIMITED

    from dicehall.web.app import create_app

    app = create_app(db_url, bot_delay=0.0, settings=UNLIMITED, bot_setup=BOT_SETUP)
    with TestClient(app, base_url="https://dice.example") as c:
        r = c.put("/api/me/name", json={"name": "Ann"}, headers={"Origin": "https://dice.example"})
        assert r.status_code == 200, r.text
        (cookie,) = set_cookie_headers(r)
        assert cookie.startswith(f"{SECURE_COOKIE}=") and "; Secure" in cookie and "HttpOnly" in cookie
        assert c.get("/api/me").json()["player"]["name"] == "Ann"


def test_creating_and_joining_make_a_guest(server):
    with server() as c:
        t = create(c, seats=[{"kind": "human", "name": "Ann"}, {"kind": "human", "open": True}])
        me = c.get("/api/me").json()["player"]
        assert me is not None and me["name"] is None
    with server() as joiner:
        assert joiner.get("/api/me").json()["player"] is None
        r = joiner.post(f"/api/tables/{t['table_id']}/join", json={"seat": 1, "name": "Bob"})
        assert r.status_code == 200 and len(set_cookie_headers(r)) == 1
        assert joiner.get("/api/me").json()["player"]["id"] != me["id"]


def test_get_requests_make_no_player(server, db_url):
    with server() as c:
        for path in ("/api/me", "/api/health", "/api/games", "/api/tables", "/"):
            r = c.get(path)
            assert set_cookie_headers(r) == [], path
    with create_engine(db_url).connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM dh_players")).scalar_one() == 0


def test_a_forged_or_malformed_cookie_is_ignored_and_cleared(server, db_url):
    with server() as c:
        for forged in ("A" * 43, "not a token", "x" * 5000, "%00%ff", "' OR 1=1 --"):
            c.cookies.clear()
            c.cookies.set(COOKIE, forged)
            r = c.get("/api/me")
            assert r.status_code == 200 and r.json() == {"player": None}, forged
            (cleared,) = set_cookie_headers(r)
            assert cleared.startswith(f'{COOKIE}=""') and "Max-Age=0" in cleared
        # a write with a forged cookie makes a new guest, never someone else's player
        c.cookies.clear()
        c.cookies.set(COOKIE, "B" * 43)
        r = c.put("/api/me/name", json={"name": "Mallory"}, headers=ORIGIN)
        assert r.status_code == 200
        new_cookie = set_cookie_headers(r)[0].split(";")[0].split("=", 1)[1]
        assert new_cookie != "B" * 43
    with create_engine(db_url).connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM dh_players")).scalar_one() == 1


def test_sessions_are_stored_only_as_hashes(server, db_url):
    with server() as c:
        c.put("/api/me/name", json={"name": "Ann"}, headers=ORIGIN)
        token = c.cookies[COOKIE]
    with create_engine(db_url).connect() as conn:
        stored = conn.execute(text("SELECT id_hash FROM dh_sessions")).scalars().all()
    assert stored == [hashlib.sha256(token.encode()).hexdigest()]


def test_name_rules_are_enforced_with_a_message_id(server):
    with server() as c:
        for raw, msgid in [
            ("", "names.error.empty"),
            ("x" * 25, "names.error.too_long"),
            ("Ann\u202e", "names.error.invisible"),
            ("An\u200dn", "names.error.invisible"),
            ("\u3164", "names.error.invisible"),
            ("Ann\x07", "names.error.invisible"),
            ("Player 1", "names.error.reserved"),
        ]:
            r = c.put("/api/me/name", json={"name": raw}, headers=ORIGIN)
            assert r.status_code == 400, raw
            assert r.json()["msgid"] == msgid, raw
        assert c.put("/api/me/name", json={"name": "x" * 201}, headers=ORIGIN).status_code == 422
        # a refused name makes no player
        assert c.get("/api/me").json() == {"player": None}


def test_writes_from_another_site_are_refused(server):
    with server() as c:
        for headers in (
            {"Origin": "https://evil.example"},
            {"Sec-Fetch-Site": "cross-site"},
            {"Origin": "null"},
            {"Origin": "http://testserver", "Sec-Fetch-Site": "same-site"},  # a sibling subdomain's page
        ):
            r = c.put("/api/me/name", json={"name": "Ann"}, headers=headers)
            assert r.status_code == 403 and r.json()["code"] == "bad_origin", headers
            assert c.post("/api/tables", json=table_body(), headers=headers).status_code == 403
        assert c.get("/api/me", headers={"Origin": "https://evil.example"}).status_code == 200
        evil = {"Origin": "https://evil.example"}
        with pytest.raises(WebSocketDisconnect), c.websocket_connect("/ws", headers=evil) as ws:
            ws.receive_json()
        with c.websocket_connect("/ws", headers={"Origin": "http://testserver"}) as ws:
            ws.send_json({"type": "ping"})
            assert ws.receive_json()["type"] == "pong"
        # behind a proxy that rewrites Host, a current browser's Sec-Fetch-Site still says same-origin
        proxied = {"Origin": "https://dice.example", "Sec-Fetch-Site": "same-origin"}
        assert c.put("/api/me/name", json={"name": "Bo"}, headers=proxied).status_code == 200
        same = {"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"}
        assert c.put("/api/me/name", json={"name": "Ann"}, headers=same).status_code == 200


def test_the_migration_makes_the_player_tables_on_sqlite(server, db_url):
    with server():
        pass
    with create_engine(db_url).connect() as conn:
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalars().all() == ["0010"]
        insp = inspect(conn)
        assert {"dh_players", "dh_sessions"} <= set(insp.get_table_names())
        assert insp.get_pk_constraint("dh_sessions")["constrained_columns"] == ["id_hash"]
        assert [i["name"] for i in insp.get_indexes("dh_sessions")] == ["ix_dh_sessions_player_id"]
        assert {c["name"] for c in insp.get_columns("dh_players")} == {
            *("id", "name", "name_key", "kind", "created", "seen", "webauthn_user"),
        }


def test_unnamed_seats_are_stored_language_neutral(server):
    with server() as c:
        t = create(
            c,
            seats=[{"kind": "human"}, {"kind": "human", "name": "Игрок 2"}, {"kind": "human", "name": "Zoe"}],
        )
        seats = c.get(f"/api/tables/{t['table_id']}").json()["seats"]
        # the English default stays the name (records, the terminal); the page words it from "named"
        assert [(s["name"], s["named"]) for s in seats] == [
            ("Player 1", False),
            ("Игрок 2", False),  # a default name in another language, for its own number: unnamed too
            ("Zoe", True),
        ]
        t = create(c, seats=[{"kind": "human", "name": "Gracz 2"}, {"kind": "human", "open": True}])
        r = c.post(f"/api/tables/{t['table_id']}/join", json={"seat": 1, "name": "Ola"})
        assert r.status_code == 200
        seats = c.get(f"/api/tables/{t['table_id']}").json()["seats"]
        assert [(s["name"], s["named"]) for s in seats] == [("Gracz 2", True), ("Ola", True)]


def test_seat_names_typed_for_a_table_refuse_invisible_characters(server):
    with server() as c:
        body = {"game": "thousand", "seats": [{"kind": "human", "name": "Ann\u202e"}, {"kind": "human"}]}
        r = c.post("/api/tables", json=body)
        assert r.status_code == 400 and r.json()["msgid"] == "names.error.invisible"
        # a hot-seat table may still call its seats anything visible, default names included
        t = create(c, seats=[{"kind": "human", "name": " Bot  "}, {"kind": "human", "open": True}])
        assert t["seats"][0]["name"] == "Bot"
        join = f"/api/tables/{t['table_id']}/join"
        assert c.post(join, json={"seat": 1, "name": "Bo\u200bb"}).status_code == 400
        assert c.post(join, json={"seat": 1, "name": "Bob"}).status_code == 200


def test_a_joiner_cannot_take_a_name_that_looks_like_another_seats(server):
    with server() as c:
        t = create(
            c, seats=[{"kind": "human", "name": "Ann"}, {"kind": "human"}, {"kind": "human", "open": True}]
        )
        join = f"/api/tables/{t['table_id']}/join"
        for lookalike in (
            "Аnn",
            "ANN",
            "Ann",
            "Player 2",
            "Игрок 2",
        ):  # a Cyrillic А; the unnamed seat 2's names
            r = c.post(join, json={"seat": 2, "name": lookalike})
            assert r.status_code == 400 and r.json()["msgid"] == "names.error.taken", lookalike
        assert c.post(join, json={"seat": 2, "name": "Anna"}).status_code == 200
        # the same name at another table is fine
        t = create(c, seats=[{"kind": "human", "name": "Bob"}, {"kind": "human", "open": True}])
        assert c.post(f"/api/tables/{t['table_id']}/join", json={"seat": 1, "name": "Ann"}).status_code == 200
