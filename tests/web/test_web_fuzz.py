"""Fuzz: malformed, forged and out-of-turn websocket messages from many clients, and junk REST payloads, from a
seeded generator. Every one gets a clear error, no table's log or state changes, the server stays up.

The default suite sends 1,000 websocket messages and 300 REST requests; ``-m slow`` sends 10,000 and 2,000.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from webtools import WS, create

from dicehall.web.protocol import ERROR_CODES, MAX_MESSAGE_BYTES

GAMES = ("thousand", "clever", "wurf", "tinytest")
HUMANS = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]


UNICODE_JUNK = [
    "",
    " ",
    "\u0000",
    "\ud7ff",
    "\u202e",
    "🎲" * 30,
    "ÿ" * 50,
    "null",
    "NaN",
    "\t\n",
    "ｒｏｌｌ",
    "ROLL",
]
NOTATION_JUNK = {
    "thousand": ["keep", "keep 7", "keep 1 1 1 1 1 1", "bank 5", "roll roll", "k5", "55", "keep -1", "bank"],
    "clever": [
        "Y6",
        "Y0",
        "B13",
        "G12",
        "O99",
        "P0",
        "W3",
        "reroll",
        "plus",
        "pass",
        "take 7",
        "Y",
        "B",
        "x1",
    ],
    "wurf": [
        "throw",
        "throw 1e309 0 0 0",
        "throw -5 -5 2 0",
        "throw 50 50 9 0",
        "move 9 1 1",
        "move 0 -999 0",
    ],
    "tinytest": ["d0", "d7", "stop", "d1", "rol", "stopp"],
}


@dataclass
class Client:
    ws: WS
    table: dict[str, Any] | None  # the fuzz table this client joined, if any
    seats: list[int] = field(default_factory=list)


def event_log(db_url: str) -> tuple[list[Any], list[Any]]:
    engine = create_engine(db_url)
    with engine.connect() as conn:
        events = conn.execute(
            text("SELECT table_id, seq, actor, move, at FROM dh_events ORDER BY 1, 2")
        ).all()
        tables = conn.execute(text("SELECT id, seats, status, creator FROM dh_tables ORDER BY 1")).all()
    engine.dispose()
    return [tuple(r) for r in events], [tuple(r) for r in tables]


class Junk:
    """The seeded generator: each message is built to be refused (the oracle checks the rare case where junk
    notation happens to be a legal move, and picks again)."""

    def __init__(self, rng: random.Random, tables: list[dict[str, Any]], manager: Any) -> None:
        self.rng, self.tables, self.manager = rng, tables, manager

    def value(self) -> Any:
        r = self.rng
        return r.choice(
            [
                None,
                True,
                -1,
                0,
                2**63,
                -(10**30),
                1.5,
                1e308,
                "",
                "x" * 300,
                [],
                [1, 2],
                {"a": 1},
                r.choice(UNICODE_JUNK),
            ]
        )

    def text(self) -> str:
        r = self.rng
        return "".join(
            chr(r.choice([r.randrange(32, 127), r.randrange(0x80, 0xD7FF), r.randrange(0xE000, 0x10FFFF)]))
            for _ in range(r.randrange(0, 40))
        )

    def legal(self, table: dict[str, Any], move: str) -> bool:
        state = self.manager.tables[table["table_id"]].state
        try:
            action = state.string_to_action(move)
            state.clone().apply_action(action)
        except Exception:
            return False
        return True

    def junk_move(self, table: dict[str, Any]) -> str:
        r = self.rng
        for _ in range(50):
            game = table["game"]
            move = r.choice(
                [
                    r.choice(NOTATION_JUNK[game]),
                    r.choice(NOTATION_JUNK[r.choice(GAMES)]),
                    r.choice(UNICODE_JUNK),
                    self.text(),
                    r.choice(NOTATION_JUNK[game]) + " " + self.text(),
                ]
            )[:200]
            if move and not self.legal(table, move):
                return move
        return "definitely not a move"

    def message(self, c: Client) -> str | bytes:
        r = self.rng
        others = [t for t in self.tables if t is not c.table]
        kind = r.randrange(14)
        if kind == 0:
            return self.text() or "{"
        if kind == 1:
            return r.choice(
                ['{"type": "act"', "[1,", "{'type': 'ping'}", '{"type": NaN}', '"\\ud800"', "1e999"]
            )
        if kind == 2:
            return json.dumps(self.value())
        if kind == 3:
            return json.dumps(
                {"type": r.choice(["", "JOIN", "act ", "pong", "event", "error", self.text()]), "x": 1}
            )
        if kind == 4:
            return b'{"type": "ping", "junk": "\xff\xfe"}'  # a binary frame that is not UTF-8
        if kind == 5:
            return json.dumps({"type": "ping", "x": "y" * r.randrange(MAX_MESSAGE_BYTES, 20_000)})
        if kind == 6:  # one field of the wrong type or out of range, or an unknown field
            msg: dict[str, Any] = {"type": "act", "seat": 0, "seq": 0, "move": "roll"}
            key = r.choice(["seat", "seq", "move", "extra"])
            msg[key] = r.choice(
                {
                    "seat": [None, True, 1.5, "1", [], -1, 64, 2**70],
                    "seq": [None, True, 1.5, "1", [], -1, -(2**70)],
                    "move": [None, 5, "", "m" * 201, [], {"a": 1}],
                    "extra": [1, None, "x"],
                }[key]
            )
            return json.dumps(msg)
        if kind == 7:  # forged joins: other tables' tokens, mangled tokens, tables that do not exist
            target = r.choice(self.tables)
            foreign = [tok for t in others for tok in t["tokens"] if t is not target] or ["forged"]
            tokens = r.choice(
                [
                    [r.choice(foreign)],
                    [target["tokens"][0] + "x"],
                    [self.text() or "t"],
                    ["a" * 500],
                    target["tokens"] * 5,
                ]
            )
            table = r.choice(
                [target["table_id"], target["table_id"] + "0", self.text()[:64] or "zz", "0" * 64]
            )
            last = r.choice([None, 0, 10**12])
            return json.dumps({"type": "join", "table": table, "tokens": tokens, "last_seq": last})
        # acts: not joined, wrong seat, out of turn, stale or future seq, junk notation
        table = c.table or r.choice(self.tables)
        live = self.manager.tables[table["table_id"]]
        seq, current = live.seq, live.state.current_player()
        seat = r.choice(c.seats) if c.seats else r.randrange(0, 64)
        move = self.junk_move(table)
        if kind == 8:
            seat = r.choice([s for s in range(64) if s not in c.seats])
        elif kind == 9 and c.seats:
            seq = (
                r.choice([seq - r.randrange(1, 4), seq + r.randrange(1, 10**6), 2**62])
                if seq > 3
                else seq + 7
            )
            move = r.choice(live.state.public_view()["legal_actions"] or ["roll"])
            move = move if isinstance(move, str) else str(move)
        elif kind == 10 and c.seats:
            others_turn = [s for s in c.seats if s != current]
            seat = others_turn[0] if others_turn else seat
            if seat == current:
                move = self.junk_move(table)
        elif kind >= 11 and current in c.seats:  # in turn, up to date: only the notation is wrong
            seat = current
        return json.dumps({"type": "act", "seat": seat, "seq": max(0, seq), "move": move})


def run_ws_fuzz(client: TestClient, db_url: str, total: int, seed: int) -> Counter[str]:
    rng = random.Random(seed)
    manager = client.app.state.manager  # type: ignore[attr-defined]
    tables = []
    for game in GAMES:
        for _ in range(2):
            t = create(client, game=game, seats=HUMANS)
            tables.append(
                {"table_id": t["table_id"], "game": game, "tokens": [s["token"] for s in t["seats"]]}
            )
    before = event_log(db_url)
    views = {t["table_id"]: manager.tables[t["table_id"]].view() for t in tables}
    codes: Counter[str] = Counter()
    with client.websocket_connect("/ws") as loose:
        sessions = []
        clients = [Client(WS(loose), None)]
        for t in tables:  # per table: both seats (hot seat), one seat, a spectator
            for held in ([0, 1], [1], []):
                s = client.websocket_connect("/ws")
                sessions.append(s)
                ws = WS(s.__enter__())
                ws.join(t["table_id"], [t["tokens"][i] for i in held])
                clients.append(Client(ws, t, held))
        try:
            junk = Junk(rng, tables, manager)
            sent = 0
            while sent < total:
                c = rng.choice(clients)
                batch = [junk.message(c) for _ in range(min(20, total - sent))]
                for m in batch:
                    if isinstance(m, bytes):
                        c.ws.s.send_bytes(m)
                    else:
                        c.ws.send_raw(m)
                replies = c.ws.drain()
                assert len(replies) == len(batch), (batch, replies)
                for m, reply in zip(batch, replies, strict=True):
                    assert reply["type"] == "error" and reply["code"] in ERROR_CODES, (m, reply)
                    assert isinstance(reply["message"], str) and len(reply["message"]) > 10, reply
                    assert reply["code"] != "server_error", (m, reply)  # every engine refuses junk itself
                    codes[reply["code"]] += 1
                sent += len(batch)
        finally:
            for s in sessions:
                s.__exit__(None, None, None)
    assert event_log(db_url) == before  # no table's log or seats changed
    assert {tid: manager.tables[tid].view() for tid in views} == views
    assert client.get("/api/health").json()["status"] == "ok"
    return codes


def bad_create_body(rng: random.Random) -> Any:
    """A create-table body with one to three defects (each alone makes it invalid)."""
    game = rng.choice(["thousand", "clever", "wurf", "tinytest"])
    body: dict[str, Any] = {"game": game, "seats": [dict(s) for s in HUMANS]}

    def seat(i: int, new: dict[str, Any] | None = None) -> dict[str, Any]:
        """Seat ``i`` to spoil (replaced by ``new``), or a throw-away one when a defect already replaced the list."""
        seats = body["seats"]
        if not (isinstance(seats, list) and len(seats) > i and isinstance(seats[i], dict)):
            return {}
        if new is not None:
            seats[i] = new
        return seats[i]

    defects = [
        lambda: body.update(
            game=rng.choice(["chess", "", "THOUSAND", "x" * 33, 5, None, ["thousand"], "🎲"])
        ),
        lambda: body.update(preset=rng.choice(["nope", "", 7, ["classic"], "p" * 100])),
        lambda: body.update(overrides={rng.choice(["nope", "__class__", "x" * 1000]): 1}),
        lambda: (
            body.update(
                overrides={
                    rng.choice(["target", "max_rolls", "bolts_count", "barrel_attempts"]): rng.choice(
                        ["x", None, [1], 1.5, True, -5, 10**6, 10**9, 10**12]
                    )
                }
            )
            if game == "thousand"
            else body.update(overrides={"rounds": "many"})
        ),
        lambda: body.update(overrides=rng.choice([[], "target=10", 5])),
        lambda: body.update(
            seats=rng.choice([[], "two", None, [{}], [1, 2], [dict(HUMANS[0])] * rng.choice([17, 100, 1000])])
        ),
        lambda: seat(0).update(kind=rng.choice(["alien", "", None, 3, "HUMAN"])),
        lambda: seat(0).update(name="n" * rng.choice([41, 1000, 100_000])),
        lambda: seat(0).update(name=rng.choice([5, [], {"a": 1}])),
        lambda: seat(1, {"kind": "bot", "bot": rng.choice(["skynet", "", "expert " * 10])}),
        lambda: seat(1, {"kind": "bot"}),
        lambda: seat(1, {"kind": "human", "bot": "expert"}),
        lambda: seat(1).update(token="forged"),
        lambda: body.update(extra=1),
    ]
    for defect in rng.sample(defects, rng.randrange(1, 4)):
        defect()
    return rng.choice([body] * 8 + ["not json", [body], "", None])


def run_rest_fuzz(client: TestClient, db_url: str, total: int, seed: int) -> Counter[int]:
    rng = random.Random(seed)
    table = create(client, game="thousand", seats=HUMANS)
    before = event_log(db_url)
    statuses: Counter[int] = Counter()
    for i in range(total):
        kind = i % 4
        if kind <= 1:
            body = bad_create_body(rng)
            if isinstance(body, str):
                r = client.post(
                    "/api/tables", content=body.encode(), headers={"Content-Type": "application/json"}
                )
            else:
                r = client.post("/api/tables", json=body)
        elif kind == 2:  # claims: every seat of the real table is taken; other ids do not exist
            tid = rng.choice([table["table_id"], table["table_id"] + "x", "%00", "t" * 300])
            seat = rng.choice([0, 1, 2, -1, 10**20, "0", None, 1.5])
            r = client.post(
                f"/api/tables/{tid}/join", json={"seat": seat, "name": rng.choice(["Eve", "e" * 5000])}
            )
        else:
            tid = rng.choice(["nope", table["table_id"][:-1], "%00", "🎲", "x" * 2000])
            r = client.get(f"/api/tables/{tid}" + rng.choice(["", "/record"]))
        assert r.status_code in (400, 404, 409, 422), (r.status_code, r.text[:300])
        detail = r.json()["detail"]
        assert detail and isinstance(detail, str | list), r.text[:300]
        statuses[r.status_code] += 1
    assert event_log(db_url) == before  # nothing created, claimed or changed
    assert client.get("/api/health").json()["status"] == "ok"
    return statuses


def test_websocket_fuzz_1000_messages(server: Any, db_url: str) -> None:
    with server() as c:
        codes = run_ws_fuzz(c, db_url, 1000, seed=15)
    # the generator reaches every layer: framing, schema, tokens, seats, turn order, sequence, the engines
    for code in (
        "bad_message",
        "unknown_type",
        "too_large",
        "bad_token",
        "no_such_table",
        "wrong_seat",
        "not_your_turn",
        "stale_seq",
        "illegal_move",
        "not_joined",
    ):
        assert codes[code] > 0, codes


def test_rest_fuzz_300_requests(server: Any, db_url: str) -> None:
    with server() as c:
        statuses = run_rest_fuzz(c, db_url, 300, seed=15)
    assert statuses[422] and statuses[400] and statuses[404] and statuses[409], statuses


@pytest.mark.slow
def test_websocket_fuzz_10000_messages(server: Any, db_url: str) -> None:
    with server() as c:
        codes = run_ws_fuzz(c, db_url, 10_000, seed=1015)
    assert sum(codes.values()) == 10_000


@pytest.mark.slow
def test_rest_fuzz_2000_requests(server: Any, db_url: str) -> None:
    with server() as c:
        statuses = run_rest_fuzz(c, db_url, 2000, seed=1015)
    assert sum(statuses.values()) == 2000
