"""One live table: its state rebuilt from the log, the seats, the recent event messages, and its subscribers.

Nothing here touches the database or the clock of other tables; :mod:`dicehall.web.manager` changes tables.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import hashlib
import json
import secrets
import time
from collections import deque
from collections.abc import Sequence
from typing import Any

import numpy as np

from dicehall.core.analysis import has_evaluator
from dicehall.core.errors import DicehallError
from dicehall.core.fairdice import event_rng
from dicehall.core.game import CHANCE, RESIGN, TIMEOUT, Game, State
from dicehall.core.realdice import entry_seats
from dicehall.core.rules import RuleSet
from dicehall.i18n import LANGUAGES, translator
from dicehall.i18n.message import Message, message_json
from dicehall.web.db import UNDO, StoredEvent, TableMeta
from dicehall.web.ratings import reason_of
from dicehall.web.together import Together

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

    def __init__(
        self, code: str, message: str, rule: str | None = None, *, reason: str | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.rule = rule
        self.reason = reason  # the engine's own reason (a Message carries its id and parameters)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class Subscriber:
    """A client connection as the table sees it: it gets ready JSON text, never blocks the table."""

    seats: Sequence[int] = ()
    """The seats this client holds (its private messages, e.g. a simultaneous choice, go only to them)."""

    def push(self, text: str) -> None:  # pragma: no cover - interface
        raise NotImplementedError

    def shutdown(self, code: int, reason: str) -> None:
        """Close the connection after what is queued (server stopping); a probe may ignore it."""


def page_view(state: State[Any], names: list[str], viewer: int | None = None) -> dict[str, Any]:
    """The game's public view as a page gets it (as seat ``viewer`` sees it; None: everybody): engine messages as
    ``{"id", "params"}`` (the page words them itself) and the seat names filled in. The live table and the replay of
    a finished game both send this."""
    view = state.public_view(viewer)
    events = view.get("events")
    if isinstance(events, list):
        view["events"] = [message_json(e) or e for e in events]
    view["names"] = names
    players = view.get("players")
    if isinstance(players, list) and len(players) == len(names):
        for p, name in zip(players, names, strict=True):
            if isinstance(p, dict):
                p["name"] = name
    elif players is None:
        view["players"] = [{"name": n} for n in names]
    return view


@dataclasses.dataclass
class LiveTable:
    meta: TableMeta
    game: Game[Any]
    rules: RuleSet
    state: State[Any]
    seq: int
    dice: np.random.Generator
    """The dice of a table from before committed seeds (see :meth:`chance_rng`)."""
    bot_rng: np.random.Generator
    recent: deque[tuple[int, str, dict[str, Any]]]
    moves: list[tuple[int | str, str]] = dataclasses.field(default_factory=list)
    """Every event (actor, move) of the game, in order: bot workers are brought up to date from it. Entries taken
    back (real dice) and the undo events themselves are not in it."""
    entered: list[int | None] = dataclasses.field(default_factory=list)
    """Per event of ``moves``: the seat that typed this dice outcome in (real dice), else None."""
    seqs: list[int] = dataclasses.field(default_factory=list)
    """Per event of ``moves``: its sequence number in the log (the log also numbers undo events)."""
    undos: int = 0
    """Entries taken back since the table was loaded (bot workers key their cached states by it)."""
    together: Together | None = None
    """The simultaneous choices being made now, if the game has seats choosing at once."""
    subscribers: set[Subscriber] = dataclasses.field(default_factory=set)
    bot_task: asyncio.Task[None] | None = None
    closed: bool = False
    touched: float = dataclasses.field(default_factory=time.monotonic)
    """Last join, move or read (monotonic clock): idle tables are unloaded."""
    extras: tuple[int, dict[str, Any], str] | None = None
    """The latest kept event that carried :meth:`State.event_extras` (e.g. a Wurf throw's motion): its seq, the
    extras, and its message without them (what ``recent`` keeps for it once a newer one arrives)."""
    unsent: dict[int, tuple[dict[str, Any], str]] = dataclasses.field(default_factory=dict)
    """Extras of events made but not yet kept (a failed commit clears them)."""
    ratings: list[dict[str, Any]] | None = None
    """A rated game's rating changes once it ended (web/ratings.py), for the game-over card."""
    clock_seats: tuple[int, ...] = ()
    """Correspondence: the human seats the table's deadline runs for (correspondence.py)."""
    last_turn: tuple[int, ...] | None = None
    """The seats to move as last written to ``dh_seats`` (None: not known since loading, written at the next
    commit): a move that keeps the turn writes no seat row."""

    @property
    def id(self) -> str:
        return self.meta.id

    def chance_rng(self, seq: int) -> np.random.Generator:
        """The generator of the dice of log event ``seq``: derived from the table's committed seed (anyone can
        recompute it once the seed is revealed); a table from before seeds rolls from ``dice``."""
        seed = self.meta.dice_seed
        return self.dice if seed is None else event_rng(seed, seq)

    @property
    def seats(self) -> list[dict[str, Any]]:
        return self.meta.seats

    @property
    def status(self) -> str:
        return self.meta.status

    def names(self) -> list[str]:
        return seat_names(self.seats)

    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s["kind"] == "human"]

    @property
    def hints_allowed(self) -> bool:
        """The table's hints option (tables from before it: the default by who plays)."""
        return default_hints(self.seats) if self.meta.hints is None else self.meta.hints

    @property
    def real_dice(self) -> bool:
        return self.meta.dice == "real"

    def add_move(self, seq: int, actor: int | str, move: str, entered_by: int | None) -> None:
        self.seq = seq
        self.moves.append((actor, move))
        self.entered.append(entered_by)
        self.seqs.append(seq)

    def view(self) -> dict[str, Any]:
        """The game's public view with the seat names filled in and the table's real-dice and simultaneous-seat
        state (game-neutral)."""
        return self.view_of(self.state)

    def view_of(
        self, state: State[Any], viewer: int | None = None, names: list[str] | None = None
    ) -> dict[str, Any]:
        view = page_view(state, self.names() if names is None else names, viewer)
        view["dice_mode"] = self.meta.dice
        if self.real_dice:
            undo = self.entered[-1] if self.entered else None
            view["real_dice"] = {
                "enter": entry_seats(state, self.humans()) if state.current_player() == CHANCE else [],
                "roller": state.roller() if state.current_player() == CHANCE else None,
                "undo": undo,
                "undo_move": self.moves[-1][1] if undo is not None else None,
            }
        if self.together is not None:
            view["simultaneous"] = self.together.public()
        if self.meta.move_seconds is not None:
            view["clock"] = {
                "move_seconds": self.meta.move_seconds,
                "deadline": self.meta.deadline,
                "seats": list(self.clock_seats),
            }
        return view

    def describe(self) -> dict[str, Any]:
        return {
            "table_id": self.id,
            "game": self.meta.game,
            "title": self.game.title,
            "preset": self.meta.preset,
            "overrides": self.meta.overrides,
            # what the creator chose: the overrides less those every live table has (Wurf's simulated throws)
            "house_rules": {
                k: v
                for k, v in self.meta.overrides.items()
                if k not in self.game.live_overrides or self.game.live_overrides[k] != v
            },
            "dice": self.meta.dice,
            "hints": self.hints_allowed,
            "analysis": has_evaluator(
                self.meta.game
            ),  # whether its game is analysed once over (the game-over card)
            "move_seconds": self.meta.move_seconds,
            "deadline": self.meta.deadline,
            "status": self.status,
            "seq": self.seq,
            "seats": public_seats(self.seats),
            "created": self.meta.created,
            "rated": bool(self.meta.rated),
            "unrated": reason_of(self.meta),
            "ratings": self.ratings,
            "dice_commit": self.meta.dice_commit,
        }

    def entry_text(
        self, actor: int | str, move: str, entered_by: int | None = None, names: list[str] | None = None
    ) -> str:
        names = self.names() if names is None else names
        if actor == UNDO:
            return f"{names[entered_by or 0]} takes back the dice {move}"
        if actor == "chance" and entered_by is not None:
            return f"dice (entered by {names[entered_by]}): {move}"
        if move == RESIGN and actor != "chance":
            seat = self.seats[int(actor)]
            said = "narrate.resigns_bot" if seat["kind"] == "bot" else "narrate.resigns"
            return Message(said, name=names[int(actor)])
        if move == TIMEOUT and actor != "chance":
            seat = self.seats[int(actor)]
            said = "narrate.timed_out_bot" if seat["kind"] == "bot" else "narrate.timed_out"
            return Message(said, name=names[int(actor)])
        who = "dice" if actor == "chance" else names[int(actor)]
        return f"{who}: {move}"

    def snapshot(self, viewer: int | None = None) -> dict[str, Any]:
        return {
            "type": "snapshot",
            "table": self.id,
            "seq": self.seq,
            "status": self.status,
            "state": self.view() if viewer is None else self.view_of(self.state, viewer),
            "log": [entry for _, _, entry in list(self.recent)[-SNAPSHOT_LOG:]],
            **({"extras": {"seq": self.extras[0], **self.extras[1]}} if self.extras else {}),
        }

    def event(self, ev: StoredEvent, retracts: int | None = None) -> tuple[StoredEvent, str, dict[str, Any]]:
        """The event message for ``ev``, made right after it was applied (so its view is the state after it),
        and its log entry for snapshots. An entered outcome carries ``entered_by``; an undo also ``retracts``
        (the sequence number of the entry it takes back)."""
        names = self.names()  # once per event: its text and its view
        words = self.entry_text(ev.actor, ev.move, ev.entered_by, names)
        msg: dict[str, Any] = {
            "type": "event",
            "seq": ev.seq,
            "actor": ev.actor,
            "move": ev.move,
            "text": words,
            "at": ev.at,
            "status": status_for(self.seats, self.state, self.status),
            "state": self.view_of(self.state, names=names),
        }
        entry: dict[str, Any] = {"seq": ev.seq, "actor": ev.actor, "move": ev.move, "text": words}
        if ev.entered_by is not None:
            msg["entered_by"] = entry["entered_by"] = ev.entered_by
        if retracts is not None:
            msg["retracts"] = entry["retracts"] = retracts
        extras = self.state.event_extras()
        if extras:
            plain = dumps(msg)
            self.unsent[ev.seq] = (extras, plain)
            return ev, dumps({**msg, **extras}), entry
        return ev, dumps(msg), entry

    def keep(self, seq: int, text: str, entry: dict[str, Any]) -> None:
        """Add a sent event to ``recent``. Only the latest event with extras keeps them there (a throw's motion
        is for watching it live, and for a client that reconnects right after it): older ones lose them."""
        made = self.unsent.pop(seq, None)
        if made is not None:
            if self.extras is not None:
                old = self.extras[0]
                for k, (s, _, e) in enumerate(self.recent):
                    if s == old:
                        self.recent[k] = (s, self.extras[2], e)
            self.extras = (seq, made[0], made[1])
        self.recent.append((seq, text, entry))

    def remember(self, ev: StoredEvent) -> None:
        _, text, entry = self.event(ev)
        self.keep(ev.seq, text, entry)

    def broadcast(self, text: str) -> None:
        for sub in list(self.subscribers):
            sub.push(text)

    def hidden_mover(self) -> int | None:
        """The seat to move when the game hides its position from the others (Clever's last +1), else None."""
        hidden_from = getattr(self.state, "hidden_from", None)
        mover = self.state.current_player()
        if hidden_from is None or not isinstance(mover, int) or mover < 0 or mover not in hidden_from(None):
            return None
        return mover

    def show_the_mover_its_own(self) -> None:
        """After an event's broadcast (everybody's view): when the game hides the seat to move from the others
        (Clever's last +1, chosen by each without seeing the others'), the pages holding that seat get the
        position as that seat sees it, with its own choices, as a snapshot."""
        mover = self.hidden_mover()
        if mover is None:
            return
        text: str | None = None
        for sub in list(self.subscribers):
            if mover in sub.seats:
                text = text or dumps(self.snapshot(mover))
                sub.push(text)

    def private(self, seat: int) -> str:
        """What seat ``seat`` alone sees of its simultaneous choice: its moves so far and its own position."""
        tog = self.together
        assert tog is not None
        branch = tog.branches[seat]
        msg = {
            "type": "private",
            "seq": self.seq,
            "seat": seat,
            "moves": tog.moves[seat][:],
            "done": branch.current_player() != seat,
            "state": self.view_of(branch, seat),
        }
        return dumps(msg)

    def send_private(self, seat: int) -> None:
        text = self.private(seat)
        for sub in list(self.subscribers):
            if seat in sub.seats:
                sub.push(text)


def effective_events(events: list[StoredEvent]) -> tuple[list[StoredEvent], int]:
    """The game's events of a table log (entries taken back and the undo events left out) and the sequence number
    of the last undo (0 if none). Raises :class:`TableError` for an undo that takes back no entry."""
    kept: list[StoredEvent] = []
    last_undo = 0
    for ev in events:
        if ev.actor == UNDO:
            if not kept or kept[-1].actor != "chance" or kept[-1].entered_by is None:
                raise TableError(
                    "server_error", f"log event {ev.seq}: an undo with no entered dice before it"
                )
            kept.pop()
            last_undo = ev.seq
        else:
            kept.append(ev)
    return kept, last_undo


@functools.cache
def default_seat_names(n: int) -> frozenset[str]:
    """What seat ``n`` (from 1) is called when nobody named it, in every language ("Player 1", "Игрок 1", …)."""
    return frozenset(translator(lang).message(Message("seat.player", n=n)) for lang in LANGUAGES)


def is_named(seat: int, s: dict[str, Any]) -> bool:
    """Whether a person named this seat. Unnamed seats are stored ``"named": false`` (their ``name`` the English
    default, for records); a seat from before that flag, named its own default in one of the languages (the page
    used to send it in its creator's language), counts as unnamed too. Pages word unnamed seats in their own
    language."""
    if s["kind"] != "human":
        return True
    named = s.get("named")
    if named is not None:
        return bool(named)
    return str(s["name"]) not in default_seat_names(seat + 1)


def public_seats(seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {
            "seat": i,
            "name": s["name"],
            "kind": s["kind"],
            "bot": s.get("bot"),
            "claimed": bool(s["claimed"]),
            "named": is_named(i, s),
            "player": s.get("player"),
            **({"reserved": True} if "reserved" in s else {}),  # kept for a rematch's player
            **({"deleted": True} if s.get("deleted") else {}),
            **({"resigned": True} if s.get("resigned") else {}),
            **({"timed_out": True} if s.get("timed_out") else {}),  # correspondence: its time ran out
        }
        for i, s in enumerate(seats)
    ]


def seat_names(seats: list[dict[str, Any]]) -> list[str]:
    """Names for the game's narration: an unnamed seat is the message ``seat.player`` (a ``str`` reading "Player
    N") and a deleted account's seat ``seat.deleted``, so each page words them in its reader's language; named
    seats are their names."""
    return [
        Message("seat.deleted")
        if s.get("deleted")
        else str(s["name"])
        if is_named(i, s)
        else Message("seat.player", n=i + 1)
        for i, s in enumerate(seats)
    ]


def turn_seats(state: State[Any], seats: list[dict[str, Any]], real_dice: bool) -> tuple[int, ...]:
    """The seats to move now: a simultaneous group, else the current player, else (dice to throw) the thrower;
    with real dice and no thrower in particular, every person who may type the dice in. Empty when over."""
    if state.is_terminal():
        return ()
    group = state.simultaneous_seats()
    if group:
        return tuple(group)
    current = state.current_player()
    if current >= 0:
        return (current,)
    roller = state.roller()
    if roller is not None:
        return (roller,)
    if real_dice:
        return tuple(entry_seats(state, [i for i, s in enumerate(seats) if s["kind"] == "human"]))
    return ()


def default_hints(seats: list[dict[str, Any]]) -> bool:
    """Hints are on by default alone and against bots, off when two or more people share the table."""
    return sum(1 for s in seats if s["kind"] == "human") <= 1


def name_players(state: State[Any], seats: list[dict[str, Any]]) -> None:
    """Seat names for the game's own narration and rendering (see :func:`seat_names`)."""
    state.set_names(seat_names(seats))


def status_for(seats: list[dict[str, Any]], state: State[Any], current: str | None = None) -> str:
    if current == "abandoned":
        return current  # closed by the server: stays closed
    if state.is_terminal():
        return "finished"
    return "playing" if all(s["claimed"] for s in seats) else "waiting"


def new_rngs() -> tuple[np.random.Generator, np.random.Generator]:
    """Dice (tables from before committed seeds) and bot seeds from secrets-seeded generators held only in memory
    (nobody can predict a roll or a bot's choice). Bots never draw from the committed dice seed."""
    return np.random.default_rng(secrets.randbits(128)), np.random.default_rng(secrets.randbits(128))
