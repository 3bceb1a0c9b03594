"""What the server has done, for Prometheus (``GET /metrics``; docs/web.md, "Health and metrics").

Counted where it happens: moves committed and the time each commit took (per game), refusals sent to clients (per
code), requests and messages refused by a rate limit or quota (per limit), bot moves and the time they took, and the
bot moves a fallback played (per game). Read when scraped: tables in memory, tables unloaded since start, open
websocket connections. One registry per app, so that several servers in one process (the tests) count apart.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector

# a commit is a database transaction (sub-millisecond to tens of ms); a bot move up to its budget (seconds)
COMMIT_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
BOT_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0)


class _Now(Collector):
    """The values read at scrape time from the running server."""

    def __init__(self, read: Callable[[], dict[str, float]]) -> None:
        self.read = read

    def collect(self) -> Iterator[Any]:
        now = self.read()
        yield GaugeMetricFamily("dicehall_live_tables", "Tables held in memory", value=now["live"])
        yield CounterMetricFamily(
            "dicehall_unloaded_tables", "Tables unloaded from memory since start", now["unloaded"]
        )
        yield GaugeMetricFamily(
            "dicehall_websocket_connections", "Open websocket connections", value=now["sockets"]
        )


class Metrics:
    content_type = CONTENT_TYPE_LATEST

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.moves = Counter(
            "dicehall_moves_committed",
            "Events committed to tables' logs: a seat's moves (kind=move) and the dice the server rolled (chance)",
            ["game", "kind"],
            registry=r,
        )
        self.commit_seconds = Histogram(
            "dicehall_commit_seconds",
            "Time to apply and save one commit (a move with the chance events after it)",
            ["game"],
            buckets=COMMIT_BUCKETS,
            registry=r,
        )
        self.refusals = Counter("dicehall_refusals", "Errors sent to clients, by code", ["code"], registry=r)
        self.limited = Counter(
            "dicehall_rate_limited",
            "Requests and messages refused by a rate limit or quota",
            ["limit"],
            registry=r,
        )
        self.bot_seconds = Histogram(
            "dicehall_bot_move_seconds",
            "Time a bot took to choose a move",
            ["game"],
            buckets=BOT_BUCKETS,
            registry=r,
        )
        self.bot_fallbacks = Counter(
            "dicehall_bot_fallbacks",
            "Bot moves played by the fallback (over budget, failed)",
            ["game"],
            registry=r,
        )

    def watch(self, read: Callable[[], dict[str, float]]) -> None:
        """Report ``read()``'s ``live``, ``unloaded`` and ``sockets`` at every scrape."""
        self.registry.register(_Now(read))

    def committed(self, game: str, moves: int, chance: int, seconds: float) -> None:
        if moves:
            self.moves.labels(game, "move").inc(moves)
        if chance:
            self.moves.labels(game, "chance").inc(chance)
        self.commit_seconds.labels(game).observe(seconds)

    def refused(self, code: str) -> None:
        self.refusals.labels(code).inc()

    def rate_limited(self, limit: str) -> None:
        self.limited.labels(limit).inc()

    def bot_moved(self, game: str, seconds: float, fallback: bool) -> None:
        self.bot_seconds.labels(game).observe(seconds)
        if fallback:
            self.bot_fallbacks.labels(game).inc()

    def render(self) -> bytes:
        return bytes(generate_latest(self.registry))


class NoMetrics(Metrics):
    """Setting ``metrics = off``: nothing is counted (``make bench``'s ``metrics`` part measures the difference)."""

    def __init__(self) -> None:
        pass

    def watch(self, read: Callable[[], dict[str, float]]) -> None:
        pass

    def committed(self, game: str, moves: int, chance: int, seconds: float) -> None:
        pass

    def refused(self, code: str) -> None:
        pass

    def rate_limited(self, limit: str) -> None:
        pass

    def bot_moved(self, game: str, seconds: float, fallback: bool) -> None:
        pass

    def render(self) -> bytes:
        return b""
