"""REST routes for hints and analysis: the server only calls :mod:`dicehall.core.analysis` (no game branches).

- ``POST /api/tables/{id}/hints`` with ``{"seat": n, "token": "..."}``: the hints of the seat to move, for the
  holder of that seat's token, when the table allows hints (``auto``: at most one person at the table — alone or
  against bots; between people they are off).
- ``GET /api/tables/{id}/analysis``: the analysis of a finished (or abandoned) table's record (as
  ``dicehall analyze --json``); refused while the game is played, so it never serves as hints between people.
- ``GET /api/tables/{id}/positions``: the public view after every event of a finished (or abandoned) table, for the
  replay (delta-coded: the first view whole, then per event only the fields that changed).

Evaluators can take a moment to build (a table to load, a kernel to compile) and analyses to run, so both run in a
worker thread on a copy of the position or record taken on the event loop: the loop never waits for them. The
server also makes them before anybody asks (:mod:`dicehall.web.warmup`): the evaluators at start and when a table
opens, a finished table's analysis and replay as it ends; :func:`prepare`, :func:`table_analysis_of` and
:func:`table_positions_of` are what both use.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import numpy as np
from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from dicehall.core.analysis import analyze, evaluator_for, has_evaluator, has_hints, hints, position_hints
from dicehall.core.errors import DicehallError
from dicehall.core.game import CHANCE, get_game
from dicehall.core.record import GameRecord, apply_event, new_state
from dicehall.core.rules import RuleSet
from dicehall.web.forward import forward_request
from dicehall.web.live import page_view, seat_names
from dicehall.web.manager import WebRecord
from dicehall.web.owners import Elsewhere
from dicehall.web.players import players_of
from dicehall.web.tables import TableError, TableManager

router = APIRouter(prefix="/api")
_EVALUATING = threading.Lock()
"""Evaluators keep scratch arrays (and bot:master its own): one hint or analysis at a time per process."""
_REPLAYING = threading.Lock()
"""One replay of a table at a time: a second request for it waits and finds it made."""
_ANALYSES: dict[tuple[str, int], dict[str, Any]] = {}
_POSITIONS: dict[tuple[str, int], dict[str, Any]] = {}
KEEP_ANALYSES = 32
"""Analyses (and replays) kept by (table, events): asking again for the same game costs nothing."""
OVER = ("finished", "abandoned")


class HintRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    seat: int = Field(ge=0, le=63)
    token: str | None = Field(
        default=None,
        min_length=1,
        max_length=200,
        description="none: the seat linked to the request's player",
    )


def _manager(request: Request) -> TableManager:
    manager: TableManager = request.app.state.manager
    return manager


def _refuse(status: int, message: str) -> HTTPException:
    return HTTPException(status, message)


@router.post("/tables/{table_id}/hints", response_model=None)
async def table_hints(table_id: str, body: HintRequest, request: Request) -> dict[str, Any] | Response:
    manager = _manager(request)
    players = players_of(request, manager.store)
    player = None if body.token else players.current(request)[0]
    try:
        table = manager.get(table_id)
        if body.token:
            held = manager.seats_for_tokens(table, [body.token])
        else:  # a seat resumed through the player ("Your games"), no token in this browser
            held = manager.seats_of_player(table, player)
    except Elsewhere as moved:  # another server process owns the table (forward.py)
        who = players.forward_header(player)
        return await forward_request(request, moved.url, body.model_dump(mode="json"), who)
    except TableError as exc:
        raise _refuse(404 if exc.code == "no_such_table" else 403, str(exc)) from None
    if body.seat not in held:
        raise _refuse(403, f"you do not hold seat {body.seat} (seats held: {held or 'none'})")
    if not has_hints(table.meta.game):
        raise _refuse(400, f"{table.game.title} has no hints")
    if not table.hints_allowed:
        raise _refuse(
            403, "hints are off at this table (its creator chose so); the analysis opens after the game"
        )
    tog = table.together
    # a seat choosing at once with others (Clever's passive players) is weighed on its own branch
    state = tog.branches[body.seat] if tog is not None and body.seat in tog.group else table.state
    if state.current_player() != body.seat:
        raise _refuse(409, f"seat {body.seat} is not to move now")
    position = state.clone()
    rules, seats = table.rules, len(table.seats)

    def work() -> dict[str, Any]:
        with _EVALUATING:
            return position_hints(table.meta.game, rules, seats, position).to_json()

    try:
        return await asyncio.to_thread(work)
    except DicehallError as exc:
        raise _refuse(400, str(exc)) from None


@router.get("/warm-up")
async def warm_up_state(request: Request) -> dict[str, Any]:
    """Whether this process makes evaluators and analyses ahead (warmup.py) and has nothing left to make now."""
    warmer = getattr(request.app.state, "warmer", None)
    return {"on": warmer is not None, "idle": warmer is None or warmer.idle.is_set()}


def _finished_record(request: Request, table_id: str) -> WebRecord:
    """The record of a table whose game is over (finished or closed by the server); 404 / 409 otherwise."""
    manager = _manager(request)
    meta = manager.store.get_table(table_id)
    if meta is None:
        raise _refuse(404, f"there is no table {table_id!r}")
    if meta.status not in OVER:
        raise _refuse(409, "the game at this table is still being played; its analysis opens when it ends")
    try:
        return manager.record(table_id)
    except TableError as exc:
        raise _refuse(404, str(exc)) from None


def _keep(cache: dict[tuple[str, int], dict[str, Any]], key: tuple[str, int], value: dict[str, Any]) -> None:
    if len(cache) >= KEEP_ANALYSES:
        cache.pop(next(iter(cache)))
    cache[key] = value


def prepare(game: str, rules: RuleSet, num_players: int) -> None:
    """(In a worker thread.) Make the evaluator hints and analyses of these rules use, and weigh one position with it,
    so that its tables are loaded and its compiled code is in memory before the first request."""
    with _EVALUATING:
        evaluator = evaluator_for(game, rules, num_players)
        state = get_game(game).new_initial_state(rules, num_players)
        rng = np.random.default_rng(0)
        while state.current_player() == CHANCE:
            state.apply_action(state.sample_chance(rng))
        if not state.is_terminal():
            hints(evaluator, state)


def table_analysis_of(table_id: str, record: GameRecord) -> dict[str, Any]:
    """(In a worker thread.) The analysis of a finished table's record, made once (kept by table and length)."""
    key = (table_id, len(record.events))
    with _EVALUATING:
        found = _ANALYSES.get(key)
        if found is None:
            found = analyze(record).to_json()
            _keep(_ANALYSES, key, found)
    return found


def table_positions_of(table_id: str, record: GameRecord) -> dict[str, Any]:
    """(In a worker thread.) Every position of a finished table's record for the replay, made once."""
    key = (table_id, len(record.events))
    with _REPLAYING:
        found = _POSITIONS.get(key)
        if found is None:
            found = positions(record)
            _keep(_POSITIONS, key, found)
    return found


@router.get("/tables/{table_id}/analysis")
async def table_analysis(table_id: str, request: Request) -> dict[str, Any]:
    record = _finished_record(request, table_id)
    if not has_evaluator(record.game):
        raise _refuse(400, f"there is no analysis for {record.game}")
    found = _ANALYSES.get((table_id, len(record.events)))
    if found is not None:
        return found
    try:
        return await asyncio.to_thread(table_analysis_of, table_id, record)
    except DicehallError as exc:  # a record that does not replay, or an AnalysisError
        raise _refuse(400, str(exc)) from None


def _change(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """What turns view ``before`` into ``after``: ``set`` (fields with their new value), ``drop`` (fields gone) and
    ``items`` (for a list field of the same length, only its changed entries by index: one player's sheet of
    four)."""
    changed: dict[str, Any] = {}
    items: dict[str, dict[int, Any]] = {}
    for key, value in after.items():
        old = before.get(key)
        if key in before and old == value:
            continue
        if isinstance(value, list) and isinstance(old, list) and len(old) == len(value) > 1:
            items[key] = {i: v for i, (o, v) in enumerate(zip(old, value, strict=True)) if o != v}
        else:
            changed[key] = value
    out: dict[str, Any] = {"set": changed, "drop": [k for k in before if k not in after]}
    if items:
        out["items"] = items
    return out


def positions(record: GameRecord) -> dict[str, Any]:
    """Every position of a record as the table showed it (public views with the names), delta-coded: ``first`` is
    the view before any event, ``changes[k]`` turns the view after ``k`` events into the one after ``k + 1`` (see
    :func:`_change`). Views repeat large unchanging parts (a Clever sheet's printed layout, the other players'
    sheets), so this keeps a long game small."""
    _, state = new_state(record)
    # a default name of the record ("Player 2") narrates as seat.player: each page words it in its own language
    names = seat_names([{"kind": "human", "name": str(p["name"])} for p in record.players])
    state.set_names(names)

    def view() -> dict[str, Any]:
        v = page_view(state, names)
        v["dice_mode"] = "rolled"  # a replay is watched, never entered
        return v

    first = previous = view()
    changes: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = []
    for number, event in enumerate(record.events, start=1):
        apply_event(state, event, number)
        now = view()
        changes.append(_change(previous, now))
        events.append({"seq": number, "actor": event.actor, "move": event.move})
        previous = now
    return {"game": record.game, "players": names, "first": first, "changes": changes, "events": events}


@router.get("/tables/{table_id}/positions")
async def table_positions(table_id: str, request: Request) -> dict[str, Any]:
    record = _finished_record(request, table_id)
    found = _POSITIONS.get((table_id, len(record.events)))
    if found is not None:
        return found
    try:
        return await asyncio.to_thread(table_positions_of, table_id, record)
    except DicehallError as exc:  # a log that does not replay
        raise _refuse(400, str(exc)) from None
