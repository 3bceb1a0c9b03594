"""Rate limits and quotas: token buckets per connection and per client address, with bounded memory.

A client address is the socket peer (``scope["client"]``); behind a reverse proxy the server is started with
``--trusted-proxy`` so that uvicorn replaces it by the proxy's ``X-Forwarded-For`` (see docs/web.md). Addresses are
never kept in clear text: the per-address buckets and the ``creator`` column of a table hold a salted hash.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import math
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

Clock = Callable[[], float]


class TokenBucket:
    """``capacity`` tokens, refilled at ``rate`` per second; each allowed request takes one."""

    __slots__ = ("capacity", "clock", "rate", "stamp", "tokens")

    def __init__(self, rate: float, capacity: float, clock: Clock = time.monotonic) -> None:
        self.rate = rate
        self.capacity = capacity
        self.tokens = capacity
        self.clock = clock
        self.stamp = clock()

    def _refill(self, now: float) -> None:
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def take(self) -> bool:
        self._refill(self.clock())
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def wait(self) -> float:
        """Seconds until one token is there again (0 when one is there now)."""
        self._refill(self.clock())
        return 0.0 if self.tokens >= 1 else (1 - self.tokens) / self.rate

    def full_at(self) -> float:
        """Clock time at which the bucket is full again (the entry can be forgotten then)."""
        return self.stamp + (self.capacity - self.tokens) / self.rate


class KeyedBuckets:
    """One token bucket per key, at most ``max_keys`` of them.

    A bucket that has refilled completely holds no information and is dropped, so memory follows the clients of
    the last refill period. Beyond ``max_keys`` the least recently used bucket is dropped (that key starts afresh:
    bounded memory wins over exactness for an attacker who already controls that many addresses).
    """

    def __init__(self, rate: float, capacity: float, max_keys: int = 100_000, clock: Clock = time.monotonic):
        self.rate = rate
        self.capacity = capacity
        self.max_keys = max_keys
        self.clock = clock
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def __len__(self) -> int:
        return len(self._buckets)

    def take(self, key: str) -> float:
        """Take a token for ``key``: 0.0 if allowed, else the seconds to wait for the next one."""
        self._expire()
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = TokenBucket(self.rate, self.capacity, self.clock)
            while len(self._buckets) > self.max_keys:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
        if bucket.take():
            return 0.0
        return max(bucket.wait(), 1e-3)

    def wait(self, key: str) -> float:
        """Seconds until ``key`` may take a token (0.0: now); takes nothing."""
        bucket = self._buckets.get(key)
        return 0.0 if bucket is None else bucket.wait()

    def refund(self, key: str) -> None:
        """Give back the token of a request that failed for another reason (it should not count)."""
        bucket = self._buckets.get(key)
        if bucket is not None:
            bucket.tokens = min(bucket.capacity, bucket.tokens + 1)

    def _expire(self, budget: int = 8) -> None:
        # Amortized: look at a few of the least recently used entries per call.
        now = self.clock()
        for _ in range(min(budget, len(self._buckets))):
            key, bucket = next(iter(self._buckets.items()))
            if bucket.full_at() > now:
                return
            del self._buckets[key]


class StrikeCounter:
    """Counts refused requests and forgets them at ``per_second``; ``hit()`` says when ``limit`` is passed."""

    __slots__ = ("clock", "count", "limit", "per_second", "stamp")

    def __init__(self, limit: float, per_second: float, clock: Clock = time.monotonic) -> None:
        self.limit = limit
        self.per_second = per_second
        self.clock = clock
        self.count = 0.0
        self.stamp = clock()

    def hit(self) -> bool:
        now = self.clock()
        self.count = max(0.0, self.count - (now - self.stamp) * self.per_second) + 1
        self.stamp = now
        return self.count > self.limit


class MessageLimiter:
    """Websocket messages of one connection: ``rate`` per second with bursts of ``burst``.

    A message over the rate is refused (``rate_limited``); a connection refused more than ``burst`` times within
    about ten seconds (refusals are forgotten at ``burst / 10`` per second) has shown it does not slow down and is
    closed (1008).
    """

    __slots__ = ("bucket", "strikes")

    def __init__(self, rate: float, burst: int, clock: Clock = time.monotonic) -> None:
        self.bucket = TokenBucket(rate, burst, clock)
        self.strikes = StrikeCounter(burst, burst / 10, clock)

    def check(self) -> str:
        """``"ok"``, ``"limited"`` (refuse this one) or ``"close"`` (refuse and close the connection)."""
        if self.bucket.take():
            return "ok"
        return "close" if self.strikes.hit() else "limited"

    def wait(self) -> float:
        return self.bucket.wait()


def client_key(address: str | None, salt: bytes) -> str:
    """The salted hash that stands for a client address (in memory and in the database)."""
    return hmac.new(
        salt, (address or "unknown").encode("utf-8", "surrogatepass"), hashlib.sha256
    ).hexdigest()[:32]


def in_words(seconds: float) -> str:
    """``'in 12 seconds'``, ``'in 4 minutes'``, ``'in 1 hour'``: a retry time for people."""
    s = max(1, math.ceil(seconds))
    if s < 90:
        return f"in {s} second{'s' if s != 1 else ''}"
    m = math.ceil(s / 60)
    if m < 90:
        return f"in {m} minutes"
    h = math.ceil(m / 60)
    return f"in {h} hour{'s' if h != 1 else ''}"


class LogThrottle:
    """At most one log line per ``every`` seconds for a kind of client misbehaviour, with a count of the rest,
    so that no client can flood the log."""

    def __init__(self, logger: logging.Logger, every: float = 60.0, clock: Clock = time.monotonic) -> None:
        self.logger = logger
        self.every = every
        self.clock = clock
        self._last: dict[str, float] = {}
        self._skipped: dict[str, int] = {}

    def warn(self, kind: str, message: str) -> bool:
        now = self.clock()
        last = self._last.get(kind)
        if last is not None and now - last < self.every:
            self._skipped[kind] = self._skipped.get(kind, 0) + 1
            return False
        skipped = self._skipped.pop(kind, 0)
        self._last[kind] = now
        more = f" ({skipped} more like it not logged)" if skipped else ""
        self.logger.warning("%s%s", message, more)
        return True


class LimitExceeded(Exception):
    """A request refused by a limit: ``code`` for clients, ``retry_after`` in seconds, a message in words (and as
    ``msgid``/``params`` for pages that word it in their reader's language)."""

    def __init__(
        self,
        code: str,
        message: str,
        retry_after: float,
        msgid: str = "",
        params: dict[str, Any] | None = None,
        scope: str = "player",
    ) -> None:
        super().__init__(message)
        self.code = code
        self.retry_after = retry_after
        self.msgid = msgid
        self.params = params or {}
        self.scope = scope


MESSAGE_IDS = (
    "limit.too_many_unfinished",
    "limit.too_many_unfinished_address",
    "limit.too_many_tables_player",
    "limit.too_many_tables_address",
    "limit.too_many_correspondence",
)
"""The ids of the quota refusals (``msgid`` of a 429), worded by the page in its reader's language."""


@dataclass(frozen=True)
class Quota:
    tables_per_hour: int
    unfinished: int


class CreationLimits:
    """Table creation: per player (``tables_per_hour``, ``unfinished_per_client``) and, bounding everybody behind
    one address (a school or an office behind one NAT, or a script without cookies that is a new guest each time),
    per client address. The hourly quotas are token buckets refilled evenly over the hour (a burst of the whole
    quota is allowed once); unfinished tables are counted in the database (``creator_player``, ``creator``).

    A refusal for unfinished tables says when it would end by itself: when the least recently active of the
    counted tables is closed as abandoned (``abandon_after`` seconds after its last move, found by a sweep every
    ``sweep_period`` at most), or at once when the player finishes, resigns or deletes one of them.

    Correspondence tables (days per move) count apart, against ``correspondence`` per player: a player may
    hold many games played over weeks; per address every unfinished table counts.
    """

    def __init__(
        self,
        player: Quota,
        address: Quota,
        salt: bytes,
        oldest_activity: Callable[[str | None, str | None, bool | None], tuple[int, float | None]],
        abandon_after: float,
        sweep_period: float = 60.0,
        clock: Clock = time.monotonic,
        wall_clock: Clock = time.time,
        correspondence: int = 100,
    ) -> None:
        self.player = player
        self.correspondence = correspondence
        self.address = address
        self.salt = salt
        self.oldest_activity = oldest_activity
        self.abandon_after = abandon_after
        self.sweep_period = sweep_period
        self.wall_clock = wall_clock
        self.hourly_player = KeyedBuckets(player.tables_per_hour / 3600, player.tables_per_hour, clock=clock)
        self.hourly_address = KeyedBuckets(
            address.tables_per_hour / 3600, address.tables_per_hour, clock=clock
        )

    def key(self, address: str | None) -> str:
        return client_key(address, self.salt)

    def check(self, key: str, player_id: str | None = None, correspondence: bool = False) -> None:
        """Allow one creation from the address key ``key`` by ``player_id`` (None: a client without a player
        yet) or raise :class:`LimitExceeded` (then nothing is counted); ``correspondence``: the new table is
        played over days. The hourly quotas are looked at first: a client hammering past them costs no database
        query."""
        self._hourly_wait(key, player_id)
        if player_id is not None and correspondence:
            self._correspondence(player_id)
        elif player_id is not None:
            self._unfinished(player_id=player_id)
        self._unfinished(address_key=key)
        if player_id is not None and self.hourly_player.take(player_id):
            self._hourly_wait(key, player_id)
        if self.hourly_address.take(key):
            if player_id is not None:
                self.hourly_player.refund(player_id)
            self._hourly_wait(key, player_id)

    def _hourly_wait(self, key: str, player_id: str | None) -> None:
        wait = self.hourly_player.wait(player_id) if player_id is not None else 0.0
        if wait:
            raise self._hourly(wait, self.player.tables_per_hour, "player")
        wait = self.hourly_address.wait(key)
        if wait:
            raise self._hourly(wait, self.address.tables_per_hour, "address")

    def _correspondence(self, player_id: str) -> None:
        count, _ = self.oldest_activity(player_id, None, True)
        if count < self.correspondence:
            return
        # none of them is closed by itself while its players keep moving: no time to promise
        message = (
            f"you already have {count} unfinished games played over days, the most one player may have; finish "
            "or resign one of them, then start a new one"
        )
        params = {"count": count, "limit": self.correspondence}
        raise LimitExceeded(
            "too_many_correspondence", message, self.sweep_period, "limit.too_many_correspondence", params
        )

    def _unfinished(self, player_id: str | None = None, address_key: str | None = None) -> None:
        count, oldest = self.oldest_activity(player_id, address_key, False if player_id is not None else None)
        most = self.player.unfinished if player_id is not None else self.address.unfinished
        if count < most:
            return
        wait = self.sweep_period
        if oldest is not None:
            wait += max(0.0, oldest + self.abandon_after - self.wall_clock())
        when = in_words(wait)
        if player_id is not None:
            message = (
                f"you already have {count} unfinished tables, the most one player may have; finish, resign or "
                f"delete one of them and start a new one at once (or the oldest is closed as abandoned {when})"
            )
            msgid, scope = "limit.too_many_unfinished", "player"
        else:
            message = (
                f"{count} unfinished tables were started from your network, the most one address may have; "
                f"finish or resign some of them, or try again {when}"
            )
            msgid, scope = "limit.too_many_unfinished_address", "address"
        params = {"count": count, "limit": most, "minutes": math.ceil(wait / 60)}
        raise LimitExceeded("too_many_unfinished", message, wait, msgid, params, scope)

    def _hourly(self, wait: float, most: int, scope: str) -> LimitExceeded:
        who = "one player" if scope == "player" else "everybody behind one address together"
        return LimitExceeded(
            "too_many_tables",
            f"{most} tables were created within the hour, the most {who} may; try again {in_words(wait)}",
            wait,
            f"limit.too_many_tables_{scope}",
            {"limit": most, "minutes": math.ceil(wait / 60)},
            scope,
        )

    def count_for_new_player(self, player_id: str) -> None:
        """A creation allowed for a client without a player counts for the player made for it."""
        self.hourly_player.take(player_id)

    def refund(self, key: str, player_id: str | None = None) -> None:
        """The creation failed (bad request): it does not count against the hourly quotas."""
        self.hourly_address.refund(key)
        if player_id is not None:
            self.hourly_player.refund(player_id)
