"""The built front end's ``/assets``: Vite names every file there by a hash of its content, so a browser may keep it
for a year without asking again (``immutable``); ``index.html``, which names them, is sent ``no-cache``. Each script
and stylesheet was also compressed at build time (``web/precompress.mjs``: ``.br`` and ``.gz`` beside it); the
variant the request accepts is sent as it is, nothing is compressed per request.
"""

from __future__ import annotations

import mimetypes

from starlette.exceptions import HTTPException
from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

mimetypes.add_type(
    "application/manifest+json", ".webmanifest"
)  # the app's manifest (not in every system table)
IMMUTABLE = "public, max-age=31536000, immutable"
ENCODINGS = (("br", ".br"), ("gzip", ".gz"))
"""Best first: brotli is about a fifth smaller than gzip on these files."""


def accepted_encodings(header: str) -> set[str]:
    """The content codings an ``Accept-Encoding`` header allows (``q=0`` refuses one; ``*`` allows any)."""
    allowed: set[str] = set()
    for part in header.lower().split(","):
        name, _, params = part.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if name and q > 0:
            allowed.add(name.strip())
    if "*" in allowed:
        allowed.update(name for name, _ in ENCODINGS)
    return allowed


class HashedAssets(StaticFiles):
    async def get_response(self, path: str, scope: Scope) -> Response:
        header = ""
        for key, value in scope.get("headers", []):
            if key == b"accept-encoding":
                header = value.decode("latin-1")
        allowed = accepted_encodings(header)
        response: Response | None = None
        if not path.endswith(tuple(suffix for _, suffix in ENCODINGS)):
            for name, suffix in ENCODINGS:
                if name not in allowed:
                    continue
                try:
                    response = await super().get_response(path + suffix, scope)
                except HTTPException:
                    continue  # not compressed at build (an image, a font): the file itself
                kind, _ = mimetypes.guess_type(path)
                kind = kind or "text/plain"  # (as Starlette types the file itself)
                if kind.startswith("text/"):
                    kind += "; charset=utf-8"
                response.headers["content-type"] = kind
                response.headers["content-encoding"] = name
                break
        if response is None:
            response = await super().get_response(path, scope)
        if response.status_code in (200, 304):
            response.headers["cache-control"] = IMMUTABLE
            response.headers["vary"] = "Accept-Encoding"
        return response
