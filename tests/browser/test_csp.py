"""The front end runs under a strict Content-Security-Policy (no inline scripts or styles, no eval): every page is
served here with such a header and no violation may be reported while it is used."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import Player, play

pytestmark = pytest.mark.browser

POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self' ws: wss:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)


def strict(page: Any) -> list[str]:
    """Serve every HTML page with the policy; collect the violations the page reports."""
    violations: list[str] = []

    def add_policy(route: Any) -> None:
        response = route.fetch()
        headers = {**response.headers, "content-security-policy": POLICY}
        route.fulfill(response=response, headers=headers)

    page.route(lambda url: "/api/" not in url and "/assets/" not in url, add_policy)
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation', (e) =>"
        " (window.__csp = window.__csp || []).push(e.violatedDirective + ' ' + e.blockedURI))"
    )
    page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    return violations


def test_every_page_is_csp_clean(new_page: Any) -> None:
    page = new_page(locale="ru-RU")
    console = strict(page)
    page.goto("/")
    page.locator("[data-game=wurf] svg").wait_for()
    page.goto("/rules?game=clever")
    page.locator("[data-testid=howto] svg").wait_for()
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
    assert page.evaluate("document.querySelector('.scoreboard .progress').style.getPropertyValue('--p')")
    reported = page.evaluate("window.__csp || []")
    assert not reported and not console, (reported, console)
    # the policy really was in force: an inline script is refused
    page.evaluate(
        "() => { const s = document.createElement('script'); s.textContent = 'window.__ran = 1'; document.body.append(s); }"
    )
    assert page.evaluate("window.__ran") is None
