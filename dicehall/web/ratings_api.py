"""``GET /api/leaderboard/{game}`` (the page ``/leaderboard/{game}``); a player's ratings join its profile."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request

from dicehall.core.game import game_names
from dicehall.web.db import Store
from dicehall.web.players import players_of
from dicehall.web.ratings import leaderboard

router = APIRouter(prefix="/api")


@router.get("/leaderboard/{game}")
async def game_leaderboard(game: str, request: Request) -> dict[str, Any]:
    """The active, established players of ``game`` by rating, and the asking player's own line (docs/web-protocol.md)."""
    if game not in game_names():
        raise HTTPException(404, f"there is no game {game!r}; the games are {', '.join(game_names())}")
    store: Store = request.app.state.manager.store
    me, _stale = players_of(request, store).current(request)
    return leaderboard(store, game, me=me.id if me is not None else None)
