"""Leases of tables when several server processes share one PostgreSQL (``serve --node-url``; docs/scaling.md).

A table is owned by one process at a time: a row of ``dh_owners`` with the owner's id, its address, an ``epoch``
and an expiry in database time (so the processes' clocks do not matter). Only the owner loads the table, applies
moves, rolls dice and runs its bots; the others forward requests for it to the owner's address. The owner renews
its leases every third of the lease time; a process that dies stops renewing, its leases expire, and the next
request for one of its tables takes the lease over (``epoch`` + 1) and replays the log.

Fencing: every write of a table's log or row checks, in the same transaction, that this process still holds the
epoch it loaded the table with (``SELECT … FOR SHARE`` of the lease row, which a take-over must wait for). A
process paused past its lease (SIGSTOP, a stalled disk, a partition) that wakes up after another took over is
refused (:class:`LeaseLost`) and drops the table; it can never commit a move on top of the new owner's.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable

from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError

NOW = "extract(epoch from clock_timestamp())"
LOCK_WAIT_MS = 2000
"""How long a take-over waits for the old owner's write in flight before it reports the table busy."""


class LeaseLost(Exception):
    """This process no longer owns the table: another one took it over (its epoch moved on)."""


class Elsewhere(Exception):
    """The table is owned by another live process, reachable at ``url`` (forward the request there)."""

    def __init__(self, table_id: str, url: str) -> None:
        super().__init__(f"table {table_id} is served by {url}")
        self.table_id = table_id
        self.url = url


_ACQUIRE = text(
    f"""
    INSERT INTO dh_owners (table_id, owner, url, epoch, expires_at)
    VALUES (:t, :me, :url, 1, {NOW} + :ttl)
    ON CONFLICT (table_id) DO UPDATE SET owner = EXCLUDED.owner, url = EXCLUDED.url,
        epoch = dh_owners.epoch + 1, expires_at = EXCLUDED.expires_at
    WHERE dh_owners.expires_at < {NOW} OR dh_owners.owner IN ('', EXCLUDED.owner)
    RETURNING epoch
    """
)
_OWNER = text("SELECT owner, url FROM dh_owners WHERE table_id = :t")
_FENCE = text("SELECT 1 FROM dh_owners WHERE table_id = :t AND owner = :me AND epoch = :e FOR SHARE")
_RENEW = text(f"UPDATE dh_owners SET expires_at = {NOW} + :ttl WHERE owner = :me RETURNING table_id, epoch")
_RELEASE = text("UPDATE dh_owners SET owner = '', expires_at = 0 WHERE table_id = :t AND owner = :me")
_RELEASE_ALL = text("UPDATE dh_owners SET expires_at = 0 WHERE owner = :me")
_ORPHANS = text(
    f"""
    SELECT o.table_id FROM dh_owners o JOIN dh_tables t ON t.id = o.table_id
    WHERE o.expires_at < {NOW} AND o.owner <> '' AND t.status = 'playing' AND t.seats LIKE '%"kind": "bot"%'
    ORDER BY o.expires_at LIMIT :n
    """
)


class Owners:
    """This process's leases. Every call runs on the server's event loop, on the store's connection."""

    def __init__(self, conn: Callable[[], Connection], url: str, ttl: float) -> None:
        self._conn = conn
        self.me = secrets.token_hex(8)
        self.url = url.rstrip("/")
        self.ttl = ttl
        self.held: dict[str, int] = {}
        """table id -> the epoch this process took it with."""

    def _run(self, stmt: object, **params: object) -> list[tuple[object, ...]]:
        conn = self._conn()
        try:
            result = conn.execute(stmt, params)  # type: ignore[call-overload]
            rows = [tuple(r) for r in result.all()] if result.returns_rows else []
        except BaseException:
            conn.rollback()
            raise
        conn.commit()
        return rows

    def acquire(self, table_id: str) -> int:
        """Take the table (free, released, expired, or this process's own but not in memory any more): its new
        epoch; :class:`Elsewhere` if another process holds it."""
        conn = self._conn()
        try:
            conn.exec_driver_sql(f"SET LOCAL lock_timeout = {LOCK_WAIT_MS}")
            got = conn.execute(
                _ACQUIRE, {"t": table_id, "me": self.me, "url": self.url, "ttl": self.ttl}
            ).all()
            owner = None if got else conn.execute(_OWNER, {"t": table_id}).first()
        except DBAPIError as exc:
            conn.rollback()
            if getattr(exc.orig, "sqlstate", None) == "55P03":  # lock_not_available: a write in flight
                raise Elsewhere(table_id, "") from None
            raise
        except BaseException:
            conn.rollback()
            raise
        conn.commit()
        if got:
            epoch = int(got[0][0])
            self.held[table_id] = epoch
            return epoch
        raise Elsewhere(table_id, str(owner[1]) if owner else "")

    def fence(self, table_id: str) -> Callable[[Connection], None]:
        """The check every write of ``table_id`` runs first, in its own transaction."""
        epoch = self.held.get(table_id)

        def check(conn: Connection) -> None:
            if (
                epoch is None
                or conn.execute(_FENCE, {"t": table_id, "me": self.me, "e": epoch}).first() is None
            ):
                raise LeaseLost(f"table {table_id}: another server process has taken it over")

        return check

    def renew(self) -> list[str]:
        """Extend every lease this process holds; the ids of the tables it turns out to have lost."""
        kept = {str(t): int(str(e)) for t, e in self._run(_RENEW, me=self.me, ttl=self.ttl)}
        lost = [t for t, e in self.held.items() if kept.get(t) != e]
        for t in lost:
            del self.held[t]
        return lost

    def release(self, table_id: str) -> None:
        """Give the table up (unloaded): another process may take it at once, without waiting for the expiry."""
        if self.held.pop(table_id, None) is not None:
            self._run(_RELEASE, t=table_id, me=self.me)

    def release_all(self) -> None:
        """Stopping: every lease expires now. Unlike :meth:`release` the owner stays named, so that the others'
        sweep (:meth:`orphans`) picks up the bot tables at once."""
        self.held.clear()
        self._run(_RELEASE_ALL, me=self.me)

    def orphans(self, limit: int = 20) -> list[str]:
        """Tables in play with a bot seat whose owner stopped renewing (died, paused, stopped): bots move with
        nobody connected, so some process must take them over without waiting for a request. Tables released
        when unloaded (owner "") are left alone: nobody watched them and no bot was moving."""
        return [str(r[0]) for r in self._run(_ORPHANS, n=limit)]
