"""A pool of bot worker processes: bot moves never run on the server's event loop.

Each move has a time budget counted from the request (waiting for a free worker included). A move that is not
back in time raises :class:`BotTimeout` (the caller plays a fallback) and the worker computing it is killed and
replaced, so it can delay no other table. Workers are forked from a clean forkserver process (never from the
server with its threads and database connection) and keep per-table states, so a request carries only the events
since the worker last saw that table.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import multiprocessing.connection
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from dicehall.web import botworker
from dicehall.web.botworker import BotRequest

log = logging.getLogger("dicehall.web")


class BotTimeout(Exception):
    """The bot did not answer within its budget."""


class BotFailed(Exception):
    """The bot raised, or its worker died; the message says what happened."""


@dataclass
class _Slot:
    proc: BaseProcess
    conn: Connection
    synced: dict[str, int] = field(default_factory=dict)
    """Table id -> sequence number of the state this worker holds for it (as far as the server knows)."""
    busy: bool = False


class BotPool:
    def __init__(self, workers: int, budget: float, cache_size: int, setup: Sequence[str] = ()) -> None:
        self.size = workers
        self.budget = budget
        self.cache_size = cache_size
        self.setup = tuple(setup)
        self._ctx = multiprocessing.get_context("forkserver")
        self._ctx.set_forkserver_preload(["dicehall.web.botworker"])
        self._slots: list[_Slot] = []
        self._waiters: deque[asyncio.Future[_Slot]] = deque()
        self._started: asyncio.Task[None] | None = None
        self._closed = False
        self.replaced = 0
        """Workers killed (over budget) or retired (memory) and replaced since start."""

    # -- processes ------------------------------------------------------------------------------------------
    def _spawn(self) -> _Slot:
        ours, theirs = self._ctx.Pipe(duplex=True)
        proc = self._ctx.Process(
            target=botworker.main,
            args=(theirs, self.cache_size, self.setup),
            name="dicehall-bot",
            daemon=True,
        )
        proc.start()
        theirs.close()
        return _Slot(proc, ours)

    async def start(self) -> None:
        """Start the workers in a thread (the forkserver's first start imports the game code)."""
        if self._started is None:
            self._started = asyncio.get_running_loop().create_task(self._start())
        await asyncio.shield(self._started)

    async def _start(self) -> None:
        slots = await asyncio.to_thread(lambda: [self._spawn() for _ in range(self.size)])
        if self._closed:
            for slot in slots:
                self._kill(slot)
            return
        self._slots.extend(slots)
        for _ in slots:
            self._wake()

    def pids(self) -> list[int | None]:
        return [s.proc.pid for s in self._slots]

    @staticmethod
    def _kill(slot: _Slot) -> None:
        with contextlib.suppress(Exception):
            asyncio.get_running_loop().remove_reader(slot.conn.fileno())
        slot.proc.kill()
        slot.proc.join(timeout=2)
        slot.conn.close()
        slot.proc.close()

    async def _replace(self, slot: _Slot) -> None:
        self._kill(slot)
        self.replaced += 1
        if self._closed:
            return
        try:
            fresh = await asyncio.to_thread(self._spawn)
        except Exception:
            log.exception("could not start a bot worker; the pool has one less")
            self._slots.remove(slot)
            return
        if self._closed:
            self._kill(fresh)
            return
        self._slots[self._slots.index(slot)] = fresh
        self._release(fresh)

    async def close(self) -> None:
        self._closed = True
        if self._started is not None and not self._started.done():
            with contextlib.suppress(Exception):
                await self._started
        for slot in self._slots:
            self._kill(slot)
        self._slots.clear()
        for waiter in self._waiters:
            waiter.cancel()

    # -- handing out workers --------------------------------------------------------------------------------
    def _release(self, slot: _Slot) -> None:
        slot.busy = False
        self._wake()

    def _wake(self) -> None:
        while self._waiters:
            waiter = self._waiters.popleft()
            if waiter.done():
                continue
            idle = next((s for s in self._slots if not s.busy), None)
            if idle is None:
                self._waiters.appendleft(waiter)
                return
            idle.busy = True
            waiter.set_result(idle)

    async def _acquire(self, table: str) -> _Slot:
        idle = [s for s in self._slots if not s.busy]
        if idle and not self._waiters:
            slot = next((s for s in idle if table in s.synced), idle[0])  # the one that has the table's state
            slot.busy = True
            return slot
        waiter: asyncio.Future[_Slot] = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        try:
            return await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self._release(waiter.result())  # handed a worker just as we gave up: pass it on
            raise

    # -- one move ---------------------------------------------------------------------------------------------
    async def choose(
        self, table: str, request: dict[str, Any], moves: Sequence[tuple[int | str, str]], seq: int
    ) -> str:
        """The bot's move in notation. ``request`` holds the other :class:`BotRequest` fields; ``moves`` is the
        table's whole log. Raises :class:`BotTimeout` or :class:`BotFailed`."""
        if self._closed:
            raise BotFailed("the bot pool is closed")
        await self.start()
        try:
            async with asyncio.timeout(self.budget):
                slot = await self._acquire(table)
                return await self._ask(slot, table, request, moves, seq)
        except TimeoutError:
            raise BotTimeout(f"no move within {self.budget:g} s") from None

    async def _ask(
        self,
        slot: _Slot,
        table: str,
        request: dict[str, Any],
        moves: Sequence[tuple[int | str, str]],
        seq: int,
    ) -> str:
        done = False
        try:
            for attempt in (1, 2):
                base = slot.synced.get(table, -1) if attempt == 1 else -1
                if base > seq:
                    base = -1
                events = tuple(moves[max(base, 0) : seq])
                req = BotRequest(table=table, seq=seq, base=base, events=events, **request)
                kind, value, _, retire = await self._exchange(slot, req)
                if retire:
                    log.info("a bot worker passed %d MB and is replaced", botworker.WORKER_MEMORY_MB)
                    slot.synced.clear()
                    asyncio.get_running_loop().create_task(self._replace(slot))
                    done = True
                else:
                    slot.synced[table] = seq
                    if len(slot.synced) > botworker.STATES_PER_WORKER:
                        slot.synced.pop(next(iter(slot.synced)))
                if kind == "move":
                    return str(value)
                if kind == "error":
                    slot.synced.pop(table, None)
                    raise BotFailed(str(value))
                slot.synced.pop(table, None)  # resync: send the whole log once
            raise BotFailed("the worker could not rebuild the table")
        except (asyncio.CancelledError, EOFError, OSError) as exc:
            # Over budget (cancelled by the timeout) or dead: kill it so it delays no other table.
            done = True
            asyncio.get_running_loop().create_task(self._replace(slot))
            if isinstance(exc, asyncio.CancelledError):
                raise
            raise BotFailed(f"the bot worker died ({type(exc).__name__})") from None
        finally:
            if not done:
                self._release(slot)

    async def _exchange(self, slot: _Slot, req: BotRequest) -> tuple[str, Any, float, bool]:
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[Any] = loop.create_future()
        fd = slot.conn.fileno()

        def readable() -> None:
            loop.remove_reader(fd)
            if answer.done():
                return
            try:
                answer.set_result(slot.conn.recv())
            except Exception as exc:
                answer.set_exception(exc)

        slot.conn.send(req)
        loop.add_reader(fd, readable)
        try:
            result: tuple[str, Any, float, bool] = await answer
        finally:
            loop.remove_reader(fd)
        return result
