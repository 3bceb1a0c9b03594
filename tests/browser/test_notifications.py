"""Notifications in the browser (docs/web.md, "Notifications"): the service worker shows what a push service
delivers (a pushed message given to it by Chromium's DevTools protocol, as a push service would) and a click on it
opens the game; the player's own profile has the switches, which say what happened in the player's words; the
favicon counts the games waiting for the player's move."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import expect

from .conftest import CSP_WATCH, NAME_ASKED, Server


def controlled(browser: Any, server: Server, locale: str = "en-US") -> Any:
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, base_url=server.base, locale=locale)
    ctx.grant_permissions(["notifications"], origin=server.base)
    page = ctx.new_page()
    page.add_init_script(CSP_WATCH)
    page.add_init_script(NAME_ASKED)
    page.goto("/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    return page


def test_the_service_worker_shows_a_pushed_message(browser: Any, server: Server) -> None:
    page = controlled(browser, server)
    cdp = page.context.new_cdp_session(page)
    registrations: list[dict[str, Any]] = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda e: registrations.extend(e["registrations"]))
    cdp.send("ServiceWorker.enable")
    for _ in range(400):  # the registrations arrive as events: each round trip to the page lets them in
        if any(r["scopeURL"] == server.base + "/" and not r["isDeleted"] for r in registrations):
            break
        page.evaluate("() => new Promise((done) => setTimeout(done, 25))")
    (reg,) = [r for r in registrations if r["scopeURL"] == server.base + "/" and not r["isDeleted"]]
    message = {
        "title": "dicehall · Dice 1000",
        "body": "It is your turn: open the game to move.",
        "url": "/table/abc",
        "tag": "turn-abc",
    }
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": server.base, "registrationId": reg["registrationId"], "data": json.dumps(message)},
    )
    # (a shown notification fires no event a page can await: the page asks until it is there, for 10 s at most)
    shown = page.evaluate(
        """async () => {
             const reg = await navigator.serviceWorker.ready;
             for (let i = 0; i < 200; i++) {
               const ns = await reg.getNotifications();
               if (ns.length) return ns.map((n) => ({title: n.title, body: n.body, url: n.data.url, tag: n.tag}));
               await new Promise((r) => setTimeout(r, 50));
             }
             return null;
           }"""
    )
    assert shown == [
        {"title": message["title"], "body": message["body"], "url": "/table/abc", "tag": "turn-abc"}
    ]
    page.context.close()


def test_own_profile_has_the_switches_and_says_what_happened(
    browser: Any, server: Server, artifacts: Any
) -> None:
    page = controlled(browser, server)
    page.get_by_role("button", name="Play a bot").first.click()
    page.wait_for_url("**/table/*")
    me = page.evaluate("fetch('/api/me').then((r) => r.json())")["player"]["id"]
    page.goto(f"/player/{me}")
    card = page.get_by_test_id("notifications")
    expect(card).to_be_visible()
    expect(page.get_by_test_id("push-status")).to_contain_text("Off.")
    page.get_by_label("Play a short sound").check()
    assert page.evaluate("localStorage.getItem('dicehall.sound')") == "on"
    # Chromium here has no push service to register with: the switch says so and stays off (a click, not
    # check(): the page may turn the box off again before Playwright looks whether the click ticked it)
    page.get_by_label("Tell me when it is my turn").click()
    expect(page.get_by_test_id("push-status")).to_contain_text("could not turn notifications on")
    expect(page.get_by_label("Tell me when it is my turn")).not_to_be_checked()
    page.screenshot(path=str(artifacts / "notifications-1280x800-en.png"), full_page=True)
    # another player's profile has no switches
    page.goto("/player/nobody-here")
    expect(page.get_by_test_id("notifications")).to_have_count(0)
    page.context.close()


def test_the_favicon_counts_the_games_waiting(browser: Any, server: Server) -> None:
    page = controlled(browser, server)
    plain = page.locator("link[rel=icon]").get_attribute("href")
    page.get_by_role("button", name="Play a bot").first.click()  # the first roll is the player's
    page.wait_for_url("**/table/*")
    page.goto("/")  # the count is asked on each page load
    page.wait_for_function("() => document.title.startsWith('(1)')")
    expect(page.locator("link[rel=icon]")).to_have_attribute("href", re.compile(r"^data:image/png"))
    assert plain is not None and plain.endswith("/icon.svg")
    page.context.close()
