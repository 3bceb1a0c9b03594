"""The rules routes the lobby form reads: option ranges in the metadata and ``POST /api/rules/check``."""

from __future__ import annotations

from typing import Any

import pytest

from dicehall.core.game import get_game


def check(c: Any, body: Any) -> Any:
    return c.post("/api/rules/check", json=body)


def test_rules_metadata_carries_ranges(server):
    with server() as c:
        games = {g["name"]: g for g in c.get("/api/games").json()}
        for name, game in games.items():
            rules_type = get_game(name).rules_type if name != "tinytest" else None
            for opt in game["options"]:
                if opt["type"] in ("int", "float", "list") and rules_type is not None:
                    assert "min" in opt and "max" in opt, (name, opt["key"])
                    assert opt["min"] == rules_type.range_of(opt["key"]).get("min")
        target = {o["key"]: o for o in c.get("/api/games/thousand/rules").json()}["target"]
        assert (target["min"], target["max"], target["step"]) == (20, 5000, 5)
        assert target["allowed"] == "20–5000, multiple of 5"
        pits = {o["key"]: o for o in games["thousand"]["options"]}["pits"]
        assert pits["max_items"] == 5 and pits["min"] == 0
        rounds = {o["key"]: o for o in games["clever"]["options"]}["rounds"]
        assert (rounds["min"], rounds["max"]) == (0, 6)


def test_check_accepts_and_returns_the_full_rule_set(server):
    with server() as c:
        r = check(
            c, {"game": "thousand", "preset": "yard", "overrides": {"target": 1500, "barrel_score": 1405}}
        )
        assert r.status_code == 200
        body = r.json()
        assert body["ok"] is True and set(body) == {"ok", "rules"}
        assert body["rules"]["target"] == 1500 and body["rules"]["preset"] == "yard"
        assert body["rules"]["max_rolls"] == 3  # from the preset
        assert check(c, {"game": "clever", "preset": None, "overrides": {}}).json()["ok"] is True
        assert check(c, {"game": "wurf"}).json()["rules"]["dice_per_player"] == 0


@pytest.mark.parametrize(
    ("body", "errors"),
    [
        (
            {"game": "thousand", "overrides": {"target": 200000}},
            [("target", "target must be between 20 and 5000, got 200000")],
        ),
        (
            {"game": "thousand", "overrides": {"target": 1003, "max_rolls": 10**9, "nope": 1, "bolts": "x"}},
            [
                ("target", "target must be a multiple of 5, got 1003"),
                ("max_rolls", "max_rolls must be between 0 and 10, got 1000000000"),
                ("nope", "unknown rule option 'nope'"),
                ("bolts", "bolts must be bool, got 'x'"),
            ],
        ),
        (
            {"game": "thousand", "overrides": {"barrel_score": 40}},
            [("barrel_score", "barrel_score must be above the opening minimum 50")],
        ),
        (
            {"game": "thousand", "overrides": {"pits": [[800, 900]]}},
            [("pits", r"pit [800, 900] reaches past the barrel at 880")],
        ),
        ({"game": "thousand", "preset": "house"}, [(None, "unknown preset 'house'")]),
        (
            {"game": "clever", "overrides": {"rounds": 7}},
            [("rounds", "rounds must be between 0 and 6, got 7")],
        ),
        (
            {"game": "wurf", "overrides": {"dice_per_player": 16}},
            [("dice_per_player", "dice_per_player must be between 0 and 15, got 16")],
        ),
        (
            {"game": "thousand", "overrides": {"pits": [[200, 300, 400]]}},
            [("pits", "pits must be tuple")],
        ),
    ],
)
def test_check_names_each_problem(server, body, errors):
    with server() as c:
        r = check(c, body)
        assert r.status_code == 200, r.text
        got = r.json()
        assert got["ok"] is False and set(got) == {"ok", "errors"}
        assert len(got["errors"]) == len(errors), got
        for err, (option, text) in zip(got["errors"], errors, strict=True):
            assert err["option"] == option and text in err["message"], err


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"game": "chess"}, 400),
        ({"preset": "classic"}, 422),
        ({"game": "thousand", "overrides": [1, 2]}, 422),
        ({"game": "thousand", "overrides": {}, "seats": []}, 422),
        ({"game": 5}, 422),
        ({"game": "x" * 100}, 422),
        ({"game": "thousand", "overrides": {f"k{i}": 1 for i in range(100)}}, 422),
        ("thousand", 422),
    ],
)
def test_check_refuses_malformed_bodies(server, body, status):
    with server() as c:
        r = check(c, body)
        assert r.status_code == status, r.text
        assert r.json()["detail"]


def test_check_refuses_non_json(server):
    with server() as c:
        r = c.post("/api/rules/check", content=b"\xff{", headers={"content-type": "application/json"})
        assert r.status_code == 400 and "parsing the body" in str(r.json()["detail"])


def test_out_of_range_table_is_refused_with_the_message(server):
    with server() as c:
        r = c.post(
            "/api/tables",
            json={
                "game": "thousand",
                "overrides": {"target": 1000000, "barrel": "none"},
                "seats": [{"kind": "bot", "bot": "expert"}] * 2,
            },
        )
        assert (
            r.status_code == 400 and r.json()["detail"] == "target must be between 20 and 5000, got 1000000"
        )
        for overrides, text in [
            ({"max_rolls": 10**9}, "max_rolls must be between 0 and 10"),
            ({"bolts_count": 10**12}, "bolts_count must be between 1 and 10"),
            ({"barrel_attempts": 10**9}, "barrel_attempts must be between 0 and 10"),
        ]:
            r = c.post(
                "/api/tables", json={"game": "thousand", "overrides": overrides, "seats": [{"kind": "human"}]}
            )
            assert r.status_code == 400 and text in r.json()["detail"]


def test_the_catalogue_ranks_bots_and_says_what_a_table_here_offers(server):
    """Bots weakest first, each with its measured strength from dicehall/web/botinfo.py; whether a game has
    hints; the presets and options a live table fixes (Wurf's simulated throws), and a table's house rules
    without them."""
    from dicehall.core.agents import bots_for
    from dicehall.web.botinfo import STRENGTH

    with server() as c:
        games = {g["name"]: g for g in c.get("/api/games").json()}
        for name in ("thousand", "clever", "wurf"):
            bots = games[name]["bots"]
            assert sorted(b["name"] for b in bots) == sorted(bots_for(name)), "every bot, each once"
            assert [(b["name"], b["strength"]) for b in bots] == STRENGTH[name]
        wins = {b["name"]: b["strength"]["share"] for b in games["thousand"]["bots"] if b["name"] != "expert"}
        assert list(wins) == ["random", "bold", "cautious", "practical", "optimal"] and sorted(
            wins.values()
        ) == list(wins.values())
        means = [b["strength"]["points"] for b in games["clever"]["bots"]]
        assert means == sorted(means)
        assert (
            games["thousand"]["hints"] and games["clever"]["hints"] and games["wurf"]["hints"]
        )  # (Wurf: its map)
        assert games["wurf"]["live_presets"] == ["standard", "match"]
        assert games["wurf"]["live_overrides"] == {"arena": "physics"}
        assert games["thousand"]["live_presets"] == games["thousand"]["presets"]

        seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}]
        plain = c.post("/api/tables", json={"game": "wurf", "seats": seats}).json()
        info = c.get(f"/api/tables/{plain['table_id']}").json()
        assert info["overrides"] == {"arena": "physics"} and info["house_rules"] == {}
        chosen = c.post(
            "/api/tables", json={"game": "wurf", "seats": seats, "overrides": {"match": True}}
        ).json()
        assert c.get(f"/api/tables/{chosen['table_id']}").json()["house_rules"] == {"match": True}
