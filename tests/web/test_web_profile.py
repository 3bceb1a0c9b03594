"""Profiles (profile_api.py) and the analyses stored in the background (analyst.py)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from webtools import connect, create, latest, play_to_end, tokens

from dicehall.core.analysis import analyze
from dicehall.web.analyst import Analyst, analyst_from_env
from dicehall.web.db import SeatRow, Store
from dicehall.web.manager import web_record

ME_AND_BOB: list[dict[str, Any]] = [{"kind": "human", "me": True}, {"kind": "human", "name": "Bob"}]


def become(c: Any, name: str) -> str:
    c.cookies.clear()
    player = c.post("/api/me").json()["player"]
    assert c.put("/api/me/name", json={"name": name}).status_code == 200
    return str(player["id"])


def play_games(c: Any, n: int, seats: list[dict[str, Any]] = ME_AND_BOB) -> list[str]:
    """``n`` games of Dice 1000 played to the end through the websocket; their table ids."""
    out = []
    with connect(c) as ws:
        for _ in range(n):
            t = create(c, "thousand", seats)
            view = play_to_end(ws, latest(ws.join(t["table_id"], tokens(t))))
            assert view["state"]["terminal"]
            out.append(t["table_id"])
    return out


def seat_rows(db_url: str) -> dict[str, list[Any]]:
    store = Store(db_url)
    try:
        rows = store._read(SeatRow.__table__.select().order_by(SeatRow.table_id, SeatRow.seat))
    finally:
        store.close()
    out: dict[str, list[Any]] = {}
    for r in rows:
        out.setdefault(r.table_id, []).append(r)
    return out


def expected_totals(db_url: str, table_id: str) -> list[Any]:
    store = Store(db_url)
    try:
        meta = store.get_table(table_id)
        assert meta is not None
        return analyze(web_record(meta, store.events(table_id))).totals
    finally:
        store.close()


def test_profile_figures_equal_the_records(server: Any, db_url: Any) -> None:
    with server() as c:
        ann = become(c, "Ann")
        games = play_games(c, 3)
        # before the analyst ran: results are there, no figures yet
        before = c.get(f"/api/players/{ann}").json()
        assert before["name"] == "Ann" and before["points"] == []
        analyst = Analyst(db_url)  # the real worker process
        try:
            assert sorted(analyst.run_once()) == sorted(games)
        finally:
            analyst.close()
        p = c.get(f"/api/players/{ann}").json()
        records = {tid: c.get(f"/api/tables/{tid}/record").json() for tid in games}
        wins = sum(1 for r in records.values() if r["result"]["winners"] == [0])
        assert p["games"] == [{"game": "thousand", "played": 3, "wins": wins, "losses": 3 - wins, "draws": 0}]
        assert [g["table_id"] for g in p["last"]] == games[::-1]  # newest first
        for g in p["last"]:
            ann_totals = expected_totals(db_url, g["table_id"])[0]
            assert g["decisions"] == ann_totals.decisions
            assert g["accuracy"] == pytest.approx(ann_totals.mean_loss)
            assert g["luck"] == pytest.approx(ann_totals.luck)
            assert g["result"] == ("win" if records[g["table_id"]]["result"]["winners"] == [0] else "loss")
            assert g["score"] == records[g["table_id"]]["result"]["scores"][0]
            assert [o["name"] for o in g["opponents"]] == ["Bob"]
            assert g["analysis"] == f"/table/{g['table_id']}/analysis"
        assert [pt["accuracy"] for pt in p["points"]] == pytest.approx(
            [g["accuracy"] for g in p["last"][::-1]]
        )
        # Bob's seat is linked to nobody: it is not analysed into any row
        for rows in seat_rows(db_url).values():
            assert rows[1].player_id is None and rows[1].decisions is None


def test_analysis_runs_once_and_is_stored(server: Any, db_url: Any, monkeypatch: Any) -> None:
    with server() as c:
        become(c, "Ann")
        (tid,) = play_games(c, 1)
        solo = create(c, "thousand", ME_AND_BOB)  # unfinished: never analysed
        calls: list[str] = []
        import dicehall.web.analyst as analyst_module

        real = analyze

        def counted(record: Any) -> Any:
            calls.append(record.game_id)
            return real(record)

        monkeypatch.setattr(analyst_module, "analyze", counted)
        analyst = Analyst(db_url, inline=True)  # counted in this process
        try:
            assert analyst.run_once() == [tid]
            assert analyst.run_once() == []  # stored: not taken again
            assert Analyst(db_url, inline=True).run_once() == []  # nor by another process after it
        finally:
            analyst.close()
        assert calls == [tid]
        ann_seat = seat_rows(db_url)[tid][0]
        totals = expected_totals(db_url, tid)[0]
        assert ann_seat.decisions == totals.decisions and ann_seat.accuracy == pytest.approx(totals.mean_loss)
        assert seat_rows(db_url)[solo["table_id"]][0].decisions is None


def test_a_failed_analysis_is_marked_and_not_retried(server: Any, db_url: Any, monkeypatch: Any) -> None:
    with server() as c:
        ann = become(c, "Ann")
        (tid,) = play_games(c, 1)
        import dicehall.web.analyst as analyst_module

        def broken(record: Any) -> Any:
            raise RuntimeError("evaluator exploded")

        monkeypatch.setattr(analyst_module, "analyze", broken)
        analyst = Analyst(db_url, inline=True)
        try:
            assert analyst.run_once() == [tid]
            assert analyst.run_once() == []
        finally:
            analyst.close()
        row = seat_rows(db_url)[tid][0]
        assert (row.decisions, row.accuracy, row.luck) == (0, None, None)
        p = c.get(f"/api/players/{ann}").json()
        assert p["games"][0]["played"] == 1 and p["points"] == [] and p["last"][0]["accuracy"] is None


def test_two_analysts_never_take_one_table(server: Any, db_url: Any, monkeypatch: Any) -> None:
    with server() as c:
        become(c, "Ann")
        games = play_games(c, 4)
        import dicehall.web.analyst as analyst_module

        real = analyze
        calls: list[str] = []
        both_looked = threading.Barrier(2)

        def counted(record: Any) -> Any:
            calls.append(record.game_id)
            return real(record)

        monkeypatch.setattr(analyst_module, "analyze", counted)
        one, two = Analyst(db_url, inline=True), Analyst(db_url, inline=True)
        # both see the same four candidates before either claims one
        for a in (one, two):
            store = a._open()
            looked = store.analysis_candidates

            def candidates(limit: int, stale: float, looked: Any = looked) -> list[str]:
                found: list[str] = looked(limit, stale)
                both_looked.wait(10)
                return found

            monkeypatch.setattr(store, "analysis_candidates", candidates)
        got: dict[str, list[str]] = {}
        threads = [
            threading.Thread(target=lambda a=a, k=k: got.__setitem__(k, a.run_once()))
            for k, a in (("one", one), ("two", two))
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        one.close()
        two.close()
        assert sorted(got["one"] + got["two"]) == sorted(games)
        assert not set(got["one"]) & set(got["two"])
        assert sorted(calls) == sorted(games)  # each analysed once


def test_unknown_player_is_404(server: Any) -> None:
    with server() as c:
        r = c.get("/api/players/nobody00000000")
        assert r.status_code == 404 and "no such player" in r.json()["detail"]
        assert c.get("/api/players/" + "x" * 40).status_code == 404


def test_a_deleted_player_shows_as_deleted(server: Any) -> None:
    with server() as c:
        ann = become(c, "Ann")
        play_games(c, 1)
        r = c.request("DELETE", "/api/me", headers={"Origin": str(c.base_url).rstrip("/")})
        assert r.status_code == 200, r.text
        p = c.get(f"/api/players/{ann}").json()
        assert p["deleted"] is True and p["name"] is None and p["games"][0]["played"] == 1


def test_the_server_analyses_a_game_soon_after_it_ends(monkeypatch: Any, server: Any) -> None:
    monkeypatch.setenv("DICEHALL_ANALYST", "1")  # off in the rest of the suite (tests/conftest.py)
    assert analyst_from_env()
    with server() as c:
        analyst = c.app.state.analyst
        assert analyst is not None
        ann = become(c, "Ann")
        (tid,) = play_games(c, 1)
        # woken by the lobby's "finished" (the next periodic look is 10 s away)
        assert analyst.stored.wait(60) and analyst.done == [tid]
        g = c.get(f"/api/players/{ann}").json()["last"][0]
        assert g["analysed"] and g["accuracy"] is not None
    assert not analyst._thread.is_alive()  # stopped with the server
    monkeypatch.setenv("DICEHALL_ANALYST", "0")
    with server() as c:
        assert c.app.state.analyst is None
