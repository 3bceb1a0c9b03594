"""A pool of bot worker processes: bot moves never run on the server's event loop.

Each move has a time budget counted from the request (waiting for a free worker included). A move that is not
back in time raises :class:`BotTimeout` and the caller plays a fallback. The worker may finish that answer (it
then holds the table's state, so a first replay of a long log or a table built for new rules is not wasted), but
one still busy after ``runaway`` budgets is killed and replaced, so it cannot hold a worker from other tables.
Workers are forked from a clean forkserver process (never from the server with its threads and database
connection) that has the games imported and warmed, and they keep per-table states, so a request carries only
the events since the worker last saw that table.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import multiprocessing.connection
import threading
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

from dicehall.web import botworker
from dicehall.web.botworker import BotRequest

log = logging.getLogger("dicehall.web")
T = TypeVar("T")


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
    dead: bool = False


WORKER_START_TIMEOUT = 60.0
RUNAWAY_BUDGETS = 10.0
"""A worker still computing one move after this many budgets is killed and replaced."""


class BotPool:
    def __init__(self, workers: int, budget: float, cache_size: int, setup: Sequence[str] = ()) -> None:
        self.size = workers
        self.budget = budget
        self.runaway = RUNAWAY_BUDGETS
        self.cache_size = cache_size
        self.setup = tuple(setup)
        self._ctx = multiprocessing.get_context("forkserver")
        self._ctx.set_forkserver_preload(["dicehall.web.botworker", "dicehall.web.botwarm"])
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
        # Called in a thread: wait for the worker to be ready, so its start-up is never part of a budget.
        if not ours.poll(WORKER_START_TIMEOUT) or ours.recv() != "ready":
            proc.kill()
            proc.join()
            raise RuntimeError(f"a bot worker did not start within {WORKER_START_TIMEOUT} s")
        return _Slot(proc, ours)

    async def start(self) -> None:
        """Start the workers in a thread (the forkserver's first start imports the game code)."""
        if self._started is None:
            self._started = asyncio.get_running_loop().create_task(self._start())
        await asyncio.shield(self._started)

    async def _start(self) -> None:
        slots = await _off_loop(lambda: [self._spawn() for _ in range(self.size)])
        if self._closed:
            for slot in slots:
                self._kill(slot)
            return
        self._slots.extend(slots)
        for _ in slots:
            self._wake()

    def pids(self) -> list[int | None]:
        """The worker processes' ids (None for one being replaced)."""
        return [None if s.dead else s.proc.pid for s in self._slots]

    @staticmethod
    def _kill(slot: _Slot) -> None:
        if slot.dead:
            return
        slot.dead = True
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
            fresh = await _off_loop(self._spawn)
        except Exception:
            log.exception("could not start a bot worker; the pool has one less")
            if slot in self._slots:
                self._slots.remove(slot)
            return
        if self._closed or slot not in self._slots:
            self._kill(fresh)
            return
        self._slots[self._slots.index(slot)] = fresh
        self._release(fresh)

    async def close(self) -> None:
        """Kill every worker now; workers still starting are killed when their start returns."""
        self._closed = True
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
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.budget
        try:
            async with asyncio.timeout_at(deadline):
                slot = await self._acquire(table)
        except TimeoutError:
            raise BotTimeout(f"found no free bot worker within {self.budget:g} s") from None
        job = loop.create_task(self._job(slot, table, request, moves, seq, deadline))
        job.add_done_callback(_retrieve)
        done, _ = await asyncio.wait({job}, timeout=max(0.0, deadline - loop.time()))
        if not done:  # the job goes on (up to the runaway limit); its answer is unused
            raise BotTimeout(f"made no move within {self.budget:g} s")
        return job.result()

    async def _job(
        self,
        slot: _Slot,
        table: str,
        request: dict[str, Any],
        moves: Sequence[tuple[int | str, str]],
        seq: int,
        deadline: float,
    ) -> str:
        hard = deadline + self.budget * (self.runaway - 1)
        try:
            async with asyncio.timeout_at(hard):
                return await self._ask(slot, table, request, moves, seq)
        except TimeoutError:
            log.warning(
                "table %s: a bot worker was still busy after %g s; killed and replaced",
                table,
                self.budget * self.runaway,
            )
            raise BotFailed("the bot worker ran away") from None

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
                    if kind != "move":
                        raise BotFailed("the bot worker retired (memory) before answering")
                else:
                    slot.synced.pop(table, None)  # most recently used last, like the worker's LRU
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


def _retrieve(task: asyncio.Task[str]) -> None:
    """An answer nobody waits for any more (over budget): its outcome is known and dropped."""
    if not task.cancelled():
        task.exception()


def _off_loop(fn: Callable[[], T]) -> asyncio.Future[T]:
    """``fn()`` in a daemon thread (starting processes blocks): unlike ``asyncio.to_thread`` a stopping server
    never waits for it, and a worker started after the stop exits when it reads the closed pipe."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[T] = loop.create_future()

    def settle(value: Any, error: BaseException | None) -> None:
        if future.done():
            return
        if error is None:
            future.set_result(value)
        else:
            future.set_exception(error)

    def run() -> None:
        try:
            value, error = fn(), None
        except BaseException as exc:
            value, error = None, exc
        with contextlib.suppress(RuntimeError):  # the loop is gone: the server has stopped
            loop.call_soon_threadsafe(settle, value, error)

    threading.Thread(target=run, name="dicehall-bot-start", daemon=True).start()
    return future
