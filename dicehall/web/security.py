"""Security headers on every HTTP response, and seat tokens kept out of the logs.

The front end is built without inline script or style (Vite emits one module script and one stylesheet), so the
policy allows only this origin. The API explorer pages (``/docs``, ``/redoc``) are FastAPI's: they load Swagger UI
or ReDoc from a CDN and start them with an inline script, so those two paths get a wider policy of their own.
"""

from __future__ import annotations

import logging
import re

from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
DOCS_CSP = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net https://fonts.googleapis.com; "
    "img-src 'self' data: https://fastapi.tiangolo.com https://cdn.redoc.ly; font-src https://fonts.gstatic.com; "
    "worker-src 'self' blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
DOCS_PATHS = ("/docs", "/redoc")

_COMMON = [
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
]
_HEADERS = [(b"content-security-policy", CSP.encode()), *_COMMON]
_DOCS_HEADERS = [(b"content-security-policy", DOCS_CSP.encode()), *_COMMON]


class SecurityHeaders:
    """Pure ASGI middleware (no per-request task or body buffering): adds the headers to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope.get("path", "")
        extra = _DOCS_HEADERS if path.startswith(DOCS_PATHS) else _HEADERS

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        await self.app(scope, receive, send_with_headers)


# -- requests from other sites -----------------------------------------------------------------------------------
WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_FORBIDDEN = (
    b'{"detail":"a request from another site (its Origin is not this server\'s)","code":"bad_origin"}'
)


class OriginCheck:
    """Pure ASGI middleware: a state-changing request under ``/api`` that a browser sent from another site is
    refused with 403 ``bad_origin``: its ``Origin`` is not this server's ``scheme://host``, or its
    ``Sec-Fetch-Site`` says cross-site or same-site. A websocket handshake from another site's page is refused
    the same way (closed before it is accepted: the browser sees a failed connection). Requests with neither
    header (scripts, the processes of one server forwarding to each other) carry no browser's cookies by surprise
    and pass; the session cookie is ``SameSite=Lax`` besides (players.py)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] == "http"
            and scope.get("method") in WRITE_METHODS
            and scope.get("path", "").startswith("/api/")
            and not same_origin(scope)
        ):
            await send(
                {
                    "type": "http.response.start",
                    "status": 403,
                    "headers": [
                        (b"content-type", b"application/json"),
                        (b"content-length", str(len(_FORBIDDEN)).encode()),
                    ],
                }
            )
            await send({"type": "http.response.body", "body": _FORBIDDEN})
            return
        if scope["type"] == "websocket" and not same_origin(scope):
            await receive()  # websocket.connect
            await send({"type": "websocket.close", "code": 1008})  # before accept: an HTTP 403 to the browser
            return
        await self.app(scope, receive, send)


def same_origin(scope: Scope) -> bool:
    """Whether the request's browser headers (if any) say it came from a page of this server.

    ``Sec-Fetch-Site`` (sent by every current browser, and not settable by a page) decides when present, so a
    reverse proxy that rewrites ``Host`` does not lock its users out; older browsers' ``Origin`` is compared with
    ``scheme://host`` (``--trusted-proxy`` sets the scheme from ``X-Forwarded-Proto``)."""
    headers: dict[bytes, bytes] = dict(scope.get("headers") or [])
    fetch_site = headers.get(b"sec-fetch-site")
    if fetch_site is not None:
        return fetch_site in (b"same-origin", b"none")
    origin = headers.get(b"origin")
    if origin is None:
        return True
    host = headers.get(b"host", b"")
    scheme = str(scope.get("scheme", "http")).replace("ws", "http").encode()
    return origin == scheme + b"://" + host


def proven_same_origin(scope: Scope, public_origin: str = "") -> bool:
    """Stricter than :func:`same_origin`, for the account routes (auth.py): the browser must say where the request
    came from — ``Sec-Fetch-Site: same-origin``, or an ``Origin`` equal to the public origin (or, without one, to
    ``scheme://host``). A request with a session cookie and neither header is refused: a sign-in, sign-out or
    account deletion is never made by a script holding someone's cookie without saying whence."""
    headers: dict[bytes, bytes] = dict(scope.get("headers") or [])
    fetch_site = headers.get(b"sec-fetch-site")
    if fetch_site is not None:
        return fetch_site == b"same-origin"
    origin = headers.get(b"origin")
    if origin is None:
        return False
    if public_origin:
        return origin == public_origin.encode()
    scheme = str(scope.get("scheme", "http")).replace("ws", "http").encode()
    return origin == scheme + b"://" + headers.get(b"host", b"")


# -- tokens out of the logs --------------------------------------------------------------------------------------
_TOKEN_IN_TEXT = re.compile(
    r"(?i)(tokens?[\"']?\s*[=:]\s*\[?\s*[\"']?)(?!redacted\])([A-Za-z0-9_\-%.~]{8,})"
)  # the lookahead: redacting twice changes nothing
REDACTED = "[redacted]"


_COOKIE_IN_TEXT = re.compile(r"((?:__Host-)?dh_sid=)([^;\s\"',]+)")


def redact(text: str) -> str:
    """``token=SECRET`` / ``"token": "SECRET"`` / ``tokens=[...]`` / the session cookie's ``dh_sid=SECRET`` → the
    secret replaced by ``[redacted]``."""
    text = _TOKEN_IN_TEXT.sub(lambda m: m.group(1) + REDACTED, text)
    if "dh_sid=" in text:
        text = _COOKIE_IN_TEXT.sub(lambda m: m.group(1) + REDACTED, text)
    return text


class RedactTokens(logging.Filter):
    """A seat token in a URL (someone pasted an invite link with ``?token=`` instead of ``#token=``, which
    browsers never send) or in a message must not reach the log: the formatted line is checked and rewritten."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            text = record.getMessage()
        except Exception:  # a malformed record is logging's business, not ours
            return True
        if "oken" in text or "dh_sid=" in text:
            cleaned = redact(text)
            if cleaned == text:
                return True
            if isinstance(record.args, tuple):  # the arguments one by one keeps an access line's fields apart
                record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
                if record.getMessage() == cleaned:
                    return True
            record.msg, record.args = cleaned, None
        return True


_FILTER = RedactTokens()
REDACTED_LOGGERS = ("uvicorn.access", "uvicorn.error", "uvicorn", "dicehall.web", "dicehall")


def install_log_redaction() -> None:
    """Attach the filter to the server's loggers (idempotent). Logger filters survive uvicorn's dictConfig."""
    for name in REDACTED_LOGGERS:
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)
