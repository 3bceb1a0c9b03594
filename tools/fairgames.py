"""Games played through the server's real path (``TableManager.create`` / ``act`` on a SQLite store), for the
fair-dice tests and benchmark: the dice are the manager's own, the moves come from in-process bots acting for
human seats exactly as a page would send them."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from dicehall.core.agents import Agent, make_bot
from dicehall.core.game import CHANCE
from dicehall.core.record import GameRecord
from dicehall.web.db import Store
from dicehall.web.manager import TableManager
from dicehall.web.protocol import CreateTable, SeatSpec
from dicehall.web.settings import ServerSettings

CHEAP_BOT = {"thousand": "bold", "clever": "random", "wurf": "cautious"}
"""A quick bot per game that ends its games (the moves do not matter to the dice checks)."""


@contextlib.contextmanager
def manager_on(db: Path) -> Iterator[TableManager]:
    store = Store(f"sqlite:///{db}")
    try:
        yield TableManager(store, ServerSettings(unfinished_per_client=1_000_000))
    finally:
        store.close()


def play_table(
    manager: TableManager,
    game: str,
    players: int = 2,
    seed: int = 0,
    overrides: dict[str, Any] | None = None,
    stop_after: int | None = None,
) -> str:
    """A new hot-seat table of ``game`` played to its end (or until ``stop_after`` events); its id."""
    spec = CreateTable(
        game=game,
        overrides=overrides or {},
        seats=[SeatSpec(kind="human", name=f"P{i}") for i in range(players)],
    )
    table, _ = manager.create(spec)
    play_on(manager, table.id, seed, stop_after)
    return table.id


def play_on(manager: TableManager, table_id: str, seed: int = 0, stop_after: int | None = None) -> None:
    """Play table ``table_id`` (loaded from the database if need be) on, every seat by a cheap bot's choice sent as
    the seat's move."""
    table = manager.get(table_id)
    game = table.meta.game
    held = list(range(len(table.seats)))
    agents: list[Agent] = [make_bot(game, CHEAP_BOT[game], table.rules) for _ in held]
    rng = np.random.default_rng(seed)
    for _ in range(100_000):
        state = table.state
        if state.is_terminal() or (stop_after is not None and table.seq >= stop_after):
            return
        tog = table.together
        if tog is not None and tog.pending():
            seat = tog.pending()[0]
            branch = tog.branches[seat]
            move = branch.action_to_string(agents[seat].choose(branch, rng))
        else:
            seat = state.current_player()
            assert seat != CHANCE, "the manager rolls the dice itself"
            move = state.action_to_string(agents[seat].choose(state, rng))
        manager.act(table, held, seat, table.seq, move)
    raise AssertionError(f"{game}: the game did not end")


def record_of(manager: TableManager, table_id: str) -> GameRecord:
    return manager.record(table_id)
