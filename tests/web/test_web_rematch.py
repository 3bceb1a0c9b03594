"""Rematch (issue 23, docs/players-design.md step 5): one request makes the new table with the same rules, dice,
hints and bots, the seats rotated; the other person accepts with one request; pages of the old table hear it."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from webtools import connect, create, latest, tokens, wait_for

HUMANS = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]


def finished(c: TestClient, seats: list[dict[str, Any]] | None = None, **extra: Any) -> dict[str, Any]:
    """A tinytest table played to its end by one connection holding every human seat."""
    table = create(c, game="tinytest", seats=seats or HUMANS, **extra)
    bots = {i for i, s in enumerate(seats or HUMANS) if s["kind"] == "bot"}
    with connect(c) as ws:
        view = latest(ws.join(table["table_id"], tokens(table)))
        for _ in range(2000):
            st = view["state"]
            if st["terminal"]:
                break
            if st["current_player"] in bots:  # the bot moves on its own: wait for its event
                view = latest(
                    wait_for(ws, lambda got, seq=view["seq"]: any(m.get("seq", 0) > seq for m in got))
                )
            else:
                move = (
                    "stop"
                    if "stop" in st["legal_actions"] and st["turn_total"] >= 6
                    else st["legal_actions"][0]
                )
                view = latest(ws.act(st["current_player"], view["seq"], move))
    assert c.get(f"/api/tables/{table['table_id']}").json()["status"] == "finished"
    return table


def offer(c: TestClient, table: dict[str, Any], seats: list[int]) -> Any:
    held = {s["seat"]: s["token"] for s in table["seats"] if s["seat"] in seats}
    return c.post(f"/api/tables/{table['table_id']}/rematch", json={"tokens": held})


def test_rematch_rotates_seats_and_copies_rules_bots_dice_hints(server) -> None:
    with server() as c:
        seats = [
            {"kind": "human", "name": "Ann"},
            {"kind": "bot", "bot": "greedy"},
            {"kind": "human", "name": "Bob"},
        ]
        old = finished(c, seats, preset="short", hints=False)
        r = offer(c, old, [0])
        assert r.status_code == 200, r.text
        answer = r.json()
        assert answer["ready"] is False and list(answer["tokens"]) == ["2"]  # Ann moves from first to last
        new = c.get(f"/api/tables/{answer['table_id']}").json()
        was = c.get(f"/api/tables/{old['table_id']}").json()
        assert (new["game"], new["preset"], new["dice"], new["hints"]) == (
            was["game"],
            was["preset"],
            was["dice"],
            was["hints"],
        )
        assert new["overrides"] == was["overrides"]
        assert [(s["name"], s["kind"]) for s in new["seats"]] == [
            ("bot:greedy", "bot"),
            ("Bob", "human"),
            ("Ann", "human"),
        ]
        assert new["status"] == "waiting" and new["seats"][1]["claimed"] is False
        assert new["seats"][1]["reserved"] is True  # kept for Bob: not a free seat for strangers
        assert was["rematch"] == {"new_table": answer["table_id"], "by": 0, "accepted": [0], "ready": False}


def test_the_other_player_accepts_and_pages_of_the_old_table_hear_it(server) -> None:
    with server() as c:
        old = finished(c)
        bob = TestClient(c.app)  # another browser, holding seat 1 by its token
        with connect(bob) as ws:
            ws.join(old["table_id"], [old["seats"][1]["token"]])
            first = offer(c, old, [0]).json()
            heard = [m for m in ws.drain() if m["type"] == "rematch"]
            assert heard == [
                {
                    "type": "rematch",
                    "table": old["table_id"],
                    "new_table": first["table_id"],
                    "by": 0,
                    "accepted": [0],
                    "ready": False,
                }
            ]
            second = offer(bob, old, [1]).json()
            assert second["table_id"] == first["table_id"] and second["ready"] is True
            assert list(second["tokens"]) == ["0"]  # Bob moves up to first
            heard = [m for m in ws.drain() if m["type"] == "rematch"]
            assert heard[-1]["accepted"] == [0, 1] and heard[-1]["ready"] is True
        new = c.get(f"/api/tables/{first['table_id']}").json()
        assert new["status"] == "playing"
        with connect(bob) as ws:  # Bob's new token holds his new seat
            joined = ws.join(first["table_id"], [second["tokens"]["0"]])
            assert next(m for m in joined if m["type"] == "joined")["seats"] == [0]


def test_bots_accept_at_once_and_a_solo_rematch_starts(server) -> None:
    with server() as c:
        old = finished(c, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}])
        answer = offer(c, old, [0]).json()
        assert answer["ready"] is True
        assert c.get(f"/api/tables/{answer['table_id']}").json()["status"] == "playing"
        hot = finished(c)  # one page held both seats (hot seat): one click, both seats
        both = offer(c, hot, [0, 1]).json()
        assert both["ready"] is True and sorted(both["tokens"]) == ["0", "1"]


def test_a_second_offer_accepts_the_first(server) -> None:
    with server() as c:
        old = finished(c)
        bob = TestClient(c.app)
        a = offer(c, old, [0]).json()
        b = offer(bob, old, [1]).json()
        assert a["table_id"] == b["table_id"]
        listed = {t["table_id"] for t in c.get("/api/tables", params={"status": "all"}).json()}
        assert len(listed) == 2  # the old table and one rematch


def test_only_the_reserved_player_takes_the_seat(server) -> None:
    with server() as c:
        old = finished(c)
        a = offer(c, old, [0]).json()
        stranger = TestClient(c.app)
        taken = stranger.post(f"/api/tables/{a['table_id']}/join", json={"seat": 0, "name": "Eve"})
        assert taken.status_code == 409 and "kept for the player" in taken.json()["detail"]
        forged = stranger.post(f"/api/tables/{old['table_id']}/rematch", json={"tokens": {"1": "forged"}})
        assert forged.status_code == 403
        assert c.get(f"/api/tables/{a['table_id']}").json()["seats"][0]["claimed"] is False


def test_a_rematch_of_an_unfinished_table_is_refused(server) -> None:
    with server() as c:
        table = create(c, game="tinytest", seats=HUMANS)
        r = offer(c, table, [0])
        assert r.status_code == 409 and "finish this one first" in r.json()["detail"]


def test_a_rematch_counts_against_the_quota(server) -> None:
    with server(unfinished_per_client=1) as c:
        old = finished(c)
        assert offer(c, old, [0]).status_code == 200
        refused = c.post("/api/tables", json={"game": "tinytest", "seats": HUMANS})
        assert refused.status_code == 429 and refused.json()["code"] == "too_many_unfinished"


def test_your_games_lists_an_offer_and_the_linked_player_accepts_without_a_token(server) -> None:
    with server() as ann:
        bob = TestClient(ann.app)
        table = create(
            ann, game="tinytest", seats=[{"kind": "human", "me": True}, {"kind": "human", "open": True}]
        )
        joined = bob.post(f"/api/tables/{table['table_id']}/join", json={"seat": 1, "name": "Bob"}).json()
        with connect(ann) as ws:  # one connection plays both seats to the end
            view = latest(ws.join(table["table_id"], [table["seats"][0]["token"], joined["token"]]))
            for _ in range(2000):
                st = view["state"]
                if st["terminal"]:
                    break
                move = (
                    "stop"
                    if "stop" in st["legal_actions"] and st["turn_total"] >= 6
                    else st["legal_actions"][0]
                )
                view = latest(ws.act(st["current_player"], view["seq"], move))
        offered = offer(ann, table, [0]).json()
        games = bob.get("/api/me/games").json()
        assert [g["table_id"] for g in games["offers"]] == [offered["table_id"]]
        assert games["offers"][0]["offer"] == {"table": table["table_id"], "by_seat": 1}  # Ann sits last now
        assert offered["table_id"] not in [g["table_id"] for g in games["waiting"] + games["your_turn"]]
        accepted = bob.post(
            f"/api/tables/{table['table_id']}/rematch", json={}
        ).json()  # by the linked player
        assert accepted["table_id"] == offered["table_id"] and accepted["ready"] is True
        assert bob.get("/api/me/games").json()["offers"] == []
