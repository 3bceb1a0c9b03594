"""``GET /api/players/{player_id}``: a player's profile (the page ``/player/{player_id}``).

Names are not unique (guests pick any), so a profile is found by the player's public id. Two range walks of
``ix_dh_seats_player`` give everything: the counts per game (one ``GROUP BY``), and the newest 500 finished seats
with the figures the analyst stored (analyst.py) for the last games and the chart; then the last games' tables
and names by primary key. No game is replayed.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request

from dicehall.web.db import CLAIMED, Store
from dicehall.web.live import public_seats
from dicehall.web.puzzles_api import player_puzzles
from dicehall.web.ratings import player_ratings
from dicehall.web.yourgames import RANK

router = APIRouter(prefix="/api")
LAST_GAMES = 20
POINTS = 500
RECENT_SEATS = POINTS
"""Seats read for the last games and the chart: the chart shows the analysed ones among the newest 500 games."""


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
    games = [
        {"game": game, "played": played, "wins": wins, "losses": losses, "draws": draws}
        for game, played, wins, draws, losses in store.profile_counts(player_id)
    ]
    tables: dict[str, list[Any]] = {}
    for row in store.profile_seats(player_id, RECENT_SEATS):  # newest first
        tables.setdefault(row.table_id, []).append(row)
    points: list[dict[str, Any]] = []
    for seats in tables.values():
        _, accuracy, luck = _table_figures(seats)
        if accuracy is not None:
            first = seats[0]
            points.append({"at": first.updated, "game": first.game, "accuracy": accuracy, "luck": luck})
    last = list(tables.items())[:LAST_GAMES]
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
        "games": sorted(games, key=lambda g: (-g["played"], g["game"])),
        "last": recent,
        "points": points,
        "ratings": player_ratings(store, player_id),
        "puzzles": player_puzzles(store, player_id),
        "puzzles_clever": player_puzzles(store, player_id, "clever"),
    }


@router.get("/players/{player_id}")
async def player_profile(player_id: str, request: Request) -> dict[str, Any]:
    """(On the event loop: the store is single-threaded.) A player's games per game, the last games and the analysed figures over time (docs/web-protocol.md)."""
    store: Store = request.app.state.manager.store
    found = profile(store, player_id) if len(player_id) <= 16 else None
    if found is None:
        raise HTTPException(404, "there is no such player; check the link (it names a player by id)")
    return found
