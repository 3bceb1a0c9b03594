"""The table manager: the only code that changes a table. Every change is committed to the database before
anything is sent to a client.

The manager runs on the server's event loop (single-threaded), so a move is validated, applied, followed by the
dice it triggers, committed and broadcast without interleaving with any other move of the same table. Bot moves
are computed in worker processes (:mod:`dicehall.web.bots`); loading, unloading and abandonment are in
:mod:`dicehall.web.lifecycle`.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import secrets
import time
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from dicehall.core.agents import bots_for
from dicehall.core.errors import DicehallError, IllegalActionError, NotationError, PlayerSpecError
from dicehall.core.fairdice import commitment, new_seed
from dicehall.core.game import CHANCE, RESIGN, TIMEOUT, State, get_game
from dicehall.core.names import NameRefused, check_seat_name, impersonates
from dicehall.core.realdice import entry_seats, read_entry
from dicehall.core.record import Event, GameRecord, apply_event, replay
from dicehall.i18n.message import Message
from dicehall.web.bots import BotRunner
from dicehall.web.correspondence import TIMED_OUT, Correspondence, Reminder, check_game, move_seconds_of
from dicehall.web.db import OPEN_STATUSES, UNDO, Finish, Player, Store, StoredEvent, TableMeta, Unchanged
from dicehall.web.lifecycle import Lifecycle
from dicehall.web.live import (
    RECENT_EVENTS,
    LiveTable,
    Subscriber,
    TableError,
    default_hints,
    default_seat_names,
    dumps,
    effective_events,
    hash_token,
    is_named,
    name_players,
    new_rngs,
    status_for,
    turn_seats,
)
from dicehall.web.lobby import Lobby
from dicehall.web.logs import table_fields
from dicehall.web.metrics import Metrics, NoMetrics
from dicehall.web.owners import Elsewhere, LeaseLost, Owners
from dicehall.web.protocol import CreateTable
from dicehall.web.ratings import RatedGame, decide, table_changes
from dicehall.web.rematch import Rematches
from dicehall.web.settings import ServerSettings
from dicehall.web.together import Together

if TYPE_CHECKING:
    from dicehall.web.push import Pusher

log = logging.getLogger("dicehall.web")


def finish_of(state: State[Any], meta: TableMeta | None = None) -> Finish:
    """The result a finished game stores (the same scores and winners as its record's); a seat that timed out
    and was played on by a bot is a loss for its player (correspondence.py); at a rated table (``meta``) with the
    rating update that runs in the same transaction."""
    scores, winners = list(state.scores()), list(state.winners())
    seats = meta.seats if meta is not None else []
    forfeited = tuple(i for i, s in enumerate(seats) if s.get("timed_out") and s["kind"] == "bot")
    if meta is None or not meta.rated:
        return Finish(scores, winners, forfeited=forfeited)
    return Finish(scores, winners, RatedGame(meta.id, meta.game, meta.seats, scores, winners), forfeited)


def rated_after(table: LiveTable, finish: Finish | None) -> bool:
    """Keep what a finish's rating update did (changes for the game-over card, or why it rated nobody)."""
    if finish is None or not isinstance(finish.rate, RatedGame):
        return False
    table.ratings = finish.rate.changes
    if finish.rate.unrated:
        table.meta.rated, table.meta.unrated = False, finish.rate.unrated
    return True


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


_RESIGNING = object()
"""The step of ``_commit`` that resigns its seat (``State.resign``; logged as the move ``"resign"``)."""


def holds_seat(table: LiveTable, seat: int, held: list[int]) -> bool:
    """Whether the caller holds ``seat`` of ``table``: ``held`` are the seats its tokens open. (The one place
    that says who holds a seat: a seat linked to the caller's player joins here.)"""
    return seat in held


class TableManager:
    def __init__(
        self,
        store: Store,
        settings: ServerSettings | None = None,
        *,
        rand: Callable[[], float] | None = None,
        clock: Callable[[], float] = time.time,
        bot_setup: tuple[str, ...] = (),
        owners: Owners | None = None,
    ) -> None:
        """``clock`` (wall seconds) decides idleness and abandonment (tests pass a fake one); ``bot_setup`` lists
        ``module:function`` hooks each bot worker calls at start (tests register their extra game with it);
        ``owners``: the table leases when several processes share the database (``None``: this process is the
        only one, every table is its own)."""
        self.store = store
        self.owners = owners
        self.lobby = Lobby(store, shared=owners is not None)
        self._leases: asyncio.Task[None] | None = None
        self.settings = settings or ServerSettings()
        self.clock = clock
        self.tables: dict[str, LiveTable] = {}
        self.connections: set[Subscriber] = set()
        """Every open client connection (joined or not), for the 'server restarting' close."""
        self.bots = BotRunner(self, self.settings, bot_setup, rand)
        self.lifecycle = Lifecycle(self)
        self.metrics = Metrics() if self.settings.metrics != "off" else NoMetrics()
        self.metrics.watch(
            lambda: {
                "live": len(self.tables),
                "unloaded": self.lifecycle.unloaded,
                "sockets": len(self.connections),
            }
        )
        self.leases_renewed: float | None = None
        """When this process last renewed its table leases (several processes on one database), for /readyz."""
        self.rematches = Rematches(self)
        self.pusher: Pusher | None = None
        """Web Push (push.py), set by the app; None: nobody is notified away from the page."""
        self.correspondence = Correspondence(self)
        self.correspondence.on_reminder.append(self._push_reminder)
        """Correspondence tables: deadlines, reminders, timeouts, and the hooks ``on_reminder``/``on_timeout``."""

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
        await self.lobby.stop()
        if self._leases is not None:
            self._leases.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._leases
        if self.owners is not None:  # the others may take this process's tables at once, not after the expiry
            with contextlib.suppress(Exception):
                self.owners.release_all()

    # -- several processes on one database (owners.py) -------------------------------------------------------
    def start_shared(self) -> None:
        """Start the lobby's LISTEN and the lease keeper (only when the database is shared)."""
        self.lobby.start()
        if self.owners is not None:
            self.leases_renewed = time.monotonic()
            self._leases = asyncio.get_running_loop().create_task(self._keep_leases(self.owners))

    async def _keep_leases(self, owners: Owners) -> None:
        """Renew this process's leases; drop the tables it lost; take over bot tables whose owner died."""
        while True:
            await asyncio.sleep(owners.ttl / 3)
            try:
                for table_id in owners.renew():
                    table = self.tables.get(table_id)
                    if table is not None:
                        self._lost(table)
                self.leases_renewed = time.monotonic()
                for table_id in owners.orphans():
                    if table_id not in self.tables:
                        with contextlib.suppress(Elsewhere, TableError):
                            self.get(table_id)
            except Exception:  # the database is away: the leases may lapse, the fence keeps the logs right
                log.exception("renewing the table leases failed")

    def leases_kept(self) -> bool:
        """Whether this process keeps its table leases (always, with a database of its own)."""
        if self.owners is None:
            return True
        alive = self._leases is not None and not self._leases.done()
        return (
            alive
            and self.leases_renewed is not None
            and time.monotonic() - self.leases_renewed < self.owners.ttl
        )

    def _fence(self, table_id: str) -> Any:
        return None if self.owners is None else self.owners.fence(table_id)

    def _lost(self, table: LiveTable) -> TableError:
        """Another process took the table over: forget it, tell its clients to reconnect (they reach the new
        owner through any process), and give the error for the request that found out."""
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
        table.closed = True
        if self.owners is not None:
            self.owners.held.pop(table.id, None)
        for sub in list(table.subscribers):
            sub.shutdown(1012, "this table moved to another server process; reconnect")
        table.subscribers.clear()
        log.warning(
            "table %s: taken over by another server process; dropped here",
            table.id,
            extra=table_fields(table.id),
        )
        return TableError("moved", "this table is now served by another server process; reconnect and retry")

    # -- creating, loading, claiming ----------------------------------------------------------------------
    def create(
        self, spec: CreateTable, creator: str | None = None, player: Player | None = None
    ) -> tuple[LiveTable, dict[int, str]]:
        """Create a table; returns it with the tokens of the claimed human seats (shown once, stored hashed).
        ``creator`` is the creating client's key (see ``limits.py``), stored for the unfinished-tables quota;
        ``player`` the creating player: a seat ``"me": true`` is linked to it and takes its name."""
        if sum(1 for s in spec.seats if s.me) > 1:
            raise TableError("bad_request", "at most one seat can be yours ('me': true)")
        game = get_game(spec.game)
        rules = game.rules_type.from_preset(spec.preset, {**game.live_overrides, **spec.overrides})
        game.check_player_count(len(spec.seats))
        move_seconds = move_seconds_of(spec)
        if move_seconds is not None:
            check_game(game.new_initial_state(rules, len(spec.seats)))
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
                if s.me and s.open:
                    raise TableError("bad_request", f"seat {i}: your own seat ('me') cannot be left open")
                mine = s.me and player is not None
                name = check_seat_name(s.name) if s.name and s.name.strip() else ""
                if mine and player is not None and player.name:
                    name = player.name
                token_hash = None
                if not s.open:
                    tokens[i] = secrets.token_urlsafe(24)
                    token_hash = hash_token(tokens[i])
                seats.append(
                    {
                        "name": name or str(Message("seat.player", n=i + 1)),  # the records' English
                        "kind": "human",
                        "bot": None,
                        "token": token_hash,
                        "claimed": not s.open,
                        "named": bool(name) and (mine or is_named(i, {"kind": "human", "name": name})),
                        "player": player.id if mine and player is not None else None,
                    }
                )
        me_or_open = all(s.me or s.open for s in spec.seats if s.kind == "human") and player is not None
        hints = spec.hints
        rated, why = decide(seats, me_or_open, spec.dice, hints, spec.rated)
        if rated and hints is None:
            hints = False  # a rated game is played without hints
        now = time.time()
        meta = TableMeta(
            id=secrets.token_hex(6),
            game=spec.game,
            preset=rules.preset,
            overrides=rules.overrides(),
            seats=seats,
            status="waiting",
            created=now,
            updated=now,
            creator=creator,
            dice=spec.dice,
            hints=default_hints(seats) if hints is None else hints,
            creator_player=player.id if player is not None else None,
            rated=rated,
            unrated=why,
            move_seconds=move_seconds,
        )
        return self.start(meta), tokens

    def start(self, meta: TableMeta, after: Callable[[], None] | None = None) -> LiveTable:
        """Store the new table ``meta`` (its status follows from its seats; a ``dh_seats`` row per seat, linked
        where the seat JSON names a player) and open it: dice it opens with, bots. ``after`` runs once the table
        is stored (e.g. recording the rematch it answers)."""
        game = get_game(meta.game)
        rules = game.rules_type.from_preset(meta.preset, meta.overrides)
        state = game.new_initial_state(rules, len(meta.seats))
        if meta.dice != "real" and meta.dice_seed is None:  # real dice are the players' own: no seed
            meta.dice_seed = new_seed()
            meta.dice_commit = commitment(meta.dice_seed)
        meta.status = status_for(meta.seats, state)
        turn = turn_seats(state, meta.seats, meta.dice == "real")
        on_clock = Correspondence.on_clock(meta, state, meta.status)
        meta.deadline = self.clock() + meta.move_seconds if on_clock and meta.move_seconds else None
        self.store.create_table(meta, turn)
        if after is not None:
            after()
        if self.owners is not None:
            self.owners.acquire(meta.id)  # a new id: nobody else can hold it
        table = self._live(meta, state, 0)
        table.last_turn = turn
        table.clock_seats = on_clock
        self._add(table)
        self.advance(table, None, None)  # a game may open with dice
        self._open_together(table)
        self.bots.schedule(table)
        self.lobby.changed(table.meta)
        return table

    def _live(self, meta: TableMeta, state: Any, seq: int) -> LiveTable:
        game = get_game(meta.game)
        rules = game.rules_type.from_preset(meta.preset, meta.overrides)
        dice, bot_rng = new_rngs()
        name_players(state, meta.seats)
        state.live_extras = True
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
        self.store.show_player_names([meta])
        if self.owners is not None:
            self.owners.acquire(table_id)  # or Elsewhere: the request goes to the owner
        try:
            table = self.rebuild(meta)
        except BaseException:
            if self.owners is not None:
                self.owners.release(table_id)
            raise
        self._add(table)
        # Killed between creating a table and rolling its opening dice: roll them now.
        self.advance(table, None, None)
        self._open_together(table)
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
        for i, ev in enumerate(events):
            if ev.seq != i + 1:
                raise TableError("server_error", f"table {meta.id}: log has a gap before event {ev.seq}")
        game_events, last_undo = effective_events(events)
        first_kept = len(game_events) - RECENT_EVENTS
        for i, ev in enumerate(game_events):
            try:
                apply_event(state, Event(ev.actor, ev.move), ev.seq)
            except DicehallError as exc:
                raise TableError("server_error", f"table {meta.id}: log does not replay: {exc}") from None
            table.add_move(ev.seq, ev.actor, ev.move, ev.entered_by)
            if i >= first_kept and ev.seq > last_undo:  # catch-up messages only after the last undo
                table.remember(ev)
        table.seq = len(events)
        status = status_for(meta.seats, state, meta.status)
        if status != meta.status:  # e.g. killed between the last event and the status update
            meta.status = status
            finish = finish_of(state, meta) if status == "finished" else None
            self.store.update_table(meta.id, status=status, fence=self._fence(meta.id), finish=finish)
            rated_after(table, finish)
        elif meta.status == "finished" and meta.rated:
            table.ratings = table_changes(self.store, meta.id, meta.seats)
        self.correspondence.loaded(table)
        last = events[-1].at if events else meta.created
        if meta.status in OPEN_STATUSES and self.lifecycle.is_stale(last, meta.deadline):
            self.lifecycle.mark_abandoned(meta, fenced=True)
        return table

    def claim(
        self,
        table_id: str,
        seat: int,
        name: str | None,
        player: Player | None = None,
        reserved_ok: bool = False,
    ) -> str:
        """Take the free human seat ``seat`` and return its token; ``player`` (the joiner) is linked to it, and its
        name, if it has one, is the seat's. A seat kept for a rematch's player is taken only through the rematch
        (``reserved_ok``, see rematch.py)."""
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
        if "reserved" in s and not reserved_ok:
            raise TableError(
                "seat_taken", f"seat {seat} is kept for the player who sat there in the last game"
            )
        if table.meta.rated and player is not None and any(x.get("player") == player.id for x in table.seats):
            raise TableError(
                "rated_one_seat",
                "this is a rated game and you already play a seat at it; invite someone else to this seat",
            )
        token = secrets.token_urlsafe(24)
        seats = [dict(x) for x in table.seats]
        seats[seat].update(token=hash_token(token), claimed=True)
        seats[seat].pop("reserved", None)
        if player is not None:
            seats[seat]["player"] = player.id
            name = player.name or name
        if name and name.strip():
            typed = check_seat_name(name)
            others = [str(x["name"]) for i, x in enumerate(table.seats) if i != seat and x["kind"] == "human"]
            others += [
                d
                for i, x in enumerate(table.seats)
                if i != seat and not is_named(i, x)
                for d in default_seat_names(i + 1)
            ]
            if impersonates(typed, others):  # "Аnn" (a Cyrillic А) joining beside Ann, or Ann twice
                raise NameRefused(msgid="names.error.taken", params={"name": typed})
            seats[seat]["name"] = typed
            seats[seat]["named"] = is_named(seat, {"kind": "human", "name": seats[seat]["name"]})
        status = status_for(seats, table.state)
        link = {seat: player.id} if player is not None else None
        turn = self._turn_on_link(table, seats) if link else None
        deadline = self.correspondence.deadline_for(
            dataclasses.replace(table.meta, seats=seats), table.state, status, table.clock_seats
        )
        try:
            self.store.update_table(
                table_id,
                seats=seats,
                status=status,
                fence=self._fence(table_id),
                link=link,
                turn=turn,
                deadline=deadline,
            )
        except LeaseLost:
            raise self._lost(table) from None
        if turn is not None:
            table.last_turn = turn
        table.meta.seats = seats
        table.meta.status = status
        self.correspondence.written(table, deadline)
        self.lobby.changed(table.meta)
        name_players(table.state, seats)
        table.broadcast(dumps({"type": "table", **table.describe()}))
        self._open_together(table)  # a table that was waiting for players may be in a simultaneous phase
        self.bots.schedule(table)
        return token

    def link(self, table: LiveTable, held: list[int], wanted: list[int], player: Player) -> list[int]:
        """Link ``player`` to the seats of ``wanted`` it holds by token and nobody is linked to yet (an invite
        link opened in this browser); returns the seats linked now. Linking changes who the seat is, not the
        game: no event, one transaction, then a ``table`` message."""
        seats = [dict(x) for x in table.seats]
        linked = [
            k
            for k in sorted(set(wanted))
            if k in held and seats[k]["kind"] == "human" and not seats[k].get("player")
        ]
        if not linked:
            return []
        for k in linked:
            seats[k]["player"] = player.id
            if player.name:
                seats[k]["name"], seats[k]["named"] = player.name, True
        two = bool(table.meta.rated) and sum(1 for s in seats if s.get("player") == player.id) > 1
        turn = self._turn_on_link(table, seats)
        try:
            self.store.update_table(
                table.id,
                seats=seats,
                fence=self._fence(table.id),
                link=dict.fromkeys(linked, player.id),
                turn=turn,
                rated=False if two else None,
            )
        except LeaseLost:
            raise self._lost(table) from None
        if turn is not None:
            table.last_turn = turn
        if two:
            table.meta.rated, table.meta.unrated = False, "two_seats"
        table.meta.seats = seats
        name_players(table.state, seats)
        table.broadcast(dumps({"type": "table", **table.describe()}))
        return linked

    @staticmethod
    def _turn_on_link(table: LiveTable, seats: list[dict[str, Any]]) -> tuple[int, ...] | None:
        """The turn to write when a seat gets linked: a table nobody was linked to has not kept it up to date."""
        turn = turn_seats(table.state, seats, table.real_dice)
        return None if turn == table.last_turn else turn

    def seats_of_player(self, table: LiveTable, player: Player | None) -> list[int]:
        """The seats linked to ``player`` (what a ``"mine": true`` join holds besides its tokens' seats)."""
        if player is None:
            return []
        return [i for i, s in enumerate(table.seats) if s.get("player") == player.id]

    def unrate_hot_seat(self, table: LiveTable, held: list[int]) -> None:
        """One client holding two or more people's seats of a rated, unfinished table: the game is not rated
        (one person may be playing them all); everybody at the table is told."""
        if not table.meta.rated or table.status not in OPEN_STATUSES:
            return
        if sum(1 for k in held if table.seats[k]["kind"] == "human") < 2:
            return
        try:
            self.store.update_table(table.id, fence=self._fence(table.id), rated=False)
        except LeaseLost:
            raise self._lost(table) from None
        table.meta.rated, table.meta.unrated = False, "hot_seat"
        table.broadcast(dumps({"type": "table", **table.describe()}))

    def player_renamed(self, player: Player) -> None:
        """A player took a new name: the loaded tables where it sits call its seats so at once (tables loaded
        later read it from the database)."""
        if not player.name:
            return
        for table in self.tables.values():
            mine = [s for s in table.seats if s.get("player") == player.id]
            if not mine:
                continue
            for s in mine:
                s["name"], s["named"] = player.name, True
            name_players(table.state, table.seats)
            table.broadcast(dumps({"type": "table", **table.describe()}))

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

    def catch_up(self, table: LiveTable, last_seq: int | None, seats: list[int]) -> list[str]:
        """Messages bringing a client at ``last_seq`` holding ``seats`` up to date: the missing events, or one
        snapshot; then, when the seat to move is hidden from the others and held here, that seat's own view."""
        mover = table.hidden_mover()
        own = [dumps(table.snapshot(mover))] if mover is not None and mover in seats else []
        if last_seq is None or last_seq > table.seq:
            return own or [dumps(table.snapshot())]
        missing = table.seq - last_seq
        if missing == 0:
            return own
        if missing > len(table.recent):
            return own or [dumps(table.snapshot())]
        return [text for _, text, _ in list(table.recent)[-missing:]] + own

    def leave(self, table: LiveTable, sub: Subscriber) -> None:
        """A client leaves; a finished table nobody watches is dropped from memory (it reloads from the log)."""
        table.subscribers.discard(sub)
        self.evict_if_idle(table)
        self.lifecycle.enforce_bound()

    def evict_if_idle(self, table: LiveTable) -> None:
        if table.status not in OPEN_STATUSES and not table.subscribers:
            self.lifecycle.unload(table)

    # -- acting -----------------------------------------------------------------------------------------------
    def _check_open(self, table: LiveTable) -> None:
        table.touched = self.clock()
        if table.status == "abandoned":
            raise TableError("game_over", "this table was closed as abandoned (nobody moved for too long)")
        if table.state.is_terminal():
            raise TableError("game_over", "the game is over; download the record or start a new table")

    def _check_can_act(self, table: LiveTable, held: list[int], seat: int, seq: int) -> None:
        """What every request that changes the game needs: an open table, a held seat, the current event."""
        self._check_open(table)
        if not holds_seat(table, seat, held):
            raise TableError(
                "wrong_seat", f"you do not hold seat {seat}; you can act only for seats {held or 'none'}"
            )
        if table.seats[seat].get("resigned"):
            raise TableError("already_out", f"seat {seat} has resigned; it plays no more")
        self.correspondence.refuse_if_late(table, seat)  # past the deadline: timed out, as the sweep would
        if table.status == "waiting":
            raise TableError("not_started", "the game starts when every seat is taken")
        if seq != table.seq:
            raise TableError(
                "stale_seq",
                f"the table is at event {table.seq}, your move was made at {seq}; look again and retry",
            )

    def act(self, table: LiveTable, held: list[int], seat: int, seq: int, move: str) -> None:
        """A human move: checked, applied (with the dice it triggers), committed, then broadcast. A seat of a
        simultaneous group moves on its own branch instead (see :meth:`act_together`)."""
        self._check_can_act(table, held, seat, seq)
        tog = table.together
        if tog is not None and seat in tog.group:
            branch = tog.branches[seat]
            try:
                action = branch.string_to_action(move)
            except DicehallError as exc:
                raise TableError(
                    "illegal_move", f"cannot read {move!r}: {exc}", "notation", reason=exc.text
                ) from None
            self.act_together(table, seat, action)
            return
        player = table.state.current_player()
        if player != seat:
            if tog is not None:
                raise TableError("not_your_turn", f"seats {tog.pending()} choose now, not seat {seat}")
            if player == CHANCE and table.real_dice:
                raise TableError("not_your_turn", "the dice are to be thrown and entered first")
            raise TableError("not_your_turn", f"it is seat {player}'s turn, not seat {seat}'s")
        try:
            action = table.state.string_to_action(move)
        except DicehallError as exc:
            raise TableError(
                "illegal_move", f"cannot read {move!r}: {exc}", "notation", reason=exc.text
            ) from None
        self.advance(table, seat, action)

    def act_together(self, table: LiveTable, seat: int, action: Any) -> None:
        """A choice of a seat in a simultaneous group, on that seat's own branch: seen only by that seat until the
        whole group is done, then committed in the game's order like any moves."""
        tog = table.together
        if tog is None or seat not in tog.group:
            raise TableError("not_your_turn", f"seat {seat} does not choose now")
        branch = tog.branches[seat]
        if not tog.choosing(seat):
            raise TableError(
                "not_your_turn", f"seat {seat} has made its choices; waiting for seats {tog.pending()}"
            )
        text = branch.action_to_string(action)
        try:
            branch.apply_action(action)  # refuses before changing anything
        except IllegalActionError as exc:
            raise TableError(
                "illegal_move", f"{text!r} is not allowed now: {exc}", exc.rule or None, reason=exc.text
            ) from None
        except DicehallError as exc:
            raise TableError("illegal_move", f"{text!r} is not allowed now: {exc}", reason=exc.text) from None
        except Exception:
            log.exception(
                "table %s: the engine failed on %r (seat %d's own choice)",
                table.id,
                text,
                seat,
                extra=table_fields(table.id, seat, table.seq),
            )
            table.together = None
            self._open_together(table)
            raise TableError("server_error", f"the game engine failed on {text!r}; choose again") from None
        tog.actions[seat].append(action)
        tog.moves[seat].append(text)
        table.touched = self.clock()
        table.send_private(seat)
        if tog.choosing(seat):
            self.bots.schedule(table)
            return
        if tog.pending():
            table.broadcast(dumps({"type": "progress", "seq": table.seq, "simultaneous": tog.public()}))
            self.bots.schedule(table)
            return
        try:
            self._commit(table, [(s, a, None) for s, a in tog.steps()])
        except TableError:
            log.error("table %s: the simultaneous choices of seats %s did not commit", table.id, tog.group)
            table.together = None
            self._open_together(table)  # the seats choose again; nothing was saved
            raise

    def enter(self, table: LiveTable, held: list[int], seat: int, seq: int, outcome: str) -> None:
        """Real dice: the outcome typed in by ``seat`` for the pending throw, checked by the engine, committed."""
        self._check_can_act(table, held, seat, seq)
        if not table.real_dice:
            raise TableError(
                "rolled_here",
                "this table rolls its dice itself; entering dice is only for tables created with real dice",
            )
        state = table.state
        if state.current_player() != CHANCE:
            raise TableError(
                "illegal_move",
                f"no dice are to be thrown now: seat {state.current_player()} decides first",
                "real-dice-entry",
            )
        allowed = entry_seats(state, table.humans())
        if seat not in allowed:
            raise TableError(
                "not_your_turn", f"seat {allowed[0]} throws now and enters the dice, not seat {seat}"
            )
        try:
            action = read_entry(state, outcome)
        except NotationError as exc:
            raise TableError(
                "illegal_move", f"cannot read {outcome!r}: {exc}", "notation", reason=exc.text
            ) from None
        except IllegalActionError as exc:
            raise TableError(
                "illegal_move", f"{outcome!r} cannot be entered: {exc}", exc.rule or None, reason=exc.text
            ) from None
        except DicehallError as exc:
            raise TableError(
                "illegal_move", f"{outcome!r} cannot be entered: {exc}", reason=exc.text
            ) from None
        self._commit(table, [("chance", action, seat)])

    def undo(self, table: LiveTable, held: list[int], seat: int, seq: int) -> None:
        """Real dice: take back the last entered outcome before anyone decides on it. The undo is logged as an
        event of its own (actor ``undo``); the entry stays in the log, only the game leaves it out."""
        self._check_can_act(table, held, seat, seq)
        if not table.real_dice:
            raise TableError(
                "rolled_here", "this table rolls its dice itself: there are no entries to take back"
            )
        by = table.entered[-1] if table.entered else None
        if by is None:
            raise TableError(
                "nothing_to_undo",
                "nothing to take back: the last event is not entered dice (or a decision was already taken on them)",
            )
        if by != seat:
            raise TableError(
                "wrong_seat", f"only seat {by}, who entered {table.moves[-1][1]}, can take it back"
            )
        move, retracts = table.moves[-1][1], table.seqs[-1]
        ev = StoredEvent(table.seq + 1, UNDO, move, time.time(), seat)
        try:
            state = self._replay_moves(table, table.moves[:-1])
            turn = self._turn_to_write(table, state)
            self.store.append_events(table.id, [ev], fence=self._fence(table.id), turn=turn)
        except LeaseLost:
            raise self._lost(table) from None
        except Exception as exc:
            log.exception(
                "table %s: undo not saved; rebuilding from the log", table.id, extra=table_fields(table.id)
            )
            self._reload(table)
            raise TableError("server_error", f"the undo could not be saved ({type(exc).__name__})") from None
        table.state = state
        self._turn_written(table, turn)
        table.moves.pop()
        table.entered.pop()
        table.seqs.pop()
        table.undos += 1
        table.seq = ev.seq
        table.together = None
        opened = self._begin_together(table)  # (before the event's view is made: it shows the phase, if any)
        _, text, entry = table.event(ev, retracts)
        table.keep(ev.seq, text, entry)
        table.broadcast(text)
        table.show_the_mover_its_own()
        if opened:
            self._announce_together(table)
        self.bots.schedule(table)

    # -- resigning and deleting -------------------------------------------------------------------------------
    def resign(self, table: LiveTable, held: list[int], seat: int) -> None:
        """``seat`` gives the game up, whoever is to move: one event, committed with the dice that follow it and
        the seat's new JSON (resigned; with Clever's 3 or 4 seats a bot that plays it on), then broadcast."""
        self._check_open(table)
        if not 0 <= seat < len(table.seats) or not holds_seat(table, seat, held):
            raise TableError(
                "wrong_seat", f"you do not hold seat {seat}; you can resign only seats {held or 'none'}"
            )
        self.correspondence.refuse_if_late(table, seat)
        if table.seats[seat].get("resigned") or seat not in table.state.seats_in():
            raise TableError("already_out", f"seat {seat} is out of the game already", "resign")
        after = table.state.clone()
        try:
            after.resign(seat)  # a game without a ruling refuses
        except IllegalActionError as exc:
            raise TableError(
                "illegal_move", f"seat {seat} cannot resign: {exc}", exc.rule or None, reason=exc.text
            ) from None
        seats = [dict(s) for s in table.seats]
        seats[seat]["resigned"] = True
        if after.plays_on_after_resign and not after.is_terminal():
            seats[seat].update(kind="bot", bot="expert", token=None, claimed=True)
        self._commit(table, [(seat, _RESIGNING, None)], seats=seats)
        table.broadcast(dumps({"type": "table", **table.describe()}))

    def delete(self, table_id: str, tokens: list[str]) -> None:
        """Delete a table nobody else plays at: not over, and every claimed human seat is held by ``tokens``
        (the caller's seats). Subscribers hear ``{"type": "table", "status": "deleted"}``, then a close."""
        table = self.get(table_id)
        if table.status not in OPEN_STATUSES:
            raise TableError("game_over", "a finished table stays for its record; it cannot be deleted")
        held = set(self.seats_for_tokens(table, tokens))
        others = [
            i for i, s in enumerate(table.seats) if s["kind"] == "human" and s["claimed"] and i not in held
        ]
        if others or not held:
            raise TableError(
                "others_joined", "someone else has joined this table: resign your seat instead of deleting it"
            )
        try:
            self.store.delete_table(table.id, fence=self._fence(table.id))
        except LeaseLost:
            raise self._lost(table) from None
        table.closed = True
        self.tables.pop(table.id, None)
        if self.owners is not None:
            self.owners.held.pop(table.id, None)
        table.meta.status = "deleted"
        self.lobby.changed(table.meta)
        table.broadcast(dumps({"type": "table", "table_id": table.id, "status": "deleted"}))
        for sub in list(table.subscribers):
            sub.shutdown(1000, "the table was deleted")
        table.subscribers.clear()

    def _replay_moves(self, table: LiveTable, moves: list[tuple[int | str, str]]) -> State[Any]:
        state = table.game.new_initial_state(table.rules, len(table.seats))
        name_players(state, table.seats)
        for i, (actor, move) in enumerate(moves, start=1):
            apply_event(state, Event(actor, move), i)
        return state

    @staticmethod
    def _turn_to_write(table: LiveTable, state: State[Any]) -> tuple[int, ...] | None:
        """The seats to move after a commit, when ``dh_seats`` must hear of it: only at a table where somebody's
        seat is linked (nobody else reads the turn; it is written in full when a seat gets linked) and only when
        it changed (a roll that keeps the turn costs no statement)."""
        if not any(s.get("player") for s in table.seats):
            table.last_turn = None  # not kept up to date here
            return None
        turn = turn_seats(state, table.seats, table.real_dice)
        return None if turn == table.last_turn else turn

    def _turn_written(self, table: LiveTable, turn: tuple[int, ...] | None) -> None:
        if turn is not None:
            before = table.last_turn or ()
            table.last_turn = turn
            self.tell_away(table, [s for s in turn if s not in before], "your_turn", tag=f"turn-{table.id}")

    def _push_reminder(self, due: Reminder) -> None:
        """A correspondence move's deadline is near: each linked player of the late seats hears of it (Web Push)."""
        if self.pusher is None:
            return
        hours = max(1, round((due.deadline - self.clock()) / 3600))
        url, tag = f"/table/{due.table_id}", f"deadline-{due.table_id}"
        for player in filter(None, due.players):
            self.pusher.notify(player, "deadline", due.game, url, tag, hours=hours)

    def tell_away(self, table: LiveTable, seats: list[int], kind: str, tag: str, **params: Any) -> None:
        """Notify (Web Push, push.py) the players linked to ``seats`` of ``table`` who have no page open on it
        holding that seat: ``kind`` is one of ``push.KINDS``."""
        if self.pusher is None:
            return
        for seat in seats:
            player = table.seats[seat].get("player") if 0 <= seat < len(table.seats) else None
            if player and not any(seat in sub.seats for sub in table.subscribers):
                self.pusher.notify(player, kind, table.meta.game, f"/table/{table.id}", tag, **params)

    def advance(self, table: LiveTable, actor: int | None, action: Any) -> None:
        """Apply ``action`` for ``actor`` (if any) and every chance event that follows; commit; broadcast."""
        self._commit(table, [] if actor is None else [(actor, action, None)])

    def _commit(
        self,
        table: LiveTable,
        steps: list[tuple[int | str, Any, int | None]],
        seats: list[dict[str, Any]] | None = None,
    ) -> None:
        """Apply ``steps`` ``(actor, action, entered_by)`` and every chance event the server rolls after them;
        commit (with new ``seats``, if given); broadcast. The first step is checked (it refuses before changing
        anything; ``_RESIGNING`` resigns its seat); later steps are a simultaneous group's choices, already
        checked on their branches; ``TIMED_OUT`` steps time their seats out, out of turn like a resign)."""
        if table.status not in OPEN_STATUSES:
            return
        state = table.state
        pending: list[tuple[StoredEvent, str, dict[str, Any]]] = []
        now = time.time()
        started = time.perf_counter()
        base = table.seq
        table.together = (
            None  # a simultaneous group's choices are committed now: views show the table after them
        )
        # Each event is added to the table's game as soon as it is applied (its message shows the table after it);
        # a failure from the second event on rebuilds the table from the log.
        old_seats = table.meta.seats
        if seats is not None:
            table.meta.seats = seats  # the events' words and views read them; the log is rebuilt on failure
        for k, (actor, action, entered_by) in enumerate(steps):
            out_of_turn = action is _RESIGNING or action is TIMED_OUT
            if out_of_turn:
                text = RESIGN if action is _RESIGNING else TIMEOUT
            else:
                text = state.action_to_string(action)
            try:
                if k and not out_of_turn and state.current_player() != actor:
                    raise RuntimeError(f"seat {actor} is not to move after the choices before it")
                if action is _RESIGNING:
                    state.resign(int(actor))
                elif action is TIMED_OUT:
                    state.time_out(int(actor))
                else:
                    # what the log holds, read back: a restarted server and a verifier replay the same position
                    state.apply_action(state.string_to_action(text))  # refuses before changing anything
            except IllegalActionError as exc:
                table.meta.seats = old_seats
                if k:
                    self._reload(table)
                raise TableError(
                    "illegal_move", f"{text!r} is not allowed now: {exc}", exc.rule or None, reason=exc.text
                ) from None
            except DicehallError as exc:
                table.meta.seats = old_seats
                if k:
                    self._reload(table)
                raise TableError(
                    "illegal_move", f"{text!r} is not allowed now: {exc}", reason=exc.text
                ) from None
            except Exception:
                log.exception(
                    "table %s: the engine failed on %r; rebuilding from the log",
                    table.id,
                    text,
                    extra=table_fields(table.id, event=table.seq),
                )
                self._reload(table)
                raise TableError(
                    "server_error", f"the game engine failed on {text!r}; nothing changed"
                ) from None
            seq = base + len(pending) + 1
            table.add_move(seq, actor, text, entered_by)
            pending.append(table.event(StoredEvent(seq, actor, text, now, entered_by)))
        try:
            while state.current_player() == CHANCE and not table.real_dice:
                seq = base + len(pending) + 1
                try:
                    drawn = state.sample_chance(table.chance_rng(seq))
                except IllegalActionError as exc:
                    # e.g. a throw made with real dice: only a typed outcome may follow it, never a server roll
                    self._reload(table)
                    what = repr(pending[-1][0].move) if pending else "this move"
                    raise TableError(
                        "illegal_move",
                        f"{what} cannot be played here: {exc}",
                        exc.rule or None,
                        reason=exc.text,
                    ) from None
                text = state.action_to_string(drawn)
                state.apply_action(state.string_to_action(text))  # as logged (see above)
                table.add_move(seq, "chance", text, None)
                pending.append(table.event(StoredEvent(seq, "chance", text, now)))
            if not pending:
                return
            status = status_for(table.seats, state)
            turn = self._turn_to_write(table, state)
            finish = finish_of(state, table.meta) if status == "finished" and status != table.status else None
            deadline = self.correspondence.deadline_for(table.meta, state, status, table.clock_seats)
            self.store.append_events(
                table.id,
                [ev for ev, _, _ in pending],
                status if status != table.status else None,
                fence=self._fence(table.id),
                seats=seats,
                turn=turn,
                finish=finish,
                deadline=deadline,
            )
        except TableError:
            raise
        except LeaseLost:
            raise self._lost(table) from None
        except Exception as exc:
            # The state may be ahead of the log now: rebuild it from the log; nothing was sent.
            log.exception(
                "table %s: move not saved; rebuilding from the log",
                table.id,
                extra=table_fields(table.id, event=table.seq),
            )
            self._reload(table)
            raise TableError(
                "server_error", f"the move could not be saved ({type(exc).__name__}); try again"
            ) from None
        rolled = sum(1 for ev, _, _ in pending if ev.actor == "chance")
        self.metrics.committed(table.meta.game, len(pending) - rolled, rolled, time.perf_counter() - started)
        changed = status != table.meta.status
        table.meta.status = status
        rated = rated_after(table, finish)
        self._turn_written(table, turn)
        self.correspondence.written(table, deadline)
        table.touched = self.clock()
        if changed:
            self.lobby.changed(table.meta)
        opened = self._begin_together(table)
        if opened or not isinstance(deadline, Unchanged):
            # The last event leaves the table in a simultaneous phase: its view says so (as a snapshot's would),
            # so no page shows one of its seats choosing in turn until the phase's own messages arrive.
            pending[-1] = table.event(pending[-1][0])
        for ev, text, entry in pending:
            table.keep(ev.seq, text, entry)
            table.broadcast(text)
        table.show_the_mover_its_own()
        if rated:  # the game-over card's rating changes
            table.broadcast(dumps({"type": "table", **table.describe()}))
        if opened:
            self._announce_together(table)
        self.bots.schedule(table)
        self.evict_if_idle(table)

    def _open_together(self, table: LiveTable) -> None:
        """Start a simultaneous phase when the game has several seats choosing now; each of them is told its own
        position privately."""
        if self._begin_together(table):
            self._announce_together(table)

    def _begin_together(self, table: LiveTable) -> bool:
        """Open the simultaneous phase the table's state is in, if any (nothing is sent); True if opened now."""
        if table.together is not None or table.status != "playing":
            return False
        try:
            table.together = Together.open(table.state)
        except DicehallError as exc:  # a game's declaration that does not hold: play in turn instead
            log.error("table %s: simultaneous seats refused (%s); seats play in turn", table.id, exc)
            table.together = None
        return table.together is not None

    def _announce_together(self, table: LiveTable) -> None:
        """Everybody hears that the phase is open; each of its seats gets its own position."""
        tog = table.together
        assert tog is not None
        table.broadcast(dumps({"type": "progress", "seq": table.seq, "simultaneous": tog.public()}))
        for seat in tog.group:
            table.send_private(seat)

    def _reload(self, table: LiveTable) -> None:
        """After a failed commit the in-memory state may be ahead of the log: rebuild it from the log."""
        meta = self.store.get_table(table.id)
        if meta is None:
            return
        self.store.show_player_names([meta])
        fresh = self.rebuild(meta)
        table.state, table.seq, table.recent, table.meta = fresh.state, fresh.seq, fresh.recent, fresh.meta
        table.moves, table.entered, table.seqs = fresh.moves, fresh.entered, fresh.seqs
        table.undos += 1  # bot workers must not continue from a state cached before the rebuild
        table.together = None
        self._open_together(table)
        table.extras, table.unsent = None, {}
        table.last_turn = None  # unknown: the next commit writes it

    # -- records ----------------------------------------------------------------------------------------------
    def record(self, table_id: str) -> WebRecord:
        """The table's game record, read from the database log (what is persisted, not what is in memory)."""
        meta = self.store.get_table(table_id)
        if meta is None:
            raise TableError("no_such_table", f"there is no table {table_id!r}")
        return web_record(meta, self.store.events(table_id))


def web_record(meta: TableMeta, stored: list[StoredEvent]) -> WebRecord:
    """A table's record from its metadata and stored log (a finished game replayed for its result)."""
    events, _ = effective_events(stored)
    record = WebRecord(
        game=meta.game,
        preset=meta.preset,
        overrides=meta.overrides,
        players=[{"name": str(s["name"])} for s in meta.seats],
        events=[Event(e.actor, e.move, e.entered_by) for e in events],
        seed=None,
        game_id=meta.id,
        created=_iso(meta.created),
        dice_commit=meta.dice_commit,
        # the seed only once no die can be rolled any more: before, it would tell every roll to come
        dice_seed=meta.dice_seed if meta.status not in OPEN_STATUSES else None,
    )
    if meta.status == "finished":
        try:
            record.finish(replay(record))
        except DicehallError as exc:
            log.error("table %s: finished log does not replay: %s", meta.id, exc, extra=table_fields(meta.id))
    elif meta.status == "abandoned":
        record.closed = {"reason": "abandoned", "at": _iso(meta.updated)}
    return record
