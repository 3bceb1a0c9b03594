"""The solved strategy of Dice 1000 for the page ``/strategy/thousand`` (docs/strategy.md, docs/web-protocol.md).

``GET /api/strategy/thousand``: the maps of :mod:`dicehall.thousand.solver.strategy` for classic, computed from
the shipped (or locally solved) exact table at the first request and kept for the process, with the house rules'
effects (:mod:`dicehall.thousand.house_rules`, the shipped simulation) and the practical rule's measured cost
(:mod:`dicehall.thousand.practical`); sent gzipped to a browser that takes it
(about an eighth of the plain JSON).
"""

from __future__ import annotations

import functools
import gzip
import json

from fastapi import APIRouter, Request, Response

router = APIRouter(prefix="/api/strategy")


def _send(request: Request, raw: bytes, packed: bytes) -> Response:
    """The JSON, gzipped to a browser that takes it; cached an hour (it changes only with a release)."""
    headers = {"Cache-Control": "public, max-age=3600", "Vary": "Accept-Encoding"}
    if "gzip" in request.headers.get("accept-encoding", ""):
        headers["Content-Encoding"] = "gzip"
        return Response(packed, media_type="application/json", headers=headers)
    return Response(raw, media_type="application/json", headers=headers)


@functools.cache
def _body() -> tuple[bytes, bytes]:
    from dicehall.thousand.house_rules import shipped_effects
    from dicehall.thousand.practical import measured
    from dicehall.thousand.solver.strategy import classic_strategy

    data = {**classic_strategy(), "house_rules": shipped_effects(), "practical": measured()}
    raw = json.dumps(data, separators=(",", ":")).encode()
    return raw, gzip.compress(raw, compresslevel=9, mtime=0)


@router.get("/thousand")
def thousand_strategy(request: Request) -> Response:
    """Classic Dice 1000's maps (sync: the first call computes them in a worker thread, about a second)."""
    return _send(request, *_body())


@functools.cache
def _clever_body() -> tuple[bytes, bytes]:
    from dicehall.clever.strategy import shipped

    data = {k: v for k, v in shipped().items() if k != "sample"}  # the sample is for the tests
    raw = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
    return raw, gzip.compress(raw, compresslevel=9, mtime=0)


@router.get("/clever")
def clever_strategy(request: Request) -> Response:
    """Where ``bot:master``'s points come from: the shipped figures of :mod:`dicehall.clever.strategy`."""
    return _send(request, *_clever_body())
