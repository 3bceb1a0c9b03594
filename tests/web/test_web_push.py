"""Web Push (dicehall/web/push.py, docs/web.md "Notifications"): a player whose page is closed hears of their turn
and of a rematch offer, in the language of the browser that subscribed, through a real push service on loopback
(push_receiver.py: RFC 8030 delivery, RFC 8292 VAPID checked, RFC 8291 decrypted with the browser's keys); a page
open on the table is told there instead; a subscription the service says is gone is dropped; subscriptions that
would make the server post anywhere are refused."""

from __future__ import annotations

from typing import Any

import pytest
from push_receiver import PushService
from webtools import connect, create, latest

from dicehall.web.push import SubscriptionRefused, check_subscription
from dicehall.web.settings import PUSH_SERVICES

LOOPBACK = {"push_services": "loopback"}


def become(c: Any, name: str) -> str:
    c.cookies.clear()
    player = c.post("/api/me").json()["player"]
    assert c.put("/api/me/name", json={"name": name}).status_code == 200
    return str(player["id"])


def two_player_table(
    c: Any, service: PushService, bob_lang: str
) -> tuple[dict[str, Any], str, dict[str, str]]:
    """Ann's table (tinytest) with Bob on seat 1, linked and subscribed, his page closed; Ann's token and
    cookies (the client is Bob's now)."""
    become(c, "Ann")
    ann_cookies = dict(c.cookies)
    table = create(c, game="tinytest", seats=[{"kind": "human", "me": True}, {"kind": "human"}])
    ann_token = table["seats"][0]["token"]
    become(c, "Bob")
    assert c.post("/api/me/push", json=service.subscription("bob", bob_lang)).status_code == 201
    with connect(c) as ws:  # Bob opens the invite and leaves
        ws.request(
            {"type": "join", "table": table["table_id"], "tokens": [table["seats"][1]["token"]], "link": [1]}
        )
    return table, ann_token, ann_cookies


def play_until_seat(ws: Any, view: dict[str, Any], seat: int) -> dict[str, Any]:
    for _ in range(200):
        st = view["state"]
        if st["current_player"] == seat or st["terminal"]:
            return view
        move = "stop" if "stop" in st["legal_actions"] else st["legal_actions"][0]
        view = latest(ws.act(st["current_player"], view["seq"], move))
    raise AssertionError("the turn never came")


def test_your_turn_reaches_a_closed_page_decrypted_in_its_language(server):
    with PushService() as service, server(**LOOPBACK) as c:
        key = c.get("/api/push/key").json()["key"]
        table, ann_token, _ann_cookies = two_player_table(c, service, "ru")
        with connect(c) as ws:  # Ann plays until it is Bob's turn
            view = latest(ws.join(table["table_id"], [ann_token]))
            play_until_seat(ws, view, 1)
            (delivery,) = service.wait(1)
        assert not service.refusals
        assert delivery.browser == "bob" and delivery.vapid_key == key
        assert delivery.message["url"] == f"/table/{table['table_id']}"
        assert delivery.message["body"] == "Ваш ход: откройте игру, чтобы походить."
        assert delivery.message["title"].startswith("dicehall")
        assert delivery.ttl > 0 and delivery.vapid_sub.startswith("mailto:")


def test_a_page_open_on_the_table_is_told_there_not_pushed(server):
    with PushService() as service, server(**LOOPBACK) as c:
        table, ann_token, _ann_cookies = two_player_table(c, service, "en")
        with connect(c) as bob, connect(c) as ann:
            bob.request({"type": "join", "table": table["table_id"], "mine": True})  # Bob's page is open
            view = latest(ann.join(table["table_id"], [ann_token]))
            view = play_until_seat(ann, view, 1)
            assert view["state"]["current_player"] == 1
            # Ann's own turn comes back while her page is open: nobody is pushed either
            bview = latest(bob.drain() or [view])
            play_until_seat(bob, bview, 0)
        c.portal.call(c.app.state.pusher.drain)
        assert service.deliveries == [] and service.refusals == []


def test_a_subscription_the_service_says_is_gone_is_dropped(server):
    with PushService() as service, server(**LOOPBACK) as c:
        table, ann_token, _ann_cookies = two_player_table(c, service, "en")
        service.gone.add("bob")
        pusher = c.app.state.pusher
        bob = c.get("/api/me").json()["player"]["id"]
        assert pusher.subs.count(bob) == 1
        with connect(c) as ws:
            play_until_seat(ws, latest(ws.join(table["table_id"], [ann_token])), 1)
        c.portal.call(pusher.drain)
        assert pusher.subs.count(bob) == 0 and service.deliveries == []


def test_unsubscribing_stops_the_pushes(server):
    with PushService() as service, server(**LOOPBACK) as c:
        table, ann_token, _ann_cookies = two_player_table(c, service, "en")
        sub = service.subscription("bob")  # (the same endpoint as subscribed: new keys do not matter here)
        r = c.request("DELETE", "/api/me/push", json={"endpoint": sub["endpoint"]})
        assert r.json() == {"removed": True}
        with connect(c) as ws:
            play_until_seat(ws, latest(ws.join(table["table_id"], [ann_token])), 1)
        c.portal.call(c.app.state.pusher.drain)
        assert service.deliveries == []


def test_a_rematch_offer_is_pushed_to_the_other_player(server):
    with PushService() as service, server(**LOOPBACK) as c:
        table, ann_token, ann_cookies = two_player_table(c, service, "pl")
        with connect(c) as ws:  # one page holds both seats: nobody is away while they play
            view = latest(ws.join(table["table_id"], [ann_token, table["seats"][1]["token"]]))
            for _ in range(2000):
                st = view["state"]
                if st["terminal"]:
                    break
                view = latest(
                    ws.act(
                        st["current_player"],
                        view["seq"],
                        "stop" if "stop" in st["legal_actions"] else st["legal_actions"][0],
                    )
                )
        c.portal.call(c.app.state.pusher.drain)
        assert service.deliveries == []
        c.cookies.clear()
        c.cookies.update(ann_cookies)  # Ann offers
        r = c.post(f"/api/tables/{table['table_id']}/rematch", json={"tokens": {"0": ann_token}})
        assert r.status_code in (200, 201), r.text
        (delivery,) = service.wait(1)
        assert delivery.message["body"] == "Ann proponuje rewanż."
        assert delivery.message["url"] == f"/table/{table['table_id']}"


@pytest.mark.parametrize(
    ("body", "why"),
    [
        ({"endpoint": "https://evil.example/push/1", "keys": {}}, "not one this server sends to"),
        ({"endpoint": "http://fcm.googleapis.com/x", "keys": {}}, "not one this server sends to"),
        (
            {"endpoint": "https://fcm.googleapis.com.evil.example/x", "keys": {}},
            "not one this server sends to",
        ),
        (
            {"endpoint": "https://fcm.googleapis.com/x", "keys": {"p256dh": "AAAA", "auth": "AAAA"}},
            "not valid",
        ),
        ({"endpoint": "https://fcm.googleapis.com/x"}, "no keys"),
        ([], "as JSON"),
    ],
)
def test_subscriptions_that_would_post_elsewhere_are_refused(body: Any, why: str) -> None:
    with pytest.raises(SubscriptionRefused, match=why):
        check_subscription(body, tuple(PUSH_SERVICES.split(",")))


def test_the_api_refuses_a_subscription_and_stores_nothing(server):
    with server() as c:
        become(c, "Eve")
        r = c.post("/api/me/push", json={"endpoint": "http://127.0.0.1:9/push/x", "keys": {}})
        assert r.status_code == 422 and "not one this server sends to" in r.json()["detail"]
        me = c.get("/api/me").json()["player"]["id"]
        assert c.app.state.pusher.subs.count(me) == 0


def test_the_deadline_reminder_of_a_correspondence_move_is_pushed(server):
    """A 1-day table: 3 hours before Bob's deadline the sweep's reminder reaches his closed page."""
    from test_web_correspondence import Clock, sweep

    from dicehall.web.correspondence import HOUR

    with PushService() as service, server(**LOOPBACK) as c:
        become(c, "Ann")
        table = create(c, seats=[{"kind": "human", "me": True}, {"kind": "human"}], move_days=1)
        ann_token = table["seats"][0]["token"]
        become(c, "Bob")
        assert c.post("/api/me/push", json=service.subscription("bob", "en")).status_code == 201
        with connect(c) as ws:
            ws.request(
                {
                    "type": "join",
                    "table": table["table_id"],
                    "tokens": [table["seats"][1]["token"]],
                    "link": [1],
                }
            )
        clock = Clock(c.app.state.manager)
        with connect(c) as ws:
            view = play_until_seat(ws, latest(ws.join(table["table_id"], [ann_token])), 1)
        assert view["state"]["current_player"] == 1
        # (a "your turn" may or may not have gone out: Bob may have been to move since the opening roll-off)
        c.portal.call(c.app.state.pusher.drain)
        before = len(service.deliveries)
        deadline = view["state"]["clock"]["deadline"]
        clock.ahead = deadline - clock.real() - 3 * HOUR + 60
        sweep(c)
        deliveries = service.wait(before + 1)
        assert deliveries[-1].message["body"] == "Your move: the time for it runs out in 3 hours."
        assert deliveries[-1].message["url"] == f"/table/{table['table_id']}"
