"""Backups and moving house: a consistent snapshot of a running server's database, and a portable export.

``backup``/``restore`` copy the database as it is: SQLite through its online backup API (one step, so the copy is
one consistent moment even while the server writes), PostgreSQL through ``pg_dump`` (custom format) where it is
on PATH, else through the export below read in one REPEATABLE READ transaction.

``export``/``import_`` move the data between databases of any kind: JSON lines (gzip when the name ends in
``.gz``). The first line is the header: format name and version, the schema revision, each exported table's
columns and row count (read in the same snapshot, so a cut-off file is noticed). Then one line per row,
``{"t": TABLE, "row": {...}}``, in an order the foreign keys accept; a game table's line also carries its whole
log (``events``: ``[seq, actor, move, at, entered_by]`` each) and its seats. What is left out and why:
``dh_challenges`` (passkey challenges live minutes) and ``dh_owners`` (leases of running processes; the new
server takes its tables anew); ``alembic_version`` is the header's ``schema``.

An import checks the whole file before it writes anything (types, lengths, the log numbered 1, 2, 3 … without a
gap, every table's log replayed by the rules, the committed dice recomputed from the seed, a finished table's
stored result), then writes everything in one transaction, into an empty database only.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import io
import json
import os
import shutil
import sqlite3
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

from sqlalchemy import Boolean, Float, Integer, LargeBinary, String, Table, create_engine, event, func, insert
from sqlalchemy import select as sa_select
from sqlalchemy.engine import Connection, Engine, make_url

from dicehall.core.errors import DicehallError, RecordError
from dicehall.core.fairdice import commitment, event_rng, is_hex64
from dicehall.core.game import CHANCE
from dicehall.core.record import Event, GameRecord, apply_event, new_state
from dicehall.i18n.message import Message
from dicehall.web.db import UNDO, Base, StoredEvent, make_engine, migrate, migration_head

FORMAT = "dicehall-export"
VERSION = 1
SKIPPED = ("dh_challenges", "dh_owners")
GAMES, EVENTS, SEATS = "dh_tables", "dh_events", "dh_seats"
EVENT_COLUMNS = ("seq", "actor", "move", "at", "entered_by")
BATCH = 2000
SQLITE_MAGIC = b"SQLite format 3\x00"
PGDUMP_MAGIC = b"PGDMP"

Progress = Callable[[int, int], None]
"""``progress(done, total)``: tables (or rows) done so far."""


class BackupError(DicehallError):
    """A backup, restore, export or import that cannot be done (said in the reader's language)."""


class ImportRefused(BackupError):
    """A file that does not import: ``table`` and ``event`` name the place when there is one."""

    def __init__(self, message: Message, table: str | None = None, event: int | None = None) -> None:
        super().__init__(message)
        self.table = table
        self.event = event


def _tables() -> list[Table]:
    """The exported tables in an order the foreign keys accept (rows of players before the games' seats)."""
    out = [t for t in Base.metadata.sorted_tables if t.name not in (*SKIPPED, EVENTS, SEATS)]
    first = [
        t for t in out if t.name != GAMES and not any(fk.column.table.name == GAMES for fk in t.foreign_keys)
    ]
    rest = [t for t in out if t not in first and t.name != GAMES]
    return [*first, Base.metadata.tables[GAMES], *rest]


# -- values to JSON and back ------------------------------------------------------------------------------------
def _out(value: Any) -> Any:
    return base64.b64encode(value).decode() if isinstance(value, bytes | memoryview) else value


def _check(table: Table, row: Any, where: Message) -> dict[str, Any]:
    """One row of ``table`` from its JSON object, every column present and of its type; else ImportRefused."""
    if not isinstance(row, dict) or set(row) != {c.name for c in table.columns}:
        raise ImportRefused(Message("backup.error.columns", place=where, table=table.name))
    out: dict[str, Any] = {}
    for col in table.columns:
        value = row[col.name]
        if value is None:
            if not col.nullable:
                raise ImportRefused(Message("backup.error.value", place=where, column=col.name))
            out[col.name] = None
            continue
        kind = col.type
        if isinstance(kind, Boolean):
            ok = isinstance(value, bool)
        elif isinstance(kind, Integer):
            ok = isinstance(value, int) and not isinstance(value, bool)
        elif isinstance(kind, Float):
            ok = isinstance(value, int | float) and not isinstance(value, bool)
            value = float(value) if ok else value
        elif isinstance(kind, LargeBinary):
            ok = isinstance(value, str)
            if ok:
                try:
                    value = base64.b64decode(value, validate=True)
                except ValueError:
                    ok = False
        else:  # String, Text
            ok = isinstance(value, str) and (
                not isinstance(kind, String) or kind.length is None or len(value) <= kind.length
            )
        if not ok:
            raise ImportRefused(Message("backup.error.value", place=where, column=col.name))
        out[col.name] = value
    return out


def _check_target(to: Path) -> None:
    if not to.parent.is_dir():
        raise BackupError(Message("backup.error.no_dir", dir=str(to.parent)))


# -- reading a database in one snapshot ---------------------------------------------------------------------------
def _snapshot_engine(url: str) -> Engine:
    """An engine whose transactions read one consistent snapshot: PostgreSQL REPEATABLE READ; SQLite a real
    ``BEGIN`` (the driver would otherwise run each SELECT on its own)."""
    if url.startswith("sqlite"):
        engine = create_engine(url)

        @event.listens_for(engine, "connect")
        def _manual(dbapi_conn: Any, _record: Any) -> None:
            dbapi_conn.isolation_level = None
            dbapi_conn.execute("PRAGMA busy_timeout=5000")

        @event.listens_for(engine, "begin")
        def _begin(conn: Connection) -> None:
            conn.exec_driver_sql("BEGIN")

        return engine
    return create_engine(url, isolation_level="REPEATABLE READ")


def _revision(conn: Connection) -> str | None:
    try:
        value = conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalar()
    except Exception:
        return None
    return None if value is None else str(value)


def _by_table(conn: Connection, table: Table, order: tuple[str, ...]) -> Iterator[tuple[str, list[Any]]]:
    """``(table_id, rows)`` groups of a child table of the games, read in one ordered pass (the driver's own
    rows: millions of events)."""
    at = [c.name for c in table.columns].index("table_id")
    current: str | None = None
    group: list[Any] = []
    if table.name == EVENTS:  # the driver's rows: no column here needs a type's conversion
        cols = ", ".join(c.name for c in table.columns)
        sql = f"SELECT {cols} FROM {table.name} ORDER BY {', '.join(order)}"
        result = conn.execution_options(stream_results=True).exec_driver_sql(sql)
    else:
        stmt = sa_select(table).order_by(*(table.c[k] for k in order))
        result = conn.execution_options(stream_results=True).execute(stmt)
    for part in result.partitions(BATCH):
        for row in part:
            if row[at] != current:
                if current is not None:
                    yield current, group
                current, group = row[at], []
            group.append(row)
    if current is not None:
        yield current, group


def _lines(conn: Connection, progress: Progress | None) -> Iterator[str]:
    tables = _tables()
    counts = {t.name: int(conn.execute(sa_select(func.count()).select_from(t)).scalar_one()) for t in tables}
    header = {
        "format": FORMAT,
        "version": VERSION,
        "schema": _revision(conn),
        "exported": time.time(),
        "tables": {t.name: [c.name for c in t.columns] for t in tables},
        "rows": counts,
        "events": list(EVENT_COLUMNS),
    }
    yield json.dumps(header)
    total, done = counts[GAMES], 0
    for table in tables:
        if table.name != GAMES:
            for row in conn.execution_options(yield_per=BATCH).execute(sa_select(table)):
                yield json.dumps({"t": table.name, "row": {k: _out(v) for k, v in row._mapping.items()}})
            continue
        ev_t, seat_t = Base.metadata.tables[EVENTS], Base.metadata.tables[SEATS]
        events = _by_table(conn, ev_t, ("table_id", "seq"))
        seats = _by_table(conn, seat_t, ("table_id", "seat"))
        next_ev, next_seat = next(events, None), next(seats, None)
        for row in conn.execution_options(yield_per=BATCH).execute(sa_select(table).order_by(table.c.id)):
            line: dict[str, Any] = {"t": GAMES, "row": dict(row._mapping), "events": [], "seats": []}
            while next_ev is not None and next_ev[0] < row.id:  # orphans cannot exist (foreign key)
                next_ev = next(events, None)
            if next_ev is not None and next_ev[0] == row.id:
                line["events"] = [[e[1], e[2], e[3], e[4], e[5]] for e in next_ev[1]]
                next_ev = next(events, None)
            while next_seat is not None and next_seat[0] < row.id:
                next_seat = next(seats, None)
            if next_seat is not None and next_seat[0] == row.id:
                line["seats"] = [
                    {c.name: v for c, v in zip(seat_t.columns, s, strict=True) if c.name != "table_id"}
                    for s in next_seat[1]
                ]
                next_seat = next(seats, None)
            yield json.dumps(line)
            done += 1
            if progress is not None and (done % 100 == 0 or done == total):
                progress(done, total)


def _open_out(path: Path, gz: bool) -> IO[str]:
    if gz:
        return io.TextIOWrapper(gzip.open(path, "wb", compresslevel=5), encoding="utf-8")
    return path.open("w", encoding="utf-8")


def _open_in(path: Path) -> IO[str]:
    with path.open("rb") as f:
        gz = f.read(2) == b"\x1f\x8b"
    if gz:
        return io.TextIOWrapper(gzip.open(path, "rb"), encoding="utf-8")
    return path.open("r", encoding="utf-8")


def export(url: str, to: Path, progress: Progress | None = None) -> dict[str, int]:
    """Write every exported table of the database at ``url`` to ``to`` (JSON lines) from one snapshot; returns
    the row counts. The file appears whole or not at all (written beside it, then renamed)."""
    _check_target(to)
    engine = _snapshot_engine(url)
    tmp = to.with_name(to.name + ".part")
    try:
        with engine.connect() as conn, conn.begin(), _open_out(tmp, to.name.endswith(".gz")) as out:
            counts: dict[str, int] = {}
            for i, line in enumerate(_lines(conn, progress)):
                if i == 0:
                    counts = json.loads(line)["rows"]
                out.write(line)
                out.write("\n")
        os.replace(tmp, to)
    finally:
        engine.dispose()
        tmp.unlink(missing_ok=True)
    return counts


# -- checking a file, then writing it --------------------------------------------------------------------------
def _read_header(lines: Iterator[str]) -> dict[str, Any]:
    try:
        header = json.loads(next(lines))
    except (StopIteration, ValueError):
        header = None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise ImportRefused(Message("backup.error.not_export"))
    if header.get("version") != VERSION:
        raise ImportRefused(Message("backup.error.version", got=str(header.get("version")), known=VERSION))
    if header.get("schema") != migration_head():
        raise ImportRefused(
            Message("backup.error.schema", got=str(header.get("schema")), head=migration_head())
        )
    expected = {t.name: [c.name for c in t.columns] for t in _tables()}
    if header.get("tables") != expected or header.get("events") != list(EVENT_COLUMNS):
        raise ImportRefused(
            Message("backup.error.schema", got=str(header.get("schema")), head=migration_head())
        )
    rows = header.get("rows")
    if not isinstance(rows, dict) or set(rows) != set(expected):
        raise ImportRefused(Message("backup.error.not_export"))
    return header


def _stored_events(table_id: str, raw: Any) -> list[StoredEvent]:
    """The log of one table from its JSON list, numbered 1, 2, 3 … with no gap; else ImportRefused."""
    if not isinstance(raw, list):
        raise ImportRefused(Message("backup.error.log", table=table_id), table_id)
    out: list[StoredEvent] = []
    for expected, item in enumerate(raw, start=1):
        ok = (
            isinstance(item, list)
            and len(item) == len(EVENT_COLUMNS)
            and isinstance(item[0], int)
            and isinstance(item[1], str)
            and isinstance(item[2], str)
            and len(item[2]) <= 200
            and isinstance(item[3], int | float)
            and (item[4] is None or (isinstance(item[4], int) and not isinstance(item[4], bool)))
        )
        if not ok:
            raise ImportRefused(
                Message("backup.error.event", table=table_id, event=expected), table_id, expected
            )
        if item[0] != expected:
            raise ImportRefused(
                Message("backup.error.missing", table=table_id, event=expected), table_id, expected
            )
        actor = item[1]
        if actor not in ("chance", UNDO) and not actor.isdigit():
            raise ImportRefused(
                Message("backup.error.event", table=table_id, event=expected), table_id, expected
            )
        out.append(
            StoredEvent(
                expected, actor if actor in ("chance", UNDO) else int(actor), item[2], float(item[3]), item[4]
            )
        )
    return out


def check_log(row: dict[str, Any], stored: list[StoredEvent]) -> Any:
    """Replay one table's log by the rules (numbering events as the log does), recompute its committed dice and
    compare a finished table's stored result; returns the state, or raises ImportRefused naming the event."""
    table_id = row["id"]
    try:
        seats = json.loads(row["seats"])
        overrides = json.loads(row["overrides"])
        if not isinstance(seats, list) or not isinstance(overrides, dict):
            raise TypeError("seats or rules damaged")
        record = GameRecord(
            row["game"], row["preset"], overrides, [{"name": str(s.get("name"))} for s in seats]
        )
        _, state = new_state(record)
    except Exception as exc:
        reason = exc.localized() if isinstance(exc, DicehallError) else type(exc).__name__
        raise ImportRefused(Message("backup.error.table", table=table_id, reason=reason), table_id) from None
    seed, commit = row["dice_seed"], row["dice_commit"]
    if seed is not None and (commit is None or not is_hex64(seed) or commitment(seed) != commit):
        raise ImportRefused(Message("backup.error.seed", table=table_id), table_id)
    kept: list[StoredEvent] = []
    for ev in stored:
        if ev.actor == UNDO:
            if not kept or kept[-1].actor != "chance" or kept[-1].entered_by is None:
                raise ImportRefused(
                    Message("backup.error.event", table=table_id, event=ev.seq), table_id, ev.seq
                )
            kept.pop()
        else:
            kept.append(ev)
    # a table with an undo is replayed from its kept events; its dice were typed in, so there is no seed to check
    replayed = _replay_kept(table_id, state, kept, seed if not any(e.entered_by for e in kept) else None)
    _check_result(table_id, row, replayed, len(stored))
    return replayed


def _replay_kept(table_id: str, state: Any, kept: list[StoredEvent], seed: str | None) -> Any:
    for ev in kept:
        event_ = Event(ev.actor, ev.move, ev.entered_by)
        if seed is not None and ev.actor == "chance" and state.current_player() == CHANCE:
            expected = state.action_to_string(state.sample_chance(event_rng(seed, ev.seq)))
            try:
                got = state.action_to_string(state.string_to_action(ev.move))
            except DicehallError:
                got = expected  # unreadable: apply_event says why
            if got != expected:
                raise ImportRefused(
                    Message("backup.error.dice", table=table_id, event=ev.seq), table_id, ev.seq
                )
        try:
            apply_event(state, event_, ev.seq)
        except RecordError as exc:
            raise ImportRefused(
                Message("backup.error.table", table=table_id, reason=exc.text or str(exc)), table_id, ev.seq
            ) from None
    return state


def _check_result(table_id: str, row: dict[str, Any], state: Any, last: int) -> None:
    status = row["status"]
    if status in ("waiting", "playing") and state.is_terminal():
        raise ImportRefused(Message("backup.error.status", table=table_id), table_id, last)
    if status != "finished" or row["result"] is None:
        return
    stored = json.loads(row["result"])
    actual = json.loads(json.dumps({"scores": state.scores(), "winners": state.winners()}))
    if not state.is_terminal() or stored != actual:
        raise ImportRefused(Message("backup.error.result", table=table_id, event=last), table_id, last)


def _parse(
    header: dict[str, Any],
    lines: Iterator[str],
    progress: Progress | None,
    digest: Any,
    replay: bool = True,
) -> Iterator[tuple[Table, dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]]:
    """Every row of the file, checked: ``(table, row, events, seats)`` (the last two only for a game table);
    ``replay``: also replay each game's log; ``digest`` hears every line."""
    by_name = {t.name: t for t in _tables()}
    order = [t.name for t in _tables()]
    seat_t = Base.metadata.tables[SEATS]
    seen = dict.fromkeys(order, 0)
    at = 0  # the file's tables come in order
    total, done = header["rows"][GAMES], 0
    for number, text in enumerate(lines, start=2):
        digest.update(text.encode())
        try:
            item = json.loads(text)
        except ValueError:
            raise ImportRefused(Message("backup.error.line", line=number)) from None
        name = item.get("t") if isinstance(item, dict) else None
        if name not in by_name or order.index(name) < at:
            raise ImportRefused(Message("backup.error.line", line=number))
        at = order.index(name)
        table = by_name[name]
        place = Message("backup.place.line", line=number)
        seen[name] += 1
        if name != GAMES:
            yield table, _check(table, item.get("row"), place), [], []
            continue
        raw = item.get("row")
        if isinstance(raw, dict) and isinstance(raw.get("id"), str):
            place = Message("backup.place.table", table=raw["id"], line=number)
        row = _check(table, raw, place)
        table_id = row["id"]
        stored = _stored_events(table_id, item.get("events"))
        raw_seats = item.get("seats")
        if not isinstance(raw_seats, list):
            raise ImportRefused(Message("backup.error.log", table=table_id), table_id)
        seats = [
            _check(seat_t, {**s, "table_id": table_id} if isinstance(s, dict) else s, place)
            for s in raw_seats
        ]
        if replay:
            check_log(row, stored)
        events = [
            {
                "table_id": table_id,
                "seq": e.seq,
                "actor": str(e.actor),
                "move": e.move,
                "at": e.at,
                "entered_by": e.entered_by,
            }
            for e in stored
        ]
        yield table, row, events, seats
        done += 1
        if progress is not None and (done % 100 == 0 or done == total):
            progress(done, total)
    for name in order:
        if seen[name] != header["rows"][name]:
            raise ImportRefused(
                Message("backup.error.count", table=name, got=seen[name], expected=header["rows"][name])
            )


def _empty(conn: Connection) -> bool:
    return all(conn.execute(sa_select(func.count()).select_from(t)).scalar_one() == 0 for t in _tables())


def import_(url: str, source: Path, progress: Progress | None = None) -> dict[str, int]:
    """Check ``source`` whole, then write it into the (empty) database at ``url`` in one transaction; returns the
    row counts. The database is migrated first; one that holds rows already is refused."""
    checked = hashlib.sha256()
    with _open_in(source) as f:
        header = _read_header(iter(f))
        for _ in _parse(header, iter(f), progress and (lambda d, t: progress(d, 2 * t)), checked):
            pass
    engine = make_engine(url)
    try:
        migrate(engine)
        ev_t, seat_t = Base.metadata.tables[EVENTS], Base.metadata.tables[SEATS]
        with engine.begin() as conn, _open_in(source) as f:
            if not _empty(conn):
                raise BackupError(Message("backup.error.not_empty"))
            lines = iter(f)
            header = _read_header(lines)
            pending: dict[str, list[dict[str, Any]]] = {}
            order: list[Table] = []

            def flush() -> None:
                for t in order:
                    if pending.get(t.name):
                        conn.execute(insert(t), pending[t.name])
                        pending[t.name] = []

            step = progress and (lambda d, t: progress(t + d, 2 * t))
            written = hashlib.sha256()
            # the file was checked whole above; written now without a second replay, unless it changed meanwhile
            for table, row, events, seats in _parse(header, lines, step, written, replay=False):
                for t, rows in ((table, [row]), (ev_t, events), (seat_t, seats)):
                    if rows:
                        if t not in order:
                            order.append(t)
                        pending.setdefault(t.name, []).extend(rows)
                if len(pending.get(EVENTS, ())) + len(pending.get(table.name, ())) >= BATCH:
                    flush()
                    order.clear()
                    pending.clear()
            flush()
            if written.digest() != checked.digest():
                raise BackupError(Message("backup.error.changed"))
            _fix_sequences(conn)
    finally:
        engine.dispose()
    return dict(header["rows"])


def _fix_sequences(conn: Connection) -> None:
    """PostgreSQL: the serial of ``dh_rating_history.id`` goes on after the imported ids."""
    if conn.dialect.name != "postgresql":
        return
    conn.exec_driver_sql(
        "SELECT setval(pg_get_serial_sequence('dh_rating_history', 'id'), "
        "COALESCE((SELECT MAX(id) FROM dh_rating_history), 0) + 1, false)"
    )


# -- backup and restore ----------------------------------------------------------------------------------------
def _sqlite_path(url: str) -> str:
    path = make_url(url).database
    if not path or path == ":memory:":
        raise BackupError(Message("backup.error.memory"))
    return path


def _libpq_url(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def backup(url: str, to: Path, progress: Progress | None = None, pg_dump: bool | None = None) -> str:
    """A consistent copy of the database at ``url`` in ``to``; returns how: ``sqlite``, ``pg_dump`` or
    ``export``. ``pg_dump``: whether to use it (default: where it is on PATH)."""
    _check_target(to)
    if url.startswith("sqlite"):
        src_path = _sqlite_path(url)
        if not Path(src_path).is_file():
            raise BackupError(Message("backup.error.no_database", db=src_path))
        tmp = to.with_name(to.name + ".part")
        tmp.unlink(missing_ok=True)
        src = sqlite3.connect(f"file:{src_path}?mode=ro", uri=True, timeout=30)
        dst = sqlite3.connect(tmp)
        try:
            # one step: the copy is one moment of the database however the server writes meanwhile
            src.backup(dst, pages=-1, progress=progress and (lambda _s, rem, tot: progress(tot - rem, tot)))
            dst.execute("PRAGMA journal_mode=DELETE")  # a single file, no -wal beside it
        finally:
            dst.close()
            src.close()
        os.replace(tmp, to)
        return "sqlite"
    if pg_dump is None:
        pg_dump = shutil.which("pg_dump") is not None
    if pg_dump:
        tmp = to.with_name(to.name + ".part")
        try:
            subprocess.run(
                ["pg_dump", "--format=custom", "--no-owner", "--file", str(tmp), _libpq_url(url)],
                check=True,
                capture_output=True,
                text=True,
            )
        except subprocess.CalledProcessError as exc:
            tmp.unlink(missing_ok=True)
            raise BackupError(
                Message("backup.error.tool", tool="pg_dump", reason=exc.stderr.strip()[-300:])
            ) from None
        os.replace(tmp, to)
        return "pg_dump"
    export(url, to, progress)
    return "export"


def file_kind(path: Path) -> str:
    """``sqlite``, ``pg_dump`` or ``export`` by the file's first bytes."""
    with path.open("rb") as f:
        head = f.read(16)
    if head.startswith(SQLITE_MAGIC):
        return "sqlite"
    if head.startswith(PGDUMP_MAGIC):
        return "pg_dump"
    return "export"


def has_tables(url: str) -> bool:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            from sqlalchemy import inspect

            return bool(inspect(conn).get_table_names())
    finally:
        engine.dispose()


def restore(url: str, source: Path, force: bool = False, progress: Progress | None = None) -> str:
    """Put the backup ``source`` into the database at ``url``; returns what kind of backup it was. A database
    with tables is refused unless ``force`` (then it is replaced)."""
    kind = file_kind(source)
    if not force and has_tables(url):
        raise BackupError(Message("backup.error.has_tables"))
    if kind == "sqlite":
        if not url.startswith("sqlite"):
            raise BackupError(Message("backup.error.kind", kind="SQLite"))
        dst_path = Path(_sqlite_path(url))
        dst_path.parent.mkdir(parents=True, exist_ok=True)
        src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
        dst = sqlite3.connect(dst_path, timeout=30)
        try:
            src.backup(dst, pages=-1, progress=progress and (lambda _s, rem, tot: progress(tot - rem, tot)))
            dst.execute("PRAGMA journal_mode=WAL")
        finally:
            dst.close()
            src.close()
        return kind
    if kind == "pg_dump":
        if not url.startswith("postgresql"):
            raise BackupError(Message("backup.error.kind", kind="PostgreSQL"))
        if shutil.which("pg_restore") is None:
            raise BackupError(Message("backup.error.tool", tool="pg_restore", reason="not found"))
        cmd = ["pg_restore", "--no-owner", "--single-transaction", "--dbname", _libpq_url(url)]
        if force:
            cmd[1:1] = ["--clean", "--if-exists"]
        try:
            subprocess.run([*cmd, str(source)], check=True, capture_output=True, text=True)
        except subprocess.CalledProcessError as exc:
            raise BackupError(
                Message("backup.error.tool", tool="pg_restore", reason=exc.stderr.strip()[-300:])
            ) from None
        return kind
    if force:
        _drop_all(url)
    import_(url, source, progress)
    return kind


def _drop_all(url: str) -> None:
    """``--force`` before an import: the old tables go (the import migrates a fresh schema)."""
    from sqlalchemy import MetaData

    engine = create_engine(url)
    try:
        meta = MetaData()
        with engine.begin() as conn:
            meta.reflect(conn)
            meta.drop_all(conn)
    finally:
        engine.dispose()


def table_states(url: str) -> dict[str, str]:
    """Every table's state replayed from its log (its text and scores): what a restore must give back."""
    out: dict[str, str] = {}
    engine = _snapshot_engine(url)
    try:
        with engine.connect() as conn, conn.begin():
            for line in list(_lines(conn, None))[1:]:
                item = json.loads(line)
                if item["t"] != GAMES:
                    continue
                row = item["row"]
                stored = _stored_events(row["id"], item["events"])
                state = check_log(row, stored)
                out[row["id"]] = f"{row['status']}|{state}|{state.scores()}"
    finally:
        engine.dispose()
    return out
