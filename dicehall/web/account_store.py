"""Database access for accounts (docs/players-design.md, step 6): passkeys, WebAuthn challenges, sessions made and
ended, a guest merged into an account, an account deleted, and the reads of an export.

Everything runs on the server's one connection (``Store``), on the event loop, except the export, which reads on a
connection of its own in a worker thread (:func:`export_tables`).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, func, insert, or_, select, update
from sqlalchemy.engine import Connection

from dicehall.web.db import (
    ChallengeRow,
    CredentialRow,
    EventRow,
    Player,
    PlayerRow,
    SeatRow,
    SessionRow,
    Store,
    StoredEvent,
    TableMeta,
    TableRow,
    _actor_out,
)

DELETED_NAME = "deleted player"
"""The records' (English) name of a seat whose account was deleted; pages word it in their reader's language."""


@dataclass(frozen=True)
class Credential:
    id: str  # base64url credential id
    player_id: str
    public_key: bytes
    sign_count: int
    transports: list[str]
    backed_up: bool
    created: float
    last_used: float | None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "created": self.created,
            "last_used": self.last_used,
            "backed_up": self.backed_up,
            "transports": self.transports,
        }


def _credential(r: Any) -> Credential:
    return Credential(
        r.id,
        r.player_id,
        bytes(r.public_key),
        r.sign_count,
        json.loads(r.transports or "[]"),
        bool(r.backed_up),
        r.created,
        r.last_used,
    )


class AccountStore:
    """The account tables over ``store``'s connection. Single-threaded use (the event loop)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # -- players ------------------------------------------------------------------------------------------------
    def player(self, player_id: str) -> Player | None:
        rows = self.store._read(
            select(PlayerRow.id, PlayerRow.name, PlayerRow.kind).where(PlayerRow.id == player_id)
        )
        return Player(rows[0].id, rows[0].name, rows[0].kind) if rows else None

    def webauthn_user(self, player_id: str) -> bytes:
        """The player's WebAuthn user handle: 32 random bytes made once (never the public id)."""
        rows = self.store._read(select(PlayerRow.webauthn_user).where(PlayerRow.id == player_id))
        if rows and rows[0][0] is not None:
            return bytes(rows[0][0])
        handle = secrets.token_bytes(32)
        self.store._write(
            update(PlayerRow)
            .where(PlayerRow.id == player_id, PlayerRow.webauthn_user.is_(None))
            .values(webauthn_user=handle)
        )
        return self.webauthn_user(player_id)  # another request may have set it first

    # -- sessions (players.py decides when) ----------------------------------------------------------------------
    def create_session(self, id_hash: str, player_id: str, now: float, expires: float) -> None:
        self.store._write(
            insert(SessionRow).values(
                id_hash=id_hash, player_id=player_id, created=now, seen=now, expires=expires
            )
        )

    def end_session(self, id_hash: str, now: float) -> None:
        self.store._write(
            update(SessionRow)
            .where(SessionRow.id_hash == id_hash, SessionRow.ended.is_(None))
            .values(ended=now)
        )

    # -- passkeys -----------------------------------------------------------------------------------------------
    def credentials_of(self, player_id: str) -> list[Credential]:
        rows = self.store._read(
            select(CredentialRow).where(CredentialRow.player_id == player_id).order_by(CredentialRow.created)
        )
        return [_credential(r) for r in rows]

    def credential(self, credential_id: str) -> Credential | None:
        rows = self.store._read(select(CredentialRow).where(CredentialRow.id == credential_id))
        return _credential(rows[0]) if rows else None

    def add_credential(self, cred: Credential) -> None:
        """Store a new passkey and make its player an account, in one transaction."""

        def stmts(conn: Connection) -> None:
            conn.execute(
                insert(CredentialRow).values(
                    id=cred.id,
                    player_id=cred.player_id,
                    public_key=cred.public_key,
                    sign_count=cred.sign_count,
                    transports=json.dumps(cred.transports),
                    backed_up=cred.backed_up,
                    created=cred.created,
                )
            )
            conn.execute(update(PlayerRow).where(PlayerRow.id == cred.player_id).values(kind="account"))

        self.store._transaction(stmts)

    def use_credential(self, credential_id: str, old_count: int, new_count: int, now: float) -> bool:
        """Compare-and-set of the sign count: False when another sign-in changed it meanwhile."""
        done: list[int] = []

        def stmts(conn: Connection) -> None:
            result = conn.execute(
                update(CredentialRow)
                .where(CredentialRow.id == credential_id, CredentialRow.sign_count == old_count)
                .values(sign_count=new_count, last_used=now)
            )
            done.append(result.rowcount)

        self.store._transaction(stmts)
        return done[0] == 1

    def remove_credential(self, player_id: str, credential_id: str) -> str:
        """``"removed"``, ``"unknown"`` (not this player's) or ``"last"`` (the account's only passkey stays)."""
        outcome: list[str] = []

        def stmts(conn: Connection) -> None:
            ids = [
                r[0]
                for r in conn.execute(
                    select(CredentialRow.id).where(CredentialRow.player_id == player_id)
                ).all()
            ]
            if credential_id not in ids:
                outcome.append("unknown")
            elif len(ids) == 1:
                outcome.append("last")
            else:
                conn.execute(delete(CredentialRow).where(CredentialRow.id == credential_id))
                outcome.append("removed")

        self.store._transaction(stmts)
        return outcome[0]

    # -- challenges ------------------------------------------------------------------------------------------------
    def outstanding(self, session_hash: str | None, address: str, now: float) -> list[float]:
        """Expiry times of the live challenges of this session or address, soonest first."""
        who = ChallengeRow.address == address
        if session_hash is not None:
            who = or_(who, ChallengeRow.session_hash == session_hash)
        rows = self.store._read(
            select(ChallengeRow.expires).where(who, ChallengeRow.expires > now).order_by(ChallengeRow.expires)
        )
        return [r[0] for r in rows]

    def add_challenge(
        self,
        challenge_id: str,
        purpose: str,
        challenge: bytes,
        session_hash: str | None,
        address: str,
        expires: float,
    ) -> None:
        self.store._write(
            insert(ChallengeRow).values(
                id=challenge_id,
                purpose=purpose,
                challenge=challenge,
                session_hash=session_hash,
                address=address,
                expires=expires,
            )
        )

    def take_challenge(self, challenge_id: str, purpose: str, now: float) -> tuple[bytes, str | None] | None:
        """Consume a live challenge: ``DELETE … RETURNING`` answers one request only, on whichever process."""
        taken: list[Any] = []

        def stmts(conn: Connection) -> None:
            taken.extend(
                conn.execute(
                    delete(ChallengeRow)
                    .where(
                        ChallengeRow.id == challenge_id,
                        ChallengeRow.purpose == purpose,
                        ChallengeRow.expires > now,
                    )
                    .returning(ChallengeRow.challenge, ChallengeRow.session_hash)
                ).all()
            )

        self.store._transaction(stmts)
        return (bytes(taken[0][0]), taken[0][1]) if taken else None

    def sweep_challenges(self, now: float) -> None:
        self.store._write(delete(ChallengeRow).where(ChallengeRow.expires <= now))

    def count_challenges(self) -> int:
        return int(self.store._read(select(func.count()).select_from(ChallengeRow))[0][0])

    # -- a guest merged into an account, an account deleted ------------------------------------------------------
    def merge(self, guest_id: str, account_id: str) -> list[str]:
        """Move the guest's seats and created tables to the account and mark the guest ``merged``, in one
        transaction; returns the tables whose seats JSON changed (live copies must follow)."""
        changed: list[str] = []

        def stmts(conn: Connection) -> None:
            seat_tables = {
                r[0]
                for r in conn.execute(select(SeatRow.table_id).where(SeatRow.player_id == guest_id)).all()
            }
            conn.execute(update(SeatRow).where(SeatRow.player_id == guest_id).values(player_id=account_id))
            conn.execute(
                update(TableRow).where(TableRow.creator_player == guest_id).values(creator_player=account_id)
            )
            changed.extend(_rewrite_seats(conn, seat_tables, lambda s: _relink(s, guest_id, account_id)))
            conn.execute(update(PlayerRow).where(PlayerRow.id == guest_id).values(kind="merged"))

        self.store._transaction(stmts)
        return changed

    def has_games(self, player_id: str) -> bool:
        seat = select(SeatRow.table_id).where(SeatRow.player_id == player_id).limit(1)
        made = select(TableRow.id).where(TableRow.creator_player == player_id).limit(1)
        return bool(self.store._read(seat)) or bool(self.store._read(made))

    def open_seats(self, player_id: str) -> list[tuple[str, int]]:
        """(table, seat) of the player's games still in play."""
        rows = self.store._read(
            select(SeatRow.table_id, SeatRow.seat).where(
                SeatRow.player_id == player_id, SeatRow.status.in_(["waiting", "playing"])
            )
        )
        return [(r.table_id, r.seat) for r in rows]

    def delete_account(self, player_id: str, now: float) -> list[str]:
        """Drop the player's passkeys and sessions and name: ``kind=deleted``; its seats keep their games, named
        "deleted player". Returns the tables whose seats JSON changed."""
        changed: list[str] = []

        def stmts(conn: Connection) -> None:
            seats: dict[str, set[int]] = {}
            for r in conn.execute(
                select(SeatRow.table_id, SeatRow.seat).where(SeatRow.player_id == player_id)
            ).all():
                seats.setdefault(r.table_id, set()).add(r.seat)
            conn.execute(delete(CredentialRow).where(CredentialRow.player_id == player_id))
            conn.execute(
                update(SessionRow)
                .where(SessionRow.player_id == player_id, SessionRow.ended.is_(None))
                .values(ended=now)
            )
            conn.execute(
                update(PlayerRow)
                .where(PlayerRow.id == player_id)
                .values(kind="deleted", name=None, name_key=None, webauthn_user=None)
            )
            changed.extend(
                _rewrite_seats(
                    conn, set(seats), lambda t, i, s: _deleted(s) if i in seats[t] else s, by_seat=True
                )
            )

        self.store._transaction(stmts)
        return changed


def _relink(seat: dict[str, Any], old: str, new: str) -> dict[str, Any]:
    return {**seat, "player": new} if seat.get("player") == old else seat


def _deleted(seat: dict[str, Any]) -> dict[str, Any]:
    return {**seat, "name": DELETED_NAME, "named": False, "deleted": True}


def _rewrite_seats(
    conn: Connection, table_ids: set[str], change: Callable[..., Any], by_seat: bool = False
) -> list[str]:
    """Rewrite the seats JSON of ``table_ids`` seat by seat (``change(seat)``, or ``change(table, i, seat)``);
    returns the tables that changed. ``json.dumps``' default separators are kept (owners.py matches them)."""
    changed: list[str] = []
    if not table_ids:
        return changed
    for r in conn.execute(
        select(TableRow.id, TableRow.seats).where(TableRow.id.in_(sorted(table_ids)))
    ).all():
        seats = json.loads(r.seats)
        new = [change(r.id, i, s) if by_seat else change(s) for i, s in enumerate(seats)]
        if new != seats:
            conn.execute(update(TableRow).where(TableRow.id == r.id).values(seats=json.dumps(new)))
            changed.append(r.id)
    return changed


# -- the export's reads (a worker thread, its own connection) ----------------------------------------------------
def export_tables(store: Store, player_id: str) -> list[tuple[TableMeta, list[StoredEvent], list[int]]]:
    """Every table with a seat of the player's, oldest first: its metadata, its log, and the player's seats."""
    with store.engine.connect() as conn:
        mine: dict[str, list[int]] = {}
        for r in conn.execute(
            select(SeatRow.table_id, SeatRow.seat)
            .where(SeatRow.player_id == player_id)
            .order_by(SeatRow.seat)
        ).all():
            mine.setdefault(r.table_id, []).append(r.seat)
        out: list[tuple[TableMeta, list[StoredEvent], list[int]]] = []
        ids = sorted(mine)
        for start in range(0, len(ids), 500):  # bounded IN lists
            chunk = ids[start : start + 500]
            metas = [
                Store._meta(r) for r in conn.execute(select(TableRow).where(TableRow.id.in_(chunk))).all()
            ]
            logs: dict[str, list[StoredEvent]] = {t: [] for t in chunk}
            for e in conn.execute(
                select(EventRow).where(EventRow.table_id.in_(chunk)).order_by(EventRow.table_id, EventRow.seq)
            ).all():
                logs[e.table_id].append(StoredEvent(e.seq, _actor_out(e.actor), e.move, e.at, e.entered_by))
            out.extend((m, logs[m.id], mine[m.id]) for m in metas)
        out.sort(key=lambda item: (item[0].created, item[0].id))
        return out
