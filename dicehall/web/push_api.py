"""Web Push routes (docs/web-protocol.md, "Notifications"): the key a page subscribes with, and a player's
subscriptions (made from the profile page's switch)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request, Response
from fastapi.responses import JSONResponse

from dicehall.web.players import players_of
from dicehall.web.push import (
    MAX_SUBSCRIPTIONS,
    Pusher,
    SubscriptionRefused,
    check_subscription,
    subscription_id,
)

router = APIRouter(prefix="/api")


def _pusher(request: Request) -> Pusher:
    pusher: Pusher = request.app.state.pusher
    return pusher


async def _body(request: Request) -> Any:
    if len(await request.body()) > 4096:
        raise HTTPException(413, "a push subscription is a few hundred bytes")
    try:
        return await request.json()
    except ValueError:
        raise HTTPException(422, "send the browser's push subscription as JSON") from None


@router.get("/push/key")
def push_key(request: Request) -> dict[str, str]:
    """The application server key (VAPID, base64url) for ``pushManager.subscribe``."""
    return {"key": _pusher(request).public_key}


@router.post("/me/push", status_code=201, response_model=None)
async def subscribe(request: Request, response: Response) -> dict[str, Any] | JSONResponse:
    """This browser's push subscription (``PushSubscription.toJSON()`` and ``lang``) for this player."""
    pusher = _pusher(request)
    try:
        sub = check_subscription(await _body(request), pusher.services)
    except SubscriptionRefused as exc:
        return JSONResponse({"code": "push_refused", "detail": str(exc)}, status_code=422)
    player = players_of(request, request.app.state.manager.store).ensure(request, response)
    pusher.subs.add(player.id, sub, MAX_SUBSCRIPTIONS)
    return {"subscribed": True, "devices": pusher.subs.count(player.id)}


@router.delete("/me/push", response_model=None)
async def unsubscribe(request: Request) -> dict[str, Any]:
    """Stop notifications to this browser (``{"endpoint": ...}``); true when it was subscribed."""
    body = await _body(request)
    endpoint = body.get("endpoint") if isinstance(body, dict) else None
    if not isinstance(endpoint, str):
        raise HTTPException(422, "send the subscription's endpoint")
    player, _stale = players_of(request, request.app.state.manager.store).current(request)
    if player is None:
        return {"removed": False}
    removed = _pusher(request).subs.remove(player.id, subscription_id(endpoint))
    return {"removed": removed}
