"""Puzzles found in games played here (found_puzzles.py): the analyst keeps the positions where a person had a
clearly best choice, once each, with the table and step they came from."""

from __future__ import annotations

import json
import time
from dataclasses import asdict
from typing import Any

import pytest
from test_web_profile import become, play_games

import dicehall.web.manager as manager_module
from dicehall.core.puzzles import puzzle_id
from dicehall.thousand.found_puzzles import puzzles_in_record
from dicehall.thousand.puzzles import Miner
from dicehall.web.analyst import Analyst
from dicehall.web.db import FoundPuzzle, FoundPuzzleRow, Store
from dicehall.web.manager import web_record


@pytest.fixture(autouse=True)
def fixed_dice(monkeypatch: Any) -> None:
    """The tables' dice seeds in a fixed order, so the games (and the puzzles in them) are the same every run."""
    seeds = iter(f"{k:064x}" for k in range(1000, 2000))
    monkeypatch.setattr(manager_module, "new_seed", lambda: next(seeds))


def stored(db_url: str, game: str = "thousand") -> list[Any]:
    store = Store(db_url)
    try:
        return store.found_puzzles(game)
    finally:
        store.close()


def test_the_analyst_keeps_the_puzzles_a_person_met(server: Any, db_url: Any) -> None:
    with server() as c:
        become(c, "Ann")
        games = play_games(c, 2)
        analyst = Analyst(db_url)  # the real worker process
        try:
            assert sorted(analyst.run_once()) == sorted(games)
        finally:
            analyst.close()
        rows = stored(db_url)
        store = Store(db_url)
        try:
            expected = []
            for tid in games:
                meta = store.get_table(tid)
                assert meta is not None
                record = web_record(meta, store.events(tid))
                expected += [
                    (puzzle_id(f.puzzle), f.puzzle.to_json(), tid, f.step)
                    for f in puzzles_in_record(record, [0], Miner())
                ]
        finally:
            store.close()
        assert expected  # the games hold puzzles of Ann's
        assert sorted((r.puzzle, json.loads(r.body), r.table_id, r.step) for r in rows) == sorted(expected)
        assert all(
            json.loads(r.body)["start"]["to_move"] == 0 for r in rows
        )  # Ann's decisions only (Bob is nobody)


def test_the_puzzle_page_serves_them_and_links_the_game(server: Any, db_url: Any) -> None:
    with server() as c:
        become(c, "Ann")
        games = play_games(c, 2)
        shipped = c.get("/api/puzzles/thousand/next").json()
        assert shipped["found"] is False
        analyst = Analyst(db_url, inline=True)
        try:
            analyst.run_once()
        finally:
            analyst.close()
        rows = stored(db_url)
        assert rows
        for r in rows:
            pos = c.get(f"/api/puzzles/thousand/{r.puzzle}")
            assert pos.status_code == 200 and pos.json()["found"] is True
            best = json.loads(r.body)["best"]
            v = c.post(f"/api/puzzles/thousand/{r.puzzle}/answer", json={"choice": best}).json()
            assert v["correct"] and v["source"] == {"table": r.table_id, "step": r.step + 1}
            assert r.table_id in games
        v = c.post(f"/api/puzzles/thousand/{shipped['id']}/answer", json={"choice": "bank"}).json()
        assert "source" not in v  # a shipped puzzle names no game
    with server() as again:  # a new server on the same database serves them from the start
        assert again.get(f"/api/puzzles/thousand/{rows[0].puzzle}").status_code == 200


def test_a_found_puzzle_that_does_not_read_is_passed_over(server: Any, db_url: Any) -> None:
    with server() as c:
        become(c, "Ann")
        (tid,) = play_games(c, 1)
        analyst = Analyst(db_url, inline=True)
        try:
            analyst.run_once()
        finally:
            analyst.close()
        good = stored(db_url)
        assert good
        store = Store(db_url)
        try:
            bad = [
                FoundPuzzle("thousand", "0123456789ab", "{not json", 3, 0),
                FoundPuzzle("thousand", "ba9876543210", good[0].body, 3, 0),  # a body under another id
            ]
            store._transaction(
                lambda conn: conn.execute(
                    FoundPuzzleRow.__table__.insert(),
                    [asdict(b) | {"table_id": tid, "found": time.time()} for b in bad],
                )
            )
        finally:
            store.close()
        for b in bad:
            r = c.get(f"/api/puzzles/thousand/{b.puzzle}")
            assert r.status_code == 404 and r.json()["msgid"] == "puzzle.refusal.unknown"
        assert all(c.get(f"/api/puzzles/thousand/{g.puzzle}").status_code == 200 for g in good)
