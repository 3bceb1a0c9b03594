"""Hints and analysis over REST: the server only calls dicehall.core.analysis (work off the event loop)."""

from __future__ import annotations

from contextlib import ExitStack

from webtools import connect, create, latest, pick, play_to_end, tokens


def test_hints_for_the_seat_to_move_when_the_table_allows_them(server):
    with server() as c:
        for _ in range(50):  # the server throws Ann's first dice itself: a bust hands the turn to the bot
            solo = create(c, "thousand", [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "cautious"}])
            tid, (token,) = solo["table_id"], tokens(solo)
            r = c.post(f"/api/tables/{tid}/hints", json={"seat": 0, "token": token})
            if r.status_code == 200:
                break
            assert r.status_code == 409 and "not to move" in r.json()["detail"], r.text
        assert r.status_code == 200, r.text
        h = r.json()
        assert h["seat"] == 0 and h["unit"] == "points" and "not win %" in h["note"]
        assert h["options"] and sum(o["best"] for o in h["options"]) == 1 and h["options"][0]["best"]
        assert {o["move"] for o in h["options"]} <= {"roll", "bank"}
        # the token must hold the seat; a forged body is refused
        assert c.post(f"/api/tables/{tid}/hints", json={"seat": 1, "token": token}).status_code == 403
        assert c.post(f"/api/tables/{tid}/hints", json={"seat": 0, "token": "nope"}).status_code == 403
        assert c.post(f"/api/tables/{tid}/hints", json={"seat": "0", "token": token}).status_code == 422
        assert c.post("/api/tables/nope/hints", json={"seat": 0, "token": token}).status_code == 404
        # between people hints are off
        duel = create(c, "thousand")
        r = c.post(f"/api/tables/{duel['table_id']}/hints", json={"seat": 0, "token": tokens(duel)[0]})
        assert r.status_code == 403 and "two or more people" in r.json()["detail"]


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
