"""Live tables: the in-memory state of every open table, rebuilt from its event log, and the only code that
changes a table. Every change is committed to the database before anything is sent to a client.

The manager runs on the server's event loop (single-threaded), so a move is validated, applied, followed by the
dice it triggers, committed and broadcast without interleaving with any other move of the same table.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import json
import logging
import os
import secrets
import time
from collections import deque
from collections.abc import Callable
from typing import Any

import numpy as np

from dicehall.core.agents import Agent, RandomAgent, make_bot
from dicehall.core.errors import DicehallError, IllegalActionError
from dicehall.core.game import CHANCE, TERMINAL, Game, State, get_game
from dicehall.core.record import Event, GameRecord, apply_event, replay
from dicehall.core.rules import RuleSet
from dicehall.web.db import Store, StoredEvent, TableMeta
from dicehall.web.protocol import CreateTable

log = logging.getLogger("dicehall.web")

RECENT_EVENTS = 200
"""Events kept in memory per table for reconnects; a client further behind gets a snapshot."""
SNAPSHOT_LOG = 60
"""Events (without views) included in a snapshot's ``log``."""
DEFAULT_BOT_DELAY = 0.8
"""Seconds a bot 'thinks' before its move (times a random factor in [0.7, 1.3]); 0 in tests and load runs."""


def dumps(obj: Any) -> str:
    """Compact JSON: every event goes to every client of a table, so bytes and encoding time matter."""
    return _ENCODER.encode(obj)


_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)


class TableError(DicehallError):
    """A request the table refuses; ``code`` is the protocol's error code, ``rule`` the rule broken if any."""

    def __init__(self, code: str, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.rule = rule


def state_text(pending: list[tuple[StoredEvent, str, dict[str, Any]]]) -> str:
    """The move that led to a refused chance event, for the error message."""
    return repr(pending[-1][0].move) if pending else "this move"


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


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


_BOTS: dict[tuple[str, str, RuleSet], Agent] = {}


def cached_bot(game: str, name: str, rules: RuleSet) -> Agent:
    """Bots may build big tables when made; make each (game, bot, rules) once per process and share it."""
    key = (game, name, rules)
    agent = _BOTS.get(key)
    if agent is None:
        agent = _BOTS[key] = make_bot(game, name, rules)
    return agent


class Subscriber:
    """A client connection as the table sees it: it gets ready JSON text, never blocks the table."""

    def push(self, text: str) -> None:  # pragma: no cover - interface
        raise NotImplementedError


@dataclasses.dataclass
class LiveTable:
    meta: TableMeta
    game: Game[Any]
    rules: RuleSet
    state: State[Any]
    seq: int
    dice: np.random.Generator
    bot_rng: np.random.Generator
    agents: dict[int, Agent]
    recent: deque[tuple[int, str, dict[str, Any]]]
    subscribers: set[Subscriber] = dataclasses.field(default_factory=set)
    bot_task: asyncio.Task[None] | None = None
    closed: bool = False

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


def public_seats(seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {"seat": i, "name": s["name"], "kind": s["kind"], "bot": s.get("bot"), "claimed": bool(s["claimed"])}
        for i, s in enumerate(seats)
    ]


def _name_players(state: State[Any], seats: list[dict[str, Any]]) -> None:
    """Seat names for the game's own narration and rendering."""
    state.set_names([str(s["name"]) for s in seats])


def _status_for(seats: list[dict[str, Any]], state: State[Any]) -> str:
    if state.is_terminal():
        return "finished"
    return "playing" if all(s["claimed"] for s in seats) else "waiting"


def _new_dice() -> tuple[np.random.Generator, np.random.Generator]:
    """Dice from a secrets-seeded generator held only in memory (never revealed, so nobody can predict rolls)."""
    return np.random.default_rng(secrets.randbits(128)), np.random.default_rng(secrets.randbits(128))


class TableManager:
    def __init__(
        self,
        store: Store,
        bot_delay: float = DEFAULT_BOT_DELAY,
        rand: Callable[[], float] | None = None,
    ) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self._rand = rand or (lambda: 0.7 + 0.6 * secrets.randbelow(1_000_000) / 1_000_000)
        self.tables: dict[str, LiveTable] = {}

    # -- lifecycle --------------------------------------------------------------------------------------------
    def load_unfinished(self) -> int:
        """Rebuild every unfinished table from its log and restart its bots (server start)."""
        n = 0
        for table_id in self.store.unfinished_table_ids():
            try:
                self.get(table_id)
                n += 1
            except TableError as exc:
                log.error("table %s not resumed: %s", table_id, exc)
        return n

    async def close(self) -> None:
        tasks = []
        for table in self.tables.values():
            table.closed = True
            if table.bot_task is not None:
                table.bot_task.cancel()
                tasks.append(table.bot_task)
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    # -- creating, loading, claiming ----------------------------------------------------------------------
    def create(self, spec: CreateTable, creator: str | None = None) -> tuple[LiveTable, dict[int, str]]:
        """Create a table; returns it with the tokens of the claimed human seats (shown once, stored hashed).
        ``creator`` is the creating client's key (see ``limits.py``), stored for the unfinished-tables quota."""
        game = get_game(spec.game)
        rules = game.rules_type.from_preset(spec.preset, spec.overrides)
        game.check_player_count(len(spec.seats))
        seats: list[dict[str, Any]] = []
        tokens: dict[int, str] = {}
        for i, s in enumerate(spec.seats):
            if s.kind == "bot":
                if not s.bot:
                    raise TableError("bad_request", f"seat {i}: a bot seat needs 'bot' (e.g. 'expert')")
                cached_bot(spec.game, s.bot, rules)  # unknown bot -> PlayerSpecError; builds its tables once
                seats.append(
                    {
                        "name": s.name or f"bot:{s.bot}",
                        "kind": "bot",
                        "bot": s.bot,
                        "token": None,
                        "claimed": True,
                    }
                )
            else:
                if s.bot:
                    raise TableError("bad_request", f"seat {i}: a human seat takes no 'bot'")
                name = (s.name or "").strip() or f"Player {i + 1}"
                token_hash = None
                if not s.open:
                    tokens[i] = secrets.token_urlsafe(24)
                    token_hash = hash_token(tokens[i])
                seats.append(
                    {"name": name, "kind": "human", "bot": None, "token": token_hash, "claimed": not s.open}
                )
        now = time.time()
        state = game.new_initial_state(rules, len(seats))
        meta = TableMeta(
            id=secrets.token_hex(6),
            game=spec.game,
            preset=rules.preset,
            overrides=rules.overrides(),
            seats=seats,
            status=_status_for(seats, state),
            created=now,
            updated=now,
            creator=creator,
        )
        self.store.create_table(meta)
        table = self._live(meta, game, rules, state, 0)
        self.tables[meta.id] = table
        self._advance(table, None, None)  # a game may open with dice
        self._schedule_bot(table)
        return table, tokens

    def _live(
        self, meta: TableMeta, game: Game[Any], rules: RuleSet, state: State[Any], seq: int
    ) -> LiveTable:
        dice, bot_rng = _new_dice()
        _name_players(state, meta.seats)
        agents = {
            i: cached_bot(meta.game, s["bot"], rules) for i, s in enumerate(meta.seats) if s["kind"] == "bot"
        }
        return LiveTable(meta, game, rules, state, seq, dice, bot_rng, agents, deque(maxlen=RECENT_EVENTS))

    def get(self, table_id: str) -> LiveTable:
        """The live table, rebuilt from the database's log when not in memory."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        meta = self.store.get_table(table_id)
        if meta is None:
            raise TableError("no_such_table", f"there is no table {table_id!r}")
        table = self._rebuild(meta)
        self.tables[table_id] = table
        # Killed between creating a table and rolling its opening dice: roll them now.
        self._advance(table, None, None)
        self._schedule_bot(table)
        return table

    def _rebuild(self, meta: TableMeta) -> LiveTable:
        try:
            game = get_game(meta.game)
            rules = game.rules_type.from_preset(meta.preset, meta.overrides)
            state = game.new_initial_state(rules, len(meta.seats))
        except DicehallError as exc:
            raise TableError("server_error", f"table {meta.id} cannot be set up: {exc}") from None
        events = self.store.events(meta.id)
        table = self._live(meta, game, rules, state, 0)
        first_kept = len(events) - RECENT_EVENTS
        for i, ev in enumerate(events):
            if ev.seq != i + 1:
                raise TableError("server_error", f"table {meta.id}: log has a gap before event {ev.seq}")
            try:
                apply_event(state, Event(ev.actor, ev.move), ev.seq)
            except DicehallError as exc:
                raise TableError("server_error", f"table {meta.id}: log does not replay: {exc}") from None
            table.seq = ev.seq
            if i >= first_kept:
                self._remember(table, ev)
        status = _status_for(meta.seats, state)
        if status != meta.status:  # e.g. killed between the last event and the status update
            meta.status = status
            self.store.update_table(meta.id, status=status)
        return table

    def claim(self, table_id: str, seat: int, name: str | None) -> str:
        table = self.get(table_id)
        if not 0 <= seat < len(table.seats):
            raise TableError("wrong_seat", f"table {table_id} has seats 0–{len(table.seats) - 1}, not {seat}")
        s = table.seats[seat]
        if s["kind"] != "human":
            raise TableError("wrong_seat", f"seat {seat} is played by a bot")
        if s["claimed"]:
            raise TableError("seat_taken", f"seat {seat} is already taken")
        token = secrets.token_urlsafe(24)
        seats = [dict(x) for x in table.seats]
        seats[seat].update(token=hash_token(token), claimed=True)
        if name and name.strip():
            seats[seat]["name"] = name.strip()
        status = _status_for(seats, table.state)
        self.store.update_table(table_id, seats=seats, status=status)
        table.meta.seats = seats
        table.meta.status = status
        _name_players(table.state, seats)
        self._broadcast(table, dumps({"type": "table", **table.describe()}))
        self._schedule_bot(table)
        return token

    # -- joining ----------------------------------------------------------------------------------------------
    def seats_for_tokens(self, table: LiveTable, tokens: list[str]) -> list[int]:
        held = []
        for token in tokens:
            h = hash_token(token)
            found = [i for i, s in enumerate(table.seats) if s.get("token") == h]
            if not found:
                raise TableError(
                    "bad_token", "a seat token does not belong to this table; join without it to watch"
                )
            held.extend(found)
        return sorted(set(held))

    def catch_up(self, table: LiveTable, last_seq: int | None) -> list[str]:
        """Messages bringing a client at ``last_seq`` up to date: the missing events, or one snapshot."""
        if last_seq is None or last_seq > table.seq:
            return [dumps(table.snapshot())]
        missing = table.seq - last_seq
        if missing == 0:
            return []
        if missing > len(table.recent):
            return [dumps(table.snapshot())]
        return [text for _, text, _ in list(table.recent)[-missing:]]

    # -- acting -----------------------------------------------------------------------------------------------
    def act(self, table: LiveTable, held: list[int], seat: int, seq: int, move: str) -> None:
        """A human move: checked, applied (with the dice it triggers), committed, then broadcast."""
        if table.state.is_terminal():
            raise TableError("game_over", "the game is over; download the record or start a new table")
        if seat not in held:
            raise TableError(
                "wrong_seat", f"you do not hold seat {seat}; you can act only for seats {held or 'none'}"
            )
        if table.status == "waiting":
            raise TableError("not_started", "the game starts when every seat is taken")
        if seq != table.seq:
            raise TableError(
                "stale_seq",
                f"the table is at event {table.seq}, your move was made at {seq}; look again and retry",
            )
        player = table.state.current_player()
        if player != seat:
            raise TableError("not_your_turn", f"it is seat {player}'s turn, not seat {seat}'s")
        try:
            action = table.state.string_to_action(move)
        except DicehallError as exc:
            raise TableError("illegal_move", f"cannot read {move!r}: {exc}", "notation") from None
        self._advance(table, seat, action)

    def _advance(self, table: LiveTable, actor: int | None, action: Any) -> None:
        """Apply ``action`` for ``actor`` (if any) and every chance event that follows; commit; broadcast."""
        state = table.state
        pending: list[tuple[StoredEvent, str, dict[str, Any]]] = []
        now = time.time()
        if actor is not None:
            text = state.action_to_string(action)
            try:
                state.apply_action(action)  # refuses before changing anything
            except IllegalActionError as exc:
                raise TableError(
                    "illegal_move", f"{text!r} is not allowed now: {exc}", exc.rule or None
                ) from None
            except DicehallError as exc:
                raise TableError("illegal_move", f"{text!r} is not allowed now: {exc}") from None
            except Exception:
                log.exception("table %s: the engine failed on %r; rebuilding from the log", table.id, text)
                self._reload(table)
                raise TableError(
                    "server_error", f"the game engine failed on {text!r}; nothing changed"
                ) from None
            pending.append(self._event(table, StoredEvent(table.seq + 1, actor, text, now)))
        try:
            while state.current_player() == CHANCE:
                try:
                    outcome = state.sample_chance(table.dice)
                except IllegalActionError as exc:
                    # e.g. a throw made with real dice: only a typed outcome may follow it, never a server roll
                    self._reload(table)
                    raise TableError(
                        "illegal_move",
                        f"{state_text(pending)} cannot be played here: {exc}",
                        exc.rule or None,
                    ) from None
                text = state.action_to_string(outcome)
                state.apply_action(outcome)
                seq = table.seq + len(pending) + 1
                pending.append(self._event(table, StoredEvent(seq, "chance", text, now)))
            if not pending:
                return
            status = _status_for(table.seats, state)
            self.store.append_events(
                table.id, [ev for ev, _, _ in pending], status if status != table.status else None
            )
        except TableError:
            raise
        except Exception as exc:
            # The state may be ahead of the log now: rebuild it from the log; nothing was sent.
            log.exception("table %s: move not saved; rebuilding from the log", table.id)
            self._reload(table)
            raise TableError(
                "server_error", f"the move could not be saved ({type(exc).__name__}); try again"
            ) from None
        table.meta.status = status
        for ev, text, entry in pending:
            table.seq = ev.seq
            table.recent.append((ev.seq, text, entry))
            self._broadcast(table, text)
        self._schedule_bot(table)
        self.evict_if_idle(table)

    def _event(self, table: LiveTable, ev: StoredEvent) -> tuple[StoredEvent, str, dict[str, Any]]:
        """The event message for ``ev``, made right after it was applied (so its view is the state after it),
        and its log entry for snapshots."""
        words = table.entry_text(ev.actor, ev.move)
        msg = {
            "type": "event",
            "seq": ev.seq,
            "actor": ev.actor,
            "move": ev.move,
            "text": words,
            "at": ev.at,
            "status": _status_for(table.seats, table.state),
            "state": table.view(),
        }
        return ev, dumps(msg), {"seq": ev.seq, "actor": ev.actor, "move": ev.move, "text": words}

    def _remember(self, table: LiveTable, ev: StoredEvent) -> None:
        _, text, entry = self._event(table, ev)
        table.recent.append((ev.seq, text, entry))

    def _reload(self, table: LiveTable) -> None:
        """After a failed commit the in-memory state may be ahead of the log: rebuild it from the log."""
        meta = self.store.get_table(table.id)
        if meta is None:
            return
        fresh = self._rebuild(meta)
        table.state, table.seq, table.recent, table.meta = fresh.state, fresh.seq, fresh.recent, fresh.meta

    def _broadcast(self, table: LiveTable, text: str) -> None:
        for sub in list(table.subscribers):
            sub.push(text)

    # -- bots -------------------------------------------------------------------------------------------------
    def _bot_to_move(self, table: LiveTable) -> int | None:
        if table.closed or table.status != "playing":
            return None
        player = table.state.current_player()
        if player < 0 or player == TERMINAL or table.seats[player]["kind"] != "bot":
            return None
        return player

    def _schedule_bot(self, table: LiveTable) -> None:
        if self._bot_to_move(table) is None or (table.bot_task is not None and not table.bot_task.done()):
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no loop yet (server start): the lifespan handler calls resume_bots()
        table.bot_task = loop.create_task(self._bot_loop(table))

    def leave(self, table: LiveTable, sub: Subscriber) -> None:
        """A client leaves; a finished table nobody watches is dropped from memory (it reloads from the log)."""
        table.subscribers.discard(sub)
        self.evict_if_idle(table)

    def evict_if_idle(self, table: LiveTable) -> None:
        if table.status == "finished" and not table.subscribers and self.tables.get(table.id) is table:
            del self.tables[table.id]

    def resume_bots(self) -> None:
        for table in self.tables.values():
            self._schedule_bot(table)

    async def _bot_loop(self, table: LiveTable) -> None:
        while (seat := self._bot_to_move(table)) is not None:
            delay = self.bot_delay * self._rand() if self.bot_delay > 0 else 0.0
            await asyncio.sleep(delay)
            if self._bot_to_move(table) != seat:
                continue
            agent = table.agents[seat]
            try:
                action = agent.choose(table.state, table.bot_rng)
            except Exception:
                log.exception("table %s: bot %s failed; playing a random legal move", table.id, agent.name)
                action = RandomAgent().choose(table.state, table.bot_rng)
            try:
                self._advance(table, seat, action)
            except TableError as exc:
                log.error("table %s: bot move refused: %s", table.id, exc)
                if exc.code == "server_error":
                    await asyncio.sleep(1.0)  # database trouble: retry later, not in a tight loop
                else:
                    return

    # -- records ----------------------------------------------------------------------------------------------
    def record(self, table_id: str) -> GameRecord:
        """The table's game record, read from the database log (what is persisted, not what is in memory)."""
        meta = self.store.get_table(table_id)
        if meta is None:
            raise TableError("no_such_table", f"there is no table {table_id!r}")
        events = self.store.events(table_id)
        record = GameRecord(
            game=meta.game,
            preset=meta.preset,
            overrides=meta.overrides,
            players=[{"name": str(s["name"])} for s in meta.seats],
            events=[Event(e.actor, e.move) for e in events],
            seed=None,
            game_id=meta.id,
            created=time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(meta.created)),
        )
        if meta.status == "finished":
            try:
                record.finish(replay(record))
            except DicehallError as exc:
                log.error("table %s: finished log does not replay: %s", table_id, exc)
        return record
