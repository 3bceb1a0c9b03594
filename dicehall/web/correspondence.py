"""Correspondence tables (docs/web.md, "Correspondence tables"): each seat has 1, 3 or 7 days per move.

- **The deadline** (``dh_tables.deadline``) is set to now + ``move_seconds`` whenever the human seats to move
  change (a turn passes, a simultaneous phase opens, the game starts); it is cleared while only bots or dice are
  to move and when the game ends. It is written in the transaction of the events that moved the turn.
- **The reminder** is due :func:`reminder_lead` before the deadline (3 hours for 1 day, 12 hours for 3 and 7
  days). The sweep records it in ``dh_tables.reminded`` by a compare-and-set, so it is sent once per deadline
  even with several server processes, and then calls :attr:`Correspondence.on_reminder`.
- **The timeout.** At the deadline the sweep times the late seats out: one ``timeout`` event per seat, replayed
  by :meth:`State.time_out` (two seats in: the seat resigns, the other wins; more: a bot plays the seat on),
  committed like a resign; then :attr:`Correspondence.on_timeout` is called. A move arriving after the deadline
  but before the sweep times the seat out first, in the same way, and is refused (``timed_out``).

Push notifications subscribe to the two hooks; a hook is called on the server's event loop after the database
write, with a :class:`Reminder` or a :class:`TimedOut`, and must not block (schedule slow work); its exceptions
are logged and never undo the timeout. For example::

    def remind(r: Reminder) -> None:
        hours = max(1, round((r.deadline - manager.clock()) / 3600))
        for player in filter(None, r.players):
            pusher.notify(player, "deadline", r.game, f"/table/{r.table_id}", f"deadline-{r.table_id}", hours=hours)

    manager.correspondence.on_reminder.append(remind)
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from dicehall.core.game import State
from dicehall.i18n.message import Message
from dicehall.web.db import OPEN_STATUSES, UNCHANGED, TableMeta, Unchanged
from dicehall.web.live import LiveTable, TableError, dumps, turn_seats
from dicehall.web.logs import table_fields
from dicehall.web.owners import Elsewhere, LeaseLost

if TYPE_CHECKING:
    from dicehall.web.manager import TableManager
    from dicehall.web.protocol import CreateTable

log = logging.getLogger("dicehall.web")

HOUR = 3600.0
DAY = 24 * HOUR
MOVE_DAYS = (1, 3, 7)
"""The time controls a table may have besides live play: days per move."""
TIMED_OUT = object()
"""The step of ``TableManager._commit`` that times its seat out (logged as the move ``"timeout"``)."""


def reminder_lead(move_seconds: float) -> float:
    """How long before the deadline the reminder is due: 3 hours with 1 day per move, else 12 hours."""
    return 3 * HOUR if move_seconds <= DAY else 12 * HOUR


@dataclass(frozen=True)
class Reminder:
    """A reminder is due: ``seats`` of table ``table_id`` (their players, None for a seat nobody is linked to)
    time out at ``deadline`` (wall seconds) unless they move."""

    table_id: str
    game: str
    seats: tuple[int, ...]
    players: tuple[str | None, ...]
    deadline: float


@dataclass(frozen=True)
class TimedOut:
    """Seat ``seat`` of ``table_id`` (its player: ``player``) timed out; ``bot_plays_on``: a bot took the seat
    (else the game ended with it)."""

    table_id: str
    game: str
    seat: int
    player: str | None
    bot_plays_on: bool


class CorrespondenceRefused(TableError):
    """A correspondence time control the table cannot have (said in the players' words)."""

    def __init__(self, msgid: str, english: str) -> None:
        super().__init__("bad_request", english)
        self.text = Message(msgid)
        self.msgid, self.params = msgid, {}


def move_seconds_of(spec: CreateTable) -> int | None:
    """The seconds per move a new table asks for, or None (live); refuses a table it makes no sense for."""
    if spec.move_days is None:
        return None
    if spec.dice == "real":
        raise CorrespondenceRefused(
            "correspondence.refused.real_dice",
            "a table played over days needs dice rolled by the server; choose rolled dice or live play",
        )
    humans = [s for s in spec.seats if s.kind == "human"]
    if len(humans) < 2:
        raise CorrespondenceRefused(
            "correspondence.refused.people",
            "a table played over days needs at least two people; add a seat for someone or choose live play",
        )
    return int(spec.move_days * DAY)


def check_game(state: State[Any]) -> None:
    """A game with no resign ruling has none for a timeout either: it is played live only."""
    if type(state).resign is State.resign:
        raise CorrespondenceRefused(
            "correspondence.refused.game", "this game cannot be played over days yet; choose live play"
        )


class Correspondence:
    def __init__(self, manager: TableManager) -> None:
        self.manager = manager
        self.on_reminder: list[Callable[[Reminder], None]] = []
        """Called once per deadline, :func:`reminder_lead` before it (Web Push: "deadline in 12 hours")."""
        self.on_timeout: list[Callable[[TimedOut], None]] = []
        """Called once per seat that timed out, after its event is committed."""
        self.reminders = 0
        self.timeouts = 0

    # -- the deadline -------------------------------------------------------------------------------------
    @staticmethod
    def on_clock(meta: TableMeta, state: State[Any], status: str) -> tuple[int, ...]:
        """The human seats the clock runs for: the seats to move of a correspondence table in play."""
        if meta.move_seconds is None or status != "playing":
            return ()
        turn = turn_seats(state, meta.seats, meta.dice == "real")
        return tuple(s for s in turn if meta.seats[s]["kind"] == "human")

    def deadline_for(
        self, meta: TableMeta, state: State[Any], status: str, before: tuple[int, ...]
    ) -> float | Unchanged | None:
        """The deadline to write with a change that leaves the table at ``meta``/``state``/``status`` (the seats
        on the clock were ``before``): a new one when the human seats to move changed, none when nobody human
        is to move, else unchanged."""
        if meta.move_seconds is None:
            return UNCHANGED
        seats = self.on_clock(meta, state, status)
        if seats == before and (seats or meta.deadline is None):
            return UNCHANGED
        return self.manager.clock() + meta.move_seconds if seats else None

    def written(self, table: LiveTable, deadline: float | Unchanged | None) -> None:
        """The deadline is in the database now: the table holds it (and the seats it runs for)."""
        if not isinstance(deadline, Unchanged):
            table.meta.deadline = deadline
        table.clock_seats = self.on_clock(table.meta, table.state, table.status)

    def loaded(self, table: LiveTable) -> None:
        table.clock_seats = self.on_clock(table.meta, table.state, table.status)

    def late(self, table: LiveTable) -> bool:
        deadline = table.meta.deadline
        return deadline is not None and table.status == "playing" and self.manager.clock() >= deadline

    # -- timing out ---------------------------------------------------------------------------------------
    def refuse_if_late(self, table: LiveTable, seat: int) -> None:
        """A request of ``seat`` past the deadline: the late seats time out now (as the sweep would), and the
        request is refused when ``seat`` was one of them."""
        if not self.late(table):
            return
        out = self.time_out(table)
        if seat in out:
            raise TableError(
                "timed_out",
                "your time for this move ran out: the seat was timed out (see the table)",
                "timeout",
                reason=Message("correspondence.timed_out"),
            )

    def time_out(self, table: LiveTable) -> list[int]:
        """Time out the seats the passed deadline runs for (those of a simultaneous group still choosing): one
        ``timeout`` event each, committed together with the seats' new JSON; returns the seats."""
        if not self.late(table):
            return []
        tog = table.together
        seats_out = [
            s
            for s in table.clock_seats
            if table.seats[s]["kind"] == "human" and (tog is None or s not in tog.group or tog.choosing(s))
        ]
        if not seats_out:
            return []
        after = table.state.clone()
        for s in seats_out:
            after.time_out(s)
        seats = [dict(x) for x in table.seats]
        plays_on = not after.is_terminal()
        for s in seats_out:
            seats[s]["timed_out"] = True
            if plays_on:
                seats[s].update(kind="bot", bot="expert", token=None, claimed=True)
        self.manager._commit(table, [(s, TIMED_OUT, None) for s in seats_out], seats=seats)
        table.broadcast(dumps({"type": "table", **table.describe()}))
        for s in seats_out:
            self.timeouts += 1
            log.info(
                "table %s: seat %d timed out (%s)",
                table.id,
                s,
                "a bot plays on" if plays_on else "over",
                extra=table_fields(table.id, s),
            )
            self._call(
                self.on_timeout, TimedOut(table.id, table.meta.game, s, seats[s].get("player"), plays_on)
            )
        return seats_out

    # -- the sweep (lifecycle.py) ---------------------------------------------------------------------------
    def sweep(self) -> tuple[int, int]:
        """Send the reminders due and time out the seats whose deadline passed; (reminders, seats timed out)."""
        now = self.manager.clock()
        store = self.manager.store
        reminded = timed_out = 0
        for table_id, deadline, sent, move_seconds in store.deadlines_before(now + 12 * HOUR):
            if deadline <= now:
                timed_out += self._time_out_table(table_id)
            elif deadline - reminder_lead(move_seconds) <= now and sent != deadline:
                reminded += self._remind(table_id, deadline)
        return reminded, timed_out

    def _time_out_table(self, table_id: str) -> int:
        try:
            table = self.manager.get(table_id)  # shared database: the owner times it out
        except (Elsewhere, TableError):
            return 0
        try:
            return len(self.time_out(table))
        except LeaseLost:
            return 0
        except TableError as exc:
            log.error("table %s: the timeout failed: %s", table_id, exc, extra=table_fields(table_id))
            return 0

    def _remind(self, table_id: str, deadline: float) -> int:
        try:
            table = self.manager.get(table_id)  # who is on the clock (shared database: the owner reminds)
        except (Elsewhere, TableError):
            return 0
        meta = table.meta
        if meta.deadline != deadline or meta.status not in OPEN_STATUSES or not table.clock_seats:
            return 0  # moved meanwhile
        if not self.manager.store.mark_reminded(table_id, deadline):
            return 0  # another process (or an earlier sweep) sent it
        meta.reminded = deadline
        self.reminders += 1
        seats = table.clock_seats
        players = tuple(meta.seats[s].get("player") for s in seats)
        self._call(self.on_reminder, Reminder(table_id, meta.game, seats, players, deadline))
        return 1

    @staticmethod
    def _call(hooks: list[Callable[[Any], None]], what: Reminder | TimedOut) -> None:
        for hook in list(hooks):
            try:
                hook(what)
            except Exception:
                log.exception("a correspondence hook failed on %s", what)
