"""Clever puzzles found in solo games played here (found_puzzles.py): the analyst's real worker keeps the
positions where the person had a clearly best choice by the miner's own judging, and the puzzle page serves them
with the game they came from."""

from __future__ import annotations

import json
from typing import Any

import pytest
from test_web_found_puzzles import stored
from test_web_profile import become
from webtools import connect, create, latest, play_to_end, tokens

import dicehall.web.manager as manager_module
from dicehall.clever.found_puzzles import puzzles_in_record
from dicehall.clever.puzzles import Miner
from dicehall.core.puzzles import puzzle_id
from dicehall.web.analyst import Analyst
from dicehall.web.db import Store
from dicehall.web.manager import web_record
from dicehall.web.puzzles_api import puzzle_set

ME_ALONE: list[dict[str, Any]] = [{"kind": "human", "me": True}]


@pytest.fixture(autouse=True)
def fixed_dice(monkeypatch: Any) -> None:
    """The tables' dice seeds in a fixed order, so the games (and the puzzles in them) are the same every run."""
    seeds = iter(f"{k:064x}" for k in range(3000, 4000))
    monkeypatch.setattr(manager_module, "new_seed", lambda: next(seeds))


def play_solo(c: Any, seats: list[dict[str, Any]] = ME_ALONE) -> str:
    """A solo Clever game played to the end through the websocket (the first legal choice each time)."""
    t = create(c, "clever", seats)
    with connect(c) as ws:
        assert play_to_end(ws, latest(ws.join(t["table_id"], tokens(t))))["state"]["terminal"]
    return str(t["table_id"])


def expected(db_url: str, tid: str) -> list[tuple[str, Any, str, int]]:
    store = Store(db_url)
    try:
        meta = store.get_table(tid)
        assert meta is not None
        record = web_record(meta, store.events(tid))
    finally:
        store.close()
    return [
        (puzzle_id(f.puzzle), f.puzzle.to_json(), tid, f.step)
        for f in puzzles_in_record(record, [0], Miner())
    ]


def test_the_analyst_keeps_the_clever_puzzles_a_person_met_and_the_page_serves_them(
    server: Any, db_url: Any
) -> None:
    with server() as c:
        become(c, "Ann")
        tid = play_solo(c)
        nobody = play_solo(c, [{"kind": "human", "name": "Guest"}])  # no player's seat: not analysed
        shipped = c.get("/api/puzzles/clever/next").json()
        assert shipped["found"] is False
        analyst = Analyst(db_url)  # the real worker process
        try:
            assert analyst.run_once() == [tid]
        finally:
            analyst.close()
        rows = stored(db_url, "clever")
        want = expected(db_url, tid)
        assert len(want) >= 2  # the game holds puzzles of Ann's
        assert sorted((r.puzzle, json.loads(r.body), r.table_id, r.step) for r in rows) == sorted(want)
        assert all(r.table_id != nobody for r in rows)
        for r in rows:
            pos = c.get(f"/api/puzzles/clever/{r.puzzle}")
            assert pos.status_code == 200 and pos.json()["found"] is True
            best = json.loads(r.body)["best"]
            v = c.post(f"/api/puzzles/clever/{r.puzzle}/answer", json={"choice": best}).json()
            assert v["correct"] and v["source"] == {"table": tid, "step": r.step + 1}
        best = puzzle_set("clever").get(shipped["id"]).best
        v = c.post(f"/api/puzzles/clever/{shipped['id']}/answer", json={"choice": best}).json()
        assert v["correct"] and "source" not in v  # a shipped puzzle names no game
    with server() as again:  # a new server on the same database serves them from the start
        assert again.get(f"/api/puzzles/clever/{rows[0].puzzle}").status_code == 200
