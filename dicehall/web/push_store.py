"""The Web Push subscriptions (``dh_push_subs``, migration 0008): one row per browser a player subscribed."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Connection

from dicehall.web.db import PushSubRow

if TYPE_CHECKING:
    from dicehall.web.db import Store
    from dicehall.web.push import Subscription


@dataclass(frozen=True)
class StoredSubscription:
    id: str
    endpoint: str
    p256dh: str
    auth: str
    lang: str


class PushSubs:
    def __init__(self, store: Store) -> None:
        self.store = store

    def of(self, player_id: str) -> list[StoredSubscription]:
        rows = self.store._read(
            select(
                PushSubRow.id, PushSubRow.endpoint, PushSubRow.p256dh, PushSubRow.auth, PushSubRow.lang
            ).where(PushSubRow.player_id == player_id)
        )
        return [StoredSubscription(r.id, r.endpoint, r.p256dh, r.auth, r.lang or "en") for r in rows]

    def count(self, player_id: str) -> int:
        rows = self.store._read(select(func.count()).where(PushSubRow.player_id == player_id))
        return int(rows[0][0])

    def add(self, player_id: str, sub: Subscription, keep: int) -> None:
        """Subscribe (again: the endpoint's row is replaced, now this player's); at most ``keep`` per player."""

        def stmts(conn: Connection) -> None:
            conn.execute(delete(PushSubRow).where(PushSubRow.id == sub.id))
            conn.execute(
                insert(PushSubRow).values(
                    id=sub.id,
                    player_id=player_id,
                    endpoint=sub.endpoint,
                    p256dh=sub.p256dh,
                    auth=sub.auth,
                    lang=sub.lang,
                    created=time.time(),
                    failures=0,
                )
            )
            ids = conn.execute(
                select(PushSubRow.id)
                .where(PushSubRow.player_id == player_id)
                .order_by(PushSubRow.created.desc(), PushSubRow.id)
                .offset(keep)
            ).all()
            if ids:
                conn.execute(delete(PushSubRow).where(PushSubRow.id.in_([r[0] for r in ids])))

        self.store._transaction(stmts)

    def remove(self, player_id: str, sub_id: str) -> bool:
        found = self.store._read(
            select(PushSubRow.id).where(PushSubRow.id == sub_id, PushSubRow.player_id == player_id)
        )
        if found:
            self.store._write(delete(PushSubRow).where(PushSubRow.id == sub_id))
        return bool(found)

    def delivered(self, sub_id: str) -> None:
        self.store._write(
            update(PushSubRow).where(PushSubRow.id == sub_id, PushSubRow.failures > 0).values(failures=0)
        )

    def failed(self, sub_id: str, drop: bool, limit: int) -> None:
        if drop:
            self.store._write(delete(PushSubRow).where(PushSubRow.id == sub_id))
            return
        self.store._write(
            update(PushSubRow).where(PushSubRow.id == sub_id).values(failures=PushSubRow.failures + 1)
        )
        self.store._write(delete(PushSubRow).where(PushSubRow.id == sub_id, PushSubRow.failures >= limit))
