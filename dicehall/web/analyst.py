"""The analyst: every finished game with a seat linked to a player is analysed once, in the background, and each
linked seat's figures (``dh_seats.decisions``, ``accuracy`` = mean loss per decision, ``luck``) are stored for the
profile page (profile_api.py).

A thread of the server process picks the work (every ``PERIOD`` seconds, and at once when the lobby says a game
finished) with its own database connection; :func:`dicehall.core.analysis.analyze` itself runs in one worker
process (forkserver, as the bot pool's, at ``os.nice(10)``): Clever's evaluator is heavy and holds the GIL in
places, and the event loop must never wait for it. A table is claimed by a compare-and-set of its seats'
``decisions`` (NULL → -1), so two server processes on one database never analyse one table; a claim left by a
process that stopped is taken again after ``STALE`` seconds. A table whose analysis fails (or whose game has no
evaluator) gets ``decisions = 0`` and no figures, and a log line: it is not tried again.

``DICEHALL_ANALYST=0`` turns it off (the test suite does; its tests run :meth:`Analyst.run_once`).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import dataclasses
import json
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING

from dicehall.core.analysis import analyze, has_evaluator
from dicehall.core.record import GameRecord
from dicehall.web.db import FoundPuzzle, Store
from dicehall.web.found_puzzles import find_puzzles
from dicehall.web.live import Subscriber
from dicehall.web.logs import table_fields
from dicehall.web.manager import web_record

if TYPE_CHECKING:
    from dicehall.web.manager import TableManager

__all__ = ["Analyst", "analyst_from_env", "analyze", "figures_of"]  # analyze: replaced in the tests
log = logging.getLogger("dicehall.web")

PERIOD = 10.0
"""Seconds between looks for finished games not analysed yet."""
BATCH = 4
"""Tables taken per look (the rest wait for the next one)."""
TIMEOUT = 300.0
"""An analysis still running after this long is given up (its worker is killed) and the table marked failed."""
STALE = 3 * TIMEOUT
"""A claim older than this was left by a process that stopped: the table is taken again."""
NICE = 10

Figures = dict[int, tuple[int, float | None, float | None]]
"""Per seat: (decisions, accuracy = mean loss per decision or None without decisions, luck)."""


def analyst_from_env() -> bool:
    return os.environ.get("DICEHALL_ANALYST", "1").strip() not in ("0", "false", "no", "off")


def figures_of(record: GameRecord) -> Figures:
    """(In the worker.) Each seat's figures from the analysis of ``record``."""
    out: Figures = {}
    for t in analyze(record).totals:
        out[t.seat] = (t.decisions, t.mean_loss if t.decisions else None, t.luck)
    return out


def work_of(record: GameRecord, people: list[int]) -> tuple[Figures, list[FoundPuzzle]]:
    """(In the worker.) The figures, and the puzzles met at the people's decisions (found_puzzles.py)."""
    return figures_of(record), find_puzzles(record, people)


def _lower_priority() -> None:
    os.nice(NICE)


class Analyst(Subscriber):
    """Claims, analyses and stores; ``inline`` runs the analysis in the calling thread (tools, tests)."""

    def __init__(self, url: str, *, inline: bool = False, batch: int = BATCH, period: float = PERIOD) -> None:
        self.url = url
        self.inline = inline
        self.batch = batch
        self.period = period
        self.done: list[str] = []
        """Tables analysed (or marked failed) by this analyst, in order."""
        self._store: Store | None = None
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self.stored = threading.Event()
        """Set each time a look stored figures (the tests wait on it)."""
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._manager: TableManager | None = None

    # -- one look (the thread's loop, or a test, calls it) ----------------------------------------------------
    def run_once(self) -> list[str]:
        """Claim up to ``batch`` finished tables and analyse them; returns the ones this call handled."""
        store = self._open()
        return self.analyse(store.analysis_candidates(self.batch, time.time() - STALE))

    def analyse(self, table_ids: Iterable[str]) -> list[str]:
        """Claim and analyse these finished tables (a test or tool that wants its own, whatever else waits);
        returns the ones this call handled."""
        store = self._open()
        now = time.time()
        handled = []
        for table_id in table_ids:
            if not store.claim_analysis(table_id, time.time(), now - STALE):
                continue  # another process took it
            work = self._work(store, table_id)
            if work is None:
                break  # stopping: the claim goes stale and is taken again
            store.store_analysis(table_id, *work)
            handled.append(table_id)
            self.done.append(table_id)
        if handled:
            self.stored.set()
        return handled

    def _work(self, store: Store, table_id: str) -> tuple[Figures, list[FoundPuzzle]] | None:
        meta = store.get_table(table_id)
        if meta is None or not has_evaluator(meta.game):
            return {}, []
        try:
            rec = web_record(meta, store.events(table_id))
            record = GameRecord(**{f.name: getattr(rec, f.name) for f in dataclasses.fields(GameRecord)})
            people = store.linked_seats(table_id)
            if self.inline:
                return work_of(record, people)
            return self._worker().submit(work_of, record, people).result(timeout=TIMEOUT)
        except concurrent.futures.TimeoutError:
            log.warning(
                "analysis of table %s took over %.0f s: given up",
                table_id,
                TIMEOUT,
                extra=table_fields(table_id, duration=TIMEOUT),
            )
            self._kill_worker()
        except Exception as exc:  # a log that does not replay, an evaluator that fails: marked, not retried
            if self._stop.is_set():
                return None  # the worker was stopped under it
            log.warning("analysis of table %s failed: %s", table_id, exc, extra=table_fields(table_id))
        return {}, []

    def _open(self) -> Store:
        if self._store is None:
            self._store = Store(self.url)
        return self._store

    def _worker(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._pool is None:
            ctx = multiprocessing.get_context("forkserver")
            self._pool = concurrent.futures.ProcessPoolExecutor(
                1, mp_context=ctx, initializer=_lower_priority
            )
        return self._pool

    def _kill_worker(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            for proc in list(getattr(pool, "_processes", {}).values()):
                proc.kill()  # a stuck analysis cannot be cancelled otherwise
            pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        self._kill_worker()
        if self._store is not None:
            self._store.close()
            self._store = None

    # -- in the server -----------------------------------------------------------------------------------------
    def start(self, manager: TableManager) -> None:
        """Look now and every ``period`` seconds in a thread; a game that finishes wakes it (a lobby update)."""
        self._manager = manager
        manager.lobby.subscribers.add(self)
        self._thread = threading.Thread(target=self._run, name="dicehall-analyst", daemon=True)
        self._thread.start()

    async def stop(self) -> None:
        if self._manager is not None:
            self._manager.lobby.subscribers.discard(self)
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            thread = self._thread
            self._kill_worker()  # an analysis under way is dropped; its claim goes stale and is taken again
            await asyncio.to_thread(thread.join, 5.0)

    def push(self, text: str) -> None:
        try:
            if json.loads(text)["table"]["status"] == "finished":
                self._wake.set()
        except (ValueError, KeyError, TypeError):
            return

    def shutdown(self, code: int, reason: str) -> None:
        """(A lobby subscriber's close: nothing to close.)"""

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                self._wake.clear()
                try:
                    while self.run_once() and not self._stop.is_set():
                        pass  # more may wait beyond one batch
                except Exception as exc:  # the database away for a moment: the next look tries again
                    log.warning("analyst: %s", exc)
                self._wake.wait(self.period)
        finally:
            if self._store is not None:
                self._store.close()
                self._store = None
