"""Storage: table metadata plus an append-only event log per table (SQLAlchemy 2, migrated by Alembic).

The live state of a table is never stored; it is rebuilt by replaying the table's events. Writes go through one
long-lived connection so that a move costs one small transaction (INSERT + COMMIT) and nothing else.
"""

from __future__ import annotations

import json
import logging
import secrets
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    case,
    create_engine,
    delete,
    event,
    false,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

log = logging.getLogger("dicehall.web.db")

SQLITE_SYNC_MODES = ("OFF", "NORMAL", "FULL", "EXTRA")
IDLE_IN_TRANSACTION_MS = 5000
"""PostgreSQL ends a transaction left open this long (the server's transactions last milliseconds)."""
OPEN_STATUSES = ("waiting", "playing")
"""Statuses of tables that may still change (``finished`` and ``abandoned`` tables are closed)."""


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    """One table: game, rule set, seats (JSON) and status (waiting, playing, finished, abandoned)."""

    __tablename__ = "dh_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    preset: Mapped[str] = mapped_column(String(64))
    overrides: Mapped[str] = mapped_column(Text)  # JSON object
    seats: Mapped[str] = mapped_column(Text)  # JSON list, token hashes only
    status: Mapped[str] = mapped_column(String(16), index=True)
    created: Mapped[float] = mapped_column(Float, index=True)
    updated: Mapped[float] = mapped_column(Float)
    # Salted hash of the creating client's address (limits.client_key), for the unfinished-tables quota;
    # cleared when the game ends. Tables from before migration 0002 have none.
    creator: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    # "real": the players throw real dice and type the outcomes in; null (tables before 0003) or "rolled": the
    # server rolls.
    dice: Mapped[str | None] = mapped_column(String(8), nullable=True)
    # "on"/"off": whether players may ask for hints; null (tables before 0004): on when at most one person plays.
    hints: Mapped[str | None] = mapped_column(String(8), nullable=True)
    # JSON {"scores": [...], "winners": [...]} written when the game finishes (0007), so lists never replay.
    result: Mapped[str | None] = mapped_column(Text, nullable=True)
    # The creating player (dh_players.id), for the per-player unfinished-tables quota; cleared at the end.
    creator_player: Mapped[str | None] = mapped_column(String(16), nullable=True, index=True)
    # Rated (0008; null: tables from before, unrated).
    rated: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    # Correspondence (0008): seconds a seat has for each move (null: live), when the seat to move times out, and
    # the deadline a reminder was sent for.
    move_seconds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    deadline: Mapped[float | None] = mapped_column(Float, nullable=True, index=True)
    reminded: Mapped[float | None] = mapped_column(Float, nullable=True)
    # Dice anyone can verify (0008): the secret seed every roll derives from (revealed in the record at the end)
    # and its SHA-256, shown from the start.
    dice_seed: Mapped[str | None] = mapped_column(String(64), nullable=True)
    dice_commit: Mapped[str | None] = mapped_column(String(64), nullable=True)


class MetaRow(Base):
    """Server-wide values kept with the data, e.g. the salt of the creator keys (so keys survive a restart)."""

    __tablename__ = "dh_meta"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class EventRow(Base):
    """One event of a table's log: ``actor`` is a seat number as text, ``"chance"`` or ``"undo"`` (a real-dice
    entry taken back); ``move`` is notation; ``entered_by`` the seat that typed a dice outcome in (or took it back)."""

    __tablename__ = "dh_events"

    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("dh_tables.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    actor: Mapped[str] = mapped_column(String(16))
    move: Mapped[str] = mapped_column(String(200))
    at: Mapped[float] = mapped_column(Float)
    entered_by: Mapped[int | None] = mapped_column(Integer, nullable=True)


class PlayerRow(Base):
    """A player: a guest (a browser's cookie), later an account. ``id`` is public; ``name`` null until picked."""

    __tablename__ = "dh_players"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    name_key: Mapped[str | None] = mapped_column(String(256), nullable=True)  # core.names.skeleton(name)
    kind: Mapped[str] = mapped_column(String(8))  # guest | account | merged | deleted
    created: Mapped[float] = mapped_column(Float)
    seen: Mapped[float] = mapped_column(Float)
    webauthn_user: Mapped[bytes | None] = mapped_column(LargeBinary, nullable=True, unique=True)


class SessionRow(Base):
    """A browser's session: only the SHA-256 of its cookie value is stored."""

    __tablename__ = "dh_sessions"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(16), ForeignKey("dh_players.id"), index=True)
    created: Mapped[float] = mapped_column(Float)
    seen: Mapped[float] = mapped_column(Float)
    expires: Mapped[float] = mapped_column(Float)
    ended: Mapped[float | None] = mapped_column(Float, nullable=True)


class SeatRow(Base):
    """One seat of a table (tables from 0007 on): who holds it, whether it is to move, and how it ended.
    ``turn`` and ``result`` are written only when they change (in the transaction of the events that changed
    them), so "Your games" is one walk of ``ix_dh_seats_player``."""

    __tablename__ = "dh_seats"
    __table_args__ = (Index("ix_dh_seats_player", "player_id", "status", "updated", "table_id"),)

    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("dh_tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str | None] = mapped_column(String(16), ForeignKey("dh_players.id"), nullable=True)
    game: Mapped[str] = mapped_column(String(32))
    status: Mapped[str] = mapped_column(String(16))
    turn: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    updated: Mapped[float] = mapped_column(Float)
    # win | loss | draw; a resigned seat stores loss (its seat JSON says resigned)
    result: Mapped[str | None] = mapped_column(String(8), nullable=True)
    score: Mapped[float | None] = mapped_column(Float, nullable=True)
    accuracy: Mapped[float | None] = mapped_column(Float, nullable=True)  # mean loss per decision (analysis)
    luck: Mapped[float | None] = mapped_column(Float, nullable=True)
    decisions: Mapped[int | None] = mapped_column(Integer, nullable=True)


class RematchRow(Base):
    """A rematch offered from a finished table; the primary key makes two offers one."""

    __tablename__ = "dh_rematches"

    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("dh_tables.id"), primary_key=True)
    new_table_id: Mapped[str] = mapped_column(String(32), ForeignKey("dh_tables.id"))
    offered_by: Mapped[int] = mapped_column(Integer)
    created: Mapped[float] = mapped_column(Float)


class CredentialRow(Base):
    """A passkey of an account: ``id`` is the credential id (base64url), the public key COSE-encoded."""

    __tablename__ = "dh_credentials"

    id: Mapped[str] = mapped_column(String(512), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(16), ForeignKey("dh_players.id"), index=True)
    public_key: Mapped[bytes] = mapped_column(LargeBinary)
    sign_count: Mapped[int] = mapped_column(Integer)
    transports: Mapped[str | None] = mapped_column(Text, nullable=True)  # JSON list
    backed_up: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    created: Mapped[float] = mapped_column(Float)
    last_used: Mapped[float | None] = mapped_column(Float, nullable=True)
    nickname: Mapped[str | None] = mapped_column(String(64), nullable=True)


class ChallengeRow(Base):
    """A WebAuthn challenge, consumed by one DELETE (single use on every process), expiring after minutes."""

    __tablename__ = "dh_challenges"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    purpose: Mapped[str] = mapped_column(String(16))  # register | login
    challenge: Mapped[bytes] = mapped_column(LargeBinary)
    session_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    address: Mapped[str | None] = mapped_column(String(64), nullable=True)
    expires: Mapped[float] = mapped_column(Float, index=True)


@dataclass(frozen=True)
class Player:
    id: str
    name: str | None
    kind: str


@dataclass
class TableMeta:
    id: str
    game: str
    preset: str
    overrides: dict[str, Any]
    seats: list[dict[str, Any]]
    status: str
    created: float
    updated: float
    creator: str | None = None
    creator_player: str | None = None
    dice: str = "rolled"
    hints: bool | None = None
    """Hints allowed at this table; None (tables from before the option) = the old rule, see ``hints_allowed``."""
    result: dict[str, Any] | None = None
    """``{"scores", "winners"}`` of a finished game (tables finished from 0007 on)."""
    rated: bool | None = None
    """A rated table (web/ratings.py); None: made before ratings, unrated."""
    unrated: str | None = None
    """Why this process made the table unrated (not stored; ``ratings.reason_of`` words a loaded one)."""

    dice_seed: str | None = None
    """The secret seed every roll derives from (core/fairdice.py); None: real dice, or a table from before 0008.
    Never sent to a page: only the record of a game that is over reveals it."""
    dice_commit: str | None = None
    """SHA-256 of ``dice_seed``, shown at the table from its creation."""
    move_seconds: int | None = None
    """Correspondence: the seconds each seat has for its move (None: a live table); see correspondence.py."""
    deadline: float | None = None
    """Correspondence: when the seats to move time out (None: nobody is on the clock)."""
    reminded: float | None = None
    """Correspondence: the deadline a reminder was sent for (one reminder per deadline)."""


@dataclass(frozen=True)
class Finish:
    """What a finished game writes with its last events: the table's result and each seat's."""

    scores: list[float]
    winners: list[int]
    rate: Callable[[Connection, float], None] | None = None
    """A rated game's rating update (web/ratings.RatedGame), run in the same transaction."""
    forfeited: tuple[int, ...] = ()
    """Seats that timed out and were played on by a bot: their players lost, whatever the bot made of them."""

    def seat_result(self, seat: int) -> str:
        """win (the only winner), draw (a shared win, or nobody won), loss (and always for a forfeited seat)."""
        if seat in self.forfeited:
            return "loss"
        if not self.winners or (seat in self.winners and len(self.winners) > 1):
            return "draw"
        return "win" if seat in self.winners else "loss"


@dataclass(frozen=True)
class SeatEntry:
    """One of a player's seats as "Your games" reads it (a row of ``dh_seats``)."""

    table_id: str
    seat: int
    status: str
    turn: bool
    updated: float
    result: str | None


class Unchanged:
    """The type of :data:`UNCHANGED`: a value a write leaves as it is (``None`` is a value: no deadline)."""


UNCHANGED = Unchanged()

UNDO = "undo"
"""Actor of a logged undo: the last entered dice outcome (``move``) is taken back by seat ``entered_by``."""


@dataclass(frozen=True)
class StoredEvent:
    seq: int
    actor: int | str
    move: str
    at: float
    entered_by: int | None = None


def default_db_url() -> str:
    import platformdirs

    path = Path(platformdirs.user_data_dir("dicehall")) / "dicehall.sqlite"
    path.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path}"


def make_engine(url: str, sqlite_sync: str = "NORMAL") -> Engine:
    """An engine; for SQLite: WAL journal, the chosen ``synchronous`` level, and a busy timeout."""
    sync = sqlite_sync.upper()
    if sync not in SQLITE_SYNC_MODES:
        raise ValueError(
            f"sqlite synchronous must be one of {', '.join(SQLITE_SYNC_MODES)}, not {sqlite_sync!r}"
        )
    is_sqlite = url.startswith("sqlite")
    if is_sqlite and url.startswith("sqlite:///") and url != "sqlite:///:memory:":
        Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, future=True)
    if url.startswith("postgresql"):

        @event.listens_for(engine, "connect")
        def _session(dbapi_conn: Any, _record: Any) -> None:
            # A server paused inside a transaction (SIGSTOP, a stall) must not hold its row locks for ever: the
            # database ends such a transaction, and the paused server's COMMIT then fails.
            cur = dbapi_conn.cursor()
            cur.execute(f"SET idle_in_transaction_session_timeout = {IDLE_IN_TRANSACTION_MS}")
            cur.close()
            dbapi_conn.commit()

    if is_sqlite:

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute(f"PRAGMA synchronous={sync}")
            cur.execute("PRAGMA busy_timeout=5000")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

    return engine


def check_database(url: str, wait: float = 0.0) -> None:
    """Fail fast, in one line, when ``url`` is malformed, its driver is missing, or the server is unreachable;
    ``wait``: seconds to keep trying an unreachable server first (a database container still starting, where
    the container engine does not wait for its health check)."""
    deadline = time.monotonic() + wait
    said = False
    while True:
        try:
            _check_database(url)
            return
        except _Unreachable as exc:
            if time.monotonic() >= deadline:
                raise ValueError(str(exc)) from None
            if not said:
                log.warning("waiting up to %g s for the database: %s", wait, exc.reason)
                said = True
            time.sleep(0.5)  # polling a server that cannot tell us when it is up


class _Unreachable(Exception):
    def __init__(self, text: str, reason: str) -> None:
        super().__init__(text)
        self.reason = reason


def _check_database(url: str) -> None:
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError, SQLAlchemyError

    try:
        engine = make_engine(url)
    except (ArgumentError, NoSuchModuleError) as exc:
        raise ValueError(f"bad --db URL {url!r}: {exc}") from None
    except ImportError as exc:
        raise ValueError(
            f"the database driver for {url.split(':', 1)[0]} is not installed ({exc.name}); "
            "for PostgreSQL: pip install 'dicehall[postgres]' and use postgresql+psycopg://..."
        ) from None
    try:
        with engine.connect():
            pass
    except SQLAlchemyError as exc:
        reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]
        shown = engine.url.render_as_string(hide_password=True)  # never the password in a log
        raise _Unreachable(f"cannot open the database {shown}: {reason}", reason) from None
    finally:
        engine.dispose()


@cache
def migration_head() -> str:
    """The schema revision this release's migrations end at."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    head = ScriptDirectory.from_config(cfg).get_current_head()
    assert head is not None
    return head


def migrate(engine: Engine) -> None:
    """Apply the Alembic migrations shipped with the package (idempotent)."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


Fence = Callable[[Connection], None]
"""A check run first in a write's transaction; it raises to refuse the write."""


def _status_values(status: str | None, finish: Finish | None) -> dict[str, Any]:
    """The ``dh_tables`` columns a status change sets."""
    if status is None:
        return {}
    values: dict[str, Any] = {"status": status}
    if status == "finished":
        values["creator"] = values["creator_player"] = None  # only the unfinished-tables quota needs them
        if finish is not None:
            values["result"] = json.dumps({"scores": finish.scores, "winners": finish.winners})
    return values


SET_TURN = text(
    "UPDATE dh_seats SET turn = (((:mask >> seat) & 1) = 1) WHERE table_id = :table AND player_id IS NOT NULL"
)
"""The ``turn`` of a table's linked seats (only they are read) from ``mask`` (bit ``seat`` set: that seat is to
move). One fixed statement, compiled once per database and run as the driver's own SQL: a turn change costs the
database's work and little Python (an ``IN`` list would be rendered anew per call)."""


def _mask(seats: Sequence[int]) -> int:
    return sum(1 << s for s in set(seats))


class _DriverStatement:
    """A statement compiled once for the engine's driver (its parameter style), executed with named values."""

    def __init__(self, stmt: Any, engine: Engine) -> None:
        compiled = stmt.compile(dialect=engine.dialect)
        self.sql = str(compiled)
        self.order = compiled.positiontup  # None for named parameter styles

    def __call__(self, conn: Connection, **values: Any) -> None:
        args = tuple(values[k] for k in self.order) if self.order else values
        conn.exec_driver_sql(self.sql, args)


def _seat_changes(
    conn: Connection,
    table_id: str,
    now: float,
    status: str | None,
    turn: Sequence[int] | None,
    finish: Finish | None,
    set_turn: _DriverStatement,
) -> None:
    """Keep the table's ``dh_seats`` rows in step (tables from before 0007 have none: nothing happens)."""
    if status is None and turn is None:
        return
    if (
        status is None
    ):  # the turn alone: one prepared statement; ``updated`` (indexed) stays, no index page moves
        set_turn(conn, mask=_mask(turn or ()), table=table_id)
        return
    values: dict[str, Any] = {"updated": now}
    if status is not None:
        values["status"] = status
    if turn is not None:
        values["turn"] = SeatRow.seat.in_(list(turn)) if turn else false()
    if status is not None and status not in OPEN_STATUSES:
        values["turn"] = false()  # nobody is to move at a closed table
    where = (SeatRow.table_id == table_id,)
    if status == "finished" and finish is not None:
        for seat, score in enumerate(finish.scores):
            conn.execute(
                update(SeatRow)
                .where(*where, SeatRow.seat == seat)
                .values(**values, result=finish.seat_result(seat), score=score)
            )
        if finish.rate is not None:
            finish.rate(conn, now)
        return
    conn.execute(update(SeatRow).where(*where).values(**values))


def _actor_out(text: str) -> int | str:
    return text if text in ("chance", UNDO) else int(text)


class Store:
    """All database access of the server. Single-threaded use (the server's event loop)."""

    def __init__(self, url: str, sqlite_sync: str = "NORMAL") -> None:
        self.url = url
        self.engine = make_engine(url, sqlite_sync)
        migrate(self.engine)
        self._conn: Connection = self.engine.connect()
        self._ins_event = insert(EventRow)
        self._set_turn = _DriverStatement(SET_TURN, self.engine)

    def close(self) -> None:
        self._conn.close()
        self.engine.dispose()

    def ping(self) -> None:
        self._conn.exec_driver_sql("SELECT 1").fetchall()
        self._conn.rollback()

    def migration_state(self) -> tuple[str | None, str]:
        """The database's schema revision and the one this release needs (equal once migrated)."""
        try:
            current = self._conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalar()
        finally:
            self._conn.rollback()
        return (None if current is None else str(current)), migration_head()

    # -- writes (each one transaction, committed before the caller broadcasts anything) ---------------------
    def create_table(self, meta: TableMeta, turn: Sequence[int] = ()) -> None:
        """The table and a ``dh_seats`` row per seat (``player`` of a linked seat; ``turn``: the seats to move)."""
        table = insert(TableRow).values(
            id=meta.id,
            game=meta.game,
            preset=meta.preset,
            overrides=json.dumps(meta.overrides),
            seats=json.dumps(meta.seats),
            status=meta.status,
            created=meta.created,
            updated=meta.updated,
            creator=meta.creator,
            dice=None if meta.dice == "rolled" else meta.dice,
            hints=None if meta.hints is None else ("on" if meta.hints else "off"),
            creator_player=meta.creator_player,
            rated=meta.rated,
            dice_seed=meta.dice_seed,
            dice_commit=meta.dice_commit,
            move_seconds=meta.move_seconds,
            deadline=meta.deadline,
        )
        seats = [
            {
                "table_id": meta.id,
                "seat": i,
                "player_id": s.get("player"),
                "game": meta.game,
                "status": meta.status,
                "turn": i in turn,
                "updated": meta.updated,
            }
            for i, s in enumerate(meta.seats)
        ]

        def stmts(conn: Connection) -> None:
            conn.execute(table)
            if seats:
                conn.execute(insert(SeatRow), seats)

        self._transaction(stmts)

    def update_table(
        self,
        table_id: str,
        *,
        seats: list[dict[str, Any]] | None = None,
        status: str | None = None,
        fence: Fence | None = None,
        link: Mapping[int, str] | None = None,
        finish: Finish | None = None,
        turn: Sequence[int] | None = None,
        rated: bool | None = None,
        deadline: float | Unchanged | None = UNCHANGED,
    ) -> None:
        """``fence``: a check run first in the same transaction (the lease of a shared database, owners.py);
        ``link``: seats now held by these players (``dh_seats.player_id``); ``finish``: the result of a game that
        ends with this status change; ``deadline``: a correspondence table's new deadline."""
        now = time.time()
        values: dict[str, Any] = {"updated": now}
        if seats is not None:
            values["seats"] = json.dumps(seats)
        if rated is not None:
            values["rated"] = rated
        if not isinstance(deadline, Unchanged):
            values["deadline"] = deadline
        stmt = update(TableRow).where(TableRow.id == table_id)

        def stmts(conn: Connection) -> None:
            if fence is not None:
                fence(conn)
            conn.execute(stmt.values(**values, **_status_values(status, finish)))
            for seat, player_id in (link or {}).items():
                conn.execute(
                    update(SeatRow)
                    .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                    .values(player_id=player_id)
                )
            _seat_changes(conn, table_id, now, status, turn, finish, self._set_turn)

        self._transaction(stmts)

    def append_events(
        self,
        table_id: str,
        events: Sequence[StoredEvent],
        status: str | None = None,
        fence: Fence | None = None,
        seats: list[dict[str, Any]] | None = None,
        *,
        turn: Sequence[int] | None = None,
        finish: Finish | None = None,
        deadline: float | Unchanged | None = UNCHANGED,
    ) -> None:
        """Append ``events`` (and a status change, and new ``seats``: a resign) in one transaction; raises if a
        sequence number exists, or whatever ``fence`` raises (it runs first in the transaction: the owner's lease
        check, owners.py). ``turn``: the seats to move now, given only when that changed (a move that keeps the
        turn writes no seat row); ``finish``: the result, with the status ``finished``; ``deadline``: a
        correspondence table's new deadline (given only when the seats to move changed)."""
        new_deadline = not isinstance(deadline, Unchanged)
        rows = [
            {
                "table_id": table_id,
                "seq": e.seq,
                "actor": str(e.actor),
                "move": e.move,
                "at": e.at,
                "entered_by": e.entered_by,
            }
            for e in events
        ]

        def stmts(conn: Connection) -> None:
            if fence is not None:
                fence(conn)
            conn.execute(self._ins_event, rows)
            if status is None and turn is None and seats is None and not new_deadline:
                return  # the common move: one INSERT
            now = time.time()
            values: dict[str, Any] = {"deadline": deadline} if new_deadline else {}
            if status is not None:
                values.update(updated=now, **_status_values(status, finish))
            if seats is not None:
                values.update(seats=json.dumps(seats), updated=now)
            if values:
                conn.execute(update(TableRow).where(TableRow.id == table_id).values(**values))
            _seat_changes(conn, table_id, now, status, turn, finish, self._set_turn)

        self._transaction(stmts)

    def delete_table(self, table_id: str, fence: Fence | None = None) -> None:
        """Delete the table and every row about it (its log, seats, lease, rematch offers) in one transaction,
        fenced like a move (the owner deletes); the lease row goes last, so the fence reads it first."""

        def stmts(conn: Connection) -> None:
            if fence is not None:
                fence(conn)
            conn.execute(delete(EventRow).where(EventRow.table_id == table_id))
            conn.execute(delete(SeatRow).where(SeatRow.table_id == table_id))
            conn.execute(
                delete(RematchRow).where(
                    (RematchRow.table_id == table_id) | (RematchRow.new_table_id == table_id)
                )
            )
            conn.execute(text("DELETE FROM dh_owners WHERE table_id = :t"), {"t": table_id})
            conn.execute(delete(TableRow).where(TableRow.id == table_id))

        self._transaction(stmts)

    def notify(self, channel: str, payload: str) -> None:
        """PostgreSQL ``NOTIFY``: every process listening on ``channel`` gets ``payload`` (lobby.py)."""
        self._write(select(func.pg_notify(channel, payload)))

    def _write(self, stmt: Any) -> None:
        self._transaction(lambda conn: conn.execute(stmt))

    def _transaction(self, stmts: Callable[[Connection], Any]) -> None:
        """Run ``stmts`` and commit. A server that dropped the connection (a PostgreSQL restart or failover;
        SQLite never does) before COMMIT was sent committed nothing, so that one case is retried once on a
        fresh connection; a failed COMMIT is never retried (its outcome is unknown)."""
        for attempt in (1, 2):
            conn = self._conn
            try:
                stmts(conn)
            except DBAPIError as exc:
                conn.rollback()
                if attempt == 1 and exc.connection_invalidated:
                    continue  # SQLAlchemy opens a new connection on next use
                raise
            except BaseException:
                conn.rollback()
                raise
            try:
                conn.commit()
            except BaseException:
                conn.rollback()
                raise
            return

    # -- reads ------------------------------------------------------------------------------------------------
    def _read(self, stmt: Any) -> list[Any]:
        for attempt in (1, 2):
            try:
                return list(self._conn.execute(stmt).all())
            except DBAPIError as exc:
                if attempt == 1 and exc.connection_invalidated:
                    continue  # dropped by the server: read again on a fresh connection
                raise
            finally:
                self._conn.rollback()
        raise AssertionError("unreachable")

    @staticmethod
    def _meta(row: Any) -> TableMeta:
        return TableMeta(
            id=row.id,
            game=row.game,
            preset=row.preset,
            overrides=json.loads(row.overrides),
            seats=json.loads(row.seats),
            status=row.status,
            created=row.created,
            updated=row.updated,
            creator=row.creator,
            creator_player=row.creator_player,
            dice=row.dice or "rolled",
            hints=None if row.hints is None else row.hints == "on",
            result=json.loads(row.result) if row.result else None,
            rated=row.rated,
            dice_seed=row.dice_seed,
            dice_commit=row.dice_commit,
            move_seconds=row.move_seconds,
            deadline=row.deadline,
            reminded=row.reminded,
        )

    def get_table(self, table_id: str) -> TableMeta | None:
        rows = self._read(select(TableRow).where(TableRow.id == table_id))
        return self._meta(rows[0]) if rows else None

    def list_tables(
        self,
        statuses: Iterable[str] | None = None,
        limit: int = 100,
        before: float | None = None,
        games: Iterable[str] | None = None,
        not_of: str | None = None,
    ) -> list[TableMeta]:
        """Newest first; ``before`` (a ``created`` time) gives the next page after a page ending there; ``games``
        keeps only those games; ``not_of``: leaves out the tables this player created or holds a seat at."""
        stmt = select(TableRow).order_by(TableRow.created.desc()).limit(limit)
        if not_of is not None:
            held = select(SeatRow.table_id).where(
                SeatRow.table_id == TableRow.id, SeatRow.player_id == not_of
            )
            stmt = stmt.where(
                or_(TableRow.creator_player.is_(None), TableRow.creator_player != not_of), ~held.exists()
            )
        if games is not None:
            stmt = stmt.where(TableRow.game.in_(list(games)))
        if before is not None:
            stmt = stmt.where(TableRow.created < before)
        if statuses is not None:
            stmt = stmt.where(TableRow.status.in_(list(statuses)))
        return [self._meta(r) for r in self._read(stmt)]

    def unfinished_table_ids(self) -> list[str]:
        rows = self._read(
            select(TableRow.id).where(TableRow.status.in_(OPEN_STATUSES)).order_by(TableRow.created)
        )
        return [r[0] for r in rows]

    def count_unfinished(self, creator: str) -> int:
        """Tables created from ``creator`` (a client address key) that are waiting or in play."""
        stmt = select(func.count()).where(TableRow.creator == creator, TableRow.status.in_(OPEN_STATUSES))
        return int(self._read(stmt)[0][0])

    def count_unfinished_of_player(self, player_id: str) -> int:
        """Tables created by the player ``player_id`` that are waiting or in play."""
        stmt = select(func.count()).where(
            TableRow.creator_player == player_id, TableRow.status.in_(OPEN_STATUSES)
        )
        return int(self._read(stmt)[0][0])

    def add_rematch(self, table_id: str, new_table_id: str, offered_by: int, now: float) -> None:
        """Record the rematch of ``table_id``; a second one raises (the primary key: one rematch per table)."""
        row = {"table_id": table_id, "new_table_id": new_table_id, "offered_by": offered_by, "created": now}
        self._transaction(lambda conn: conn.execute(insert(RematchRow), [row]))

    def rematch_of(self, table_id: str) -> tuple[str, int] | None:
        """The table offered as the rematch of ``table_id`` and the old seat that offered it, or None."""
        rows = self._read(
            select(RematchRow.new_table_id, RematchRow.offered_by).where(RematchRow.table_id == table_id)
        )
        return (rows[0][0], int(rows[0][1])) if rows else None

    def rematches_into(self, new_table_ids: Iterable[str]) -> dict[str, tuple[str, int]]:
        """For tables offered as rematches: new table → (the finished table it answers, the old seat that offered)."""
        ids = list(new_table_ids)
        if not ids:
            return {}
        rows = self._read(
            select(RematchRow.new_table_id, RematchRow.table_id, RematchRow.offered_by).where(
                RematchRow.new_table_id.in_(ids)
            )
        )
        return {new: (old, int(by)) for new, old, by in rows}

    def unfinished_summary(
        self, player_id: str | None, creator: str | None, correspondence: bool | None = None
    ) -> tuple[int, float | None]:
        """How many unfinished tables the player ``player_id`` (else: the address key ``creator``) created, and
        the last activity of the least recently active of them (None when there is none); ``correspondence``:
        only the correspondence tables (True) or only the live ones (False), else all."""
        owner = TableRow.creator_player == player_id if player_id is not None else TableRow.creator == creator
        stmt = select(func.count(), func.min(self._last_activity())).where(
            owner, TableRow.status.in_(OPEN_STATUSES)
        )
        if correspondence is not None:
            timed = TableRow.move_seconds.is_not(None)
            stmt = stmt.where(timed if correspondence else ~timed)
        count, oldest = self._read(stmt)[0]
        return int(count), None if oldest is None else float(oldest)

    def unfinished_by_activity(
        self, *, creator: str | None = None, player_id: str | None = None, limit: int = 100
    ) -> list[tuple[TableMeta, float]]:
        """Unfinished tables created from the address key ``creator`` or by the player ``player_id``, with the
        time of their last activity, the least recently active (the next to be abandoned) first."""
        last = self._last_activity().label("last")
        owner = TableRow.creator == creator if player_id is None else TableRow.creator_player == player_id
        stmt = (
            select(TableRow, last)
            .where(owner, TableRow.status.in_(OPEN_STATUSES))
            .order_by(last, TableRow.id)
            .limit(limit)
        )
        return [(self._meta(r), float(r.last)) for r in self._read(stmt)]

    def secret(self, key: str) -> bytes:
        """A random server secret stored under ``key``, made on first use (e.g. the creator-key salt)."""
        rows = self._read(select(MetaRow.value).where(MetaRow.key == key))
        if rows:
            return bytes.fromhex(rows[0][0])
        # Several processes starting at once on one database may all find it missing: the first insert wins, the
        # others insert nothing and read the winner's (a plain insert failed them with a duplicate key).
        dialect = postgresql if self.engine.dialect.name == "postgresql" else sqlite
        stmt = (
            dialect.insert(MetaRow)
            .values(key=key, value=secrets.token_bytes(32).hex())
            .on_conflict_do_nothing()
        )
        self._write(stmt)
        return bytes.fromhex(self._read(select(MetaRow.value).where(MetaRow.key == key))[0][0])

    def events(self, table_id: str, after: int = 0) -> list[StoredEvent]:
        rows = self._read(
            select(EventRow.seq, EventRow.actor, EventRow.move, EventRow.at, EventRow.entered_by)
            .where(EventRow.table_id == table_id, EventRow.seq > after)
            .order_by(EventRow.seq)
        )
        return [StoredEvent(r.seq, _actor_out(r.actor), r.move, r.at, r.entered_by) for r in rows]

    # -- players and sessions (players.py) ----------------------------------------------------------------------
    def create_player(self, id_hash: str, now: float, expires: float) -> Player:
        """A new guest and its session (keyed by ``id_hash``), in one transaction."""
        player = Player(secrets.token_hex(8), None, "guest")

        def stmts(conn: Connection) -> None:
            conn.execute(insert(PlayerRow).values(id=player.id, kind=player.kind, created=now, seen=now))
            conn.execute(
                insert(SessionRow).values(
                    id_hash=id_hash, player_id=player.id, created=now, seen=now, expires=expires
                )
            )

        self._transaction(stmts)
        return player

    def session_player(self, id_hash: str, now: float) -> tuple[Player, float] | None:
        """The player of a live session (not ended, not expired) and the session's ``seen``, or None."""
        stmt = (
            select(PlayerRow.id, PlayerRow.name, PlayerRow.kind, SessionRow.seen)
            .join(PlayerRow, PlayerRow.id == SessionRow.player_id)
            .where(SessionRow.id_hash == id_hash, SessionRow.ended.is_(None), SessionRow.expires > now)
        )
        rows = self._read(stmt)
        if not rows or rows[0].kind == "deleted":
            return None
        r = rows[0]
        return Player(r.id, r.name, r.kind), r.seen

    def touch_session(self, id_hash: str, player_id: str, now: float, expires: float) -> None:
        """Mark a session (and its player) seen now and push its expiry on."""
        self._transaction(
            lambda conn: (
                conn.execute(
                    update(SessionRow).where(SessionRow.id_hash == id_hash).values(seen=now, expires=expires)
                ),
                conn.execute(update(PlayerRow).where(PlayerRow.id == player_id).values(seen=now)),
            )
        )

    def get_player(self, player_id: str) -> Player | None:
        rows = self._read(
            select(PlayerRow.id, PlayerRow.name, PlayerRow.kind).where(PlayerRow.id == player_id)
        )
        if not rows or rows[0].kind == "deleted":
            return None
        return Player(rows[0].id, rows[0].name, rows[0].kind)

    def set_player_name(self, player_id: str, name: str, name_key: str) -> None:
        self._write(update(PlayerRow).where(PlayerRow.id == player_id).values(name=name, name_key=name_key))

    def player_names(self, ids: Iterable[str]) -> dict[str, str | None]:
        """Display names of players by id (one ``IN`` query)."""
        wanted = list(set(ids))
        if not wanted:
            return {}
        return {
            r.id: r.name
            for r in self._read(select(PlayerRow.id, PlayerRow.name).where(PlayerRow.id.in_(wanted)))
        }

    def show_player_names(self, metas: Iterable[TableMeta]) -> None:
        """Linked seats are called by their players' names now (one ``IN`` query for all ``metas``), so a rename
        shows everywhere; the stored JSON keeps the name the seat had (records' snapshot)."""
        metas = list(metas)
        names = self.player_names(s["player"] for m in metas for s in m.seats if s.get("player"))
        for meta in metas:
            for s in meta.seats:
                name = names.get(s.get("player") or "")
                if name:
                    s["name"], s["named"] = name, True

    # -- "Your games": a player's seats, by ix_dh_seats_player --------------------------------------------------
    _SEAT_COLUMNS = (
        SeatRow.table_id,
        SeatRow.seat,
        SeatRow.status,
        SeatRow.turn,
        SeatRow.updated,
        SeatRow.result,
    )

    def open_seats(self, player_id: str, limit: int = 200) -> list[SeatEntry]:
        """The player's seats at waiting and playing tables, each status newest first: a range walk of
        ``ix_dh_seats_player`` per status (no sort; the caller puts the seats to move first)."""
        out: list[SeatEntry] = []
        for status in OPEN_STATUSES:
            out += [SeatEntry(*r) for r in self._read(self.seats_stmt(player_id, status, limit))]
        return out

    def finished_seats(
        self, player_id: str, limit: int, before: tuple[float, str] | None = None
    ) -> list[SeatEntry]:
        """The player's seats at finished tables, newest first, after the keyset ``before`` = ``(updated,
        table_id)`` of the last one of the page before: a range walk of ``ix_dh_seats_player`` (no offset)."""
        return [SeatEntry(*r) for r in self._read(self.seats_stmt(player_id, "finished", limit, before))]

    @classmethod
    def seats_stmt(
        cls, player_id: str, status: str, limit: int, before: tuple[float, str] | None = None
    ) -> Any:
        """A player's seats of one status, newest first (ties by table id), after the keyset ``before``."""
        stmt = select(*cls._SEAT_COLUMNS).where(SeatRow.player_id == player_id, SeatRow.status == status)
        if before is not None:
            u, t = before
            # "updated <= u" bounds the range (a seek); the OR keeps ties on updated ordered by table_id
            stmt = stmt.where(SeatRow.updated <= u, or_(SeatRow.updated < u, SeatRow.table_id < t))
        return stmt.order_by(SeatRow.updated.desc(), SeatRow.table_id.desc()).limit(limit)

    def tables_by_id(self, ids: Iterable[str]) -> dict[str, TableMeta]:
        wanted = list(set(ids))
        if not wanted:
            return {}
        return {r.id: self._meta(r) for r in self._read(select(TableRow).where(TableRow.id.in_(wanted)))}

    _LISTED = (
        TableRow.id,
        TableRow.game,
        TableRow.preset,
        TableRow.seats,
        TableRow.status,
        TableRow.created,
        TableRow.updated,
        TableRow.result,
        TableRow.move_seconds,
        TableRow.deadline,
    )

    def tables_listed(self, ids: Iterable[str]) -> dict[str, TableMeta]:
        """The tables as a list shows them ("Your games": hundreds of correspondence games): ``tables_by_id``
        without the columns a list never reads (rules, creator, dice, hints are left at their defaults), about
        half its cost."""
        wanted = list(set(ids))
        if not wanted:
            return {}
        rows = self._read(select(*self._LISTED).where(TableRow.id.in_(wanted)))
        return {
            i: TableMeta(
                i,
                game,
                preset,
                {},
                json.loads(seats),
                status,
                created,
                updated,
                result=json.loads(result) if result else None,
                move_seconds=move_seconds,
                deadline=deadline,
            )
            for i, game, preset, seats, status, created, updated, result, move_seconds, deadline in rows
        }

    def your_turn_count(self, player_id: str) -> int:
        """Tables in play where one of the player's seats is to move."""
        return len({r[0] for r in self._read(self.your_turn_stmt(player_id))})

    @staticmethod
    def your_turn_stmt(player_id: str) -> Any:
        # the table ids, counted here: a COUNT(DISTINCT) would sort them in a temporary b-tree
        return select(SeatRow.table_id).where(
            SeatRow.player_id == player_id, SeatRow.status == "playing", SeatRow.turn.is_(True)
        )

    # -- lifecycle (unloading, abandonment) ------------------------------------------------------------------
    def _last_activity(self) -> Any:
        """The time of a table's last event, or its creation when it has none (a correlated subquery)."""
        last = (  # the newest event by the primary key (table_id, seq): an index lookup per table, no scan
            select(EventRow.at)
            .where(EventRow.table_id == TableRow.id)
            .order_by(EventRow.seq.desc())
            .limit(1)
            .correlate(TableRow)
            .scalar_subquery()
        )
        return func.coalesce(last, TableRow.created)

    def open_tables_by_activity(self, limit: int) -> list[TableMeta]:
        """Waiting or playing tables, most recently active first."""
        stmt = (
            select(TableRow)
            .where(TableRow.status.in_(OPEN_STATUSES))
            .order_by(self._last_activity().desc())
            .limit(limit)
        )
        return [self._meta(r) for r in self._read(stmt)]

    def stale_open_tables(self, before: float, now: float | None = None) -> list[str]:
        """Waiting or playing tables with no event (nor creation) since ``before``, leaving out correspondence
        tables whose deadline is still to come at ``now`` (their seat to move has its days)."""
        stmt = select(TableRow.id).where(TableRow.status.in_(OPEN_STATUSES), self._last_activity() < before)
        if now is not None:
            stmt = stmt.where(or_(TableRow.deadline.is_(None), TableRow.deadline <= now))
        return [r[0] for r in self._read(stmt)]

    # -- correspondence (correspondence.py) -------------------------------------------------------------------
    def deadlines_before(self, until: float, limit: int = 1000) -> list[tuple[str, float, float | None, int]]:
        """``(table_id, deadline, reminded, move_seconds)`` of the tables in play whose deadline is at or before
        ``until``, nearest first: a range walk of ``ix_dh_tables_deadline``."""
        stmt = (
            select(TableRow.id, TableRow.deadline, TableRow.reminded, TableRow.move_seconds)
            .where(TableRow.deadline <= until, TableRow.status == "playing")
            .order_by(TableRow.deadline)
            .limit(limit)
        )
        return [(r[0], float(r[1]), r[2], int(r[3] or 0)) for r in self._read(stmt)]

    def mark_reminded(self, table_id: str, deadline: float) -> bool:
        """Record that the reminder for ``deadline`` is sent: a compare-and-set, True only for the one caller
        that set it (another process, or a second sweep, gets False)."""
        stmt = (
            update(TableRow)
            .where(
                TableRow.id == table_id,
                TableRow.deadline == deadline,
                or_(TableRow.reminded.is_(None), TableRow.reminded != deadline),
            )
            .values(reminded=deadline)
        )
        done = 0

        def stmts(conn: Connection) -> None:
            nonlocal done
            done = conn.execute(stmt).rowcount

        self._transaction(stmts)
        return done > 0

    # -- stored analysis (analyst.py) and profiles (profile_api.py) -----------------------------------------
    def analysis_candidates(self, limit: int, stale_before: float) -> list[str]:
        """Finished tables with a seat linked to a player and not analysed yet (or claimed before ``stale_before``
        by a process that never wrote its figures), oldest first."""
        stmt = (
            select(SeatRow.table_id)
            .where(SeatRow.status == "finished", SeatRow.player_id.is_not(None), _unanalysed(stale_before))
            .group_by(SeatRow.table_id)
            .order_by(func.min(SeatRow.updated))
            .limit(limit)
        )
        return [r[0] for r in self._read(stmt)]

    def claim_analysis(self, table_id: str, now: float, stale_before: float) -> bool:
        """Take the table for analysis: a compare-and-set of its linked seats from "not analysed" to "claimed"
        (``decisions`` = -1, the claim's time in ``luck``); False when another process took it first."""
        stmt = (
            update(SeatRow)
            .where(
                SeatRow.table_id == table_id,
                SeatRow.status == "finished",
                SeatRow.player_id.is_not(None),
                _unanalysed(stale_before),
            )
            .values(decisions=CLAIMED, luck=now, accuracy=None)
        )
        claimed = 0

        def stmts(conn: Connection) -> None:
            nonlocal claimed
            claimed = conn.execute(stmt).rowcount

        self._transaction(stmts)
        return claimed > 0

    def store_analysis(
        self,
        table_id: str,
        figures: Mapping[int, tuple[int, float | None, float | None]],
        found: Sequence[FoundPuzzle] = (),
    ) -> None:
        """Write each linked seat's ``(decisions, accuracy, luck)`` and the puzzles found in the game in one
        transaction (a seat missing from ``figures``, or every seat of a failed analysis: decisions 0, no figures;
        a puzzle already found in another game is kept as it was)."""

        def stmts(conn: Connection) -> None:
            if found:
                insert = (postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert)(
                    FoundPuzzleRow
                )
                now = time.time()
                rows = [asdict(f) | {"table_id": table_id, "found": now} for f in found]
                conn.execute(insert.on_conflict_do_nothing(), rows)
            seats = conn.execute(
                select(SeatRow.seat).where(SeatRow.table_id == table_id, SeatRow.player_id.is_not(None))
            ).all()
            for (seat,) in seats:
                decisions, accuracy, luck = figures.get(seat, (0, None, None))
                conn.execute(
                    update(SeatRow)
                    .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                    .values(decisions=decisions, accuracy=accuracy, luck=luck)
                )

        self._transaction(stmts)

    def linked_seats(self, table_id: str) -> list[int]:
        """The seats of a table held by players (people; bots hold no player)."""
        stmt = select(SeatRow.seat).where(SeatRow.table_id == table_id, SeatRow.player_id.is_not(None))
        return sorted(r[0] for r in self._read(stmt))

    def found_count(self, game: str) -> int:
        """How many puzzles have been found in games of ``game`` played here."""
        stmt = select(func.count()).select_from(FoundPuzzleRow).where(FoundPuzzleRow.game == game)
        return int(self._read(stmt)[0][0])

    def found_puzzles(self, game: str) -> list[Any]:
        """The puzzles found in games played here, of ``game``, oldest first: rows of ``puzzle``, ``body``,
        ``table_id``, ``step``."""
        t = FoundPuzzleRow
        stmt = select(t.puzzle, t.body, t.table_id, t.step).where(t.game == game).order_by(t.found, t.puzzle)
        return self._read(stmt)

    def player_any(self, player_id: str) -> Player | None:
        """The player, deleted ones included (a profile says "deleted player")."""
        rows = self._read(
            select(PlayerRow.id, PlayerRow.name, PlayerRow.kind).where(PlayerRow.id == player_id)
        )
        return Player(rows[0].id, rows[0].name, rows[0].kind) if rows else None

    @staticmethod
    def profile_counts_stmt(player_id: str) -> Any:
        """Per game: the tables played, won and drawn (a table where the player held several seats counts once,
        by its best result: win, then draw); a range walk of ``ix_dh_seats_player``."""
        mine = (SeatRow.player_id == player_id, SeatRow.status == "finished")
        best = (
            select(SeatRow.table_id, SeatRow.game, func.min(_RANK).label("best"))
            .where(*mine)
            .group_by(SeatRow.table_id, SeatRow.game)
            .subquery()
        )
        return select(
            best.c.game,
            func.count(),
            func.sum(case((best.c.best == 0, 1), else_=0)),
            func.sum(case((best.c.best == 1, 1), else_=0)),
            func.sum(case((best.c.best == 2, 1), else_=0)),
        ).group_by(best.c.game)

    @staticmethod
    def profile_stmt(player_id: str, limit: int) -> Any:
        """The player's newest ``limit`` seats at finished tables with their figures: a range walk of
        ``ix_dh_seats_player`` (newest first, no sort)."""
        return (
            select(
                SeatRow.table_id,
                SeatRow.seat,
                SeatRow.game,
                SeatRow.result,
                SeatRow.score,
                SeatRow.updated,
                SeatRow.decisions,
                SeatRow.accuracy,
                SeatRow.luck,
            )
            .where(SeatRow.player_id == player_id, SeatRow.status == "finished")
            .order_by(SeatRow.updated.desc(), SeatRow.table_id.desc())
            .limit(limit)
        )

    def profile_counts(self, player_id: str) -> list[tuple[str, int, int, int, int]]:
        """(game, played, wins, draws, losses) per game."""
        return [
            (r[0], int(r[1]), int(r[2] or 0), int(r[3] or 0), int(r[4] or 0))
            for r in self._read(self.profile_counts_stmt(player_id))
        ]

    def profile_seats(self, player_id: str, limit: int) -> list[Any]:
        return self._read(self.profile_stmt(player_id, limit))


_RANK = case(
    (SeatRow.result == "win", 0), (SeatRow.result == "draw", 1), (SeatRow.result == "loss", 2), else_=3
)
"""A seat's result as a rank (profile_counts_stmt: a table's best seat)."""

CLAIMED = -1
"""``dh_seats.decisions`` of a seat whose table an analyst has taken and not yet written (``luck``: since when)."""


def _unanalysed(stale_before: float) -> Any:
    return or_(SeatRow.decisions.is_(None), (SeatRow.decisions == CLAIMED) & (SeatRow.luck < stale_before))


class RatingRow(Base):
    """A player's rating in one game (OpenSkill): ``ordinal`` orders the leaderboard."""

    __tablename__ = "dh_ratings"
    __table_args__ = (Index("ix_dh_ratings_board", "game", "ordinal"),)

    player_id: Mapped[str] = mapped_column(String(16), ForeignKey("dh_players.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    ordinal: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    updated: Mapped[float] = mapped_column(Float)


class RatingHistoryRow(Base):
    """One rated game's change of one player's rating (the profile's chart, the game-over card)."""

    __tablename__ = "dh_rating_history"
    __table_args__ = (
        Index("ix_dh_rating_history_player", "player_id", "game", "at"),
        Index("ix_dh_rating_history_table", "table_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(String(16), ForeignKey("dh_players.id"))
    game: Mapped[str] = mapped_column(String(32))
    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("dh_tables.id"))
    at: Mapped[float] = mapped_column(Float)
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)


class PushSubRow(Base):
    """A browser's Web Push subscription for a player (``id``: SHA-256 of the endpoint)."""

    __tablename__ = "dh_push_subs"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(16), ForeignKey("dh_players.id"), index=True)
    endpoint: Mapped[str] = mapped_column(Text)
    p256dh: Mapped[str] = mapped_column(String(128))
    auth: Mapped[str] = mapped_column(String(64))
    lang: Mapped[str | None] = mapped_column(String(8), nullable=True)
    created: Mapped[float] = mapped_column(Float)
    failures: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class PuzzleRatingRow(Base):
    """A player's puzzle rating in one game (Glicko-2, core/puzzles.py) and streak (migration 0009)."""

    __tablename__ = "dh_puzzle_ratings"

    player_id: Mapped[str] = mapped_column(String(16), ForeignKey("dh_players.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    vol: Mapped[float] = mapped_column(Float)
    streak: Mapped[int] = mapped_column(Integer)
    best_streak: Mapped[int] = mapped_column(Integer)
    solved: Mapped[int] = mapped_column(Integer)
    tried: Mapped[int] = mapped_column(Integer)
    updated: Mapped[float] = mapped_column(Float)


class PuzzleAnswerRow(Base):
    """A player's first (rated) answer to one puzzle: the primary key makes a second answer unrated (0009)."""

    __tablename__ = "dh_puzzle_answers"

    player_id: Mapped[str] = mapped_column(String(16), ForeignKey("dh_players.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    puzzle: Mapped[str] = mapped_column(String(32), primary_key=True)
    choice: Mapped[str] = mapped_column(String(16))
    correct: Mapped[bool] = mapped_column(Boolean)
    at: Mapped[float] = mapped_column(Float)
    rating_before: Mapped[float] = mapped_column(Float)
    rating: Mapped[float] = mapped_column(Float)


@dataclass(frozen=True)
class FoundPuzzle:
    """A puzzle found in a finished game, as :meth:`Store.store_analysis` keeps it."""

    game: str
    puzzle: str
    body: str
    step: int
    seat: int


class FoundPuzzleRow(Base):
    """A puzzle found in a game played here (migration 0010): the position a person met, kept as the game's
    puzzle file line (``body``), with the table and step it came from; a position found again is kept once."""

    __tablename__ = "dh_found_puzzles"

    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    puzzle: Mapped[str] = mapped_column(String(32), primary_key=True)
    body: Mapped[str] = mapped_column(Text)
    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("dh_tables.id"))
    step: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    found: Mapped[float] = mapped_column(Float)
