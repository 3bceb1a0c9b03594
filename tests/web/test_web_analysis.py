"""Hints and analysis over REST: the server only calls dicehall.core.analysis (work off the event loop)."""

from __future__ import annotations

from contextlib import ExitStack

import pytest
from webtools import connect, create, latest, pick, play_to_end, tokens, wait_for


def wait_for_seat(c, tid: str, toks: list[str], seat: int) -> None:
    """Until ``seat`` is at a decision (a first roll of no points passes the turn to the other side first)."""
    with connect(c) as ws:

        def ready(msgs: list) -> bool:
            states = [m["state"] for m in msgs if m["type"] in ("event", "snapshot")]
            return bool(states) and states[-1]["current_player"] == seat

        got = ws.join(tid, toks)
        if not ready(got):
            wait_for(ws, ready, timeout=20)


def test_hints_for_the_seat_to_move_when_the_table_allows_them(server):
    with server() as c:
        solo = create(c, "thousand", [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "cautious"}])
        tid, (token,) = solo["table_id"], tokens(solo)
        wait_for_seat(c, tid, [token], 0)
        r = c.post(f"/api/tables/{tid}/hints", json={"seat": 0, "token": token})
        assert r.status_code == 200, r.text
        h = r.json()
        # classic: win % from the table shipped with dicehall (not solved on this fresh server), and the note says so
        assert h["seat"] == 0 and h["unit"] == "win%" and "table shipped" in h["note"]
        assert h["note_id"] == "solve.thousand.shipped_note" and h["note_params"] == {"error": 0.001}
        assert h["options"] and sum(o["best"] for o in h["options"]) == 1 and h["options"][0]["best"]
        assert {o["move"] for o in h["options"]} <= {"roll", "bank"}
        # the token must hold the seat; a forged body is refused
        assert c.post(f"/api/tables/{tid}/hints", json={"seat": 1, "token": token}).status_code == 403
        assert c.post(f"/api/tables/{tid}/hints", json={"seat": 0, "token": "nope"}).status_code == 403
        assert c.post(f"/api/tables/{tid}/hints", json={"seat": "0", "token": token}).status_code == 422
        assert c.post("/api/tables/nope/hints", json={"seat": 0, "token": token}).status_code == 404
        # between people hints are off by default
        duel = create(c, "thousand")
        assert c.get(f"/api/tables/{duel['table_id']}").json()["hints"] is False
        r = c.post(f"/api/tables/{duel['table_id']}/hints", json={"seat": 0, "token": tokens(duel)[0]})
        assert r.status_code == 403 and "hints are off at this table" in r.json()["detail"]


def test_the_hints_option_is_stored_with_the_table_and_obeyed(server):
    with server() as c:
        alone = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "cautious"}]
        assert c.get(f"/api/tables/{create(c, 'thousand', alone)['table_id']}").json()["hints"] is True
        # off against a bot: asked anyway, refused with the reason; nothing else changes
        off = create(c, "thousand", alone, hints=False)
        tid = off["table_id"]
        assert c.get(f"/api/tables/{tid}").json()["hints"] is False
        r = c.post(f"/api/tables/{tid}/hints", json={"seat": 0, "token": tokens(off)[0]})
        assert r.status_code == 403 and "hints are off" in r.json()["detail"]
        # on between people (they agree to it): the seat to move gets its hints
        duel = create(c, "thousand", hints=True)
        assert c.get(f"/api/tables/{duel['table_id']}").json()["hints"] is True
        with connect(c) as ws:
            seat = latest(ws.join(duel["table_id"]))["state"]["current_player"]
        r = c.post(f"/api/tables/{duel['table_id']}/hints", json={"seat": seat, "token": tokens(duel)[seat]})
        assert r.status_code == 200, r.text
        # Clever alone: on by default; the option is game-neutral
        solo = create(c, "clever", [{"kind": "human", "name": "Ann"}])
        assert c.get(f"/api/tables/{solo['table_id']}").json()["hints"] is True
        # forged values are refused and create nothing
        before = len(c.get("/api/tables?status=all").json())
        for bad in ("yes", 1, "on", [True]):
            body = {"game": "thousand", "seats": alone, "hints": bad}
            assert c.post("/api/tables", json=body).status_code == 422, bad
        assert len(c.get("/api/tables?status=all").json()) == before


def test_analysis_of_a_table_record(server):
    with server() as c, ExitStack() as stack:
        t = create(c)
        tid = t["table_id"]
        ws = stack.enter_context(connect(c))
        view = play_to_end(ws, latest(ws.join(tid, tokens(t))))
        r = c.get(f"/api/tables/{tid}/analysis")
        assert r.status_code == 200, r.text
        a = r.json()
        assert a["players"] == ["Ann", "Bob"] and len(a["series"]) == view["seq"] + 1
        assert a["final_scores"] == view["state"]["scores"] and len(a["totals"]) == 2
        assert c.get(f"/api/tables/{tid}/analysis").json() == a  # kept: the same game asked again
        assert c.get("/api/tables/nope/analysis").status_code == 404


def test_the_analysis_carries_each_players_band_and_costliest_decision(server):
    """What the game-over card shows: per player the band of its mean loss (the limits stay on the server) and the
    step of its costliest decision; the table says whether its game is analysed at all."""
    from dicehall.core.proficiency import band

    with server() as c, ExitStack() as stack:
        t = create(c)
        tid = t["table_id"]
        assert c.get(f"/api/tables/{tid}").json()["analysis"] is True
        ws = stack.enter_context(connect(c))
        play_to_end(ws, latest(ws.join(tid, tokens(t))))
        a = c.get(f"/api/tables/{tid}/analysis").json()
        for row in a["totals"]:
            mine = [s for s in a["steps"] if s["kind"] == "decision" and s["seat"] == row["seat"]]
            assert row["mean_loss"] == pytest.approx(
                sum(s["loss"] for s in mine) / len(mine) if mine else 0.0
            )
            assert row["band"] == (band("thousand", a["unit"], row["mean_loss"]) if mine else None)
            lost = [s for s in mine if s["loss"] > 0]
            if lost:
                worst = max(lost, key=lambda s: s["loss"])
                assert row["costliest"] == worst and row["costliest"]["n"] == worst["n"]
            else:
                assert row["costliest"] is None
        wurf = create(c, "wurf")
        assert c.get(f"/api/tables/{wurf['table_id']}").json()["analysis"] is False


def test_analysis_and_positions_wait_for_the_end_of_the_game(server):
    with server() as c, ExitStack() as stack:
        t = create(c)
        tid = t["table_id"]
        ws = stack.enter_context(connect(c))
        latest(ws.join(tid, tokens(t)))
        for path in ("analysis", "positions"):
            r = c.get(f"/api/tables/{tid}/{path}")
            assert r.status_code == 409 and "still being played" in r.json()["detail"]
            assert c.get(f"/api/tables/nope/{path}").status_code == 404
            assert c.get(f"/api/tables/{'x' * 300}/{path}").status_code == 404
            assert c.post(f"/api/tables/{tid}/{path}").status_code == 405


def _view_at(pos: dict, k: int) -> dict:
    view = dict(pos["first"])
    for change in pos["changes"][:k]:
        view.update(change["set"])
        for key, entries in change.get("items", {}).items():
            view[key] = list(view[key])
            for i, value in entries.items():
                view[key][int(i)] = value
        for key in change["drop"]:
            del view[key]
    return view


def test_positions_replay_the_table_as_it_was_shown(server):
    with server() as c, ExitStack() as stack:
        t = create(c)
        tid = t["table_id"]
        ws = stack.enter_context(connect(c))
        shown = {}  # seq -> the view the table sent after that event
        view = latest(ws.join(tid, tokens(t)))
        shown[view["seq"]] = view["state"]
        for _ in range(5000):
            st = view["state"]
            if st["terminal"]:
                break
            for m in ws.act(st["current_player"], view["seq"], pick(st)):
                if m["type"] == "event":
                    shown[m["seq"]] = m["state"]
                    view = m
        r = c.get(f"/api/tables/{tid}/positions")
        assert r.status_code == 200, r.text
        pos = r.json()
        n = view["seq"]
        assert pos["game"] == "thousand" and pos["players"] == ["Ann", "Bob"]
        assert len(pos["changes"]) == len(pos["events"]) == n
        assert [e["seq"] for e in pos["events"]] == list(range(1, n + 1))
        for seq, state in shown.items():
            assert _view_at(pos, seq) == state, seq
        assert _view_at(pos, n)["terminal"] is True
        assert c.get(f"/api/tables/{tid}/positions").json() == pos


def test_finished_games_are_listed_page_by_page(server):
    with server() as c, ExitStack() as stack:
        ws = stack.enter_context(connect(c))
        ids = []
        for _ in range(3):
            t = create(c)
            play_to_end(ws, latest(ws.join(t["table_id"], tokens(t))))
            ids.append(t["table_id"])
        create(c)  # one still in play: never listed as finished
        first = c.get("/api/tables?status=finished&limit=2").json()
        assert [x["table_id"] for x in first] == ids[::-1][:2]
        rest = c.get(f"/api/tables?status=finished&limit=2&before={first[-1]['created']}").json()
        assert [x["table_id"] for x in rest] == ids[:1]
        assert c.get("/api/tables?status=finished&game=clever&game=wurf").json() == []
        assert len(c.get("/api/tables?status=finished&game=thousand").json()) == 3
        for bad in ("-1", "soon", "1e300"):
            assert c.get(f"/api/tables?status=finished&before={bad}").status_code == 422, bad
