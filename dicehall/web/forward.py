"""Forwarding a request for a table that another server process owns (several processes on one database,
docs/scaling.md): a websocket is piped to the owner frame by frame, a REST call is sent on and its answer sent
back. Any process can so serve any client, behind any load balancer; the owner alone changes the table.

A forwarded request carries ``X-Dicehall-Forwarded``; a process that gets one for a table it does not own (the
table moved meanwhile) answers "retry" instead of forwarding again, so requests never travel in circles.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any

from fastapi import Request
from fastapi.responses import JSONResponse, Response

from dicehall.web.limits import LogThrottle

if TYPE_CHECKING:
    from dicehall.web.ws import Connection

log = logging.getLogger("dicehall.web")
_unreachable = LogThrottle(log, every=5.0)
"""Every client retries while a dead owner's lease runs out: one line per owner every few seconds is enough."""

HEADER = "X-Dicehall-Forwarded"
OPEN_TIMEOUT = 3.0
"""Seconds to reach the owner; one that does not answer (dead, paused) loses its lease soon."""
KEPT_HEADERS = ("content-type", "content-disposition", "retry-after")


def _retry(message: str) -> JSONResponse:
    return JSONResponse({"detail": message, "code": "moved"}, status_code=503, headers={"Retry-After": "1"})


async def forward_request(
    request: Request, url: str, body: Any = None, headers: dict[str, str] | None = None
) -> Response:
    """Send this REST request on to the owner at ``url``; its answer, or 503 + Retry-After if it is away."""
    if not url or request.headers.get(HEADER):
        return _retry("the table is moving to another server process; retry in a moment")
    import httpx

    async with httpx.AsyncClient(timeout=10) as client:
        try:
            r = await client.request(
                request.method,
                url + request.url.path,
                params=request.query_params,
                json=body,
                headers={HEADER: "1", **(headers or {})},
            )
        except httpx.HTTPError as exc:
            _unreachable.warn(url, f"forwarding to the table's owner {url} failed: {type(exc).__name__}")
            return _retry("the table's server process is not answering; retry in a moment")
    headers = {k: v for k, v in r.headers.items() if k.lower() in KEPT_HEADERS}
    return Response(r.content, r.status_code, headers=headers)


class Upstream:
    """A websocket to the owner carrying one client's frames; the owner's frames go to the client as they come."""

    def __init__(self, ws: Any, conn: Connection) -> None:
        self.ws = ws
        self.pump = asyncio.get_running_loop().create_task(self._pump(conn))

    @classmethod
    async def open(
        cls, conn: Connection, url: str, first: str | bytes, headers: dict[str, str] | None = None
    ) -> Upstream | None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import WebSocketException

        target = url.replace("http", "ws", 1) + "/ws"
        try:
            ws = await connect(
                target,
                additional_headers={HEADER: "1", **(headers or {})},
                open_timeout=OPEN_TIMEOUT,
                max_size=None,
                ping_interval=None,
            )
            await ws.send(first)
        except (OSError, TimeoutError, WebSocketException) as exc:
            _unreachable.warn(url, f"cannot reach the table's owner {url}: {type(exc).__name__}")
            conn.shutdown(1013, "the table's server process is not answering; reconnect in a moment")
            return None
        return cls(ws, conn)

    async def _pump(self, conn: Connection) -> None:
        code, reason = 1012, "the table's server process went away; reconnect"
        try:
            async for msg in self.ws:
                conn.push(msg if isinstance(msg, str) else msg.decode("utf-8", "replace"))
        except Exception:  # the owner died mid-frame: the client reconnects and rejoins
            pass
        rcvd = getattr(self.ws, "close_code", None)
        if rcvd is not None and rcvd not in (1000, 1006):
            code, reason = rcvd, self.ws.close_reason or reason
        conn.shutdown(code, reason)

    async def send(self, raw: str | bytes) -> bool:
        """Pass a client frame on; False once the owner's side is closed."""
        try:
            await self.ws.send(raw)
        except Exception:
            return False
        return True

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.ws.close()
        self.pump.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self.pump
