""" "Your games": the tables a player sits at, read from ``dh_seats`` (docs/players-design.md, step 2).

Seats are linked to a player when it creates a table (``"me": true``), joins one, or opens an invite link; each
seat row keeps its table's status, whether it is to move (``turn``) and, once finished, how it ended. One page is
a walk of ``ix_dh_seats_player`` per status, then the tables and the players' names by primary key: no game is
replayed, nothing is sorted in the database. Tables from before migration 0007 have no seat rows and are not
listed.

A correspondence table carries its ``move_seconds``, ``deadline`` and ``deadline_soon`` (its reminder is due,
correspondence.py); the page's ``now`` is the server's clock, so pages count the time left from it. "Your turn"
lists the games with a deadline first, the nearest first.
"""

from __future__ import annotations

from typing import Any

from dicehall.web.correspondence import reminder_lead
from dicehall.web.db import Player, SeatEntry, TableMeta
from dicehall.web.live import public_seats
from dicehall.web.manager import TableManager

OPEN_LIMIT = 1000
"""Open seats read per status (a player's unfinished tables are bounded by the quotas: 10 live and 100
correspondence tables created, more joined)."""
RANK = {"win": 0, "draw": 1, "loss": 2}
"""When a player held several seats of one finished table, the best of them is its result."""


def table_item(manager: TableManager, meta: TableMeta) -> dict[str, Any]:
    """A table as ``GET /api/tables`` lists it."""
    live = manager.tables.get(meta.id)
    return {
        "table_id": meta.id,
        "game": meta.game,
        "preset": meta.preset,
        "status": meta.status,
        "seq": live.seq if live is not None else None,
        "seats": public_seats(meta.seats),
        "created": meta.created,
    }


def clock_fields(meta: TableMeta, now: float) -> dict[str, Any]:
    """A correspondence table's time control and deadline (nothing for a live table)."""
    if meta.move_seconds is None:
        return {}
    deadline = meta.deadline if meta.status == "playing" else None
    soon = deadline is not None and now >= deadline - reminder_lead(meta.move_seconds)
    return {"move_seconds": meta.move_seconds, "deadline": deadline, "deadline_soon": soon}


def _new_seat_of(old_seat: int, item: dict[str, Any]) -> int:
    """Where the player of ``old_seat`` sits at the rematch (rematch.rotated: each moves one seat up)."""
    n = len(item["seats"])
    return (old_seat - 1) % n


def _by_table(entries: list[SeatEntry]) -> dict[str, list[SeatEntry]]:
    """The player's seats grouped per table, in the order first met."""
    out: dict[str, list[SeatEntry]] = {}
    for e in entries:
        out.setdefault(e.table_id, []).append(e)
    return out


def my_games_page(
    manager: TableManager,
    player: Player | None,
    limit: int,
    before: float | None = None,
    before_id: str | None = None,
) -> dict[str, Any]:
    page: dict[str, Any] = {"your_turn": [], "offers": [], "waiting": [], "finished": [], "next": None}
    if player is None:
        return page
    page["now"] = now = manager.clock()
    store = manager.store
    cursor = (before, before_id) if before is not None and before_id is not None else None
    opened = _by_table(store.open_seats(player.id, OPEN_LIMIT)) if cursor is None else {}
    rows = store.finished_seats(player.id, limit, cursor)
    finished = _by_table(rows)
    tables = store.tables_listed([*opened, *finished])
    store.show_player_names(tables.values())

    def item(table_id: str, seats: list[SeatEntry]) -> dict[str, Any] | None:
        meta = tables.get(table_id)
        if meta is None:
            return None
        out = table_item(manager, meta)
        out["my_seats"] = sorted(e.seat for e in seats)
        out["turn"] = meta.status == "playing" and any(e.turn for e in seats)
        out["updated"] = max(e.updated for e in seats)
        out.update(clock_fields(meta, now))
        return out

    # A rematch somebody offered this player: a waiting table with a seat kept for them (rematch.py).
    kept = {
        table_id
        for table_id, seats in opened.items()
        if table_id in tables
        and any(
            "reserved" in tables[table_id].seats[e.seat] and not tables[table_id].seats[e.seat]["claimed"]
            for e in seats
        )
    }
    offers = store.rematches_into(kept)
    for table_id, seats in opened.items():
        it = item(table_id, seats)
        if it is None:
            continue
        if table_id in offers:
            old, by = offers[table_id]
            it["offer"] = {
                "table": old,
                "by_seat": _new_seat_of(by, it),
            }
            page["offers"].append(it)
        else:
            page["your_turn" if it["turn"] else "waiting"].append(it)
    for key in ("offers", "waiting"):
        page[key].sort(key=lambda it: (-it["updated"], it["table_id"]))
    # the games on a clock first, the nearest deadline first; then the others, the latest first
    page["your_turn"].sort(
        key=lambda it: (it.get("deadline") is None, it.get("deadline") or -it["updated"], it["table_id"])
    )
    for table_id, seats in finished.items():
        it = item(table_id, seats)
        if it is None:
            continue
        result = tables[table_id].result or {}
        mine = min((e.result for e in seats if e.result), key=lambda r: RANK.get(r, 3), default=None)
        it["result"] = {"scores": result.get("scores"), "winners": result.get("winners"), "mine": mine}
        page["finished"].append(it)
    if len(rows) == limit:
        last = rows[-1]
        page["next"] = {"before": last.updated, "before_id": last.table_id}
    return page
