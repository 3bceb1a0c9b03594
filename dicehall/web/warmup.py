"""Make what hints and the analysis page need before a player asks for it, in one background thread (the event loop
never waits for it, and start-up does not either):

- at start, the evaluators of each game's default rules (Dice 1000's solved table for two is loaded and its compiled
  code read in: the first hint took ~3 s without it);
- when a table opens that may ask for hints, the evaluator of its rules and seats;
- when the game of a table with at most one person (alone, against bots) ends, its analysis and its replay (the
  analysis page then answers from memory).

It hears of tables as the lobby does (it subscribes to its updates), so the table code knows nothing of it.
``DICEHALL_WARM_UP=0`` turns it off (the test suite does: its servers would each spend seconds of CPU on it).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import queue
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from dicehall.core.analysis import has_evaluator
from dicehall.core.game import game_names, get_game
from dicehall.web.analysis_api import prepare, table_analysis_of, table_positions_of
from dicehall.web.live import Subscriber, default_hints

if TYPE_CHECKING:
    from dicehall.web.manager import TableManager

log = logging.getLogger("dicehall.web")

SEATS_AT_START = {"thousand": 2, "clever": 1}
"""The seats warmed at start per game: the way most tables are played (against one bot; Clever solo)."""
BUSY = 2
"""Jobs waiting beyond which a finished game's analysis is not made ahead (CPU for the games being played)."""
REMEMBERED = 10_000
"""Tables whose opening was already looked at (bounded: a long-running server forgets the oldest)."""


def warm_up_from_env() -> bool:
    return os.environ.get("DICEHALL_WARM_UP", "1").strip() not in ("0", "false", "no", "off")


class Warmer(Subscriber):
    """A lobby subscriber (holding no seat) that turns table updates into background work."""

    def __init__(self, manager: TableManager) -> None:
        self.manager = manager
        self.jobs: queue.SimpleQueue[tuple[str, Callable[[], Any]] | None] = queue.SimpleQueue()
        self.prepared: set[tuple[str, Any, int]] = set()
        self.seen: dict[tuple[str, bool], None] = {}
        """(table, ended) already looked at."""
        self.done: list[str] = []
        """What was made, in order (for the logs and the tests)."""
        self.idle = threading.Event()
        """Set while no job is waiting or running."""
        self.idle.set()
        self._pending = 0
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread = threading.Thread(target=self._run, name="dicehall-warm-up", daemon=True)

    def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._thread.start()
        for name in game_names():
            if has_evaluator(name) and name in SEATS_AT_START:
                game = get_game(name)
                self._prepare(name, game.rules_type.from_preset(None), SEATS_AT_START[name])
        self.manager.lobby.subscribers.add(self)

    def stop(self) -> None:
        self.manager.lobby.subscribers.discard(self)
        if self._thread.is_alive():
            self.jobs.put(None)  # after the job at hand, which cannot be cut short

    # -- the lobby's updates (on the event loop: look, then hand the work to the thread) ----------------------
    def push(self, text: str) -> None:
        try:
            table = json.loads(text)["table"]
            table_id, status = str(table["table_id"]), str(table["status"])
        except (ValueError, KeyError, TypeError):
            return
        ended = status == "finished"
        if (
            self._loop is None
            or (table_id, ended) in self.seen
            or status not in ("waiting", "playing", "finished")
        ):
            return
        self.seen[(table_id, ended)] = None
        if len(self.seen) > REMEMBERED:
            self.seen.pop(next(iter(self.seen)))
        # (after the change that is being made is sent)
        self._loop.call_soon(self._ended if ended else self._opened, table_id)

    def shutdown(self, code: int, reason: str) -> None:
        """(A lobby subscriber's close, when the server stops: nothing to close.)"""

    def _opened(self, table_id: str) -> None:
        meta = self.manager.store.get_table(table_id)
        if meta is None or not has_evaluator(meta.game):
            return
        if not (default_hints(meta.seats) if meta.hints is None else meta.hints):
            return  # no hints at this table: its evaluator is needed only once it ends
        game = get_game(meta.game)
        self._prepare(meta.game, game.rules_type.from_preset(meta.preset, meta.overrides), len(meta.seats))

    def _ended(self, table_id: str) -> None:
        if self._pending >= BUSY:
            return  # games end faster than they are analysed: the page makes its own when asked
        meta = self.manager.store.get_table(table_id)
        if meta is None or sum(1 for s in meta.seats if s["kind"] == "human") > 1:
            return  # between people: made when asked (measured: ahead, it slowed busy servers' moves by a third)
        try:
            record = self.manager.record(table_id)
        except Exception:  # gone meanwhile: nothing to make
            return
        if has_evaluator(record.game):
            self._submit(f"analysis {table_id}", lambda: table_analysis_of(table_id, record))
        self._submit(f"replay {table_id}", lambda: table_positions_of(table_id, record))

    # -- the thread ------------------------------------------------------------------------------------------
    def _prepare(self, game: str, rules: Any, seats: int) -> None:
        key = (game, rules, seats)
        if key not in self.prepared:
            self.prepared.add(key)
            self._submit(f"evaluator {game} {rules.preset} {seats}", lambda: prepare(game, rules, seats))

    def _submit(self, what: str, job: Callable[[], Any]) -> None:
        with self._lock:
            self._pending += 1
            self.idle.clear()
        self.jobs.put((what, job))

    def _run(self) -> None:
        while (item := self.jobs.get()) is not None:
            what, job = item
            try:
                job()
                self.done.append(what)
            except Exception as exc:  # a request later will meet the same problem and report it
                log.warning("warming up %s failed: %s", what, exc)
            finally:
                with self._lock:
                    self._pending -= 1
                    if self._pending == 0:
                        self.idle.set()
