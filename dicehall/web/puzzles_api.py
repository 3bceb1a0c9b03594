"""Dice 1000 puzzles on the web (the page ``/puzzles/thousand``; docs/puzzles.md, docs/web-protocol.md).

``GET /api/puzzles/thousand/next?theme=…`` draws an unanswered puzzle near the player's puzzle rating and sends
the position only (the table's public view, the theme), never the answer. ``POST /api/puzzles/thousand/{id}/
answer`` checks the choice on the server, against the shipped puzzle, and answers with the verdict, every
option's win %, the reason and the rating. A player's first answer to a puzzle is rated (Glicko-2 against the
puzzle, thousand/puzzle_play.py) in one transaction: the rating row is made if missing and locked, then the
answer is inserted, and only an answer that went in (the primary key holds one per player and puzzle) moves the
rating and the streak; a later one is answered alike but marked ``rated: false``.
"""

from __future__ import annotations

import dataclasses
import functools
import time
from typing import Any

import numpy as np
from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from sqlalchemy import select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from dicehall.core.errors import DicehallError
from dicehall.i18n.message import Message
from dicehall.thousand.puzzle_play import (
    PuzzleAnswerError,
    PuzzleSet,
    Skill,
    check,
    puzzle_id,
    rate,
)
from dicehall.thousand.puzzles import THEMES
from dicehall.web.db import PuzzleAnswerRow, PuzzleRatingRow, Store
from dicehall.web.players import clear_cookie, players_of

router = APIRouter(prefix="/api/puzzles")
GAME = "thousand"
MAX_CHOICE = 16


@functools.cache
def puzzle_set() -> PuzzleSet:
    """The shipped puzzles, loaded once per process (about half a second)."""
    return PuzzleSet()


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


def _rating_row(store: Store, player_id: str) -> Any | None:
    rows = store._read(
        select(PuzzleRatingRow).where(PuzzleRatingRow.player_id == player_id, PuzzleRatingRow.game == GAME)
    )
    return rows[0] if rows else None


def player_puzzles(store: Store, player_id: str) -> dict[str, Any] | None:
    """The profile's puzzle line: the rating and streak, or None before the first rated answer."""
    row = _rating_row(store, player_id)
    return None if row is None else {"game": GAME, **_rating_json(row)}


def _answered(store: Store, player_id: str) -> set[str]:
    return {
        r.puzzle
        for r in store._read(
            select(PuzzleAnswerRow.puzzle).where(
                PuzzleAnswerRow.player_id == player_id, PuzzleAnswerRow.game == GAME
            )
        )
    }


def position(pid: str) -> dict[str, Any]:
    """What the page draws: the table's public view of the position, whose seat is the solver's, the theme."""
    p = puzzle_set().get(pid)
    s = p.state()
    rules = {k: list(v) if isinstance(v, tuple) else v for k, v in dataclasses.asdict(s.rules).items()}
    return {"id": pid, "theme": p.theme, "mover": s.player, "view": s.public_view(), "rules": rules}


@router.get(f"/{GAME}/next", response_model=None)
async def next_puzzle(request: Request, response: Response, theme: str | None = None) -> Any:
    """An unanswered puzzle near the player's rating (of ``theme``, one of the themes); ``{"id": null}`` when the
    player has answered them all. A GET makes no player: one without a session gets the starting rating."""
    player, stale = players_of(request, _store(request)).current(request)
    if stale:
        clear_cookie(request, response)
    store = _store(request)
    row = None if player is None else _rating_row(store, player.id)
    answered = set() if player is None else _answered(store, player.id)
    rating = Skill().rating if row is None else row.rating
    try:
        pid = puzzle_set().pick(rating, theme or None, answered, np.random.default_rng())
    except PuzzleAnswerError as exc:
        return _refused(exc, 400)
    out: dict[str, Any] = {"id": None} if pid is None else position(pid)
    out["rating"] = _rating_json(row)
    out["themes"] = list(THEMES)
    return out


@router.get(f"/{GAME}/{{pid}}", response_model=None)
async def one_puzzle(pid: str, request: Request, response: Response) -> Any:
    """One puzzle's position by id (a link to a puzzle: the page opened at ``/puzzles/thousand/ID``), with the
    player's rating as ``next`` gives it; an unknown id is 404."""
    try:
        out = position(pid)
    except PuzzleAnswerError as exc:
        return _refused(exc, 404)
    player, stale = players_of(request, _store(request)).current(request)
    if stale:
        clear_cookie(request, response)
    out["rating"] = _rating_json(None if player is None else _rating_row(_store(request), player.id))
    out["themes"] = list(THEMES)
    return out


def _record(conn: Connection, player_id: str, pid: str, choice: str, correct: bool, against: float) -> Any:
    """Rate the player's first answer to ``pid`` (inside the caller's transaction); returns the rating row after
    it and whether this answer was rated."""
    now = time.time()
    ins = (postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert)(PuzzleRatingRow)
    fresh = Skill()
    conn.execute(
        ins.on_conflict_do_nothing(),
        {
            "player_id": player_id,
            "game": GAME,
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
    where = (PuzzleRatingRow.player_id == player_id, PuzzleRatingRow.game == GAME)
    row = conn.execute(select(PuzzleRatingRow).where(*where).with_for_update()).one()
    new = rate(Skill(row.rating, row.rd, row.vol), against, correct)
    answer = (postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert)(PuzzleAnswerRow)
    went_in = conn.execute(  # a row back only when it went in (rowcount is not reliable here on psycopg)
        answer.on_conflict_do_nothing().returning(PuzzleAnswerRow.puzzle),
        {
            "player_id": player_id,
            "game": GAME,
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


@router.post(f"/{GAME}/{{pid}}/answer", response_model=None)
async def answer(pid: str, request: Request, response: Response) -> Any:
    """``{"choice": "bank" | "roll"}`` → the verdict, every option's win %, the reason, the rating after it."""
    try:
        body = await request.json()
    except ValueError:
        body = None
    choice = body.get("choice") if isinstance(body, dict) else None
    try:
        p = puzzle_set().get(pid)
        if not isinstance(choice, str) or len(choice) > MAX_CHOICE:
            raise PuzzleAnswerError(Message("puzzle.refusal.choice"))
        verdict = check(p, choice)
    except PuzzleAnswerError as exc:
        return _refused(exc, 404 if exc.msgid == "puzzle.refusal.unknown" else 400)
    store = _store(request)
    player = players_of(request, store).ensure(request, response)
    against = puzzle_set().rating[pid]
    done: list[Any] = []
    store._transaction(
        lambda conn: done.append(_record(conn, player.id, pid, choice, verdict.correct, against))
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
        "total": p.state().turn_total,
        "dice": p.state().in_hand,
    }


__all__ = ["player_puzzles", "puzzle_id", "router"]
