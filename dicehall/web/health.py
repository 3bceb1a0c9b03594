"""Health and metrics for whoever runs the server (docs/web.md, "Health and metrics"):

- ``GET /healthz``: the process answers (a container's liveness check).
- ``GET /readyz``: the database answers, its migrations are at the head this release ships, and a process serving a
  shared database keeps its table leases; 503 with what is wrong otherwise (a load balancer's readiness check).
- ``GET /metrics``: Prometheus text (metrics.py); who may read it is the ``metrics`` / ``metrics_token`` setting.
"""

from __future__ import annotations

import hmac
import ipaddress
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

router = APIRouter()


@router.get("/healthz", include_in_schema=False)
async def healthz() -> dict[str, str]:
    return {"status": "ok"}


@router.get("/readyz", include_in_schema=False)
async def readyz(request: Request) -> JSONResponse:
    manager = request.app.state.manager
    problems: list[str] = []
    try:
        current, head = manager.store.migration_state()
        if current != head:
            problems.append(f"database schema at {current}, this release needs {head}")
    except Exception as exc:  # report, do not crash: readiness is asked when things go wrong
        problems.append(f"database: {type(exc).__name__}")
    if not manager.leases_kept():
        problems.append("table leases not renewed")
    body: dict[str, Any] = {"status": "ready" if not problems else "not ready", "problems": problems}
    return JSONResponse(body, status_code=200 if not problems else 503)


def _loopback(host: str | None) -> bool:
    try:
        return host is not None and ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@router.get("/metrics", include_in_schema=False)
async def metrics(request: Request) -> Response:
    manager = request.app.state.manager
    settings = manager.settings
    if settings.metrics == "off":
        return Response("metrics are off on this server\n", status_code=404, media_type="text/plain")
    if settings.metrics_token:
        sent = request.headers.get("authorization", "")
        if not hmac.compare_digest(sent.encode(), f"Bearer {settings.metrics_token}".encode()):
            return Response(
                "send the metrics token: Authorization: Bearer TOKEN\n",
                status_code=401,
                media_type="text/plain",
                headers={"WWW-Authenticate": "Bearer"},
            )
    elif settings.metrics == "loopback" and not _loopback(request.client.host if request.client else None):
        return Response(
            "metrics are for this machine only (setting metrics = loopback, or set metrics_token)\n",
            status_code=403,
            media_type="text/plain",
        )
    return Response(manager.metrics.render(), media_type=manager.metrics.content_type)
