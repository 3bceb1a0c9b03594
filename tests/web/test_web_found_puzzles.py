"""Puzzles found in games played here (found_puzzles.py): the analyst keeps the positions where a person had a
clearly best choice, once each, with the table and step they came from."""

from __future__ import annotations

import json
from typing import Any

import pytest
from test_web_profile import become, play_games

import dicehall.web.manager as manager_module
from dicehall.core.puzzles import puzzle_id
from dicehall.thousand.found_puzzles import puzzles_in_record
from dicehall.thousand.puzzles import Miner
from dicehall.web.analyst import Analyst
from dicehall.web.db import Store
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
