"""The server on a real PostgreSQL (a throw-away cluster, see ``pg.py``): migrations on start, the websocket and
REST suites re-run unchanged on PostgreSQL, the ``dicehall serve --db postgresql+psycopg://...`` command with a
live restart, and two writers racing for the same event.

A missing PostgreSQL makes these tests error, never skip: ``make system-deps`` installs it.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from pg import Cluster
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.exc import IntegrityError

# The websocket and REST scenarios, collected again here: the module's ``db_url`` below points them at PostgreSQL.
from test_web_api import (  # noqa: F401
    test_open_seat_claim_flow,
    test_record_endpoint_replays_and_lists_finished,
    test_tokens_are_stored_only_as_hashes,
)
from test_web_correspondence import (  # noqa: F401
    test_a_player_holds_many_correspondence_games_apart_from_the_live_quota,
    test_reminder_once_then_a_late_move_times_the_seat_out_and_the_other_wins,
    test_the_deadline_keeps_a_table_from_being_abandoned,
)
from test_web_ws import (  # noqa: F401
    test_a_table_killed_before_its_opening_roll_rolls_it_on_restart,
    test_bad_input_gets_an_error_to_that_client_only_and_changes_nothing,
    test_bots_play_their_seats_and_resume_after_restart,
    test_dice_1000_against_a_server_bot_to_the_end,
    test_events_are_committed_before_they_are_broadcast,
    test_hot_seat_full_game_with_spectator,
    test_reconnect_gets_missing_events_or_a_snapshot,
    test_restart_rebuilds_every_table_from_the_log,
    test_two_players_online,
)
from test_web_your_games import (  # noqa: F401
    test_a_move_that_keeps_the_turn_writes_no_seat_row,
    test_finished_pages_are_a_keyset_walk,
    test_mine_join_holds_only_linked_seats,
    test_your_turn_first_then_waiting_then_finished,
)
from webtools import connect, create, latest, pick, run_async, tokens

from dicehall.core.record import GameRecord, replay
from dicehall.web.db import Store, StoredEvent, TableMeta
from tools.server import LOAD_SETTINGS, free_port


@pytest.fixture
def db_url(pg_cluster: Cluster) -> str:
    """Overrides conftest's SQLite file: a fresh, empty PostgreSQL database per test."""
    return pg_cluster.new_database()


def test_the_server_migrates_a_fresh_postgres_database_on_start(server, db_url):
    for _ in range(2):  # the second start finds the schema in place and changes nothing
        with server() as c:
            store = c.app.state.manager.store  # type: ignore[attr-defined]
            assert store.engine.dialect.name == "postgresql" and store.engine.driver == "psycopg"
            assert c.get("/api/health").json()["status"] == "ok"
    engine = create_engine(db_url)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalars().all() == ["0010"]
        cols = {c["name"]: str(c["type"]) for c in inspect(conn).get_columns("dh_events")}
        assert (
            cols["at"] == "DOUBLE PRECISION" and cols["seq"] == "INTEGER"
        )  # times keep sub-second precision
        assert {i["name"] for i in inspect(conn).get_indexes("dh_tables")} == {
            "ix_dh_tables_status",
            "ix_dh_tables_creator",
            "ix_dh_tables_created",
            "ix_dh_tables_creator_player",
            "ix_dh_tables_deadline",  # 0008: the correspondence sweep
        }
        # your games (0007): one index walk per player, by status then recency
        assert {i["name"]: i["column_names"] for i in inspect(conn).get_indexes("dh_seats")} == {
            "ix_dh_seats_player": ["player_id", "status", "updated", "table_id"]
        }
        assert inspect(conn).get_pk_constraint("dh_rematches")["constrained_columns"] == ["table_id"]
        assert inspect(conn).get_pk_constraint("dh_events")["constrained_columns"] == ["table_id", "seq"]
        # players and their sessions (0006): sessions found by the hash of the cookie, listed by player
        assert inspect(conn).get_pk_constraint("dh_sessions")["constrained_columns"] == ["id_hash"]
        assert {i["name"] for i in inspect(conn).get_indexes("dh_sessions")} == {"ix_dh_sessions_player_id"}
        assert str({c["name"]: c["type"] for c in inspect(conn).get_columns("dh_players")}["seen"]) == (
            "DOUBLE PRECISION"
        )
    engine.dispose()


def test_two_writers_racing_for_one_event_one_wins_and_both_go_on(db_url):
    """Two stores (connections) on one PostgreSQL log: the primary key lets only one event per number in."""
    a, b = Store(db_url), Store(db_url)
    try:
        meta = TableMeta("t1", "thousand", "classic", {}, [], "playing", 1.0, 1.0)
        a.create_table(meta)
        barrier = threading.Barrier(2, timeout=10)
        outcome: dict[str, str] = {}

        def write(name: str, store: Store) -> None:
            barrier.wait()
            try:
                store.append_events("t1", [StoredEvent(1, 0, f"move-{name}", 2.5)])
                outcome[name] = "ok"
            except IntegrityError:
                outcome[name] = "refused"

        threads = [threading.Thread(target=write, args=(n, s)) for n, s in (("a", a), ("b", b))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=20)
        assert sorted(outcome.values()) == ["ok", "refused"], outcome
        winner = "a" if outcome["a"] == "ok" else "b"
        for store in (a, b):  # the loser's failed transaction was rolled back: its connection works on
            assert [(e.seq, e.actor, e.move) for e in store.events("t1")] == [(1, 0, f"move-{winner}")]
        b.append_events("t1", [StoredEvent(2, "chance", "1,2,3,4,5", 3.25)], status="finished")
        assert [e.at for e in a.events("t1")] == [2.5, 3.25] and a.unfinished_table_ids() == []
    finally:
        a.close()
        b.close()


def test_a_postgres_restart_costs_no_move(server, pg_cluster: Cluster):
    """PostgreSQL drops every connection when it restarts; the next read or move reconnects and succeeds."""
    with server() as c, connect(c) as ws:
        t = create(c)
        tid = t["table_id"]
        msg = latest(ws.join(tid, tokens(t)))
        for _ in range(2):
            pg_cluster.restart()
            st = msg["state"]
            got = ws.act(st["current_player"], msg["seq"], pick(st))
            assert got[0]["type"] == "event" and got[0]["seq"] == msg["seq"] + 1, got
            msg = got[-1]
        pg_cluster.restart()
        store = c.app.state.manager.store  # type: ignore[attr-defined]
        assert [e.seq for e in store.events(tid)] == list(range(1, msg["seq"] + 1))  # a read reconnects too
        rec = GameRecord.from_json(c.get(f"/api/tables/{tid}/record").json())
        assert len(rec.events) == msg["seq"] and replay(rec).scores() == msg["state"]["scores"]


# -- the command line: `dicehall serve --db postgresql+psycopg://...`, stopped and started again --------------------
def serve(db_url: str, port: int, log: Path) -> subprocess.Popen[bytes]:
    exe = Path(sys.executable).parent / "dicehall"
    settings = log.with_name("settings.toml")  # this client plays faster than a person: no rate limits
    settings.write_text("".join(f"{k} = {v}\n" for k, v in LOAD_SETTINGS.items()), encoding="utf-8")
    cmd = [
        str(exe),
        "serve",
        "--db",
        db_url,
        "--port",
        str(port),
        "--bot-delay",
        "0",
        "--settings",
        str(settings),
    ]
    with log.open("ab") as out:  # a file, never a pipe that could fill
        proc = subprocess.Popen(cmd, stdout=out, stderr=out)
    for _ in range(300):
        if proc.poll() is not None:
            raise AssertionError(f"server exited with {proc.returncode}: {log.read_text()[-2000:]}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        threading.Event().wait(0.05)
    stop(proc)
    raise AssertionError(f"server did not answer in 15 s: {log.read_text()[-2000:]}")


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


async def play_moves(port: int, table: str, toks: list[str], moves: int | None) -> dict[str, Any]:
    """Join with both tokens and play ``moves`` moves (None: to the end); returns the last event or snapshot."""
    from websockets.asyncio.client import connect

    async with connect(f"ws://127.0.0.1:{port}/ws", open_timeout=5) as ws:
        await ws.send(json.dumps({"type": "join", "table": table, "tokens": toks}))
        joined, msg = json.loads(await ws.recv()), json.loads(await ws.recv())
        assert joined["type"] == "joined" and msg["type"] == "snapshot", (joined, msg)
        done = 0
        while not msg["state"]["terminal"] and (moves is None or done < moves):
            st = msg["state"]
            move = "bank" if "bank" in st["legal_actions"] else st["legal_actions"][0]
            await ws.send(
                json.dumps({"type": "act", "seat": st["current_player"], "seq": msg["seq"], "move": move})
            )
            await ws.send(json.dumps({"type": "ping"}))  # everything before the pong is this move's outcome
            got = []
            while (m := json.loads(await ws.recv()))["type"] != "pong":
                got.append(m)
            assert got and all(m["type"] == "event" for m in got), got
            assert [m["seq"] for m in got] == list(range(msg["seq"] + 1, msg["seq"] + 1 + len(got)))
            msg, done = got[-1], done + 1
        return msg


def test_dicehall_serve_on_postgres_plays_restarts_and_replays(db_url, tmp_path: Path):
    port, log = free_port(), tmp_path / "server.log"
    base = f"http://127.0.0.1:{port}"
    proc = serve(db_url, port, log)
    try:
        seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
        r = httpx.post(f"{base}/api/tables", json={"game": "thousand", "seats": seats}, timeout=10)
        assert r.status_code == 201, r.text
        tid, toks = r.json()["table_id"], [s["token"] for s in r.json()["seats"]]
        before = run_async(play_moves(port, tid, toks, 30))
        stop(proc)
        proc = serve(db_url, port, log)  # a new process on the same database resumes the table exactly
        assert httpx.get(f"{base}/api/tables/{tid}", timeout=10).json()["seq"] == before["seq"]
        final = run_async(play_moves(port, tid, toks, 0))
        assert final["seq"] == before["seq"] and final["state"] == before["state"]
        final = run_async(play_moves(port, tid, toks, None))
        assert final["state"]["terminal"] and final["status"] == "finished"
        rec = GameRecord.from_json(httpx.get(f"{base}/api/tables/{tid}/record", timeout=10).json())
        assert len(rec.events) == final["seq"] and replay(rec).scores() == final["state"]["scores"]
    finally:
        stop(proc)
    assert "Traceback" not in log.read_text()


def test_db_wait_keeps_trying_a_database_until_it_answers() -> None:
    """`--db-wait`: a database that is down when the server starts (a container still starting) is tried again
    until it answers; the wait is said once in the log, without the password."""
    import logging

    from dicehall.web.db import check_database

    with Cluster() as cluster:
        url = cluster.new_database()
        cluster._run("pg_ctl", "stop", "-D", str(cluster.data), "-m", "fast", "-w", timeout=30)
        said = threading.Event()

        class Said(logging.Handler):
            def emit(self, record: logging.LogRecord) -> None:
                if "waiting up to" in record.getMessage():
                    said.set()

        handler = Said()
        logging.getLogger("dicehall.web.db").addHandler(handler)

        def start_once_waited() -> None:
            said.wait(60)
            cluster._run(
                "pg_ctl", "start", "-D", str(cluster.data), "-l", str(cluster.log), "-w", "-o", cluster._options(),
                timeout=60,
            )  # fmt: skip

        starter = threading.Thread(target=start_once_waited)
        starter.start()
        try:
            check_database(url, wait=120)  # returns once the database answers
        finally:
            starter.join()
            logging.getLogger("dicehall.web.db").removeHandler(handler)
        assert said.is_set()


def test_db_wait_gives_up_naming_the_database_but_not_its_password() -> None:
    from dicehall.web.db import check_database

    url = f"postgresql+psycopg://dicehall:s3cret-pw@127.0.0.1:{free_port()}/club"
    started = time.monotonic()
    with pytest.raises(ValueError, match="cannot open the database") as err:
        check_database(url, wait=0.6)
    assert time.monotonic() - started >= 0.6
    assert "s3cret-pw" not in str(err.value) and "127.0.0.1" in str(err.value)
