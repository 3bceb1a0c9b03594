"""Web Push (docs/web.md, "Notifications"): "your turn", "rematch offered" and "deadline soon" reach a player whose
page is closed, in the language of the browser that subscribed.

The VAPID key (RFC 8292) is made at the first start from a server secret kept with the data (``dh_meta``), so
every process on one database signs alike and a restart keeps the subscriptions valid. Messages are encrypted for
each subscription (RFC 8291, ``aes128gcm``) and posted to its push service (RFC 8030) by ``pywebpush`` on the
event loop (aiohttp), never delaying a move. Only push services named in the ``push_services`` setting are
written to (a subscription is an address a visitor gives the server: it must not make the server post anywhere);
a subscription the service says is gone (404, 410) is deleted, one that keeps failing too.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from dicehall.i18n import translator
from dicehall.i18n.message import Message
from dicehall.web.push_store import PushSubs

if TYPE_CHECKING:
    from dicehall.web.db import Store

log = logging.getLogger("dicehall.web.push")

MESSAGES = {"your_turn": "push.your_turn", "rematch": "push.rematch", "deadline": "push.deadline"}
"""What is pushed, by kind, as message ids (dicehall/i18n/locales)."""
KINDS = tuple(MESSAGES)
MAX_SUBSCRIPTIONS = 10
"""Per player (phones, computers): the oldest goes when an eleventh subscribes."""
MAX_FAILURES = 5
"""Failed deliveries in a row (not 404/410) after which a subscription is dropped."""
TTL = {"your_turn": 7 * 24 * 3600, "rematch": 24 * 3600, "deadline": 12 * 3600}
"""How long a push service keeps a message for a browser that is off (seconds)."""
QUIET_SECONDS = 120.0
"""At most one "your turn" per table and player in this time (a quick game is not a stream of pings)."""
LANGS = ("en", "ru", "uk", "pl")


class SubscriptionRefused(ValueError):
    """A subscription the server will not write to; the message says why."""


@dataclass(frozen=True)
class Subscription:
    endpoint: str
    p256dh: str
    auth: str
    lang: str

    @property
    def id(self) -> str:
        return subscription_id(self.endpoint)


def subscription_id(endpoint: str) -> str:
    return hashlib.sha256(endpoint.encode()).hexdigest()


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def vapid_key(secret: bytes) -> ec.EllipticCurvePrivateKey:
    """The server's P-256 signing key, derived from a 32-byte secret (a scalar in [1, n-1])."""
    n = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
    return ec.derive_private_key(int.from_bytes(secret, "big") % (n - 1) + 1, ec.SECP256R1())


def allowed_host(host: str, services: tuple[str, ...]) -> bool:
    return any(host == s or host.endswith("." + s) for s in services if s != "loopback")


def check_subscription(body: Any, services: tuple[str, ...]) -> Subscription:
    """A browser's ``PushSubscription.toJSON()`` (plus ``lang``), checked; refused with the reason otherwise."""
    if not isinstance(body, dict):
        raise SubscriptionRefused("send the browser's push subscription as JSON")
    endpoint, keys, lang = body.get("endpoint"), body.get("keys"), body.get("lang", "en")
    if not isinstance(endpoint, str) or len(endpoint) > 2048:
        raise SubscriptionRefused("the subscription has no endpoint")
    parts = urlsplit(endpoint)
    host = parts.hostname or ""
    local = "loopback" in services and parts.scheme == "http" and host == "127.0.0.1"
    if not local and (parts.scheme != "https" or not allowed_host(host, services)):
        raise SubscriptionRefused("this browser's push service is not one this server sends to")
    if not isinstance(keys, dict):
        raise SubscriptionRefused("the subscription has no keys")
    p256dh, auth = keys.get("p256dh"), keys.get("auth")
    try:
        point = _b64url_decode(str(p256dh))
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
        secret = _b64url_decode(str(auth))
    except (ValueError, TypeError):
        raise SubscriptionRefused("the subscription's keys are not valid") from None
    if len(point) != 65 or len(secret) != 16:
        raise SubscriptionRefused("the subscription's keys are not valid")
    return Subscription(endpoint, str(p256dh), str(auth), lang if lang in LANGS else "en")


def words(kind: str, lang: str, game: str, **params: Any) -> dict[str, str]:
    """The notification's title and text in ``lang``."""
    tr = translator(lang)
    title = tr.render(f"game.{game}.title", {})
    return {"title": f"dicehall · {title}", "body": tr.message(Message(MESSAGES[kind], **params))}


class Pusher:
    """Sends notifications to a player's subscribed browsers; owned by the app, started with its event loop."""

    def __init__(self, store: Store, services: tuple[str, ...], contact: str) -> None:
        self.store = store
        self.subs = PushSubs(store)
        self.services = services
        self.contact = contact  # the VAPID "sub" claim: how a push service reaches the operator
        self._key = vapid_key(store.secret("vapid"))
        self._loop: asyncio.AbstractEventLoop | None = None
        self._session: Any = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._quiet: dict[tuple[str, str], float] = {}
        self.sent = 0

    @property
    def public_key(self) -> str:
        """The application server key a page subscribes with (uncompressed point, base64url)."""
        return _b64url(self._key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint))

    async def start(self) -> None:
        import aiohttp

        self._loop = asyncio.get_running_loop()
        self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10))

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        if self._session is not None:
            await self._session.close()
        self._session = None

    async def drain(self) -> None:
        """Wait for the deliveries under way (tests; a clean shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def notify(self, player_id: str, kind: str, game: str, url: str, tag: str, **params: Any) -> None:
        """Send ``kind`` to every browser ``player_id`` subscribed; returns at once (thread-safe)."""
        if self._loop is None or self._loop.is_closed():
            return
        if kind == "your_turn":
            now = time.monotonic()
            last = self._quiet.get((player_id, tag))
            if last is not None and now - last < QUIET_SECONDS:
                return
            self._quiet[(player_id, tag)] = now
            if len(self._quiet) > 10_000:
                self._quiet = {k: v for k, v in self._quiet.items() if now - v < QUIET_SECONDS}
        self._loop.call_soon_threadsafe(self._spawn, player_id, kind, game, url, tag, params)

    def _spawn(
        self, player_id: str, kind: str, game: str, url: str, tag: str, params: dict[str, Any]
    ) -> None:
        task = asyncio.ensure_future(self._deliver(player_id, kind, game, url, tag, params))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _deliver(
        self, player_id: str, kind: str, game: str, url: str, tag: str, params: dict[str, Any]
    ) -> None:
        from py_vapid import Vapid02
        from pywebpush import WebPushException, webpush_async

        for sub in self.subs.of(player_id):
            payload = {**words(kind, sub.lang, game, **params), "url": url, "tag": tag}
            try:
                await webpush_async(
                    {"endpoint": sub.endpoint, "keys": {"p256dh": sub.p256dh, "auth": sub.auth}},
                    data=json.dumps(payload, ensure_ascii=False),
                    vapid_private_key=Vapid02(private_key=self._key),
                    vapid_claims={"sub": self.contact},
                    ttl=TTL[kind],
                    aiohttp_session=self._session,
                )
                self.sent += 1
                self.subs.delivered(sub.id)
            except WebPushException as exc:
                status = getattr(exc.response, "status", None) or getattr(exc.response, "status_code", None)
                gone = status in (404, 410)
                log.info("push to a subscription of %s failed (%s)%s", player_id, status, ": dropped" * gone)
                self.subs.failed(sub.id, drop=gone, limit=MAX_FAILURES)
            except Exception as exc:  # an unreachable service: counted like a refusal
                log.info("push to a subscription of %s failed: %s", player_id, type(exc).__name__)
                self.subs.failed(sub.id, drop=False, limit=MAX_FAILURES)
