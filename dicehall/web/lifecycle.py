"""Which tables live in memory, and for how long: loading at start, unloading idle ones, closing abandoned ones.

- At most ``live_tables`` open tables are held; beyond that, and after ``idle_unload_seconds`` untouched, a table
  nobody watches and whose bot is not playing is unloaded (it is rebuilt from its log on the next join, move or
  read, identically). Watched tables and tables whose bot is playing are never unloaded, so the bound is soft for
  them.
- A table where nobody (player or bot) moved for ``abandon_after_days`` is closed as ``abandoned``: by a periodic
  sweep, and when a table is loaded. A correspondence table is not, while its deadline is still to come.
- The same sweep sends correspondence reminders and times out the seats past their deadline (correspondence.py),
  before it looks for abandoned tables.
- At start, the tables with a bot seat that are in play, most recently active first and up to the bound, are
  loaded so their bots go on; every other table is loaded on demand.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from dicehall.web.db import OPEN_STATUSES, TableMeta
from dicehall.web.live import LiveTable, TableError, dumps
from dicehall.web.logs import table_fields
from dicehall.web.owners import Elsewhere, LeaseLost

if TYPE_CHECKING:
    from dicehall.web.manager import TableManager

log = logging.getLogger("dicehall.web")

DAY = 86_400.0


class Lifecycle:
    def __init__(self, manager: TableManager) -> None:
        self.manager = manager
        self.settings = manager.settings
        self._task: asyncio.Task[None] | None = None
        self.unloaded = 0
        self.abandoned = 0

    # -- start ------------------------------------------------------------------------------------------------
    def startup(self) -> int:
        """Close the abandoned tables, then load the open tables with bot seats (bound: ``live_tables``)."""
        self.sweep_abandoned()
        n = 0
        for meta in self.manager.store.open_tables_by_activity(self.settings.live_tables):
            if meta.status != "playing" or not any(s["kind"] == "bot" for s in meta.seats):
                continue  # human tables wait in the database until someone opens them
            try:
                self.manager.get(meta.id)
                n += 1
            except Elsewhere:
                continue  # another server process has it
            except TableError as exc:
                log.error("table %s not resumed: %s", meta.id, exc, extra=table_fields(meta.id))
        return n

    def start(self) -> None:
        """The periodic sweep (unload idle tables, close abandoned ones) on the running loop."""
        self._task = asyncio.get_running_loop().create_task(self._run())

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()

    def sweep_period(self) -> float:
        return max(
            0.5, min(60.0, self.settings.idle_unload_seconds / 2, self.settings.abandon_after_days * DAY / 4)
        )

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.sweep_period())
            try:
                self.sweep()
            except Exception:  # e.g. the database is away for a moment: report, sweep again next time
                log.exception("the table sweep failed")

    def sweep(self) -> None:
        self.unload_idle()
        self.manager.correspondence.sweep()
        self.sweep_abandoned()

    # -- unloading --------------------------------------------------------------------------------------------
    @staticmethod
    def unloadable(table: LiveTable) -> bool:
        return not table.subscribers and (table.bot_task is None or table.bot_task.done())

    def unload(self, table: LiveTable) -> None:
        if self.manager.tables.get(table.id) is table and self.unloadable(table):
            del self.manager.tables[table.id]
            table.closed = True
            self.unloaded += 1
            if self.manager.owners is not None:
                self.manager.owners.release(table.id)

    def unload_idle(self) -> int:
        cutoff = self.manager.clock() - self.settings.idle_unload_seconds
        idle = [t for t in self.manager.tables.values() if t.touched < cutoff and self.unloadable(t)]
        for table in idle:
            self.unload(table)
        return len(idle)

    def enforce_bound(self, keep: LiveTable | None = None) -> None:
        """Unload the least recently used unloadable tables beyond ``live_tables``."""
        tables = self.manager.tables
        excess = len(tables) - self.settings.live_tables
        if excess <= 0:
            return
        candidates = sorted(
            (t for t in tables.values() if t is not keep and self.unloadable(t)), key=lambda t: t.touched
        )
        for table in candidates[:excess]:
            self.unload(table)

    # -- abandonment ------------------------------------------------------------------------------------------
    def is_stale(self, last_activity: float, deadline: float | None = None) -> bool:
        """Nobody moved since ``last_activity`` for too long. A correspondence table with a ``deadline`` is not:
        its seat to move has its days, and past them the sweep times the seat out (correspondence.py)."""
        if deadline is not None:
            return False
        return last_activity < self.manager.clock() - self.settings.abandon_after_days * DAY

    def mark_abandoned(self, meta: TableMeta, fenced: bool = False) -> None:
        """``fenced``: the table is loaded here, so the write checks this process's lease."""
        fence = self.manager._fence(meta.id) if fenced else None
        self.manager.store.update_table(meta.id, status="abandoned", fence=fence)
        meta.status = "abandoned"
        self.manager.lobby.changed(meta)
        self.abandoned += 1
        log.info(
            "table %s closed as abandoned (nobody moved for %g days)",
            meta.id,
            self.settings.abandon_after_days,
        )

    def sweep_abandoned(self) -> int:
        now = self.manager.clock()
        ids = self.manager.store.stale_open_tables(now - self.settings.abandon_after_days * DAY, now)
        for table_id in ids:
            live = self.manager.tables.get(table_id)
            if live is not None:
                if live.status not in OPEN_STATUSES:
                    continue
                try:
                    self.mark_abandoned(live.meta, fenced=True)
                except LeaseLost:  # another process took it over meanwhile: it is that one's to close
                    self.manager._lost(live)
                    continue
                live.broadcast(dumps({"type": "table", **live.describe()}))
                if live.bot_task is not None:
                    live.bot_task.cancel()
                self.manager.evict_if_idle(live)
            elif self.manager.owners is not None:
                # Shared database: only the table's owner may close it. Loading takes the lease (or finds
                # another process holding it, which sweeps it itself) and the rebuild closes the stale table.
                try:
                    self.manager.evict_if_idle(self.manager.get(table_id))
                except (Elsewhere, TableError):
                    continue
            else:
                meta = self.manager.store.get_table(table_id)
                if meta is not None and meta.status in OPEN_STATUSES:
                    self.mark_abandoned(meta)
        return len(ids)
