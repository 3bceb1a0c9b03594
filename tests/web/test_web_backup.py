"""Backups and moving house (web/backup.py): a backup taken while a load run plays restores to a database whose
every table replays to the same state; SQLite → export → import into a real PostgreSQL, where two server
processes resume every unfinished table; a tampered export is refused with the table and event named and writes
nothing. PostgreSQL is the throw-away cluster of ``pg.py``.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, inspect, text
from test_web_shared import Player, _start, _wait_healthy, db_log
from typer.testing import CliRunner
from webtools import connect, create, latest, pick, play_to_end, run_async, tokens

from dicehall.web.backup import (
    BackupError,
    ImportRefused,
    backup,
    export,
    file_kind,
    import_,
    restore,
    table_states,
)
from tools.loadgen import run_load
from tools.server import free_port, start_server, stop_server


def logs(url: str) -> dict[str, list[tuple[int, str, str]]]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                text("SELECT table_id, seq, actor, move FROM dh_events ORDER BY table_id, seq")
            )
            out: dict[str, list[tuple[int, str, str]]] = {}
            for t, seq, actor, move in rows:
                out.setdefault(t, []).append((seq, actor, move))
            return out
    finally:
        engine.dispose()


def backups_under_load(url: str, tmp: Path, take: Callable[[Path], str]) -> tuple[list[Path], str]:
    """Run a short load against a real server on ``url`` and take backups for as long as it plays; the backups
    taken while the load was still running, and how they were made."""
    port = free_port()
    proc = start_server(url, port)
    taken: list[Path] = []
    how = ""

    async def scenario() -> None:
        nonlocal how
        load = asyncio.create_task(run_load(f"http://127.0.0.1:{port}", clients=8, duration=1.5, warmup=0))
        while not load.done():
            path = tmp / f"backup-{len(taken)}"
            how = await asyncio.to_thread(take, path)
            if not load.done():
                taken.append(path)
            await asyncio.wait({load}, timeout=0.2)  # a backup every 0.2 s while the load plays
        assert not (await load).errors

    try:
        run_async(scenario())
    finally:
        stop_server(proc)
    assert taken, "no backup finished while the load played"
    return taken, how


def assert_restored_like(original: str, restored: str) -> None:
    """Every restored table replays (the rules, dice and results checked); its log is the original's log as it
    was at one moment: a prefix of the final log, and all of it for a table that was closed by then."""
    states = table_states(restored)
    assert states, "the backup holds no tables"
    final, copied = logs(original), logs(restored)
    assert set(copied) <= set(final)
    for table_id, log in copied.items():
        assert final[table_id][: len(log)] == log, table_id
    played = sum(len(v) for v in copied.values())
    assert played > 0


def test_a_sqlite_backup_under_load_restores_every_table_to_the_same_state(tmp_path):
    src = f"sqlite:///{tmp_path / 'live.sqlite'}"
    taken, how = backups_under_load(src, tmp_path, lambda p: backup(src, p))
    assert how == "sqlite" and file_kind(taken[-1]) == "sqlite"
    restored = f"sqlite:///{tmp_path / 'restored.sqlite'}"
    assert restore(restored, taken[-1]) == "sqlite"
    assert_restored_like(src, restored)
    # the copy, opened as it is, gives the very same states as the database restored from it
    assert table_states(f"sqlite:///{taken[-1]}") == table_states(restored)
    with pytest.raises(BackupError) as refused:  # a database with data is not overwritten unasked
        restore(restored, taken[0])
    assert "--force" in str(refused.value)
    assert restore(restored, taken[0], force=True) == "sqlite"
    assert table_states(restored) == table_states(f"sqlite:///{taken[0]}")


@pytest.mark.parametrize(
    "pg_dump", [False, pytest.param(True, marks=pytest.mark.slow)], ids=["export", "pg_dump"]
)
def test_a_postgres_backup_under_load_restores_every_table(pg_cluster, tmp_path, pg_dump):
    src = pg_cluster.new_database()
    taken, how = backups_under_load(src, tmp_path, lambda p: backup(src, p, pg_dump=pg_dump))
    assert how == ("pg_dump" if pg_dump else "export") and file_kind(taken[-1]) == how
    restored = pg_cluster.new_database()
    assert restore(restored, taken[-1]) == how
    assert_restored_like(src, restored)


def play_tables(client: Any) -> dict[str, tuple[list[str], int]]:
    """Hot-seat tables of every game, a few moves in (unfinished), and a finished one; their tokens and the
    number of events."""
    out: dict[str, tuple[list[str], int]] = {}
    for game, moves in (("thousand", 7), ("clever", 5), ("wurf", 4), ("thousand", None)):
        table = create(client, game=game)
        with connect(client) as ws:
            view = latest(ws.join(table["table_id"], tokens(table)))
            if moves is None:
                view = play_to_end(ws, view)
            else:
                for _ in range(moves):
                    st = view["state"]
                    if st["terminal"]:
                        break
                    view = latest(ws.act(st["current_player"], view["seq"], pick(st)))
        out[table["table_id"]] = (tokens(table), view["seq"])
    return out


@pytest.fixture
def exported(server, db_url, tmp_path) -> tuple[Path, dict[str, tuple[list[str], int]]]:
    with server() as client:
        tables = play_tables(client)
    path = tmp_path / "club.jsonl.gz"
    counts = export(db_url, path)
    assert counts["dh_tables"] == len(tables)
    return path, tables


def test_sqlite_export_imports_into_postgres_where_two_servers_resume_every_table(
    exported, db_url, pg_cluster, tmp_path
):
    path, tables = exported
    target = pg_cluster.new_database()
    counts = import_(target, path)
    assert counts["dh_tables"] == len(tables)
    assert table_states(target) == table_states(db_url)
    assert logs(target) == logs(db_url)
    nodes = [_start(target, tmp_path, "a"), _start(target, tmp_path, "b")]
    try:
        for n in nodes:
            _wait_healthy(n)
        unfinished = {t: v for t, v in tables.items() if table_states(target)[t].startswith("playing")}
        assert len(unfinished) >= 2
        deadline = time.monotonic() + 30
        players = [
            Player(f"{nodes[i % 2].base.replace('http', 'ws')}/ws", t, toks, seed=i)
            for i, (t, (toks, _)) in enumerate(unfinished.items())
        ]

        async def resume() -> None:
            await asyncio.gather(*(p.play(tables[p.table][1] + 1, deadline) for p in players))

        run_async(resume())
    finally:
        for n in nodes:
            n.stop()
    for table_id, (_, seq) in unfinished.items():
        assert len(db_log(target, table_id)) > seq  # a move was played on it, after the imported log
    table_states(target)  # and every log still replays


def _tamper(path: Path, out: Path, change: Callable[[dict[str, Any]], bool]) -> str:
    """Copy the export with ``change`` applied to the first game line it accepts; that table's id."""
    import gzip

    with gzip.open(path, "rt", encoding="utf-8") as f:
        lines = f.read().splitlines()
    for i, line in enumerate(lines):
        item = json.loads(line)
        if item.get("t") == "dh_tables" and item["events"] and change(item):
            lines[i] = json.dumps(item)
            out.write_text("\n".join(lines) + "\n", encoding="utf-8")
            return str(item["row"]["id"])
    raise AssertionError("no table to tamper with")


def _illegal_move(item: dict[str, Any]) -> bool:
    for ev in item["events"]:
        if ev[1] != "chance":
            ev[2] = "take everything"
            return True
    return False


def _other_dice(item: dict[str, Any]) -> bool:
    if item["row"]["game"] != "thousand":
        return False
    for ev in item["events"]:
        if ev[1] == "chance" and ev[0] == 1:
            ev[2] = "1 1 1 1 1" if ev[2] != "1 1 1 1 1" else "2 2 3 3 4"
            return True
    return False


def _missing_event(item: dict[str, Any]) -> bool:
    if len(item["events"]) < 4:
        return False
    del item["events"][2]
    return True


def _wrong_type(item: dict[str, Any]) -> bool:
    item["events"][1][3] = "yesterday"
    return True


@pytest.mark.parametrize(
    ("change", "event", "words"),
    [
        (_illegal_move, None, "take everything"),
        (_other_dice, 1, "dice differ"),
        (_missing_event, 3, "missing"),
        (_wrong_type, 2, "damaged"),
    ],
    ids=["illegal move", "other dice", "missing event", "wrong type"],
)
def test_a_tampered_export_is_refused_naming_table_and_event_and_nothing_is_written(
    exported, tmp_path, change, event, words
):
    path, _ = exported
    bad = tmp_path / "tampered.jsonl"
    table_id = _tamper(path, bad, change)
    target = f"sqlite:///{tmp_path / 'target.sqlite'}"
    with pytest.raises(ImportRefused) as refused:
        import_(target, bad)
    assert refused.value.table == table_id and table_id in str(refused.value)
    assert words in str(refused.value)
    if event is not None:
        assert refused.value.event == event and f"event {event}" in str(refused.value)
    else:
        assert refused.value.event is not None and f"event {refused.value.event}" in str(refused.value)
    engine = create_engine(target)
    with engine.connect() as conn:
        assert inspect(conn).get_table_names() == []  # not even the schema: the file was refused first
    engine.dispose()


def test_a_tampered_export_leaves_a_postgres_database_empty(exported, tmp_path, pg_cluster):
    path, _ = exported
    bad = tmp_path / "tampered.jsonl"
    table_id = _tamper(path, bad, _missing_event)
    target = pg_cluster.new_database()
    with pytest.raises(ImportRefused, match=f"table {table_id}, event 3: the event is missing"):
        import_(target, bad)
    engine = create_engine(target)
    with engine.connect() as conn:
        assert inspect(conn).get_table_names() == []
    engine.dispose()


def test_the_commands_say_what_they_did_and_refuse_to_overwrite(exported, db_url, tmp_path):
    from dicehall.cli import _register_games, app

    _register_games()
    runner = CliRunner()
    path, tables = exported
    copy = tmp_path / "copy.sqlite"
    r = runner.invoke(app, ["--lang", "en", "backup", "--db", db_url, "--to", str(copy)])
    assert r.exit_code == 0, r.output
    assert "SQLite's online backup" in r.output
    target = f"sqlite:///{tmp_path / 'new.sqlite'}"
    r = runner.invoke(app, ["--lang", "en", "import", "--db", target, "--from", str(path)])
    assert r.exit_code == 0, r.output
    assert f"tables: {len(tables)}" in r.output
    r = runner.invoke(app, ["--lang", "en", "restore", "--db", target, "--from", str(copy)])
    assert r.exit_code == 2 and "--force" in r.output
    r = runner.invoke(app, ["--lang", "ru", "import", "--db", target, "--from", str(path)])
    assert r.exit_code == 2 and "пустую базу" in r.output
    r = runner.invoke(app, ["--lang", "en", "restore", "--db", target, "--from", str(copy), "--force"])
    assert r.exit_code == 0 and "Restored the SQLite backup" in r.output
    assert table_states(target) == table_states(db_url)
    r = runner.invoke(
        app, ["--lang", "en", "export", "--db", db_url, "--to", str(tmp_path / "no" / "x.jsonl")]
    )
    assert r.exit_code == 2 and "there is no folder" in r.output
