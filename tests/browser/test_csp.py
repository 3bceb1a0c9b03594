"""The front end runs under the server's strict Content-Security-Policy (no inline scripts or styles, no eval):
every page a player uses is visited and the fixture fails the test on any reported violation."""

from __future__ import annotations

import urllib.request
from typing import Any

import pytest

from .conftest import Server
from .helpers import Player, play

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("path", ["/", "/new?game=thousand", "/rules?game=wurf", "/table/nosuchtable"])
def test_pages_are_served_with_a_strict_policy(server: Server, path: str) -> None:
    with urllib.request.urlopen(server.base + path, timeout=10) as r:
        policy = r.headers["content-security-policy"] or ""
    assert "script-src 'self'" in policy and "style-src 'self'" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy


def test_every_page_is_csp_clean(new_page: Any) -> None:
    page = new_page(locale="ru-RU")
    page.goto("/")
    page.locator("[data-game=wurf] svg").wait_for()
    page.goto("/rules?game=clever")
    page.locator(
        "[data-testid=howto] svg"
    ).first.wait_for()  # (the sheet; the worked turn, areas and a chain follow)
    page.goto("/new?game=thousand")
    page.wait_for_selector("[data-testid=rules-box] details")
    page.click("details[data-topic=pits] summary")
    page.click("#opt-pits .range-add")
    page.goto("/")
    page.click("[data-start=thousand-bot]")
    page.wait_for_url("**/table/*")
    page.wait_for_selector("[data-testid=scoreboard] tbody tr")
    play([Player(page)], stop_after=3, timeout=30)
    page.wait_for_timeout(300)
    # the score bar's width is set from script (element.style), which the policy allows
    assert page.evaluate("document.querySelector('.scoreboard .progress').style.getPropertyValue('--p')")


def test_the_policy_is_in_force(browser: Any, server: Server) -> None:
    """An inline script is refused on our pages (its own context: new_page would report the violation)."""
    ctx = browser.new_context(base_url=server.base)
    try:
        page = ctx.new_page()
        page.goto("/")
        page.locator("[data-game=thousand]").wait_for()
        refused = page.evaluate(
            """() => new Promise((done) => {
              document.addEventListener('securitypolicyviolation', (e) => done(e.violatedDirective), { once: true });
              const s = document.createElement('script');
              s.textContent = 'window.__ran = 1';
              document.body.append(s);
            })"""
        )
        assert refused.startswith("script-src") and page.evaluate("window.__ran") is None
    finally:
        ctx.close()
