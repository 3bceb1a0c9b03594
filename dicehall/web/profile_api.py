"""``GET /api/players/{player_id}``: a player's profile (the page ``/player/{player_id}``).

Names are not unique (guests pick any), so a profile is found by the player's public id. Everything comes from
one range walk of ``ix_dh_seats_player`` (the player's finished seats, newest first: results and the figures the
analyst stored, analyst.py) plus the last games' tables and names by primary key; no game is replayed.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request

from dicehall.web.db import CLAIMED, Store
from dicehall.web.live import public_seats
from dicehall.web.yourgames import RANK

router = APIRouter(prefix="/api")
LAST_GAMES = 20
POINTS = 500
"""Analysed games on the chart (the newest)."""


def _table_figures(seats: list[Any]) -> tuple[int, float | None, float | None]:
    """A table's figures for the player (several seats at one table: decisions summed, accuracy weighted)."""
    done = [s for s in seats if s.decisions is not None and s.decisions != CLAIMED]
    decisions = sum(s.decisions for s in done)
    loss = sum(s.accuracy * s.decisions for s in done if s.accuracy is not None)
    luck = [s.luck for s in done if s.luck is not None]
    accuracy = loss / decisions if decisions else None
    return decisions, accuracy, (sum(luck) / len(luck) if luck else None)


def profile(store: Store, player_id: str) -> dict[str, Any] | None:
    player = store.player_any(player_id)
    if player is None:
        return None
    tables: dict[str, list[Any]] = {}
    for row in store.profile_seats(player_id):  # newest first
        tables.setdefault(row.table_id, []).append(row)
    games: dict[str, dict[str, Any]] = {}
    points: list[dict[str, Any]] = []
    last: list[tuple[str, list[Any]]] = []
    for table_id, seats in tables.items():
        first = seats[0]
        mine = min((s.result for s in seats if s.result), key=lambda r: RANK.get(r, 3), default=None)
        g = games.setdefault(
            first.game, {"game": first.game, "played": 0, "wins": 0, "losses": 0, "draws": 0}
        )
        g["played"] += 1
        if mine in ("win", "loss", "draw"):
            g[{"win": "wins", "loss": "losses", "draw": "draws"}[mine]] += 1
        decisions, accuracy, luck = _table_figures(seats)
        if accuracy is not None and len(points) < POINTS:
            points.append({"at": first.updated, "game": first.game, "accuracy": accuracy, "luck": luck})
        if len(last) < LAST_GAMES:
            last.append((table_id, seats))
    metas = store.tables_by_id(t for t, _ in last)
    store.show_player_names(metas.values())
    recent = []
    for table_id, seats in last:
        meta = metas.get(table_id)
        mine_seats = {s.seat for s in seats}
        decisions, accuracy, luck = _table_figures(seats)
        public = public_seats(meta.seats) if meta else []
        result = min((s.result for s in seats if s.result), key=lambda r: RANK.get(r, 3), default=None)
        recent.append(
            {
                "table_id": table_id,
                "game": seats[0].game,
                "preset": meta.preset if meta else None,
                "at": max(s.updated for s in seats),
                "result": result,
                "score": seats[0].score,
                "my_seats": sorted(mine_seats),
                "opponents": [s for s in public if s["seat"] not in mine_seats],
                "resigned": any(s.get("resigned") for s in public if s["seat"] in mine_seats),
                "accuracy": accuracy,
                "luck": luck,
                "decisions": decisions,
                "analysed": all(s.decisions is not None and s.decisions != CLAIMED for s in seats),
                "analysis": f"/table/{table_id}/analysis",
            }
        )
    points.reverse()  # oldest first, as a chart reads
    deleted = player.kind == "deleted"
    return {
        "id": player.id,
        "name": None if deleted else player.name,
        "kind": player.kind,
        "deleted": deleted,
        "games": sorted(games.values(), key=lambda g: (-g["played"], g["game"])),
        "last": recent,
        "points": points,
    }


@router.get("/players/{player_id}")
async def player_profile(player_id: str, request: Request) -> dict[str, Any]:
    """(On the event loop: the store is single-threaded.) A player's games per game, the last games and the analysed figures over time (docs/web-protocol.md)."""
    store: Store = request.app.state.manager.store
    found = profile(store, player_id) if len(player_id) <= 16 else None
    if found is None:
        raise HTTPException(404, "there is no such player; check the link (it names a player by id)")
    return found
