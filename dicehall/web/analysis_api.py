"""REST routes for hints and analysis: the server only calls :mod:`dicehall.core.analysis` (no game branches).

- ``POST /api/tables/{id}/hints`` with ``{"seat": n, "token": "..."}``: the hints of the seat to move, for the
  holder of that seat's token, when the table allows hints (``auto``: at most one person at the table — alone or
  against bots; between people they are off).
- ``GET /api/tables/{id}/analysis``: the analysis of the table's record (as ``dicehall analyze --json``).

Evaluators can take a moment to build (a table to load, a kernel to compile) and analyses to run, so both run in a
worker thread on a copy of the position or record taken on the event loop: the loop never waits for them.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from dicehall.core.analysis import analyze, evaluator_for, has_evaluator, hints
from dicehall.core.analysis_cli import hints_allowed
from dicehall.core.errors import DicehallError
from dicehall.web.forward import forward_request
from dicehall.web.owners import Elsewhere
from dicehall.web.tables import TableError, TableManager

router = APIRouter(prefix="/api")
_EVALUATING = threading.Lock()
"""Evaluators keep scratch arrays (and bot:master its own): one hint or analysis at a time per process."""
_ANALYSES: dict[tuple[str, int], dict[str, Any]] = {}
KEEP_ANALYSES = 32
"""Analyses kept by (table, events): asking again for the same position of a game costs nothing."""


class HintRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    seat: int = Field(ge=0, le=63)
    token: str = Field(min_length=1, max_length=200)


def _manager(request: Request) -> TableManager:
    manager: TableManager = request.app.state.manager
    return manager


def _refuse(status: int, message: str) -> HTTPException:
    return HTTPException(status, message)


@router.post("/tables/{table_id}/hints", response_model=None)
async def table_hints(table_id: str, body: HintRequest, request: Request) -> dict[str, Any] | Response:
    manager = _manager(request)
    try:
        table = manager.get(table_id)
        held = manager.seats_for_tokens(table, [body.token])
    except Elsewhere as moved:  # another server process owns the table (forward.py)
        return await forward_request(request, moved.url, body.model_dump(mode="json"))
    except TableError as exc:
        raise _refuse(404 if exc.code == "no_such_table" else 403, str(exc)) from None
    if body.seat not in held:
        raise _refuse(403, f"that token holds seat {held[0]}, not seat {body.seat}")
    if not has_evaluator(table.meta.game):
        raise _refuse(400, f"{table.game.title} has no hints")
    humans = sum(1 for s in table.seats if s["kind"] == "human")
    if not hints_allowed("auto", humans):
        raise _refuse(403, "hints are off at this table: two or more people play")
    state = table.state
    if state.current_player() != body.seat:
        raise _refuse(409, f"seat {body.seat} is not to move now")
    position = state.clone()
    rules, seats = table.rules, len(table.seats)

    def work() -> dict[str, Any]:
        with _EVALUATING:
            return hints(evaluator_for(table.meta.game, rules, seats), position).to_json()

    try:
        return await asyncio.to_thread(work)
    except DicehallError as exc:
        raise _refuse(400, str(exc)) from None


@router.get("/tables/{table_id}/analysis")
async def table_analysis(table_id: str, request: Request) -> dict[str, Any]:
    try:
        record = _manager(request).record(table_id)
    except TableError as exc:
        raise _refuse(404, str(exc)) from None
    if not has_evaluator(record.game):
        raise _refuse(400, f"there is no analysis for {record.game}")
    key = (table_id, len(record.events))
    if key in _ANALYSES:
        return _ANALYSES[key]

    def work() -> dict[str, Any]:
        with _EVALUATING:
            return analyze(record).to_json()

    try:
        result = await asyncio.to_thread(work)
    except DicehallError as exc:  # a record that does not replay, or an AnalysisError
        raise _refuse(400, str(exc)) from None
    if len(_ANALYSES) >= KEEP_ANALYSES:
        _ANALYSES.pop(next(iter(_ANALYSES)))
    _ANALYSES[key] = result
    return result
