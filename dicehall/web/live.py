"""One live table: its state rebuilt from the log, the seats, the recent event messages, and its subscribers.

Nothing here touches the database or the clock of other tables; :mod:`dicehall.web.manager` changes tables.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import json
import secrets
import time
from collections import deque
from typing import Any

import numpy as np

from dicehall.core.errors import DicehallError
from dicehall.core.game import Game, State
from dicehall.core.rules import RuleSet
from dicehall.web.db import StoredEvent, TableMeta

RECENT_EVENTS = 200
"""Events kept in memory per table for reconnects; a client further behind gets a snapshot."""
SNAPSHOT_LOG = 60
"""Events (without views) included in a snapshot's ``log``."""


def dumps(obj: Any) -> str:
    """Compact JSON: every event goes to every client of a table, so bytes and encoding time matter."""
    return _ENCODER.encode(obj)


_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)


class TableError(DicehallError):
    """A request the table refuses; ``code`` is the protocol's error code, ``rule`` the rule broken if any."""

    def __init__(self, code: str, message: str, rule: str | None = None, *, reason: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.rule = rule
        self.reason = reason  # the engine's own reason (a Message carries its id and parameters)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class Subscriber:
    """A client connection as the table sees it: it gets ready JSON text, never blocks the table."""

    def push(self, text: str) -> None:  # pragma: no cover - interface
        raise NotImplementedError

    def shutdown(self, code: int, reason: str) -> None:
        """Close the connection after what is queued (server stopping); a probe may ignore it."""


@dataclasses.dataclass
class LiveTable:
    meta: TableMeta
    game: Game[Any]
    rules: RuleSet
    state: State[Any]
    seq: int
    dice: np.random.Generator
    bot_rng: np.random.Generator
    recent: deque[tuple[int, str, dict[str, Any]]]
    moves: list[tuple[int | str, str]] = dataclasses.field(default_factory=list)
    """Every event (actor, move) of the log, in order: bot workers are brought up to date from it."""
    subscribers: set[Subscriber] = dataclasses.field(default_factory=set)
    bot_task: asyncio.Task[None] | None = None
    closed: bool = False
    touched: float = dataclasses.field(default_factory=time.monotonic)
    """Last join, move or read (monotonic clock): idle tables are unloaded."""

    @property
    def id(self) -> str:
        return self.meta.id

    @property
    def seats(self) -> list[dict[str, Any]]:
        return self.meta.seats

    @property
    def status(self) -> str:
        return self.meta.status

    def names(self) -> list[str]:
        return [str(s["name"]) for s in self.seats]

    def view(self) -> dict[str, Any]:
        """The game's public view with the seat names filled in (game-neutral)."""
        view = self.state.public_view()
        names = self.names()
        view["names"] = names
        players = view.get("players")
        if isinstance(players, list) and len(players) == len(names):
            for p, name in zip(players, names, strict=True):
                if isinstance(p, dict):
                    p["name"] = name
        elif players is None:
            view["players"] = [{"name": n} for n in names]
        return view

    def describe(self) -> dict[str, Any]:
        return {
            "table_id": self.id,
            "game": self.meta.game,
            "title": self.game.title,
            "preset": self.meta.preset,
            "overrides": self.meta.overrides,
            "status": self.status,
            "seq": self.seq,
            "seats": public_seats(self.seats),
            "created": self.meta.created,
        }

    def entry_text(self, actor: int | str, move: str) -> str:
        who = "dice" if actor == "chance" else self.names()[int(actor)]
        return f"{who}: {move}"

    def snapshot(self) -> dict[str, Any]:
        return {
            "type": "snapshot",
            "table": self.id,
            "seq": self.seq,
            "status": self.status,
            "state": self.view(),
            "log": [entry for _, _, entry in list(self.recent)[-SNAPSHOT_LOG:]],
        }

    def event(self, ev: StoredEvent) -> tuple[StoredEvent, str, dict[str, Any]]:
        """The event message for ``ev``, made right after it was applied (so its view is the state after it),
        and its log entry for snapshots."""
        words = self.entry_text(ev.actor, ev.move)
        msg = {
            "type": "event",
            "seq": ev.seq,
            "actor": ev.actor,
            "move": ev.move,
            "text": words,
            "at": ev.at,
            "status": status_for(self.seats, self.state, self.status),
            "state": self.view(),
        }
        return ev, dumps(msg), {"seq": ev.seq, "actor": ev.actor, "move": ev.move, "text": words}

    def remember(self, ev: StoredEvent) -> None:
        _, text, entry = self.event(ev)
        self.recent.append((ev.seq, text, entry))

    def broadcast(self, text: str) -> None:
        for sub in list(self.subscribers):
            sub.push(text)


def public_seats(seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {"seat": i, "name": s["name"], "kind": s["kind"], "bot": s.get("bot"), "claimed": bool(s["claimed"])}
        for i, s in enumerate(seats)
    ]


def name_players(state: State[Any], seats: list[dict[str, Any]]) -> None:
    """Seat names for the game's own narration and rendering."""
    state.set_names([str(s["name"]) for s in seats])


def status_for(seats: list[dict[str, Any]], state: State[Any], current: str | None = None) -> str:
    if current == "abandoned":
        return current  # closed by the server: stays closed
    if state.is_terminal():
        return "finished"
    return "playing" if all(s["claimed"] for s in seats) else "waiting"


def new_rngs() -> tuple[np.random.Generator, np.random.Generator]:
    """Dice and bot seeds from secrets-seeded generators held only in memory (nobody can predict a roll)."""
    return np.random.default_rng(secrets.randbits(128)), np.random.default_rng(secrets.randbits(128))
