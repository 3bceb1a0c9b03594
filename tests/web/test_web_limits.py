"""Limits a public site needs: tables per hour and unfinished tables per player, bounded per client address (429
with an honest Retry-After),
websocket messages per second per connection (rate_limited, then close 1008), bounded memory, creator keys."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from starlette.websockets import WebSocketDisconnect
from webtools import WS, create

from dicehall.web.app import create_app
from dicehall.web.db import Store
from dicehall.web.limits import (
    MESSAGE_IDS,
    KeyedBuckets,
    LogThrottle,
    MessageLimiter,
    TokenBucket,
    client_key,
    in_words,
)
from dicehall.web.settings import ServerSettings


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


# -- the building blocks ---------------------------------------------------------------------------------------------
def test_token_bucket_allows_a_burst_then_the_rate() -> None:
    clock = Clock()
    b = TokenBucket(rate=2, capacity=3, clock=clock)
    assert [b.take() for _ in range(4)] == [True, True, True, False]
    assert b.wait() == pytest.approx(0.5)
    clock.t += 0.5
    assert b.take() and not b.take()
    clock.t += 100
    assert [b.take() for _ in range(4)] == [True, True, True, False]  # never more than the capacity


def test_keyed_buckets_forget_full_buckets_and_stay_bounded() -> None:
    clock = Clock()
    kb = KeyedBuckets(rate=1 / 3600, capacity=2, max_keys=1000, clock=clock)
    for i in range(5000):  # a million addresses would do the same: never more than max_keys entries
        assert kb.take(f"addr{i}") == 0.0
    assert len(kb) == 1000
    assert kb.take("a") == 0.0 and kb.take("a") == 0.0
    assert kb.take("a") == pytest.approx(3600, rel=0.01)  # the third within the hour waits for a token
    kb.refund("a")
    assert kb.take("a") == 0.0  # a refunded token is there again
    clock.t += 2 * 3600 + 1  # every bucket is full again: entries expire as new requests come in
    for i in range(200):
        kb.take(f"new{i}")
    assert len(kb) == 200  # the old ones were swept (a few per request), the new ones are kept


def test_message_limiter_refuses_then_closes_a_client_that_keeps_on() -> None:
    clock = Clock()
    m = MessageLimiter(rate=10, burst=5, clock=clock)
    assert [m.check() for _ in range(5)] == ["ok"] * 5
    assert [m.check() for _ in range(5)] == ["limited"] * 5
    assert m.check() == "close"  # more than a burst's worth refused within ~10 s
    calm = MessageLimiter(rate=10, burst=5, clock=clock)
    for _ in range(200):  # a client slightly over the rate now and then is refused, never closed
        verdicts = [calm.check() for _ in range(2)]
        assert "close" not in verdicts
        clock.t += 0.2


def test_client_keys_and_words() -> None:
    salt = b"s" * 32
    key = client_key("203.0.113.9", salt)
    assert key == client_key("203.0.113.9", salt) != client_key("203.0.113.9", b"t" * 32)
    assert len(key) == 32 and "203" not in key
    assert in_words(0.2) == "in 1 second"
    assert in_words(42) == "in 42 seconds"
    assert in_words(600) == "in 10 minutes"
    assert in_words(3 * 3600) == "in 3 hours"


def test_log_throttle_writes_one_line_per_period(caplog: pytest.LogCaptureFixture) -> None:
    import logging

    clock = Clock()
    throttle = LogThrottle(logging.getLogger("dicehall.web"), every=60, clock=clock)
    with caplog.at_level(logging.WARNING, "dicehall.web"):
        assert throttle.warn("utf8", "bad frame")
        assert not any(throttle.warn("utf8", "bad frame") for _ in range(999))
        clock.t += 61
        assert throttle.warn("utf8", "bad frame")
    assert [r.getMessage() for r in caplog.records] == [
        "bad frame",
        "bad frame (999 more like it not logged)",
    ]


# -- through the server ---------------------------------------------------------------------------------------------
@contextmanager
def limited(db_url: str, address: str = "198.51.100.7", **values: float) -> Iterator[TestClient]:
    settings = ServerSettings().with_values(values)
    with TestClient(create_app(db_url, bot_delay=0, settings=settings), client=(address, 4000)) as client:
        yield client


BOTS = [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}]
HUMANS = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]


def test_tables_per_hour_per_player_gets_429_with_retry_after(db_url: str) -> None:
    with limited(db_url, tables_per_hour=3) as c:
        bots_only = create(c, game="tinytest", seats=BOTS)  # bot-only tables count too
        # the bots play it to the end on the app's loop first: the other clients below run the app on loops of
        # their own, and one database connection must not serve two loops at once
        deadline = time.monotonic() + 30
        while c.get(f"/api/tables/{bots_only['table_id']}").json()["status"] != "finished":
            assert time.monotonic() < deadline, "the bots did not finish their tiny game"
            time.sleep(0.02)
        create(c, game="tinytest", seats=HUMANS)
        bad = c.post("/api/tables", json={"game": "no-such-game", "seats": HUMANS})
        assert bad.status_code == 400  # a refused request does not use up the quota
        create(c, game="tinytest", seats=HUMANS)
        before = {t["table_id"] for t in c.get("/api/tables", params={"status": "all"}).json()}
        r = c.post("/api/tables", json={"game": "tinytest", "seats": HUMANS})
        assert r.status_code == 429
        body = r.json()
        assert body["code"] == "too_many_tables" and "try again in 20 minutes" in body["detail"]
        assert body["scope"] == "player" and body["msgid"] == "limit.too_many_tables_player" in MESSAGE_IDS
        assert 1100 < int(r.headers["Retry-After"]) == body["retry_after"] <= 1200  # a token per 20 min
        # nothing was created (the ids only: the bots' table plays on meanwhile)
        assert {t["table_id"] for t in c.get("/api/tables", params={"status": "all"}).json()} == before
        # another player behind the same address: their own quota
        other = TestClient(c.app, client=("198.51.100.7", 4000))
        assert other.post("/api/tables", json={"game": "tinytest", "seats": HUMANS}).status_code == 201
        # the same player from another address (a phone leaving the office wifi): still their quota
        roaming = TestClient(c.app, client=("203.0.113.9", 4000), cookies=dict(c.cookies))
        assert roaming.post("/api/tables", json={"game": "tinytest", "seats": HUMANS}).status_code == 429


def _unfinished(c: TestClient, n: int) -> list[dict]:
    return [create(c, game="tinytest", seats=HUMANS) for _ in range(n)]


def test_unfinished_quota_counts_per_player_not_per_address(db_url: str) -> None:
    with limited(db_url, unfinished_per_client=2) as ann:
        bob = TestClient(ann.app, client=("198.51.100.7", 4000))  # the same school network, another browser
        ann_tables = _unfinished(ann, 2)
        bob_tables = _unfinished(bob, 2)
        for who, own in ((ann, ann_tables), (bob, bob_tables)):
            r = who.post("/api/tables", json={"game": "tinytest", "seats": BOTS})
            body = r.json()
            assert (
                r.status_code == 429 and body["code"] == "too_many_unfinished" and body["scope"] == "player"
            )
            assert "2 unfinished tables" in body["detail"] and "resign" in body["detail"]
            assert (
                body["msgid"] == "limit.too_many_unfinished" in MESSAGE_IDS and body["params"]["count"] == 2
            )
            # the refusal lists only the player's own tables, least recently active (the oldest) first
            assert [t["table_id"] for t in body["unfinished"]] == [t["table_id"] for t in own]
            assert all(t["game"] == "tinytest" and len(t["seats"]) == 2 for t in body["unfinished"])


def test_the_address_bound_counts_every_player(db_url: str) -> None:
    with limited(db_url, unfinished_per_address=3) as c:
        for _ in range(3):  # a script without cookies is a new guest each time
            fresh = TestClient(c.app, client=("198.51.100.7", 4000))
            create(fresh, game="tinytest", seats=HUMANS)
        fresh = TestClient(c.app, client=("198.51.100.7", 4000))
        r = fresh.post("/api/tables", json={"game": "tinytest", "seats": HUMANS})
        body = r.json()
        assert r.status_code == 429 and body["code"] == "too_many_unfinished" and body["scope"] == "address"
        assert body["msgid"] == "limit.too_many_unfinished_address" in MESSAGE_IDS
        assert "unfinished" not in body  # other people's tables are not listed
        assert "set-cookie" not in r.headers  # a refused request makes no player
        elsewhere = TestClient(c.app, client=("198.51.100.8", 4000))
        assert elsewhere.post("/api/tables", json={"game": "tinytest", "seats": HUMANS}).status_code == 201


def test_retry_after_is_when_the_oldest_table_would_be_abandoned(db_url: str) -> None:
    with limited(db_url, unfinished_per_client=2, abandon_after_days=2) as c:
        _unfinished(c, 2)
        r = c.post("/api/tables", json={"game": "tinytest", "seats": HUMANS})
        wait = int(r.headers["Retry-After"])
        # two days after the oldest table's last activity (its creation, a moment ago), plus one sweep at most
        assert 2 * 86_400 - 60 < wait <= 2 * 86_400 + 60 and r.json()["params"]["minutes"] == -(-wait // 60)


def test_unfinished_tables_per_player_and_the_creator_key(db_url: str) -> None:
    with limited(db_url, unfinished_per_client=2) as c:
        a = create(c, game="tinytest", seats=HUMANS)
        create(c, game="tinytest", seats=HUMANS)
        r = c.post("/api/tables", json={"game": "tinytest", "seats": BOTS})
        assert r.status_code == 429 and r.json()["code"] == "too_many_unfinished"
        # finish table a (the bots of a finished game leave no trace on the quota)
        with c.websocket_connect("/ws") as session:
            ws = WS(session)
            tokens = [s["token"] for s in a["seats"]]
            msgs = ws.join(a["table_id"], tokens)
            for _ in range(2000):
                state = next(m for m in reversed(msgs) if m["type"] in ("event", "snapshot"))
                if state["state"]["terminal"]:
                    break
                legal = state["state"]["legal_actions"]
                move = "stop" if "stop" in legal and state["state"]["turn_total"] >= 6 else legal[0]
                msgs = ws.act(state["state"]["current_player"], state["seq"], move)
        assert c.get(f"/api/tables/{a['table_id']}").json()["status"] == "finished"
        assert c.post("/api/tables", json={"game": "tinytest", "seats": BOTS}).status_code == 201
    engine = create_engine(db_url)
    with engine.connect() as conn:
        rows = {r[0]: r[1:] for r in conn.execute(text("SELECT id, creator, creator_player FROM dh_tables"))}
    engine.dispose()
    assert rows[a["table_id"]] == (None, None)  # cleared when the game ended
    keys = {k for k, _p in rows.values() if k is not None}
    assert len(keys) == 1 and all(
        len(k) == 32 and "198.51" not in k for k in keys
    )  # a hash (hex), never the address
    assert len({p for _k, p in rows.values() if p is not None}) == 1  # one player made them all


def test_old_tables_without_creator_count_for_nobody(tmp_path: Path) -> None:
    """Migration 0002 on a database made by 0001: old rows get no creator; the quota starts from zero."""
    from alembic import command
    from alembic.config import Config

    import dicehall.web.db as dbmod

    url = f"sqlite:///{tmp_path / 'old.sqlite'}"
    engine = dbmod.make_engine(url)
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(dbmod.__file__).parent / "migrations"))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0001")
        conn.execute(
            text(
                "INSERT INTO dh_tables (id, game, preset, overrides, seats, status, created, updated) "
                "VALUES ('old1', 'tinytest', 'short', '{}', '[]', 'playing', 0, 0)"
            )
        )
    engine.dispose()
    store = Store(url)  # migrates to head
    try:
        assert store.get_table("old1") is not None and store.get_table("old1").creator is None  # type: ignore[union-attr]
        assert store.count_unfinished(client_key("testclient", store.secret("creator_salt"))) == 0
        assert store.secret("creator_salt") == store.secret("creator_salt")  # made once, then kept
    finally:
        store.close()


def test_websocket_messages_over_the_rate_get_rate_limited_then_a_1008_close(db_url: str) -> None:
    with limited(db_url, ws_messages_per_second=2, ws_burst=4) as c:
        t = create(c, game="tinytest", seats=HUMANS)
        with c.websocket_connect("/ws") as session:
            for _ in range(4):
                session.send_json({"type": "ping"})
            assert [session.receive_json()["type"] for _ in range(4)] == ["pong"] * 4
            session.send_json({"type": "join", "table": t["table_id"], "tokens": []})
            refused = session.receive_json()
            assert refused["type"] == "error" and refused["code"] == "rate_limited"
            assert "at most 2 per second" in refused["message"] and 0 < refused["retry_after"] <= 0.5
            time.sleep(0.6)  # a client that waits as told is served again
            session.send_json({"type": "ping"})
            assert session.receive_json()["type"] == "pong"
            for _ in range(8):  # keeps on regardless: refused, then closed
                session.send_json({"type": "ping"})
            codes = []
            with pytest.raises(WebSocketDisconnect) as closed:
                for _ in range(20):
                    codes.append(session.receive_json()["code"])
            assert set(codes) == {"rate_limited"} and len(codes) >= 4
            assert closed.value.code == 1008 and "slow down" in closed.value.reason
    # a closed client may reconnect and is served at the normal rate
    with limited(db_url, ws_messages_per_second=2, ws_burst=4) as c, c.websocket_connect("/ws") as session:
        session.send_json({"type": "ping"})
        assert session.receive_json()["type"] == "pong"
