"""The table manager: the only code that changes a table. Every change is committed to the database before
anything is sent to a client.

The manager runs on the server's event loop (single-threaded), so a move is validated, applied, followed by the
dice it triggers, committed and broadcast without interleaving with any other move of the same table. Bot moves
are computed in worker processes (:mod:`dicehall.web.bots`); loading, unloading and abandonment are in
:mod:`dicehall.web.lifecycle`.
"""

from __future__ import annotations

import dataclasses
import logging
import secrets
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from dicehall.core.agents import bots_for
from dicehall.core.errors import DicehallError, IllegalActionError, PlayerSpecError
from dicehall.core.game import CHANCE, get_game
from dicehall.core.record import Event, GameRecord, apply_event, replay
from dicehall.web.bots import BotRunner
from dicehall.web.db import OPEN_STATUSES, Store, StoredEvent, TableMeta
from dicehall.web.lifecycle import Lifecycle
from dicehall.web.live import (
    RECENT_EVENTS,
    LiveTable,
    Subscriber,
    TableError,
    dumps,
    hash_token,
    name_players,
    new_rngs,
    status_for,
)
from dicehall.web.protocol import CreateTable
from dicehall.web.settings import ServerSettings

log = logging.getLogger("dicehall.web")


def _iso(t: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(t))


@dataclasses.dataclass
class WebRecord(GameRecord):
    """A game record as the server serves it: ``closed`` says when and why the server closed an unfinished
    table (``{"reason": "abandoned", "at": ISO time}``); record readers ignore the extra field."""

    closed: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        out = super().to_json()
        if self.closed is not None:
            out["closed"] = self.closed
        return out


class TableManager:
    def __init__(
        self,
        store: Store,
        settings: ServerSettings | None = None,
        *,
        rand: Callable[[], float] | None = None,
        clock: Callable[[], float] = time.time,
        bot_setup: tuple[str, ...] = (),
    ) -> None:
        """``clock`` (wall seconds) decides idleness and abandonment (tests pass a fake one); ``bot_setup`` lists
        ``module:function`` hooks each bot worker calls at start (tests register their extra game with it)."""
        self.store = store
        self.settings = settings or ServerSettings()
        self.clock = clock
        self.tables: dict[str, LiveTable] = {}
        self.connections: set[Subscriber] = set()
        """Every open client connection (joined or not), for the 'server restarting' close."""
        self.bots = BotRunner(self, self.settings, bot_setup, rand)
        self.lifecycle = Lifecycle(self)

    # -- server start and stop ------------------------------------------------------------------------------
    def load_unfinished(self) -> int:
        """Server start: close abandoned tables, then load the tables whose bots may have to move (see
        :meth:`Lifecycle.startup`)."""
        return self.lifecycle.startup()

    def resume_bots(self) -> None:
        self.bots.resume(list(self.tables.values()))

    def begin_shutdown(self) -> None:
        """SIGTERM: stop starting bot moves and tell every client the server is restarting (close 1012)."""
        self.bots.stopped = True
        for conn in list(self.connections):
            conn.shutdown(1012, "server restarting")

    async def close(self) -> None:
        self.lifecycle.stop()
        for table in self.tables.values():
            table.closed = True
        await self.bots.stop(list(self.tables.values()))

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
                known = bots_for(spec.game)  # names only: the bot itself is made in a worker
                if s.bot not in known:
                    raise PlayerSpecError(
                        f"unknown bot {s.bot!r} for {spec.game}; choose one of: {', '.join(known) or '(none)'}"
                    )
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
            status=status_for(seats, state),
            created=now,
            updated=now,
            creator=creator,
        )
        self.store.create_table(meta)
        table = self._live(meta, state, 0)
        self._add(table)
        self.advance(table, None, None)  # a game may open with dice
        self.bots.schedule(table)
        return table, tokens

    def _live(self, meta: TableMeta, state: Any, seq: int) -> LiveTable:
        game = get_game(meta.game)
        rules = game.rules_type.from_preset(meta.preset, meta.overrides)
        dice, bot_rng = new_rngs()
        name_players(state, meta.seats)
        table = LiveTable(meta, game, rules, state, seq, dice, bot_rng, deque(maxlen=RECENT_EVENTS))
        table.touched = self.clock()
        return table

    def _add(self, table: LiveTable) -> None:
        self.tables[table.id] = table
        self.lifecycle.enforce_bound(keep=table)

    def get(self, table_id: str) -> LiveTable:
        """The live table, rebuilt from the database's log when not in memory."""
        table = self.tables.get(table_id)
        if table is not None:
            table.touched = self.clock()
            return table
        meta = self.store.get_table(table_id)
        if meta is None:
            raise TableError("no_such_table", f"there is no table {table_id!r}")
        table = self.rebuild(meta)
        self._add(table)
        # Killed between creating a table and rolling its opening dice: roll them now.
        self.advance(table, None, None)
        self.bots.schedule(table)
        return table

    def rebuild(self, meta: TableMeta) -> LiveTable:
        """The table replayed from its log: state, seq, recent-event window; abandoned here if it is stale."""
        try:
            game = get_game(meta.game)
            rules = game.rules_type.from_preset(meta.preset, meta.overrides)
            state = game.new_initial_state(rules, len(meta.seats))
        except DicehallError as exc:
            raise TableError("server_error", f"table {meta.id} cannot be set up: {exc}") from None
        events = self.store.events(meta.id)
        table = self._live(meta, state, 0)
        first_kept = len(events) - RECENT_EVENTS
        for i, ev in enumerate(events):
            if ev.seq != i + 1:
                raise TableError("server_error", f"table {meta.id}: log has a gap before event {ev.seq}")
            try:
                apply_event(state, Event(ev.actor, ev.move), ev.seq)
            except DicehallError as exc:
                raise TableError("server_error", f"table {meta.id}: log does not replay: {exc}") from None
            table.seq = ev.seq
            table.moves.append((ev.actor, ev.move))
            if i >= first_kept:
                table.remember(ev)
        status = status_for(meta.seats, state, meta.status)
        if status != meta.status:  # e.g. killed between the last event and the status update
            meta.status = status
            self.store.update_table(meta.id, status=status)
        last = events[-1].at if events else meta.created
        if meta.status in OPEN_STATUSES and self.lifecycle.is_stale(last):
            self.lifecycle.mark_abandoned(meta)
        return table

    def claim(self, table_id: str, seat: int, name: str | None) -> str:
        table = self.get(table_id)
        if table.status not in OPEN_STATUSES:
            raise TableError("game_over", f"table {table_id} is {table.status}; start a new table")
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
        status = status_for(seats, table.state)
        self.store.update_table(table_id, seats=seats, status=status)
        table.meta.seats = seats
        table.meta.status = status
        name_players(table.state, seats)
        table.broadcast(dumps({"type": "table", **table.describe()}))
        self.bots.schedule(table)
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

    def leave(self, table: LiveTable, sub: Subscriber) -> None:
        """A client leaves; a finished table nobody watches is dropped from memory (it reloads from the log)."""
        table.subscribers.discard(sub)
        self.evict_if_idle(table)
        self.lifecycle.enforce_bound()

    def evict_if_idle(self, table: LiveTable) -> None:
        if table.status not in OPEN_STATUSES and not table.subscribers:
            self.lifecycle.unload(table)

    # -- acting -----------------------------------------------------------------------------------------------
    def act(self, table: LiveTable, held: list[int], seat: int, seq: int, move: str) -> None:
        """A human move: checked, applied (with the dice it triggers), committed, then broadcast."""
        table.touched = self.clock()
        if table.status == "abandoned":
            raise TableError("game_over", "this table was closed as abandoned (nobody moved for too long)")
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
            raise TableError("illegal_move", f"cannot read {move!r}: {exc}", "notation", reason=exc.text) from None
        self.advance(table, seat, action)

    def advance(self, table: LiveTable, actor: int | None, action: Any) -> None:
        """Apply ``action`` for ``actor`` (if any) and every chance event that follows; commit; broadcast."""
        if table.status not in OPEN_STATUSES:
            return
        state = table.state
        pending: list[tuple[StoredEvent, str, dict[str, Any]]] = []
        now = time.time()
        if actor is not None:
            text = state.action_to_string(action)
            try:
                state.apply_action(action)  # refuses before changing anything
            except IllegalActionError as exc:
                raise TableError(
                    "illegal_move", f"{text!r} is not allowed now: {exc}", exc.rule or None, reason=exc.text
                ) from None
            except DicehallError as exc:
                raise TableError("illegal_move", f"{text!r} is not allowed now: {exc}", reason=exc.text) from None
            except Exception:
                log.exception("table %s: the engine failed on %r; rebuilding from the log", table.id, text)
                self._reload(table)
                raise TableError(
                    "server_error", f"the game engine failed on {text!r}; nothing changed"
                ) from None
            pending.append(table.event(StoredEvent(table.seq + 1, actor, text, now)))
        try:
            while state.current_player() == CHANCE:
                try:
                    outcome = state.sample_chance(table.dice)
                except IllegalActionError as exc:
                    # e.g. a throw made with real dice: only a typed outcome may follow it, never a server roll
                    self._reload(table)
                    what = repr(pending[-1][0].move) if pending else "this move"
                    raise TableError(
                        "illegal_move", f"{what} cannot be played here: {exc}", exc.rule or None, reason=exc.text
                    ) from None
                text = state.action_to_string(outcome)
                state.apply_action(outcome)
                seq = table.seq + len(pending) + 1
                pending.append(table.event(StoredEvent(seq, "chance", text, now)))
            if not pending:
                return
            status = status_for(table.seats, state)
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
        table.touched = self.clock()
        for ev, text, entry in pending:
            table.seq = ev.seq
            table.moves.append((ev.actor, ev.move))
            table.recent.append((ev.seq, text, entry))
            table.broadcast(text)
        self.bots.schedule(table)
        self.evict_if_idle(table)

    def _reload(self, table: LiveTable) -> None:
        """After a failed commit the in-memory state may be ahead of the log: rebuild it from the log."""
        meta = self.store.get_table(table.id)
        if meta is None:
            return
        fresh = self.rebuild(meta)
        table.state, table.seq, table.recent, table.meta = fresh.state, fresh.seq, fresh.recent, fresh.meta
        table.moves = fresh.moves

    # -- records ----------------------------------------------------------------------------------------------
    def record(self, table_id: str) -> WebRecord:
        """The table's game record, read from the database log (what is persisted, not what is in memory)."""
        meta = self.store.get_table(table_id)
        if meta is None:
            raise TableError("no_such_table", f"there is no table {table_id!r}")
        events = self.store.events(table_id)
        record = WebRecord(
            game=meta.game,
            preset=meta.preset,
            overrides=meta.overrides,
            players=[{"name": str(s["name"])} for s in meta.seats],
            events=[Event(e.actor, e.move) for e in events],
            seed=None,
            game_id=meta.id,
            created=_iso(meta.created),
        )
        if meta.status == "finished":
            try:
                record.finish(replay(record))
            except DicehallError as exc:
                log.error("table %s: finished log does not replay: %s", table_id, exc)
        elif meta.status == "abandoned":
            record.closed = {"reason": "abandoned", "at": _iso(meta.updated)}
        return record
