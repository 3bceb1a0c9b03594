"""Live lobby updates: a client that sends ``{"type": "lobby"}`` gets the open tables, then one ``lobby_update``
per table created, seat taken or status changed, whichever server process made the change.

One process: the update goes straight to its lobby subscribers. Several processes on one PostgreSQL
(``serve --node-url``): it goes out as ``NOTIFY dicehall_lobby`` (committed like any write) and every process,
this one included, forwards what its ``LISTEN`` connection receives to its own subscribers.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from dicehall.web.db import Store, TableMeta
from dicehall.web.live import Subscriber, dumps, public_seats

log = logging.getLogger("dicehall.web")

CHANNEL = "dicehall_lobby"


def summary(meta: TableMeta) -> dict[str, Any]:
    """A table as the lobby lists it (``GET /api/tables`` gives the same fields)."""
    return {
        "table_id": meta.id,
        "game": meta.game,
        "preset": meta.preset,
        "status": meta.status,
        "seats": public_seats(meta.seats),
        "created": meta.created,
    }


class Lobby:
    def __init__(self, store: Store, shared: bool) -> None:
        self.store = store
        self.shared = shared
        self.subscribers: set[Subscriber] = set()
        self._task: asyncio.Task[None] | None = None

    def opening(self, limit: int = 100) -> str:
        """The first message of a lobby subscription: the open tables, newest first."""
        tables = self.store.list_tables(["waiting", "playing"], limit)
        return dumps({"type": "lobby", "tables": [summary(m) for m in tables]})

    def changed(self, meta: TableMeta) -> None:
        """A table was created or its seats or status changed (after the change was committed)."""
        text = dumps({"type": "lobby_update", "table": summary(meta)})
        if not self.shared:
            self._fan_out(text)
            return
        try:
            self.store.notify(CHANNEL, text)
        except Exception:  # the change itself is committed; the lobbies catch up at their next look
            log.exception("lobby update for table %s not sent", meta.id)

    def _fan_out(self, text: str) -> None:
        for sub in list(self.subscribers):
            sub.push(text)

    # -- several processes: LISTEN ---------------------------------------------------------------------------
    def start(self) -> None:
        if self.shared:
            self._task = asyncio.get_running_loop().create_task(self._listen())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    async def _listen(self) -> None:
        import psycopg

        url = self.store.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    async for note in conn.notifies():
                        try:
                            json.loads(note.payload)  # only well-formed updates reach the browsers
                        except ValueError:
                            continue
                        self._fan_out(note.payload)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database went away: listen again (updates meanwhile are missed)
                log.warning("lobby LISTEN connection lost (%s); reconnecting", type(exc).__name__)
                await asyncio.sleep(1.0)
