"""Bot seats: each table whose bot is to move gets one task that waits the bot delay, asks the worker pool for the
move (within the budget), and plays it through the manager like any move. The event loop never computes a move.

A bot that misses its budget, raises, or whose worker dies plays a random legal move for that move instead, drawn
from the same per-move seed, and the event is logged with the table and the bot.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from dicehall.core.agents import RandomAgent
from dicehall.core.errors import DicehallError
from dicehall.core.game import TERMINAL
from dicehall.web.botpool import BotFailed, BotPool, BotTimeout
from dicehall.web.live import LiveTable, TableError
from dicehall.web.logs import table_fields
from dicehall.web.settings import ServerSettings

if TYPE_CHECKING:
    from dicehall.web.manager import TableManager

log = logging.getLogger("dicehall.web")

DEFAULT_BOT_DELAY = 0.8
"""Seconds a bot 'thinks' before its move (times a random factor in [0.7, 1.3]); 0 in tests and load runs."""


def bot_delay_from_env() -> float:
    raw = os.environ.get("DICEHALL_BOT_DELAY")
    if raw is None or raw == "":
        return DEFAULT_BOT_DELAY
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"DICEHALL_BOT_DELAY must be a number of seconds, got {raw!r}") from None
    if value < 0:
        raise ValueError("DICEHALL_BOT_DELAY must not be negative")
    return value


def _jitter() -> float:
    return 0.7 + 0.6 * secrets.randbelow(1_000_000) / 1_000_000


class BotRunner:
    def __init__(
        self,
        manager: TableManager,
        settings: ServerSettings,
        setup: tuple[str, ...] = (),
        rand: Callable[[], float] | None = None,
    ) -> None:
        self.manager = manager
        self.delay = settings.bot_delay
        self.pool = BotPool(settings.worker_count, settings.bot_budget, settings.bot_cache_size, setup)
        self._rand = rand or _jitter
        self.stopped = False
        self.fallbacks = 0
        """Moves played by the fallback since start (over budget, failed, or worker lost)."""

    def to_move(self, table: LiveTable) -> int | None:
        if self.stopped or table.closed or table.status != "playing":
            return None
        tog = table.together
        if tog is not None:  # simultaneous seats: the bots among them choose one after another
            return next((s for s in tog.pending() if table.seats[s]["kind"] == "bot"), None)
        player = table.state.current_player()
        if player < 0 or player == TERMINAL or table.seats[player]["kind"] != "bot":
            return None
        return player

    def schedule(self, table: LiveTable) -> None:
        if self.to_move(table) is None or (table.bot_task is not None and not table.bot_task.done()):
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no loop yet (server start): the lifespan handler calls resume()
        table.bot_task = loop.create_task(self._play(table))

    def resume(self, tables: list[LiveTable]) -> None:
        for table in tables:
            self.schedule(table)

    async def stop(self, tables: list[LiveTable]) -> None:
        """Stop every bot (server stopping): nothing half-done is committed; the pool's workers are killed."""
        self.stopped = True
        tasks = [t.bot_task for t in tables if t.bot_task is not None and not t.bot_task.done()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.pool.close()

    async def _play(self, table: LiveTable) -> None:
        while (seat := self.to_move(table)) is not None:
            if self.delay > 0:
                await asyncio.sleep(self.delay * self._rand())
            if self.to_move(table) != seat:
                continue
            seq = table.seq
            tog = table.together
            made = len(tog.moves[seat]) if tog is not None else 0
            action = await self._choose(table, seat, seq)
            if table.closed or table.seq != seq or self.to_move(table) != seat:
                continue  # the table changed while the bot thought (unloaded, closed): think again
            if table.together is not tog or (tog is not None and len(tog.moves[seat]) != made):
                continue
            try:
                if tog is not None:
                    self.manager.act_together(table, seat, action)
                else:
                    self.manager.advance(table, seat, action)
            except TableError as exc:
                log.error(
                    "table %s: bot move refused: %s", table.id, exc, extra=table_fields(table.id, seat, seq)
                )
                if exc.code == "server_error":
                    await asyncio.sleep(1.0)  # database trouble: retry later, not in a tight loop
                else:
                    return

    async def _choose(self, table: LiveTable, seat: int, seq: int) -> Any:
        seed = int(table.bot_rng.integers(2**63))
        bot = str(table.seats[seat]["bot"])
        tog = table.together
        state = tog.branches[seat] if tog is not None else table.state
        request = {
            "game": table.meta.game,
            "preset": table.meta.preset,
            "overrides": table.meta.overrides,
            "names": tuple(table.names()),
            "bot": bot,
            "seat": seat,
            "seed": seed,
            "branch": None if tog is None else tuple(tog.moves[seat]),
        }
        # Cached worker states are keyed by the log position; an undo (real dice) rewinds the game, so from then
        # on the table goes by a fresh key.
        key = table.id if not table.undos else f"{table.id}~{table.undos}"
        started = time.perf_counter()
        try:
            text = await self.pool.choose(key, request, table.moves, len(table.moves))
            action = state.string_to_action(text)
            self.manager.metrics.bot_moved(table.meta.game, time.perf_counter() - started, fallback=False)
            return action
        except BotTimeout as exc:
            log.warning(
                "table %s: bot %s (seat %d) %s at event %d; a random legal move is played instead",
                table.id,
                bot,
                seat,
                exc,
                seq,
                extra=table_fields(table.id, seat, seq, time.perf_counter() - started),
            )
        except (BotFailed, DicehallError) as exc:
            log.error(
                "table %s: bot %s (seat %d) failed: %s; playing a random legal move",
                table.id,
                bot,
                seat,
                exc,
                extra=table_fields(table.id, seat, seq, time.perf_counter() - started),
            )
        self.fallbacks += 1
        self.manager.metrics.bot_moved(table.meta.game, time.perf_counter() - started, fallback=True)
        return RandomAgent().choose(state, np.random.default_rng(seed))
