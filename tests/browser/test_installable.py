"""The installable app (docs/web.md, "Installable app"): Chromium finds the manifest and the service worker and has
no objection to installing dicehall; with the server gone, a page opens as the offline page, in the reader's
language, listing "Your games" as last seen, and "Try again" opens the game once the server is back."""

from __future__ import annotations

import json
import struct
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import CHROMIUM, CHROMIUM_ARGS, CSP_WATCH, NAME_ASKED, Server


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[Server]:
    """A server of this test's own: the offline test stops it."""
    srv = Server(tmp_path / "dicehall.sqlite", tmp_path / "server.log")
    srv.start()
    yield srv
    srv.stop()


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def controlled_page(
    browser: Any,
    base: str,
    locale: str = "en-US",
    width: int = 1280,
    height: int = 800,
    profile: Path | None = None,
) -> Any:
    """A page of a fresh context, once the service worker is installed and controls it. With ``profile``, a
    browser profile on disk (Chromium installs no app from an incognito context, which a plain one is)."""
    options: dict[str, Any] = {
        "viewport": {"width": width, "height": height},
        "base_url": base,
        "locale": locale,
    }
    if profile is None:
        ctx = browser.new_context(**options)
    else:
        ctx = browser.browser_type.launch_persistent_context(
            str(profile), executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS, **options
        )
    page = ctx.new_page()
    page.add_init_script(CSP_WATCH)
    page.add_init_script(NAME_ASKED)
    page.goto("/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("navigator.serviceWorker.controller !== null")  # (clients.claim on activation)
    return page


def test_chromium_finds_dicehall_installable(browser: Any, own_server: Server, tmp_path: Path) -> None:
    manifest = own_server.get("/manifest.webmanifest")
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    sizes = set()
    for icon in manifest["icons"]:
        with urllib.request.urlopen(own_server.base + icon["src"], timeout=10) as r:
            assert r.status == 200
            body = r.read()
        if icon["type"] == "image/png":
            w, h = png_size(body)
            assert icon["sizes"] == f"{w}x{h}", icon
            sizes.add((w, icon["purpose"]))
    assert {(192, "any"), (512, "any"), (512, "maskable")} <= sizes
    with urllib.request.urlopen(own_server.base + "/sw.js", timeout=10) as r:
        assert r.headers["content-type"].startswith(("text/javascript", "application/javascript"))
        assert "no-cache" in r.headers["cache-control"]  # a new build reaches the browsers at once

    page = controlled_page(browser, own_server.base, profile=tmp_path / "profile")
    cdp = page.context.new_cdp_session(page)
    found = cdp.send("Page.getAppManifest")
    assert found["url"].endswith("/manifest.webmanifest") and not found["errors"], found["errors"]
    assert json.loads(found["data"])["short_name"] == "dicehall"
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    page.context.close()


def test_without_the_server_a_page_is_the_offline_page_with_your_games(
    browser: Any, own_server: Server, artifacts: Path
) -> None:
    page = controlled_page(browser, own_server.base)
    page.get_by_role("button", name="Play a bot").first.click()  # a game of this player's
    page.wait_for_url("**/table/*")
    table = page.url.rsplit("/", 1)[-1]
    page.goto("/")  # "Your games" asked through the service worker, which keeps a copy
    expect(page.get_by_test_id("your-games").locator(f"li[data-table='{table}']")).to_be_visible()
    ru = controlled_page(browser, own_server.base, locale="ru-RU", width=390, height=844)

    own_server.kill()  # no server: what a phone out of reach sees
    page.goto(f"/table/{table}")
    expect(page.get_by_role("heading", name="You are offline")).to_be_visible()
    expect(page.locator("#games a", has_text="Dice 1000")).to_have_attribute("href", f"/table/{table}")
    page.screenshot(path=str(artifacts / "offline-1280x800-en.png"))
    ru.goto("/")
    expect(ru.get_by_role("heading", name="Нет соединения")).to_be_visible()
    ru.screenshot(path=str(artifacts / "offline-390x844-ru.png"))

    own_server.start()  # back: "Try again" opens the game
    page.get_by_role("button", name="Try again").click()
    expect(page.get_by_role("heading", name="You are offline")).to_have_count(0)
    expect(page.locator("#app")).not_to_be_empty()
    assert page.url.endswith(f"/table/{table}")
    page.context.close()
    ru.context.close()
