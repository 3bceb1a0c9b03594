"""``GET /api/tables/{id}/verify``: the server checks a table's dice from its record (docs/fair-dice.md).

The answer's ``verdict`` is one of ``ok`` (every roll follows from the committed seed: ``rolls``), ``mismatch``
(the first event that does not: ``event``, what the seed gives ``expected``, what the record says ``recorded``),
``bad_seed`` (the revealed seed is not the one committed to), ``playing`` (the seed is revealed when the game
ends), ``real_dice`` (the players threw their own dice: nothing was drawn) or ``unseeded`` (a table from before
dice fingerprints). Anybody can repeat the check on the downloaded record (``dicehall verify`` or the recipe in
the doc): this endpoint is a convenience, not the proof.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, HTTPException, Request

from dicehall.core.errors import DicehallError
from dicehall.core.fairdice import VerifyError, commitment, verify_record
from dicehall.core.record import GameRecord
from dicehall.web.db import OPEN_STATUSES
from dicehall.web.tables import TableError, TableManager

router = APIRouter(prefix="/api")

_VERDICTS: dict[tuple[str, int, str | None], dict[str, Any]] = {}
KEEP_VERDICTS = 64


def verdict_of(record: GameRecord) -> dict[str, Any]:
    """(In a worker thread.) The check of a record whose seed is revealed, as the endpoint answers it."""
    base = {"commit": record.dice_commit, "seed": record.dice_seed}
    seed, commit = record.dice_seed, record.dice_commit
    if seed is not None and commit is not None and commitment(seed) != commit:
        return {"verdict": "bad_seed", **base}
    try:
        found = verify_record(record)
    except VerifyError:
        return {"verdict": "unseeded", **base}
    except DicehallError as exc:  # a stored log that does not replay: a server fault, said as such
        raise HTTPException(500, f"the record of this table does not replay: {exc}") from None
    if found.mismatch is not None:
        m = found.mismatch
        return {
            "verdict": "mismatch",
            "event": m.event,
            "expected": m.expected,
            "recorded": m.recorded,
            **base,
        }
    return {"verdict": "ok", "rolls": found.rolls, **base}


@router.get("/tables/{table_id}/verify")
async def verify_table(table_id: str, request: Request) -> dict[str, Any]:
    manager: TableManager = request.app.state.manager
    meta = manager.store.get_table(table_id)
    if meta is None:
        raise HTTPException(404, f"there is no table {table_id!r}")
    if meta.dice == "real":
        return {"verdict": "real_dice"}
    if meta.dice_commit is None:
        return {"verdict": "unseeded"}
    if meta.status in OPEN_STATUSES:
        return {"verdict": "playing", "commit": meta.dice_commit}
    try:
        record = manager.record(table_id)
    except TableError as exc:
        raise HTTPException(404, str(exc)) from None
    key = (table_id, len(record.events), record.dice_seed)
    found = _VERDICTS.get(key)
    if found is None:
        found = await asyncio.to_thread(verdict_of, record)
        if len(_VERDICTS) >= KEEP_VERDICTS:
            _VERDICTS.pop(next(iter(_VERDICTS)))
        _VERDICTS[key] = found
    return found
