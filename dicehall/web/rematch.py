"""Rematch (docs/players-design.md step 5): from a finished table, a new one with the same game, rules, dice, hints
and bots, the seats rotated so that the first player moves on.

The first request makes the new table at once: the seats its caller holds are claimed for them, the other people's
seats are kept for them (``reserved``: the old seat's token hash and its player), bots take theirs. Each other
person accepts with one request, which claims their kept seats. Pages of the old table hear each step
(``{"type": "rematch", ...}``) and go to the new table when it is ``ready`` (every seat taken). Requests about a
table go to the process that owns it (as joins do), so two offers meet in one place; the primary key of
``dh_rematches`` makes two tables out of one offer impossible anyway.
"""

from __future__ import annotations

import json
import secrets
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from dicehall.web.db import TableMeta
from dicehall.web.live import LiveTable, TableError, hash_token

if TYPE_CHECKING:
    from dicehall.web.manager import TableManager


@dataclass(frozen=True)
class RematchAnswer:
    table_id: str
    tokens: dict[int, str]
    """New seat → its token, for the seats the caller took."""
    ready: bool


def rotated(n: int, new_seat: int) -> int:
    """The old seat that sits at ``new_seat`` of the rematch: each player moves one seat up, the first to last."""
    return (new_seat + 1) % n


def held_seats(meta: TableMeta, tokens: dict[int, str], player_id: str | None) -> list[int]:
    """The human seats of ``meta`` the caller holds: by a token of the seat, or as the player linked to it."""
    held = []
    for i, s in enumerate(meta.seats):
        if s["kind"] != "human":
            continue
        token = tokens.get(i)
        if (token is not None and s.get("token") == hash_token(token)) or (
            player_id is not None and s.get("player") == player_id
        ):
            held.append(i)
    return held


def _new_seats(
    old: TableMeta, held: list[int], player_id: str | None
) -> tuple[list[dict[str, Any]], dict[int, str]]:
    n = len(old.seats)
    seats: list[dict[str, Any]] = []
    tokens: dict[int, str] = {}
    for k in range(n):
        j = rotated(n, k)
        s = old.seats[j]
        if s["kind"] == "bot":
            seats.append({key: s[key] for key in ("name", "kind", "bot")} | {"token": None, "claimed": True})
            continue
        seat = {"name": s["name"], "kind": "human", "bot": None, "named": s.get("named", True)}
        if s.get("player"):
            seat["player"] = s["player"]
        if j in held:
            tokens[k] = secrets.token_urlsafe(24)
            seat |= {"token": hash_token(tokens[k]), "claimed": True}
            if player_id is not None:
                seat["player"] = player_id
        else:  # kept for the person who sat there: their old token or their player takes it
            seat |= {"token": None, "claimed": False, "reserved": s.get("token")}
        seats.append(seat)
    return seats, tokens


class Rematches:
    """Offers and acceptances of rematches, on the process that owns the finished table."""

    def __init__(self, manager: TableManager) -> None:
        self.manager = manager

    def offer_or_accept(
        self,
        old_id: str,
        tokens: dict[int, str],
        player_id: str | None,
        creator: str | None = None,
    ) -> RematchAnswer:
        """Offer a rematch of the finished table ``old_id`` (or accept the offer made already) for the seats the
        caller holds there. Raises :class:`TableError` (``not_finished``, ``not_your_seat``)."""
        manager = self.manager
        old = manager.get(old_id)
        if old.status != "finished":
            raise TableError(
                "not_finished", "a rematch is offered when the game is over; finish this one first"
            )
        held = held_seats(old.meta, tokens, player_id)
        if not held:
            raise TableError("not_your_seat", "only a player of this game can offer or accept its rematch")
        offer = manager.store.rematch_of(old_id)
        if offer is None:
            return self._offer(old, held, player_id, creator)
        new_id, _by = offer
        return self._accept(old, manager.get(new_id), held, player_id)

    def _offer(
        self, old: LiveTable, held: list[int], player_id: str | None, creator: str | None
    ) -> RematchAnswer:
        meta = old.meta
        seats, tokens = _new_seats(meta, held, player_id)
        now = time.time()
        new = TableMeta(
            id=secrets.token_hex(6),
            game=meta.game,
            preset=meta.preset,
            overrides=dict(meta.overrides),
            seats=seats,
            status="waiting",
            created=now,
            updated=now,
            creator=creator,
            creator_player=player_id,
            dice=meta.dice,
            hints=meta.hints,
            rated=meta.rated,  # the same table again: rated as the game before it
            unrated=meta.unrated,
        )
        store = self.manager.store
        table = self.manager.start(new, after=lambda: store.add_rematch(meta.id, new.id, held[0], now))
        self._tell(old, table, by=held[0])
        others = [k for k, s in enumerate(old.seats) if k not in held and s.get("player") != player_id]
        self.manager.tell_away(old, others, "rematch", tag=f"rematch-{old.id}", name=old.names()[held[0]])
        return RematchAnswer(table.id, tokens, table.status != "waiting")

    def _accept(
        self, old: LiveTable, table: LiveTable, held: list[int], player_id: str | None
    ) -> RematchAnswer:
        n = len(old.seats)
        old_tokens = {old.seats[j].get("token") for j in held}
        tokens: dict[int, str] = {}
        for k, s in enumerate(table.seats):
            kept_for_caller = rotated(n, k) in held and (
                s.get("reserved") in old_tokens or (player_id is not None and s.get("player") == player_id)
            )
            if s["kind"] == "human" and not s["claimed"] and kept_for_caller:
                tokens[k] = self.manager.claim(table.id, k, None, reserved_ok=True)
        if not tokens and table.status == "waiting":
            raise TableError("seat_taken", "your seat at the rematch is taken already; open the new table")
        offer = self.manager.store.rematch_of(old.id)
        self._tell(old, table, by=offer[1] if offer else held[0])
        return RematchAnswer(table.id, tokens, table.status != "waiting")

    def _tell(self, old: LiveTable, table: LiveTable, by: int) -> None:
        old.broadcast(json.dumps({"type": "rematch", "table": old.id, **_said(old, table, by)}))

    def describe(self, old_id: str) -> dict[str, Any] | None:
        """The rematch offered from ``old_id`` as its ``rematch`` message says it, or None."""
        offer = self.manager.store.rematch_of(old_id)
        if offer is None:
            return None
        new_id, by = offer
        return _said(self.manager.get(old_id), self.manager.get(new_id), by)


def _said(old: LiveTable, table: LiveTable, by: int) -> dict[str, Any]:
    """A rematch in old seat numbers: who offered it, who accepted (took their new seat), whether it can start."""
    n = len(old.seats)
    accepted = sorted(
        rotated(n, k) for k, s in enumerate(table.seats) if s["kind"] == "human" and s["claimed"]
    )
    return {"new_table": table.id, "by": by, "accepted": accepted, "ready": table.status != "waiting"}
