"""The websocket endpoint: one connection per client, JSON text frames, every frame validated.

Each connection has an outbox drained by its own writer task, so a table never waits for a slow client and the
order of messages to one client is the order the table produced them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import deque
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from dicehall.web.forward import HEADER, Upstream
from dicehall.web.limits import MessageLimiter
from dicehall.web.owners import Elsewhere
from dicehall.web.players import players_of
from dicehall.web.protocol import (
    CLIENT_MESSAGES,
    MAX_MESSAGE_BYTES,
    ActMsg,
    EnterMsg,
    JoinMsg,
    LobbyMsg,
    ResignMsg,
    UndoMsg,
    error,
)
from dicehall.web.settings import ServerSettings
from dicehall.web.tables import LiveTable, Subscriber, TableError, TableManager

log = logging.getLogger("dicehall.web")

OUTBOX_LIMIT = 2000
"""Messages queued for one client; a client this far behind is disconnected (it can reconnect with last_seq)."""


class Connection(Subscriber):
    def __init__(self, ws: WebSocket, settings: ServerSettings | None = None) -> None:
        self.ws = ws
        self.outbox: deque[str] = deque()
        self.wakeup = asyncio.Event()
        self.closing = False
        self.close_with: tuple[int, str] | None = None
        self.table: LiveTable | None = None
        self.seats: list[int] = []
        self.forwarded = ws.headers.get(HEADER) is not None
        """This connection comes from another server process forwarding its client (forward.py)."""
        self.forward_to: str | None = None
        """Set by a join of a table another process owns: the owner's address (the endpoint pipes to it)."""
        s = settings or ServerSettings()
        self.limiter = MessageLimiter(s.ws_messages_per_second, s.ws_burst)

    def push(self, text: str) -> None:
        if self.closing:
            return
        if len(self.outbox) >= OUTBOX_LIMIT:
            # Too far behind: drop the client; it reconnects with its last_seq and catches up.
            self.close(1013, "too far behind; reconnect with last_seq")
            return
        self.outbox.append(text)
        self.wakeup.set()

    def send(self, msg: dict[str, Any]) -> None:
        self.push(json.dumps(msg))

    def close(self, code: int | None = None, reason: str = "") -> None:
        """Stop sending; with a ``code`` the writer sends that websocket close (after the messages queued so
        far when ``code`` is 1008, so the client reads why it was cut off)."""
        if self.closing:
            return
        self.closing = True
        if code is not None:
            self.close_with = (code, reason)
        if code != 1008:
            self.outbox.clear()
        self.wakeup.set()

    def shutdown(self, code: int, reason: str) -> None:
        """Send what is queued, then close with ``code`` (the server is stopping)."""
        self.close_with = (code, reason)
        self.closing = True
        self.wakeup.set()

    async def writer(self) -> None:
        # One wake-up sends everything queued (a move and its dice), in order.
        ws, outbox = self.ws, self.outbox
        while not self.closing:
            await self.wakeup.wait()
            self.wakeup.clear()
            while outbox:
                await ws.send_text(outbox.popleft())
        while outbox:  # what was queued before a 1008 close
            await ws.send_text(outbox.popleft())
        if self.close_with is not None:
            code, reason = self.close_with
            await ws.close(code=code, reason=reason)


def _validation_message(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors()[:3]:
        where = ".".join(str(x) for x in err["loc"]) or "message"
        parts.append(f"{where}: {err['msg']}")
    return "; ".join(parts)


async def websocket_endpoint(ws: WebSocket, manager: TableManager) -> None:
    await ws.accept()
    conn = Connection(ws, getattr(ws.app.state, "settings", None))
    writer = asyncio.create_task(conn.writer())
    manager.connections.add(conn)
    upstream: Upstream | None = None
    try:
        while not writer.done():
            frame = await ws.receive()
            if frame["type"] == "websocket.disconnect":
                break
            raw: str | bytes | None = frame.get("text")
            if raw is None:
                raw = frame.get("bytes")
            if raw is None:
                continue
            if upstream is not None:  # the table is another process's: its frames go there
                if not await upstream.send(raw):
                    break
                continue
            handle_frame(conn, manager, raw)
            if conn.forward_to is not None:
                players = players_of(ws, manager.store)
                who = players.forward_header(players.current(ws)[0])  # the owner links and holds by player
                upstream = await Upstream.open(conn, conn.forward_to, raw, who)
                conn.forward_to = None
    except WebSocketDisconnect:
        pass
    finally:
        if upstream is not None:
            await upstream.close()
        manager.connections.discard(conn)
        manager.lobby.subscribers.discard(conn)
        if conn.table is not None:
            manager.leave(conn.table, conn)
        conn.close()
        if not writer.done():
            writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await writer


def refuse(conn: Connection, manager: TableManager, message: dict[str, Any]) -> None:
    """Send ``message`` (an ``error``) to this client only, and count it by its code."""
    manager.metrics.refused(str(message.get("code")))
    conn.send(message)


def handle_frame(conn: Connection, manager: TableManager, raw: str | bytes) -> None:
    """One client frame. Errors go back to this client only; nothing changes."""
    if conn.closing:
        return
    verdict = conn.limiter.check()
    if verdict != "ok":
        limiter = conn.limiter
        rate, burst = limiter.bucket.rate, int(limiter.bucket.capacity)
        wait = limiter.wait()
        refusal = error(
            "rate_limited",
            f"too many messages: at most {rate:g} per second (bursts of {burst}); this one was ignored, "
            f"send again in {wait:.2f} s",
        )
        refusal["retry_after"] = round(wait, 3)
        manager.metrics.rate_limited("ws_messages")
        refuse(conn, manager, refusal)
        if verdict == "close":
            conn.close(1008, f"message rate over {rate:g}/s for too long; reconnect and slow down")
        return
    size = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8", "surrogatepass"))
    if size > MAX_MESSAGE_BYTES:
        refuse(
            conn,
            manager,
            error("too_large", f"messages are limited to {MAX_MESSAGE_BYTES} bytes; got {size}"),
        )
        return
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError):
        refuse(conn, manager, error("bad_message", "not valid JSON; send one JSON object per frame"))
        return
    if not isinstance(data, dict):
        refuse(conn, manager, error("bad_message", "a message must be a JSON object with a 'type'"))
        return
    kind = data.get("type")
    model = CLIENT_MESSAGES.get(kind) if isinstance(kind, str) else None
    if model is None:
        known = ", ".join(CLIENT_MESSAGES)
        refuse(conn, manager, error("unknown_type", f"unknown message type {kind!r}; known types: {known}"))
        return
    try:
        msg = model.model_validate(data)
    except ValidationError as exc:
        refuse(conn, manager, error("bad_message", f"bad {kind!r} message: {_validation_message(exc)}"))
        return
    try:
        if isinstance(msg, ActMsg | EnterMsg | UndoMsg | ResignMsg):
            if conn.table is None:
                raise TableError("not_joined", "join a table before acting")
            if isinstance(msg, ResignMsg):
                manager.resign(conn.table, conn.seats, msg.seat)
            elif isinstance(msg, ActMsg):
                manager.act(conn.table, conn.seats, msg.seat, msg.seq, msg.move)
            elif isinstance(msg, EnterMsg):
                manager.enter(conn.table, conn.seats, msg.seat, msg.seq, msg.outcome)
            else:
                manager.undo(conn.table, conn.seats, msg.seat, msg.seq)
        elif isinstance(msg, JoinMsg):
            join(conn, manager, msg)
        elif isinstance(msg, LobbyMsg):
            manager.lobby.subscribers.add(conn)
            conn.push(manager.lobby.opening())
        else:
            conn.send({"type": "pong"})
    except TableError as exc:
        refuse(conn, manager, error(exc.code, str(exc), exc.rule, exc.reason))
    except Elsewhere as exc:
        if exc.url and not conn.forwarded and conn.table is None:
            conn.forward_to = exc.url  # the endpoint pipes this connection to the owner from now on
        else:  # moved meanwhile (or this client is joined here already): start again from any process
            conn.send(error("moved", f"{exc}; reconnect and join again"))
            conn.shutdown(1013, "the table is moving to another server process; reconnect")
    except Exception:  # a bug must not cost the client its connection, nor leak details
        log.exception("error handling a %r message", kind)
        refuse(conn, manager, error("server_error", "the server failed on this message; nothing changed"))


def join(conn: Connection, manager: TableManager, msg: JoinMsg) -> None:
    table = manager.get(msg.table)
    try:
        seats = manager.seats_for_tokens(table, msg.tokens)
    except TableError:
        manager.evict_if_idle(table)
        raise
    if msg.link or msg.mine:
        player, _stale = players_of(conn.ws, manager.store).current(conn.ws)  # the handshake's cookie
        if player is not None and msg.link:
            manager.link(table, seats, msg.link, player)
        if msg.mine:
            seats = sorted(set(seats) | set(manager.seats_of_player(table, player)))
    manager.unrate_hot_seat(table, seats)
    if conn.table is not None and conn.table is not table:
        manager.leave(conn.table, conn)
    conn.table, conn.seats = table, seats
    table.subscribers.add(conn)
    conn.send(
        {
            "type": "joined",
            "table": table.id,
            "seats": seats,
            "spectator": not seats,
            "game": table.meta.game,
            "seq": table.seq,
            "info": table.describe(),
        }
    )
    for text in manager.catch_up(table, msg.last_seq, seats):
        conn.push(text)
    if table.together is not None:  # this client's own simultaneous choices so far (never another seat's)
        for seat in seats:
            if seat in table.together.group:
                conn.push(table.private(seat))
