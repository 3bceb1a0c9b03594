"""The bot worker process: keeps bots and table states in bounded caches and answers one move at a time.

A request brings the table's rules, the events since the state this worker last had for it (or the whole log),
the bot and a seed drawn by the server (so the bot's randomness is reproducible per table). The answer is the
move in notation. Imported by the worker processes at start, so it imports only the core.
"""

from __future__ import annotations

import dataclasses
import importlib
import os
import signal
import time
import traceback
from collections import OrderedDict
from multiprocessing.connection import Connection
from typing import Any

import numpy as np

from dicehall.core.agents import Agent, make_bot
from dicehall.core.game import State, get_game
from dicehall.core.record import Event, apply_event
from dicehall.core.rules import RuleSet

STATES_PER_WORKER = 256
"""Table states a worker keeps to apply only new events next time (least recently used out)."""
WORKER_MEMORY_MB = 1024
"""A worker whose resident memory passes this after a move retires (the pool starts a fresh one): game code may
keep process-wide caches (Dice 1000's solved turn tables) that the bot LRU alone cannot free."""


@dataclasses.dataclass(frozen=True)
class BotRequest:
    table: str
    game: str
    preset: str
    overrides: dict[str, Any]
    names: tuple[str, ...]
    bot: str
    seat: int
    seq: int
    base: int
    """Sequence number of the worker's cached state the events continue from; -1: the events are the whole log."""
    events: tuple[tuple[int | str, str], ...]
    seed: int
    branch: tuple[str, ...] | None = None
    """Simultaneous seats: the seat chooses on its own branch of the position, after these choices of its own."""


class LRU(OrderedDict[Any, Any]):
    """A dict that keeps at most ``size`` entries, dropping the least recently used."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def use(self, key: Any) -> Any:
        value = self.get(key)
        if value is not None:
            self.move_to_end(key)
        return value

    def put(self, key: Any, value: Any) -> None:
        self[key] = value
        self.move_to_end(key)
        while len(self) > self.size:
            self.popitem(last=False)


class Worker:
    """What one worker process holds; ``answer`` is also called in-process by the tests."""

    def __init__(self, cache_size: int) -> None:
        self.bots = LRU(cache_size)
        self.states = LRU(STATES_PER_WORKER)

    def bot(self, game: str, name: str, rules: RuleSet) -> Agent:
        key = (game, name, rules)
        agent: Agent | None = self.bots.use(key)
        if agent is None:
            agent = make_bot(game, name, rules)
            self.bots.put(key, agent)
        return agent

    def state(self, req: BotRequest) -> tuple[State[Any], RuleSet] | None:
        """The table's state at ``req.seq``, or None when the worker lacks what the events continue from."""
        cached = self.states.use(req.table)
        if req.base >= 0:
            if cached is None or cached[0] != req.base:
                return None
            _, state, rules = cached
            start = req.base
        else:
            game = get_game(req.game)
            rules = game.rules_type.from_preset(req.preset, req.overrides)
            state = game.new_initial_state(rules, len(req.names))
            state.set_names(list(req.names))
            start = 0
        for i, (actor, move) in enumerate(req.events, start=start + 1):
            apply_event(state, Event(actor, move), i)
        self.states.put(req.table, (req.seq, state, rules))
        return state, rules

    def answer(self, req: BotRequest) -> tuple[str, Any]:
        """``("move", notation)``, ``("resync", None)`` (send the whole log) or ``("error", text)``."""
        try:
            found = self.state(req)
            if found is None:
                return "resync", None
            state, rules = found
            if req.branch is not None:  # a copy: the cached state stays the table's
                state = state.simultaneous_branch(req.seat)
                for move in req.branch:
                    state.apply_action(state.string_to_action(move))
            if state.current_player() != req.seat:
                return "error", f"seat {req.seat} is not to move at event {req.seq}"
            agent = self.bot(req.game, req.bot, rules)
            action = agent.choose(state, np.random.default_rng(req.seed))
            return "move", state.action_to_string(action)
        except Exception as exc:  # reported to the server, which plays the fallback and logs it
            self.states.pop(req.table, None)
            tb = traceback.format_exception_only(type(exc), exc)[-1].strip()
            return "error", tb


def resident_mb() -> float:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):  # not Linux: no recycling by memory
        return 0.0


def run_setup(setup: tuple[str, ...]) -> None:
    """Call each ``module:function`` (e.g. a test registering an extra game) before serving."""
    for item in setup:
        module, _, func = item.partition(":")
        getattr(importlib.import_module(module), func)()


def main(conn: Connection, cache_size: int, setup: tuple[str, ...]) -> None:
    """The worker loop: one request, one answer, until the server closes the pipe."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's to handle; it stops the workers
    run_setup(setup)
    worker = Worker(cache_size)
    try:
        conn.send("ready")  # start-up (imports, setup) never counts against a move's budget
    except OSError:
        return  # the server stopped while this worker was starting
    while True:
        try:
            req = conn.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return
        start = time.perf_counter()
        kind, value = worker.answer(req)
        retire = resident_mb() > WORKER_MEMORY_MB
        try:
            conn.send((kind, value, time.perf_counter() - start, retire))
        except (OSError, BrokenPipeError):
            return
        if retire:
            return
