"""Rated tables: which tables are rated (and why not), the rating update at a rated game's end, the reads of the
leaderboard, the profile and the game-over card. The model is :mod:`dicehall.core.rating`; see docs/ratings.md.

The update runs in the transaction that writes the finish (``Finish.rate``): the players' rows are created if
missing, then read ``FOR UPDATE`` in player-id order (PostgreSQL: a second table finishing for the same player
waits for the first and reads its result; no two transactions lock in opposite orders). SQLite takes its one
writer lock at the transaction's first write (the events), before the rows are read: the same guarantee.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from dicehall.core.rating import PROVISIONAL_SIGMA, SCALE, Skill, anchor, display, ranks_of, rate
from dicehall.web.db import PlayerRow, RatingHistoryRow, RatingRow, Store, TableRow

ACTIVE_DAYS = 30
"""The leaderboard lists players with a rated game of that game in the last this many days."""
BOARD_SIZE = 100
HISTORY_POINTS = 200
"""Rating points per game on the profile's chart (the newest)."""

SET_RATING = (
    update(RatingRow)
    .where(RatingRow.player_id == bindparam("pid"))
    .values(
        mu=bindparam("mu"),
        sigma=bindparam("sigma"),
        ordinal=bindparam("ordinal"),
        games=bindparam("games"),
        updated=bindparam("updated"),
    )
)

REASONS = ("real_dice", "alone", "no_person", "hints", "hot_seat", "two_seats", "unlinked", "chosen")
"""Why a table is not rated; each is a message ``rated.why.<reason>`` in the players' words."""


def decide(
    seats: Sequence[dict[str, Any]], me_or_open: bool, dice: str, hints: bool | None, asked: bool | None
) -> tuple[bool, str | None]:
    """Rated or not at creation, and why not. Forced off: real dice (nobody can check what fell), one seat, no
    person, hints asked for. Otherwise as asked; by default on when every person's seat is the creator's own or
    open (taken by a player who joins), off when the creator holds seats for others (hot seat or invite: who
    plays them is not known yet)."""
    if dice == "real":
        return False, "real_dice"
    if len(seats) < 2:
        return False, "alone"
    if not any(s["kind"] == "human" for s in seats):
        return False, "no_person"
    if hints:
        return False, "hints"
    if asked is None:
        return (True, None) if me_or_open else (False, "chosen")
    return (True, None) if asked else (False, "chosen")


def reason_of(meta: Any) -> str | None:
    """Why a loaded table is not rated (the reason given when it was made unrated, if this process knows it)."""
    if meta.rated:
        return None
    known = getattr(meta, "unrated", None)
    if known:
        return str(known)
    rated, why = decide(meta.seats, True, meta.dice, meta.hints, None)
    return why if not rated else "chosen"


def change(before: Skill, after: Skill) -> dict[str, Any]:
    """What the game-over card shows of one player's change."""
    return {
        "before": display(before.mu),
        "rating": display(after.mu),
        "delta": display(after.mu) - display(before.mu),
        "provisional": after.provisional,
    }


@dataclass
class RatedGame:
    """The rating update of one finished game, run inside the finish's transaction (``Finish.rate``)."""

    table_id: str
    game: str
    seats: list[dict[str, Any]]
    scores: list[float]
    winners: list[int]
    changes: list[dict[str, Any]] = field(default_factory=list)
    """Per rated seat after the update: ``{"seat", "player", "before", "rating", "delta", "provisional"}``."""
    unrated: str | None = None

    def __call__(self, conn: Connection, now: float) -> None:
        people = [
            (i, s.get("player")) for i, s in enumerate(self.seats) if s["kind"] == "human" or s.get("player")
        ]
        ids = [p for _, p in people]
        if any(p is None for p in ids) or len(set(ids)) != len(ids):
            self.unrated = "unlinked" if any(p is None for p in ids) else "two_seats"
            conn.execute(update(TableRow).where(TableRow.id == self.table_id).values(rated=False))
            return
        held = self.lock_ratings(conn, sorted(str(p) for p in ids), now)
        # a seat that resigned, or timed out and was played on by a bot, shares the last place (docs/ratings.md)
        out = [i for i, s in enumerate(self.seats) if s.get("resigned") or s.get("timed_out")]
        ranks = ranks_of(self.scores, self.winners, out)
        before = [
            held[str(s["player"])][0] if s.get("player") else anchor(self.game, str(s.get("bot")))
            for s in self.seats
        ]
        after = rate(before, ranks)
        history, rows = [], []
        for seat, player in people:
            pid = str(player)
            new = after[seat]
            rows.append(
                {
                    "pid": pid,
                    "mu": new.mu,
                    "sigma": new.sigma,
                    "ordinal": new.ordinal,
                    "games": held[pid][1] + 1,
                    "updated": now,
                }
            )
            history.append(
                {
                    "player_id": pid,
                    "game": self.game,
                    "table_id": self.table_id,
                    "at": now,
                    "mu_before": before[seat].mu,
                    "sigma_before": before[seat].sigma,
                    "mu": new.mu,
                    "sigma": new.sigma,
                }
            )
            self.changes.append({"seat": seat, "player": pid, **change(before[seat], new)})
        conn.execute(SET_RATING.where(RatingRow.game == self.game), rows)  # one executemany
        conn.execute(insert(RatingHistoryRow), history)

    def lock_ratings(self, conn: Connection, players: list[str], now: float) -> dict[str, tuple[Skill, int]]:
        """The players' ratings in this game and games played, their rows made if missing and locked until the
        transaction ends (in player-id order)."""
        ins = (postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert)(RatingRow)
        fresh = Skill()
        conn.execute(
            ins.on_conflict_do_nothing(),
            [
                {
                    "player_id": p,
                    "game": self.game,
                    "mu": fresh.mu,
                    "sigma": fresh.sigma,
                    "ordinal": fresh.ordinal,
                    "games": 0,
                    "updated": now,
                }
                for p in players
            ],
        )
        rows = conn.execute(
            select(RatingRow.player_id, RatingRow.mu, RatingRow.sigma, RatingRow.games)
            .where(RatingRow.game == self.game, RatingRow.player_id.in_(players))
            .order_by(RatingRow.player_id)
            .with_for_update()
        ).all()
        return {r.player_id: (Skill(r.mu, r.sigma), r.games) for r in rows}


# -- reads --------------------------------------------------------------------------------------------------
def _rating(mu: float, sigma: float, games: int) -> dict[str, Any]:
    return {"rating": display(mu), "provisional": sigma > PROVISIONAL_SIGMA, "games": games}


def leaderboard(store: Store, game: str, now: float | None = None, me: str | None = None) -> dict[str, Any]:
    """The active, established players of ``game`` by rating; ``me``: the asking player's own line, if rated."""
    since = (now or time.time()) - ACTIVE_DAYS * 86400
    rows = store._read(
        select(RatingRow.player_id, RatingRow.mu, RatingRow.sigma, RatingRow.games, PlayerRow.name)
        .join(PlayerRow, PlayerRow.id == RatingRow.player_id)
        .where(
            RatingRow.game == game,
            RatingRow.sigma <= PROVISIONAL_SIGMA,
            RatingRow.updated >= since,
            PlayerRow.kind != "deleted",
        )
        .order_by(RatingRow.mu.desc(), RatingRow.player_id)
        .limit(BOARD_SIZE)
    )
    players = [
        {"rank": k + 1, "id": r.player_id, "name": r.name, **_rating(r.mu, r.sigma, r.games)}
        for k, r in enumerate(rows)
    ]
    mine = None
    if me is not None:
        own = store._read(
            select(RatingRow.mu, RatingRow.sigma, RatingRow.games, RatingRow.updated).where(
                RatingRow.game == game, RatingRow.player_id == me
            )
        )
        if own:
            r = own[0]
            rank = next((p["rank"] for p in players if p["id"] == me), None)
            mine = {**_rating(r.mu, r.sigma, r.games), "rank": rank, "active": r.updated >= since}
    return {
        "game": game,
        "active_days": ACTIVE_DAYS,
        "provisional_above": round(PROVISIONAL_SIGMA * SCALE),
        "players": players,
        "me": mine,
    }


def player_ratings(store: Store, player_id: str) -> list[dict[str, Any]]:
    """A player's rating in each game it played rated, with the newest chart points (oldest first)."""
    out = []
    for r in store._read(
        select(RatingRow.game, RatingRow.mu, RatingRow.sigma, RatingRow.games).where(
            RatingRow.player_id == player_id
        )
    ):
        points = store._read(
            select(
                RatingHistoryRow.at, RatingHistoryRow.mu, RatingHistoryRow.sigma, RatingHistoryRow.table_id
            )
            .where(RatingHistoryRow.player_id == player_id, RatingHistoryRow.game == r.game)
            .order_by(RatingHistoryRow.at.desc(), RatingHistoryRow.id.desc())
            .limit(HISTORY_POINTS)
        )
        out.append(
            {
                "game": r.game,
                **_rating(r.mu, r.sigma, r.games),
                "points": [
                    {
                        "at": p.at,
                        "rating": display(p.mu),
                        "provisional": p.sigma > PROVISIONAL_SIGMA,
                        "table_id": p.table_id,
                    }
                    for p in reversed(points)
                ],
            }
        )
    return sorted(out, key=lambda g: (-g["games"], g["game"]))


def table_changes(store: Store, table_id: str, seats: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rating changes a finished table made (for a table loaded after its game ended)."""
    rows = store._read(
        select(RatingHistoryRow).where(RatingHistoryRow.table_id == table_id).order_by(RatingHistoryRow.id)
    )
    seat_of = {s.get("player"): i for i, s in enumerate(seats) if s.get("player")}
    return [
        {
            "seat": seat_of[r.player_id],
            "player": r.player_id,
            **change(Skill(r.mu_before, r.sigma_before), Skill(r.mu, r.sigma)),
        }
        for r in rows
        if r.player_id in seat_of
    ]
