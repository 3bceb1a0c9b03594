"""Correspondence tables (dicehall/web/correspondence.py, docs/web.md "Correspondence tables"): the deadline, the
reminder, the timeout and its ruling, the record, abandonment and the quota, with the manager's clock faked."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import pytest
from webtools import WS, connect, create, latest, pick, tokens, wait_for

from dicehall.core.game import get_game
from dicehall.core.record import GameRecord, replay
from dicehall.web.correspondence import DAY, HOUR, Reminder, TimedOut, reminder_lead
from dicehall.web.db import Finish

THREE = [{"kind": "human", "name": n} for n in ("Ann", "Bob", "Cid")]


def stored(c: Any, table_id: str) -> Any:
    """The table as the database has it (not the loaded copy): SQLite or PostgreSQL alike."""
    return c.app.state.manager.store.get_table(table_id)


class Clock:
    """The manager's clock, moved on by the test (the wall clock plus ``ahead`` seconds)."""

    def __init__(self, manager: Any) -> None:
        self.real = manager.clock
        self.ahead = 0.0
        manager.clock = self

    def __call__(self) -> float:
        return float(self.real()) + self.ahead


@contextmanager
def hooked(c: Any) -> Iterator[tuple[Any, Clock, list[Reminder], list[TimedOut]]]:
    manager = c.app.state.manager
    reminders: list[Reminder] = []
    timeouts: list[TimedOut] = []
    manager.correspondence.on_reminder.append(reminders.append)
    manager.correspondence.on_timeout.append(timeouts.append)
    yield manager, Clock(manager), reminders, timeouts


def sweep(c: Any) -> None:
    c.portal.call(c.app.state.manager.lifecycle.sweep)


def test_reminder_once_then_a_late_move_times_the_seat_out_and_the_other_wins(server, db_url):
    with server() as c, hooked(c) as (_manager, clock, reminders, timeouts), connect(c) as ws:
        t = create(c, move_days=1)
        tid = t["table_id"]
        view = latest(ws.join(tid, tokens(t)))
        info = c.get(f"/api/tables/{tid}").json()
        assert info["move_seconds"] == DAY
        deadline = info["deadline"]
        first = view["state"]["current_player"]  # (the opening rolls may have passed the turn on)
        assert view["state"]["clock"] == {"move_seconds": DAY, "deadline": deadline, "seats": [first]}
        assert abs(deadline - (clock() + DAY)) < 60
        # the seat keeps the turn while it rolls: the deadline stays; it moves on with the turn
        while view["state"]["current_player"] == first:
            assert view["state"]["clock"]["deadline"] == deadline
            view = latest(ws.act(first, view["seq"], pick(view["state"])))
        late, other = 1 - first, first
        assert view["state"]["clock"]["seats"] == [late]
        deadline = view["state"]["clock"]["deadline"]
        assert deadline > info["deadline"]
        assert stored(c, tid).deadline == deadline
        # the reminder: 3 hours before the deadline of a 1-day table, once
        clock.ahead = deadline - clock.real() - 3 * HOUR - 60
        sweep(c)
        assert reminders == []
        clock.ahead += 120
        sweep(c)
        sweep(c)
        assert reminders == [Reminder(tid, "thousand", (late,), (None,), deadline)]
        assert stored(c, tid).reminded == deadline
        # past the deadline, before the sweep: Bob's move times him out (as the sweep would) and is refused
        clock.ahead = deadline - clock.real() + 1
        got = ws.act(late, view["seq"], pick(view["state"]))
        (error,) = [m for m in got if m["type"] == "error"]
        assert error["code"] == "timed_out" and error["msgid"] == "correspondence.timed_out"
        (event,) = [m for m in got if m["type"] == "event"]
        assert (event["actor"], event["move"], event["status"]) == (late, "timeout", "finished")
        assert event["state"]["winners"] == [other]
        assert event["text"] == f"{['Ann', 'Bob'][late]}'s time to move ran out"
        assert timeouts == [TimedOut(tid, "thousand", late, None, False)]
        table = [m for m in got if m["type"] == "table"][-1]
        assert table["seats"][late]["timed_out"] is True and table["deadline"] is None
        sweep(c)
        assert len(timeouts) == 1 and len(reminders) == 1
        record = GameRecord.from_json(c.get(f"/api/tables/{tid}/record").json())
        assert (record.events[-1].actor, record.events[-1].move) == (late, "timeout")
        assert record.result is not None and record.result["winners"] == [other]
        assert replay(record).winners() == [other]
        assert stored(c, tid).deadline is None
        # a rematch is played over days too
        held = {s["seat"]: s["token"] for s in t["seats"]}
        again = c.post(f"/api/tables/{tid}/rematch", json={"tokens": held}).json()["table_id"]
        assert c.get(f"/api/tables/{again}").json()["move_seconds"] == DAY


@pytest.mark.parametrize("game", ["thousand", "clever", "wurf"])
def test_with_three_players_the_sweep_gives_the_late_seat_to_a_bot(server, db_url, game):
    with server() as c, hooked(c) as (manager, clock, reminders, timeouts), ExitStack() as stack:
        t = create(c, game=game, seats=THREE, move_days=7)
        tid = t["table_id"]
        ws, watcher = (stack.enter_context(connect(c)) for _ in range(2))
        view = latest(ws.join(tid, tokens(t)))
        watcher.join(tid)
        late = view["state"]["clock"]["seats"]
        assert late and manager.tables[tid].meta.deadline == view["state"]["clock"]["deadline"]
        deadline = view["state"]["clock"]["deadline"]
        clock.ahead = deadline - clock.real() - 12 * HOUR + 1  # 12 hours before with 7 days a move
        sweep(c)
        assert [r.seats for r in reminders] == [tuple(late)]
        clock.ahead = deadline - clock.real()
        sweep(c)
        assert [(x.seat, x.bot_plays_on) for x in timeouts] == [(s, True) for s in late]
        got = wait_for(watcher, lambda ms: any(m["type"] == "table" for m in ms), timeout=60)
        seats = [m for m in got if m["type"] == "table"][-1]["seats"]
        for s in late:
            assert seats[s]["kind"] == "bot" and seats[s]["timed_out"] is True
        timed = [m for m in got if m["type"] == "event" and m["move"] == "timeout"]
        assert [m["actor"] for m in timed] == late and timed[-1]["status"] == "playing"
        assert timed[-1]["text"].endswith("a bot plays the seat on")
        # the bot plays the seat: a later move of it, and the record replays through the timeout
        wait_for(
            watcher,
            lambda ms: any(
                m["type"] == "event" and m["actor"] == late[0] and m["move"] != "timeout" for m in ms
            ),
            timeout=60,
        )
        record = GameRecord.from_json(c.get(f"/api/tables/{tid}/record").json())
        assert [e.actor for e in record.events if e.move == "timeout"] == late
        state = replay(record)
        assert not state.is_terminal() and set(late) & set(state.seats_in()) == (
            set() if game == "clever" else set(late)
        )
        assert c.get(f"/api/tables/{tid}").json()["status"] == "playing"


def test_a_seat_that_timed_out_loses_whatever_its_bot_makes_of_it():
    finish = Finish([1000, 700, 500], [0], forfeited=(0,))
    assert [finish.seat_result(s) for s in range(3)] == ["loss", "loss", "loss"]
    assert Finish([1000, 700], [0]).seat_result(0) == "win"


@pytest.mark.parametrize("game", ["thousand", "clever", "wurf"])
def test_time_out_is_the_resign_ruling_with_two_seats_and_a_bot_with_more(game):
    g = get_game(game)
    for n in (2, 3):
        state = g.new_initial_state(g.rules_type.from_preset(None, dict(g.live_overrides)), n)
        state.time_out(0)
        if n == 2:
            assert state.is_terminal() and state.winners() == [1]
        else:
            assert not state.is_terminal() and (0 in state.seats_in()) == (game != "clever")


def test_the_deadline_keeps_a_table_from_being_abandoned(server):
    with server(abandon_after_days=2) as c, hooked(c) as (manager, clock, _, timeouts):
        playing = create(c, "clever", move_days=7)["table_id"]  # (Clever: seat 0 is to move first)
        waiting = create(c, seats=[THREE[0], {"kind": "human", "open": True}], move_days=7)["table_id"]
        live = create(c)["table_id"]
        deadline = c.get(f"/api/tables/{playing}").json()["deadline"]
        assert c.get(f"/api/tables/{waiting}").json()["deadline"] is None  # nobody is on the clock yet
        clock.ahead = 3 * DAY
        sweep(c)
        status = {t: c.get(f"/api/tables/{t}").json()["status"] for t in (playing, waiting, live)}
        assert status == {playing: "playing", waiting: "abandoned", live: "abandoned"}
        # loaded from the database after days: not stale either while the deadline is to come
        c.portal.call(manager.lifecycle.unload, manager.tables[playing])
        assert c.get(f"/api/tables/{playing}").json()["status"] == "playing"
        clock.ahead = deadline - clock.real() + 1
        sweep(c)  # the timeout comes first: the other wins, nothing is abandoned
        assert c.get(f"/api/tables/{playing}").json()["status"] == "finished"
        assert [x.seat for x in timeouts] == [0]


def test_a_player_holds_many_correspondence_games_apart_from_the_live_quota(server):
    two = [{"kind": "human", "me": True}, {"kind": "human", "open": True}]
    with server(unfinished_per_client=1, correspondence_per_client=2) as c:
        create(c, seats=two)
        r = c.post("/api/tables", json={"game": "thousand", "seats": two})
        assert r.status_code == 429 and r.json()["code"] == "too_many_unfinished"
        create(c, seats=two, move_days=3)
        create(c, seats=two, move_days=7)
        r = c.post("/api/tables", json={"game": "thousand", "seats": two, "move_days": 1})
        assert r.status_code == 429 and r.json()["code"] == "too_many_correspondence"
        assert r.json()["msgid"] == "limit.too_many_correspondence"
        assert r.json()["params"] == {"count": 2, "limit": 2}
        assert "Retry-After" in r.headers


@pytest.mark.parametrize(
    ("body", "status", "msgid"),
    [
        ({"move_days": 2}, 422, None),
        ({"move_days": 1, "dice": "real"}, 400, "correspondence.refused.real_dice"),
        (
            {"move_days": 3, "seats": [THREE[0], {"kind": "bot", "bot": "expert"}]},
            400,
            "correspondence.refused.people",
        ),
        ({"move_days": 1, "game": "tinytest"}, 400, "correspondence.refused.game"),  # no resign ruling
    ],
)
def test_a_time_control_the_table_cannot_have_is_refused(server, db_url, body, status, msgid):
    with server() as c:
        r = c.post("/api/tables", json={"game": "thousand", "seats": THREE[:2]} | body)
        assert r.status_code == status, r.text
        if msgid:
            assert r.json()["msgid"] == msgid and "live play" in r.json()["detail"]
        assert c.app.state.manager.store.list_tables() == []


def test_your_games_shows_the_deadlines_nearest_first_and_the_reminder_due(server):
    mine = [{"kind": "human", "me": True}, {"kind": "human", "name": "Bob"}]
    with server() as c, hooked(c) as (_manager, clock, _, _):
        # (Clever: seat 0 moves first, after the opening roll)
        week, day, three = (create(c, "clever", seats=mine, move_days=d)["table_id"] for d in (7, 1, 3))
        live = create(c, "clever", seats=mine)["table_id"]
        clock.ahead = DAY - 3 * HOUR + 60
        page = c.get("/api/me/games").json()
        assert [it["table_id"] for it in page["your_turn"]] == [day, three, week, live]
        by_id = {it["table_id"]: it for it in page["your_turn"]}
        assert [by_id[t]["deadline_soon"] for t in (day, three, week)] == [True, False, False]
        assert by_id[day]["move_seconds"] == DAY and "deadline" not in by_id[live]
        assert abs(page["now"] - clock()) < 5
        assert by_id[day]["deadline"] - page["now"] < reminder_lead(DAY)


def test_a_late_request_of_another_seat_still_times_the_late_one_out(server):
    with server() as c, hooked(c) as (_manager, clock, _, timeouts), ExitStack() as stack:
        t = create(c, "clever", seats=THREE, move_days=1)  # seat 0 is to move first
        tid = t["table_id"]
        seat_ws: list[WS] = []
        for k in range(3):
            ws = stack.enter_context(connect(c))
            latest(ws.join(tid, [t["seats"][k]["token"]]))
            seat_ws.append(ws)
        clock.ahead = DAY + 1
        got = seat_ws[2].request({"type": "resign", "seat": 2})  # Cid resigns; Ann (to move) was late first
        events = [(m["actor"], m["move"]) for m in got if m["type"] == "event"]
        assert events[:2] == [(0, "timeout"), (2, "resign")]
        assert [x.seat for x in timeouts] == [0]
