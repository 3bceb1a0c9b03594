"""Guest identities: a player per browser, kept by a session cookie (docs/players-design.md, step 1).

The cookie (``dh_sid`` on http, ``__Host-dh_sid`` on https, where it is ``Secure``) holds 256 random bits; the
database keeps only their SHA-256 (``dh_sessions.id_hash``), like the seat tokens. It is ``HttpOnly`` (no script
reads it) and ``SameSite=Lax`` (another site's page cannot post with it). A player is made by the first
state-changing request that needs one (creating or joining a table, ``PUT /api/me/name``), never by a GET, so
crawlers, health checks and benchmarks make none. A cookie that names no live session (forged, ended, expired,
malformed) is ignored: the request goes on with no player, and the answer clears the cookie.

Lookups go through a small per-process cache (30 s), and a session's ``seen`` is written at most hourly, so an
ordinary request costs no database write. Signing in or out, saving a passkey and deleting an account end the
session and (but for the last two) issue a new one (:meth:`Players.rotate`): a cookie seen before never names an
account. Other server processes drop an ended session from their caches within ``CACHE_SECONDS``.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import time
from collections import OrderedDict
from dataclasses import replace

from starlette.requests import HTTPConnection
from starlette.responses import Response

from dicehall.core.names import check_name, skeleton
from dicehall.web.account_store import AccountStore
from dicehall.web.db import Player, Store
from dicehall.web.live import hash_token

COOKIE = "dh_sid"
PLAYER_HEADER = "X-Dicehall-Player"
SECURE_COOKIE = "__Host-dh_sid"
MAX_AGE = 400 * 24 * 3600
"""Seconds a cookie and its session live (Chromium caps a cookie's lifetime at 400 days)."""
CACHE_SECONDS = 30.0
CACHE_SIZE = 10_000
SEEN_EVERY = 3600.0
"""A session's ``seen`` (and expiry) is written at most this often."""
_TOKEN = re.compile(r"^[A-Za-z0-9_-]{43}$")
"""The shape of ``secrets.token_urlsafe(32)``: anything else is refused before the database is asked."""


def cookie_name(conn: HTTPConnection) -> str:
    """The cookie's name for this request: ``__Host-`` (which browsers accept only with ``Secure``) on https."""
    return SECURE_COOKIE if conn.url.scheme in ("https", "wss") else COOKIE


def player_json(player: Player | None) -> dict[str, str | None] | None:
    return None if player is None else {"id": player.id, "name": player.name, "kind": player.kind}


class Players:
    """The server's players and sessions, over ``store``. Single-threaded use (the event loop)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.accounts = AccountStore(store)
        self._cache: OrderedDict[str, tuple[float, Player | None, float]] = OrderedDict()
        self._secret: bytes | None = None

    # -- reading the cookie --------------------------------------------------------------------------------------
    def current(self, conn: HTTPConnection) -> tuple[Player | None, bool]:
        """The request's player (None without a valid session) and whether it sent a cookie to clear. A request
        another server process forwards (forward.py) names its player in a header signed with the database's
        secret, since the cookie stays with the process the browser reached."""
        signed = conn.headers.get(PLAYER_HEADER)
        if signed is not None:
            return self._forwarded(signed), False
        value = conn.cookies.get(cookie_name(conn))
        if value is None:
            return None, False
        if not _TOKEN.match(value):
            return None, True
        player = self._lookup(hash_token(value))
        return player, player is None

    def _key(self) -> bytes:
        if self._secret is None:
            self._secret = self.store.secret("forward_player")
        return self._secret

    def forward_header(self, player: Player | None) -> dict[str, str]:
        """The header that carries ``player`` to the table's owner process (empty without a player)."""
        if player is None:
            return {}
        mac = hmac.new(self._key(), player.id.encode(), hashlib.sha256).hexdigest()
        return {PLAYER_HEADER: f"{player.id}.{mac}"}

    def _forwarded(self, signed: str) -> Player | None:
        player_id, _, mac = signed.partition(".")
        want = hmac.new(self._key(), player_id.encode(), hashlib.sha256).hexdigest()
        if not hmac.compare_digest(mac, want):
            return None
        return self.store.get_player(player_id)

    def session(self, conn: HTTPConnection) -> tuple[Player, str] | None:
        """This request's player and the stored hash of its live session, or None."""
        value = conn.cookies.get(cookie_name(conn))
        if value is None or not _TOKEN.match(value):
            return None
        id_hash = hash_token(value)
        player = self._lookup(id_hash)
        return None if player is None else (player, id_hash)

    def _lookup(self, id_hash: str) -> Player | None:
        now = time.time()
        cached = self._cache.get(id_hash)
        if cached is not None and now - cached[0] < CACHE_SECONDS:
            self._cache.move_to_end(id_hash)
            return cached[1]
        found = self.store.session_player(id_hash, now)
        player, seen = found if found is not None else (None, 0.0)
        if player is not None and now - seen > SEEN_EVERY:
            self.store.touch_session(id_hash, player.id, now, now + MAX_AGE)
            seen = now
        self._remember(id_hash, player, seen, now)
        return player

    def _remember(self, id_hash: str, player: Player | None, seen: float, now: float) -> None:
        self._cache[id_hash] = (now, player, seen)
        self._cache.move_to_end(id_hash)
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)

    # -- making a guest, naming it --------------------------------------------------------------------------
    def ensure(self, conn: HTTPConnection, response: Response) -> Player:
        """The request's player, or a new guest whose cookie ``response`` sets."""
        return self.ensure_session(conn, response)[0]

    def ensure_session(self, conn: HTTPConnection, response: Response) -> tuple[Player, str]:
        """The request's player and its session's hash, or a new guest's (its cookie set on ``response``)."""
        live = self.session(conn)
        if live is not None:
            return live
        token = secrets.token_urlsafe(32)
        now = time.time()
        id_hash = hash_token(token)
        player = self.store.create_player(id_hash, now, now + MAX_AGE)
        self._remember(id_hash, player, now, now)
        set_cookie(conn, response, token)
        return player, id_hash

    def rename(self, conn: HTTPConnection, player: Player, raw: str) -> Player:
        """Give ``player`` the name ``raw`` (checked: :class:`~dicehall.core.names.NameRefused`)."""
        name = check_name(raw)
        self.store.set_player_name(player.id, name, skeleton(name))
        renamed = replace(player, name=name)
        for key, (at, cached, seen) in list(self._cache.items()):
            if cached is not None and cached.id == player.id:
                self._cache[key] = (at, renamed, seen)
        return renamed

    # -- sessions begun and ended (auth.py) ------------------------------------------------------------------------
    def rotate(self, conn: HTTPConnection, response: Response, player: Player) -> None:
        """End this request's session (if any) and give the browser a new one for ``player``."""
        self.end(conn)
        token = secrets.token_urlsafe(32)
        now = time.time()
        id_hash = hash_token(token)
        self.accounts.create_session(id_hash, player.id, now, now + MAX_AGE)
        self._remember(id_hash, player, now, now)
        set_cookie(conn, response, token)

    def end(self, conn: HTTPConnection) -> None:
        """End this request's session (its cookie names nobody from now on)."""
        value = conn.cookies.get(cookie_name(conn))
        if value is None or not _TOKEN.match(value):
            return
        id_hash = hash_token(value)
        self.accounts.end_session(id_hash, time.time())
        self._cache.pop(id_hash, None)

    def forget(self, player_id: str) -> None:
        """Drop every cached session of ``player_id`` (its sessions were ended or it changed kind)."""
        for key, (_at, cached, _seen) in list(self._cache.items()):
            if cached is not None and cached.id == player_id:
                del self._cache[key]


def players_of(conn: HTTPConnection, store: Store) -> Players:
    """The app's players (over ``store``), made on first use; an app started again gets new ones."""
    state = conn.app.state
    made: Players | None = getattr(state, "players", None)
    if made is None or made.store is not store:
        made = state.players = Players(store)
    return made


def set_cookie(conn: HTTPConnection, response: Response, token: str) -> None:
    secure = cookie_name(conn) == SECURE_COOKIE
    response.set_cookie(
        cookie_name(conn), token, max_age=MAX_AGE, path="/", secure=secure, httponly=True, samesite="lax"
    )


def clear_cookie(conn: HTTPConnection, response: Response) -> None:
    secure = cookie_name(conn) == SECURE_COOKIE
    response.delete_cookie(cookie_name(conn), path="/", secure=secure, httponly=True, samesite="lax")
