"""Ratings (docs/ratings.md): the Plackett–Luce update against a hand computation, the places a game gives, the
bots' anchors rerun from their command, which tables are rated and why not, a rated game's end, the leaderboard,
and two tables finishing at once for one player (SQLite here; PostgreSQL in test_web_postgres.py)."""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import insert, select
from sqlalchemy.engine import Connection
from test_web_your_games import become, tiny_policy
from webtools import connect, create, latest, wait_for

from dicehall.core.anchors import compute_anchors
from dicehall.core.rating import PROVISIONAL_SIGMA, Skill, display, ranks_of, rate, shipped_anchors
from dicehall.web.db import (
    Finish,
    PlayerRow,
    RatingHistoryRow,
    RatingRow,
    Store,
    StoredEvent,
    TableMeta,
)
from dicehall.web.ratings import ACTIVE_DAYS, REASONS, RatedGame


# -- the model -------------------------------------------------------------------------------------------------
def hand_plackett_luce(skills: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    """Weng & Lin (2011), Algorithm 4 (Plackett–Luce), one player per team, with OpenSkill's additive dynamics
    (sigma² + tau² first) and gamma = sigma/c. Ties count through A_q only, as in the paper: OpenSkill 6.2 means
    to give tied seats the mean of their mu changes, but compares each result with itself, so nothing changes
    (this test would show it if a release made that step work)."""
    beta, tau, kappa = 25 / 6, 25 / 300, 0.0001
    sig2 = [s * s + tau * tau for _, s in skills]
    mus = [m for m, _ in skills]
    c = math.sqrt(sum(v + beta * beta for v in sig2))
    e = [math.exp(m / c) for m in mus]
    n = len(skills)
    a = [sum(1 for j in range(n) if ranks[j] == ranks[q]) for q in range(n)]  # A_q: seats tied with q
    sum_q = [sum(e[i] for i in range(n) if ranks[i] >= ranks[q]) for q in range(n)]  # C_q = {i: r(i) >= r(q)}
    out = []
    for i in range(n):
        omega = delta = 0.0
        for q in range(n):
            if ranks[q] <= ranks[i]:
                p = e[i] / sum_q[q]
                omega += ((1 if q == i else 0) - p) / a[q]
                delta += p * (1 - p) / a[q]
        gamma = math.sqrt(sig2[i]) / c
        mu = mus[i] + sig2[i] / c * omega
        sigma = math.sqrt(sig2[i]) * math.sqrt(max(1 - gamma * sig2[i] / c**2 * delta, kappa))
        out.append((mu, sigma))
    return out


def test_a_four_player_update_equals_the_hand_computation() -> None:
    skills = [
        (25.0, 25 / 3),
        (30.0, 2.0),
        (21.5, 5.0),
        (27.0, 1.0),
    ]  # a new player, two known, a bot's anchor
    ranks = [2, 1, 3, 3]  # seat 1 first, seat 0 second, seats 2 and 3 share the last place
    got = rate([Skill(m, s) for m, s in skills], ranks)
    want = hand_plackett_luce(skills, ranks)
    for g, (mu, sigma) in zip(got, want, strict=True):
        assert g.mu == pytest.approx(mu, abs=1e-9) and g.sigma == pytest.approx(sigma, abs=1e-9)
    # and what that means: the winner and the runner-up gain, the last two lose
    assert got[1].mu > 30 and got[0].mu > 25 and got[2].mu < 21.5 and got[3].mu < 27
    assert got[0].sigma < 25 / 3  # a game teaches something about the newcomer


def test_places_winners_first_ties_shared_resigned_last() -> None:
    assert ranks_of([300, 1000, 300, 650], [1]) == [3, 1, 3, 2]
    # a seat that resigned is last whatever it scored; the last seat in wins with fewer points
    assert ranks_of([900, 400, 500], [1], out=[0]) == [3, 1, 2]
    assert ranks_of([900, 400, 500, 100], [2], out=[0, 1]) == [3, 3, 1, 2]
    assert ranks_of([50, 50], []) == [1, 1]  # nobody won: a draw


def test_display_and_provisional() -> None:
    assert Skill().display == 1500 and Skill().provisional
    assert display(26.0) == 1540 and display(24.0) == 1460
    assert not Skill(25, PROVISIONAL_SIGMA).provisional and Skill(25, PROVISIONAL_SIGMA + 0.01).provisional
    # a newcomer who keeps drawing against equals leaves the provisional mark after some games
    me, games = Skill(), 0
    while me.provisional:
        me = rate([me, Skill(25, 1.0)], [1, 1])[0]
        games += 1
    assert 15 <= games <= 25, games  # lichess's "?" lasts some 10–20 games


@pytest.mark.parametrize("game", ["wurf"])
def test_the_anchors_check_reruns_from_its_command(game: str) -> None:
    """The shipped table keeps a short run of the same command (``dicehall ratings anchors GAME --games 2
    --write``) as its check: rerun, it gives the same figures (docs/ratings.md names the full run's command)."""
    entry = shipped_anchors()["games"][game]
    check = entry["check"]
    assert compute_anchors(game, check["games"], check["seed"]) == check["bots"]
    assert set(entry["bots"]) == set(check["bots"]) and entry["games"] >= 100


# -- which tables are rated ------------------------------------------------------------------------------------
ME = {"kind": "human", "me": True}


def test_every_reason_is_worded_for_the_page() -> None:
    """Each reason the server gives has its words in the page's catalogue (and the page's map names them)."""
    import json
    from pathlib import Path

    web = Path(__file__).resolve().parents[2] / "web" / "src"
    english = json.loads((web / "locales" / "en.json").read_text(encoding="utf-8"))
    page = (web / "ratings.ts").read_text(encoding="utf-8")
    for reason in REASONS:
        assert f"rated.why.{reason}" in english and f'{reason}: "rated.why.{reason}"' in page, reason


def test_rated_by_default_between_identified_players_and_against_bots(server) -> None:
    with server() as c:
        become(c, "Ann")
        t = c.get(
            f"/api/tables/{create(c, 'tinytest', [ME, {'kind': 'bot', 'bot': 'greedy'}])['table_id']}"
        ).json()
        assert (t["rated"], t["unrated"], t["hints"]) == (True, None, False)  # rated games have no hints
        t = create(c, "tinytest", [ME, {"kind": "human", "open": True}])
        assert c.get(f"/api/tables/{t['table_id']}").json()["rated"] is True
        # asked off: off
        t = create(c, "tinytest", [ME, {"kind": "bot", "bot": "greedy"}], rated=False)
        assert c.get(f"/api/tables/{t['table_id']}").json()["unrated"] == "chosen"


@pytest.mark.parametrize(
    ("seats", "extra", "why"),
    [
        ([ME, {"kind": "bot", "bot": "greedy"}], {"dice": "real"}, "real_dice"),
        ([ME], {}, "alone"),
        ([{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}], {}, "no_person"),
        ([ME, {"kind": "bot", "bot": "greedy"}], {"hints": True}, "hints"),
    ],
)
def test_unrated_tables_say_why_even_when_rated_is_asked(server, seats, extra, why) -> None:
    with server() as c:
        become(c, "Ann")
        t = create(c, "tinytest", seats, rated=True, **extra)
        info = c.get(f"/api/tables/{t['table_id']}").json()
        assert (info["rated"], info["unrated"]) == (False, why)


def test_one_client_holding_two_seats_makes_the_game_unrated(server) -> None:
    with server() as c:
        become(c, "Ann")
        t = create(c, "tinytest", [ME, {"kind": "human"}], rated=True)  # an invite, or a hot seat
        assert c.get(f"/api/tables/{t['table_id']}").json()["rated"] is True
        with connect(c) as ws:
            msgs = ws.join(
                t["table_id"], [s["token"] for s in t["seats"]]
            )  # both seats on one page: hot seat
            info = next(m for m in msgs if m["type"] == "joined")["info"]
            assert (info["rated"], info["unrated"]) == (False, "hot_seat")
        assert c.get(f"/api/tables/{t['table_id']}").json()["unrated"] == "hot_seat"


def test_a_player_cannot_take_a_second_seat_at_a_rated_table(server) -> None:
    with server() as c:
        become(c, "Ann")
        t = create(c, "tinytest", [ME, {"kind": "human", "open": True}, {"kind": "human", "open": True}])
        r = c.post(f"/api/tables/{t['table_id']}/join", json={"seat": 1})
        assert r.status_code == 409 and r.json()["code"] == "rated_one_seat", r.text
        become(c, "Bob")
        assert c.post(f"/api/tables/{t['table_id']}/join", json={"seat": 1}).status_code == 200
        r = c.post(f"/api/tables/{t['table_id']}/join", json={"seat": 2})
        assert r.status_code == 409 and r.json()["code"] == "rated_one_seat"
        assert c.get(f"/api/tables/{t['table_id']}").json()["rated"] is True


def _ann_or_over(m: dict[str, Any]) -> bool:
    return m["type"] == "event" and (m["state"]["current_player"] == 0 or m["state"]["terminal"])


# -- a rated game's end -----------------------------------------------------------------------------------------
def test_a_rated_game_against_a_bot_updates_the_rating_once(server, db_url) -> None:
    with server() as c:
        ann = become(c, "Ann")
        t = create(c, "tinytest", [ME, {"kind": "bot", "bot": "greedy"}])
        with connect(c) as ws:
            view = latest(ws.join(t["table_id"], [t["seats"][0]["token"]]))
            got: list[dict[str, Any]] = []
            for _ in range(3000):
                st = view["state"]
                if st["terminal"]:
                    break
                if st["current_player"] == 0:
                    step = ws.act(0, view["seq"], tiny_policy(st))
                else:  # the bot plays until it is Ann's turn or the game is over
                    step = wait_for(
                        ws, lambda ms: any(_ann_or_over(m) for m in ms), timeout=60
                    )  # a cold bot pool
                got += step
                view = [m for m in step if m["type"] in ("event", "snapshot")][-1]
            assert view["state"]["terminal"]
            if not any(m["type"] == "table" and m.get("ratings") for m in got):
                got += wait_for(ws, lambda g: any(m["type"] == "table" and m.get("ratings") for m in g))
        card = [m for m in got if m["type"] == "table" and m.get("ratings")][-1]["ratings"]
        assert [(x["seat"], x["player"], x["before"]) for x in card] == [(0, ann, 1500)]
        assert card[0]["provisional"] is True and card[0]["rating"] - 1500 == card[0]["delta"]
        scores = view["state"]["scores"]
        assert (card[0]["delta"] > 0) == (scores[0] > scores[1])  # the bot's anchor is a newcomer's mu here
        profile = c.get(f"/api/players/{ann}").json()
        (mine,) = profile["ratings"]
        assert (mine["game"], mine["games"], mine["rating"]) == ("tinytest", 1, card[0]["rating"])
        assert [p["table_id"] for p in mine["points"]] == [t["table_id"]]
    with server() as c:  # loaded again from the database: the card is the same, nothing rated twice
        info = c.get(f"/api/tables/{t['table_id']}").json()
        assert info["ratings"] == card
        assert c.get(f"/api/players/{ann}").json()["ratings"][0]["games"] == 1


# -- the leaderboard ---------------------------------------------------------------------------------------------
def _player(store: Store, pid: str, kind: str = "guest") -> None:
    store._write(insert(PlayerRow).values(id=pid, name=pid.title(), kind=kind, created=0.0, seen=0.0))


def _rating(store: Store, pid: str, mu: float, sigma: float, updated: float) -> None:
    store._write(
        insert(RatingRow).values(
            player_id=pid,
            game="thousand",
            mu=mu,
            sigma=sigma,
            ordinal=mu - 3 * sigma,
            games=30,
            updated=updated,
        )
    )


def test_the_leaderboard_lists_active_established_players_only(server) -> None:
    now = time.time()
    with server() as c:
        store: Store = c.app.state.manager.store  # type: ignore[attr-defined]
        for pid, mu, sigma, age, kind in [
            ("ann", 28.0, 1.5, 1, "guest"),
            ("bob", 26.0, 2.0, ACTIVE_DAYS - 1, "account"),
            ("cat", 40.0, 4.5, 1, "guest"),  # provisional
            ("dan", 35.0, 1.0, ACTIVE_DAYS + 1, "guest"),  # not active
            ("eve", 33.0, 1.0, 1, "deleted"),
        ]:
            _player(store, pid, kind)
            _rating(store, pid, mu, sigma, now - age * 86400)
        board = c.get("/api/leaderboard/thousand").json()
        assert [(p["rank"], p["id"], p["rating"], p["provisional"]) for p in board["players"]] == [
            (1, "ann", 1620, False),
            (2, "bob", 1540, False),
        ]
        assert board["active_days"] == ACTIVE_DAYS and board["me"] is None
        me = become(c)  # a newcomer sees its own provisional line, unranked
        _rating(store, me, 26.0, 6.0, now)
        assert c.get("/api/leaderboard/thousand").json()["me"] == {
            "rating": 1540,
            "provisional": True,
            "games": 30,
            "rank": None,
            "active": True,
        }
        assert c.get("/api/leaderboard/chess").status_code == 404


# -- two tables finishing at once for one player ----------------------------------------------------------------
def test_a_seat_that_timed_out_is_rated_last_whatever_its_bot_made_of_it(db_url) -> None:
    """Three seats, correspondence: Ann ran out of time, a bot played her seat on and won the game. The rating
    counts her as out (last place), not as the winner; Bob, second on the board, gains."""
    store = Store(db_url)
    try:
        now = time.time()
        for pid in ("ann", "bob"):
            _player(store, pid)
            _rating(store, pid, 25.0, 5.0, now)
        person = {"kind": "human", "bot": None, "token": None, "claimed": True}
        seats = [
            {**person, "name": "Ann", "player": "ann", "kind": "bot", "bot": "expert", "timed_out": True},
            {**person, "name": "Bob", "player": "bob"},
            {"name": "bot", "kind": "bot", "bot": "expert", "token": None, "claimed": True},
        ]
        store.create_table(
            TableMeta("t", "thousand", "standard", {}, seats, "playing", now, now, rated=True), ()
        )
        scores, winners = [1000.0, 700.0, 400.0], [0]
        game = RatedGame("t", "thousand", seats, scores, winners)
        store.append_events(
            "t", [StoredEvent(1, 0, "bank", now)], "finished", finish=Finish(scores, winners, game)
        )
        after = dict(store._read(select(RatingRow.player_id, RatingRow.mu)))
        assert after["ann"] < 25.0 < after["bob"]
        assert {c["player"]: c["delta"] < 0 for c in game.changes} == {"ann": True, "bob": False}
    finally:
        store.close()


class PausingGame(RatedGame):
    """The product's update, holding its transaction open after the ratings were read (and locked) until
    ``pause`` returns: the moment another finish could read the same ratings before this one writes."""

    pause: Callable[[], None] = staticmethod(lambda: None)

    def lock_ratings(self, conn: Connection, players: list[str], now: float) -> dict[str, tuple[Skill, int]]:
        held = super().lock_ratings(conn, players, now)
        self.pause()
        return held


def two_finishes_at_once(url: str, wait_until_blocked: Callable[[], None]) -> list[Any]:
    """Two stores (two processes' connections) finish a rated table each for the same player, rated before; the
    first, having read the rating, starts the second and waits until ``wait_until_blocked`` says the second
    waits for it (or has started) before it writes. Returns the player's history rows, oldest first."""
    a, b = Store(url), Store(url)
    try:
        _player(a, "ann")
        now = time.time()
        _rating(a, "ann", 25.0, 5.0, now)  # rated before: the row exists, only its lock can order the two
        for tid in ("t1", "t2"):
            seats = [
                {
                    "name": "Ann",
                    "kind": "human",
                    "bot": None,
                    "token": None,
                    "claimed": True,
                    "player": "ann",
                },
                {"name": "bot", "kind": "bot", "bot": "expert", "token": None, "claimed": True},
            ]
            a.create_table(
                TableMeta(tid, "thousand", "standard", {}, seats, "playing", now, now, rated=True), (0,)
            )

        def finish(store: Store, tid: str, pause: Callable[[], None]) -> None:
            seats = store.get_table(tid).seats  # type: ignore[union-attr]
            game = PausingGame(tid, "thousand", seats, [1000.0, 300.0], [0])
            game.pause = pause  # type: ignore[method-assign]
            store.append_events(
                tid, [StoredEvent(1, 0, "bank", now)], "finished", finish=Finish([1000.0, 300.0], [0], game)
            )

        second = threading.Thread(target=finish, args=(b, "t2", lambda: None))

        def start_second_and_wait() -> None:
            second.start()
            wait_until_blocked()

        finish(a, "t1", start_second_and_wait)
        second.join(timeout=30)
        assert not second.is_alive()
        rows = a._read(select(RatingHistoryRow).order_by(RatingHistoryRow.id))
        (games,) = a._read(select(RatingRow.games).where(RatingRow.player_id == "ann"))[0]
        assert games == 32
        return rows
    finally:
        a.close()
        b.close()


def test_two_tables_finishing_at_once_lose_no_update_sqlite(db_url) -> None:
    started = threading.Event()
    orig = Store.append_events

    def spy(self: Store, table_id: str, *args: Any, **kw: Any) -> None:
        if table_id == "t2":
            started.set()  # the second is about to write: it waits for the first's lock from here on
        orig(self, table_id, *args, **kw)

    Store.append_events = spy  # type: ignore[method-assign]
    try:
        rows = two_finishes_at_once(db_url, lambda: started.wait(10) or None)
    finally:
        Store.append_events = orig  # type: ignore[method-assign]
    first, second = rows
    assert second.mu_before == pytest.approx(first.mu) and second.sigma_before == pytest.approx(first.sigma)
