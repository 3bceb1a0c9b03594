"""Puzzles on the web (the pages ``/puzzles/thousand`` and ``/puzzles/clever``; docs/puzzles.md,
docs/web-protocol.md), one set per game (:data:`GAMES`, each a :class:`dicehall.core.puzzles.PuzzleGame`).

``GET /api/puzzles/{game}/next?theme=…`` draws an unanswered puzzle near the player's puzzle rating and sends
the position only (the table's public view, the theme), never the answer. ``POST /api/puzzles/{game}/{id}/
answer`` checks the choice on the server, against the shipped puzzle, and answers with the verdict, every
option's value, the reason and the rating. A player's first answer to a puzzle is rated (Glicko-2 against the
puzzle, core/puzzles.py; ratings are kept per player and game) in one transaction: the rating row is made if missing and locked, then the
answer is inserted, and only an answer that went in (the primary key holds one per player and puzzle) moves the
rating and the streak; a later one is answered alike but marked ``rated: false``.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import logging
import threading
import time
from typing import Any

import numpy as np
from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from sqlalchemy import select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from dicehall.clever import puzzle_play as clever_puzzles
from dicehall.core.errors import DicehallError
from dicehall.core.puzzles import PuzzleAnswerError, PuzzleGame, PuzzleSet, Skill, puzzle_id, rate
from dicehall.i18n.message import Message
from dicehall.thousand import puzzle_play as thousand_puzzles
from dicehall.web.db import PuzzleAnswerRow, PuzzleRatingRow, Store
from dicehall.web.found_puzzles import READERS
from dicehall.web.players import clear_cookie, players_of

log = logging.getLogger("dicehall.web")
router = APIRouter(prefix="/api/puzzles")
GAMES: dict[str, PuzzleGame[Any]] = {"thousand": thousand_puzzles.GAME, "clever": clever_puzzles.GAME}
MAX_CHOICE = 16  # (the longest move, "black Y.r1c1" or "+1 W:Y.r1c1", fits the answers table)


@functools.cache
def puzzle_set(game: str = "thousand") -> PuzzleSet[Any]:
    """A game's shipped puzzles, loaded once per process (about half a second); an unknown game is refused."""
    if game not in GAMES:
        raise PuzzleAnswerError(Message("puzzle.refusal.game"))
    return PuzzleSet(GAMES[game])


@dataclasses.dataclass
class _Served:
    """A game's puzzles as one server serves them: the shipped ones and those found in its games (found_puzzles.py),
    with where each found one came from."""

    puzzles: PuzzleSet[Any]
    sources: dict[str, tuple[str, int]] = dataclasses.field(default_factory=dict)
    rows: int = 0


_SERVED_LOCK = threading.Lock()


def served(request: Request, game: str) -> _Served:
    """The game's puzzles for this server, brought up to date with the puzzles found in its games (a count first:
    nothing more is read while none is new). An unknown game is refused."""
    shipped = puzzle_set(game)
    state = request.app.state
    with _SERVED_LOCK:
        sets: dict[str, _Served] | None = getattr(state, "served_puzzles", None)
        if sets is None:
            sets = state.served_puzzles = {}
        mine = sets.get(game)
        if mine is None:
            mine = sets[game] = _Served(shipped.copy())
    reader = READERS.get(game)
    if reader is None:
        return mine
    store = _store(request)
    count = store.found_count(game)
    if count == mine.rows:
        return mine
    with _SERVED_LOCK:
        fresh = []
        for r in store.found_puzzles(game):
            if r.puzzle in mine.sources:
                continue
            try:
                p = reader(json.loads(r.body))
            except (ValueError, KeyError, TypeError, AttributeError):
                log.warning("a found puzzle of %s does not read: %s (passed over)", game, r.puzzle)
                continue
            if puzzle_id(p) != r.puzzle:
                log.warning("a found puzzle of %s is not what its id says: %s (passed over)", game, r.puzzle)
                continue
            mine.sources[r.puzzle] = (r.table_id, r.step)
            fresh.append(p)
        mine.puzzles.add(fresh)
        mine.rows = count
    return mine


def _source(mine: _Served, pid: str) -> dict[str, Any]:
    """Where a found puzzle came from: the finished table and the decision's step on its analysis board."""
    if pid not in mine.sources:
        return {}
    table, step = mine.sources[pid]
    return {"source": {"table": table, "step": step + 1}}


def _store(request: Request) -> Store:
    store: Store = request.app.state.manager.store
    return store


def _refused(exc: DicehallError, status: int) -> JSONResponse:
    said = exc.message_json() or {"id": None, "params": {}}
    return JSONResponse(
        {"detail": str(exc), "msgid": said["id"], "params": said["params"]}, status_code=status
    )


def _rating_json(row: Any | None) -> dict[str, Any]:
    """A player's puzzle rating as pages show it (a player with no rated answer: the starting rating)."""
    if row is None:
        skill, streak, best, solved, tried = Skill(), 0, 0, 0, 0
    else:
        skill, streak, best, solved, tried = (
            Skill(row.rating, row.rd, row.vol),
            row.streak,
            row.best_streak,
            row.solved,
            row.tried,
        )
    return {
        "rating": round(skill.rating),
        "rd": round(skill.rd),
        "provisional": skill.provisional,
        "streak": streak,
        "best_streak": best,
        "solved": solved,
        "tried": tried,
    }


def _rating_row(store: Store, player_id: str, game: str) -> Any | None:
    rows = store._read(
        select(PuzzleRatingRow).where(PuzzleRatingRow.player_id == player_id, PuzzleRatingRow.game == game)
    )
    return rows[0] if rows else None


def player_puzzles(store: Store, player_id: str, game: str = "thousand") -> dict[str, Any] | None:
    """The profile's puzzle line of ``game``: the rating and streak, or None before the first rated answer."""
    row = _rating_row(store, player_id, game)
    return None if row is None else {"game": game, **_rating_json(row)}


def _answered(store: Store, player_id: str, game: str) -> set[str]:
    return {
        r.puzzle
        for r in store._read(
            select(PuzzleAnswerRow.puzzle).where(
                PuzzleAnswerRow.player_id == player_id, PuzzleAnswerRow.game == game
            )
        )
    }


def position(game: str, pid: str, puzzles: PuzzleSet[Any] | None = None) -> dict[str, Any]:
    """What the page draws (the game's :attr:`PuzzleGame.position`: the table's view of the position, the
    solver's seat, the theme), never the answer."""
    puzzles = puzzles or puzzle_set(game)
    return {"id": pid, **puzzles.game.position(puzzles.get(pid))}


@router.get("/{game}/next", response_model=None)
async def next_puzzle(game: str, request: Request, response: Response, theme: str | None = None) -> Any:
    """An unanswered puzzle near the player's rating (of ``theme``, one of the themes); ``{"id": null}`` when the
    player has answered them all. A GET makes no player: one without a session gets the starting rating."""
    try:
        mine = served(request, game)
    except PuzzleAnswerError as exc:
        return _refused(exc, 404)
    puzzles = mine.puzzles
    player, stale = players_of(request, _store(request)).current(request)
    if stale:
        clear_cookie(request, response)
    store = _store(request)
    row = None if player is None else _rating_row(store, player.id, game)
    answered = set() if player is None else _answered(store, player.id, game)
    rating = Skill().rating if row is None else row.rating
    try:
        pid = puzzles.pick(rating, theme or None, answered, np.random.default_rng())
    except PuzzleAnswerError as exc:
        return _refused(exc, 400)
    out: dict[str, Any] = {"id": None} if pid is None else position(game, pid, puzzles)
    out["found"] = pid in mine.sources
    out["rating"] = _rating_json(row)
    out["themes"] = list(puzzles.game.themes)
    return out


@router.get("/{game}/{pid}", response_model=None)
async def one_puzzle(game: str, pid: str, request: Request, response: Response) -> Any:
    """One puzzle's position by id (a link to a puzzle: the page opened at ``/puzzles/GAME/ID``), with the
    player's rating as ``next`` gives it; an unknown game or id is 404."""
    try:
        mine = served(request, game)
        out = position(game, pid, mine.puzzles)
    except PuzzleAnswerError as exc:
        return _refused(exc, 404)
    out["found"] = pid in mine.sources
    player, stale = players_of(request, _store(request)).current(request)
    if stale:
        clear_cookie(request, response)
    out["rating"] = _rating_json(None if player is None else _rating_row(_store(request), player.id, game))
    out["themes"] = list(GAMES[game].themes)
    return out


def _record(
    conn: Connection, game: str, player_id: str, pid: str, choice: str, correct: bool, against: float
) -> Any:
    """Rate the player's first answer to ``pid`` (inside the caller's transaction); returns the rating row after
    it and whether this answer was rated."""
    now = time.time()
    ins = (postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert)(PuzzleRatingRow)
    fresh = Skill()
    conn.execute(
        ins.on_conflict_do_nothing(),
        {
            "player_id": player_id,
            "game": game,
            "rating": fresh.rating,
            "rd": fresh.rd,
            "vol": fresh.vol,
            "streak": 0,
            "best_streak": 0,
            "solved": 0,
            "tried": 0,
            "updated": now,
        },
    )
    where = (PuzzleRatingRow.player_id == player_id, PuzzleRatingRow.game == game)
    row = conn.execute(select(PuzzleRatingRow).where(*where).with_for_update()).one()
    new = rate(Skill(row.rating, row.rd, row.vol), against, correct)
    answer = (postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert)(PuzzleAnswerRow)
    went_in = conn.execute(  # a row back only when it went in (rowcount is not reliable here on psycopg)
        answer.on_conflict_do_nothing().returning(PuzzleAnswerRow.puzzle),
        {
            "player_id": player_id,
            "game": game,
            "puzzle": pid,
            "choice": choice,
            "correct": correct,
            "at": now,
            "rating_before": row.rating,
            "rating": new.rating,
        },
    ).first()
    if went_in is None:
        return row, False, row.rating
    streak = row.streak + 1 if correct else 0
    conn.execute(
        update(PuzzleRatingRow)
        .where(*where)
        .values(
            rating=new.rating,
            rd=new.rd,
            vol=new.vol,
            streak=streak,
            best_streak=max(row.best_streak, streak),
            solved=row.solved + int(correct),
            tried=row.tried + 1,
            updated=now,
        )
    )
    return conn.execute(select(PuzzleRatingRow).where(*where)).one(), True, row.rating


@router.post("/{game}/{pid}/answer", response_model=None)
async def answer(game: str, pid: str, request: Request, response: Response) -> Any:
    """``{"choice": MOVE}`` (one of the position's legal moves: Dice 1000 ``bank`` or ``roll``, Clever a move in
    notation) → the verdict, every option's value, the reason, the rating after it."""
    try:
        body = await request.json()
    except ValueError:
        body = None
    choice = body.get("choice") if isinstance(body, dict) else None
    try:
        mine = served(request, game)
        puzzles = mine.puzzles
        p = puzzles.get(pid)
        if not isinstance(choice, str) or len(choice) > MAX_CHOICE:
            raise PuzzleAnswerError(Message(puzzles.game.choice_refusal))
        verdict = puzzles.check(pid, choice)
    except PuzzleAnswerError as exc:
        return _refused(exc, 404 if exc.msgid in ("puzzle.refusal.unknown", "puzzle.refusal.game") else 400)
    store = _store(request)
    player = players_of(request, store).ensure(request, response)
    against = puzzles.rating[pid]
    done: list[Any] = []
    store._transaction(
        lambda conn: done.append(_record(conn, game, player.id, pid, choice, verdict.correct, against))
    )
    row, rated, before = done[-1]  # (a transaction retried on a fresh connection ran twice)
    rating = _rating_json(row)
    return {
        "id": pid,
        "choice": choice,
        "best": verdict.best,
        "correct": verdict.correct,
        "options": verdict.options,
        "margin": round(p.margin, 2),
        "theme": p.theme,
        "why": verdict.why.to_json(),
        "rated": rated,
        "puzzle_rating": round(against),
        "rating": {**rating, "delta": round(row.rating) - round(before) if rated else 0},
        **puzzles.game.verdict_extra(p),
        **_source(mine, pid),
    }


__all__ = ["player_puzzles", "puzzle_id", "router"]
