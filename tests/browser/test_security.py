"""The content security policy in a real browser: the server sends it, the browser enforces it (an injected inline
script does not run), and the app itself never trips it (every other browser test fails on a violation: see
``new_page`` in conftest.py)."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import CSP_WATCH, Server

pytestmark = pytest.mark.browser


def test_the_policy_is_sent_and_enforced(browser: Any, server: Server) -> None:
    ctx = browser.new_context(base_url=server.base)
    try:
        page = ctx.new_page()
        page.add_init_script(CSP_WATCH)
        seen: list[str] = []
        page.on("console", lambda m: seen.append(m.text))
        response = page.goto("/")
        assert "script-src 'self'" in response.headers["content-security-policy"]
        assert response.headers["x-frame-options"] == "DENY"
        page.wait_for_selector("#app *")  # the app's own module script ran
        page.evaluate(
            "() => { const s = document.createElement('script'); s.textContent = 'window.injected = 1';"
            " document.body.append(s); }"
        )
        page.wait_for_timeout(200)
        assert page.evaluate("window.injected") is None
        assert any("Content Security Policy violation: script-src" in t for t in seen), seen
    finally:
        ctx.close()
