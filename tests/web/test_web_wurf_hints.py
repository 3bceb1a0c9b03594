"""Der große Wurf hints over REST: the same route as the other games, answered with the map of the arena."""

from __future__ import annotations

from test_web_analysis import wait_for_seat
from webtools import create, tokens

from dicehall.wurf.hints import GRID


def test_the_seat_to_throw_gets_the_map_and_the_best_throw(server) -> None:  # type: ignore[no-untyped-def]
    with server() as c:
        t = create(c, "wurf", [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "expert"}])
        tid, (token,) = t["table_id"], tokens(t)
        assert c.get(f"/api/tables/{tid}").json()["hints"] is True  # alone against a bot: on
        wait_for_seat(c, tid, [token], 0)
        r = c.post(f"/api/tables/{tid}/hints", json={"seat": 0, "token": token})
        assert r.status_code == 200, r.text
        h = r.json()
        assert h["seat"] == 0 and h["unit"] == "dice" and h["note_id"] == "wurf.hint.note"
        assert h["options"][0]["best"] and sum(o["best"] for o in h["options"]) == 1
        m = h["map"]
        assert m["grid"] == GRID and len(m["values"]) == GRID and all(len(row) == GRID for row in m["values"])
        assert 0 <= m["best"]["x"] <= m["arena_mm"] and 0 <= m["best"]["y"] <= m["arena_mm"]
        assert (
            m["low"] <= m["best"]["value"]
            and m["best"]["value"] >= max(max(row) for row in m["values"]) - 0.006
        )
        best_throw = next(o for o in h["options"] if o["move"].startswith("throw "))
        assert (
            best_throw["value"] == m["best"]["value"] or abs(best_throw["value"] - m["best"]["value"]) < 1e-3
        )
        # asked again for the same position: the same answer (a seed fixed by the position)
        assert c.post(f"/api/tables/{tid}/hints", json={"seat": 0, "token": token}).json() == h
        assert c.post(f"/api/tables/{tid}/hints", json={"seat": 1, "token": token}).status_code == 403


def test_a_wurf_table_without_hints_refuses_them(server) -> None:  # type: ignore[no-untyped-def]
    with server() as c:
        alone = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "expert"}]
        off = create(c, "wurf", alone, hints=False)
        wait_for_seat(c, off["table_id"], tokens(off), 0)
        r = c.post(f"/api/tables/{off['table_id']}/hints", json={"seat": 0, "token": tokens(off)[0]})
        assert r.status_code == 403 and "hints are off at this table" in r.json()["detail"]
        duel = create(c, "wurf")  # two people: off unless they choose it
        assert c.get(f"/api/tables/{duel['table_id']}").json()["hints"] is False
