"""Refusals reach the browser as message ids with parameters (the page words them; it never parses English):
the websocket's ``illegal_move`` errors and ``POST /api/rules/check``'s problems carry ``msgid``/``params``."""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any

from webtools import connect, create, latest, tokens

from dicehall.i18n import Message, translator


def _render(lang: str, msgid: str, params: dict[str, Any]) -> str:
    return translator(lang).message(Message.from_json({"id": msgid, "params": params}))


def test_a_refused_move_carries_the_engines_message_id(server):
    with server() as c, ExitStack() as stack:
        ws = stack.enter_context(connect(c))
        for _ in range(200):  # seat 0 to move, nothing banked yet: banking is refused for the opening
            t = create(c)
            msg = latest(ws.join(t["table_id"], tokens(t)[:1]))
            st = msg["state"]
            # the server keeps a first throw's only choice itself; five scoring dice would leave hot dice to roll
            if st["current_player"] == 0 and st["legal_actions"] == ["roll"] and not st["hot_dice"]:
                break
        else:
            raise AssertionError("no table opened with seat 0 to move")
        seq = msg["seq"]
        refused = ws.act(0, seq, "bank")
        assert len(refused) == 1 and refused[0]["code"] == "illegal_move"
        err = refused[0]
        assert err["msgid"] == "thousand.refusal.opening" and err["params"] == {"min": 50}
        assert "not opened: bank at least 50" in err["message"]  # the English text is still there for logs
        assert _render("ru", err["msgid"], err["params"]) == "игра не открыта: запишите не меньше 50"
        # a move that cannot be read: a nested message (the hint) comes as {"id", "params"} too
        unreadable = ws.act(0, seq, "fly away")[0]
        assert unreadable["msgid"] == "thousand.notation.bad_part"
        assert unreadable["params"]["part"] == "'fly'"
        assert _render("pl", unreadable["msgid"], unreadable["params"]).startswith("nie można odczytać 'fly'")
        # errors that are not the engine's have no msgid (their code is the page's message id)
        stale = ws.act(0, seq + 3, "roll")[0]
        assert stale["code"] == "stale_seq" and "msgid" not in stale


def test_rule_set_problems_carry_message_ids(server):
    with server() as c:
        body = {"game": "thousand", "preset": "classic", "overrides": {"pits": [[900, 950]], "nonsense": 1}}
        got = c.post("/api/rules/check", json=body).json()
        assert got["ok"] is False
        by_option = {e["option"]: e for e in got["errors"]}
        unknown = by_option["nonsense"]
        assert (
            unknown["msgid"] == "rules.error.unknown_option" and unknown["params"]["option"] == "'nonsense'"
        )
        assert _render("uk", unknown["msgid"], unknown["params"]).startswith(
            "невідомий параметр правил 'nonsense'"
        )
        only_pits = c.post(
            "/api/rules/check",
            json={"game": "thousand", "preset": "classic", "overrides": {"pits": [[900, 950]]}},
        ).json()
        refusal = only_pits["errors"][0]
        # the problem, then a set of rules that works (docs/thousand.md "Rule sets that adapt")
        assert refusal["option"] == "pits" and refusal["msgid"] == "rules.error.suggest"
        assert refusal["params"]["suggestion"] == "pits=none"
        pit = refusal["params"]["problem"]
        assert pit["id"] == "thousand.rules_error.pit_ceiling"
        assert pit["params"]["ceiling_name"] == {"id": "thousand.rules_error.the_barrel", "params": {}}
        assert refusal["message"].startswith("pit [900, 950] reaches past the barrel at 880. ")
        assert _render("ru", pit["id"], pit["params"]) == "яма [900, 950] заходит за границу бочки (880)"
        assert _render("ru", refusal["msgid"], refusal["params"]).startswith(
            "яма [900, 950] заходит за границу бочки"
        )


def test_a_refused_wurf_move_carries_its_message_id(server):
    """Wurf's refusals reach the browser as ids too (ending the turn before the mandatory throw, a throw too hard)."""
    with server() as c, connect(c) as ws:
        t = create(c, "wurf")
        msg = latest(ws.join(t["table_id"], tokens(t)[:1]))
        assert msg["state"]["current_player"] == 0 and msg["state"]["phase"] == "throw"
        end = ws.act(0, msg["seq"], "end")[0]
        assert end["code"] == "illegal_move" and end["msgid"] == "wurf.refusal.mandatory_throw"
        assert _render("uk", end["msgid"], end["params"]) == "хід не можна закінчити до обов'язкового кидка"
        hard = ws.act(0, msg["seq"], "throw c3 p1.5")[0]
        assert hard["msgid"] == "wurf.refusal.throw_range"
        assert hard["params"] == {
            "what": {"id": "wurf.refusal.param.power", "params": {}},
            "lo": 0,
            "hi": 1,
            "got": 1.5,
        }
        assert _render("ru", hard["msgid"], hard["params"]) == "сила: допустимо от 0 до 1, получено 1,5"


def test_dice_1000_events_reach_the_page_as_message_ids(server):
    """A bank's narration comes as ``{"id", "params"}`` (never English), worded alike in every language."""
    with server() as c, connect(c) as ws:
        t = create(c)
        msgs = ws.join(t["table_id"], tokens(t))
        seen: list[dict[str, Any]] = []
        for _ in range(400):
            # Every state message of the answer, not only the last: a bank is followed at once by the next
            # player's first roll, whose message no longer holds the bank's narration.
            seen.extend(e for m in msgs if m["type"] in ("event", "snapshot") for e in m["state"]["events"])
            st = latest(msgs)["state"]
            if st["terminal"] or any(e["id"] == "thousand.narrate.bank" for e in seen):
                break
            move = "bank" if "bank" in st["legal_actions"] else str(st["legal_actions"][0])
            msgs = ws.act(st["current_player"], latest(msgs)["seq"], move)
        assert seen and all(isinstance(e, dict) and set(e) == {"id", "params"} for e in seen)
        bank = next(e for e in seen if e["id"] == "thousand.narrate.bank")
        assert bank["params"]["name"] in ("Ann", "Bob") and isinstance(bank["params"]["total"], int)
        for lang in ("ru", "uk", "pl"):
            said = _render(lang, bank["id"], bank["params"])
            assert bank["params"]["name"] in said and said != _render("en", bank["id"], bank["params"])


def test_a_refused_table_carries_the_rule_sets_message_id(server):
    """``POST /api/tables`` with a rule set the engine refuses answers 400 with the English ``detail`` and the same
    ``option``/``msgid``/``params`` as the check; nothing is created, and a later valid table still is."""
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
    with server() as c:
        cases = {
            "thousand": (
                {"pits": [[900, 950]]},
                "pits",
                "rules.error.suggest",
            ),  # the problem, then what works
            "clever": ({"rounds": 9}, "rounds", "rules.error.between"),
        }
        for game, (overrides, option, msgid) in cases.items():
            r = c.post(
                "/api/tables", json={"game": game, "preset": None, "overrides": overrides, "seats": seats}
            )
            assert r.status_code == 400, r.text
            got = r.json()
            assert got["option"] == option and got["msgid"] == msgid
            assert got["detail"] == got["message"]
            checked = c.post("/api/rules/check", json={"game": game, "overrides": overrides}).json()[
                "errors"
            ][0]
            assert (checked["msgid"], checked["params"]) == (got["msgid"], got["params"])
        got = c.post(
            "/api/tables", json={"game": "thousand", "overrides": {"barrel_exact": True}, "seats": seats}
        ).json()
        assert got["params"] == {"option": "barrel_exact", "cap_option": "barrel_cap"}
        assert got["detail"] == "barrel_exact needs barrel_cap = false (a capped score cannot land exactly)"
        assert _render("pl", got["msgid"], got["params"]).startswith(
            "barrel_exact: wymaga wyłączenia „barrel_cap”"
        )
        assert c.get("/api/tables?status=all").json() == []
        preset = c.get("/api/games/thousand/rules?preset=bogus")
        assert preset.status_code == 400 and preset.json()["msgid"] == "rules.error.unknown_preset"
        assert preset.json()["detail"].startswith("unknown preset 'bogus'")
        assert create(c)["status"] in ("waiting", "playing")
