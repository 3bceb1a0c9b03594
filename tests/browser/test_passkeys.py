"""Passkeys in the page (web/src/account.ts) with Chromium's virtual authenticator (the DevTools protocol's WebAuthn
domain): save a player with a passkey, sign out, sign in with the same passkey in another browser context and find
the player's name and games there; a replayed sign-in answer is refused.

WebAuthn refuses IP addresses as the relying party id, so this file runs its own server and opens it as
``http://localhost:PORT`` (the suite's server is addressed as 127.0.0.1)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import ARTIFACTS, CSP_WATCH, NAME_ASKED, Server

AUTHENTICATOR = {
    "protocol": "ctap2",
    "ctap2Version": "ctap2_1",
    "transport": "internal",
    "hasResidentKey": True,
    "hasUserVerification": True,
    "isUserVerified": True,
    "automaticPresenceSimulation": True,
}


@pytest.fixture(scope="module")
def local_server(tmp_path_factory: pytest.TempPathFactory, server: Server) -> Iterator[Server]:
    """A server of this file's own, reached as http://localhost (``server`` first: it builds the front end)."""
    tmp = tmp_path_factory.mktemp("passkeys")
    srv = Server(tmp / "dicehall.sqlite", tmp / "server.log")
    srv.start()
    srv.base = f"http://localhost:{srv.port}"
    yield srv
    srv.stop()


@pytest.fixture
def new_page(browser: Any, local_server: Server) -> Iterator[Any]:
    """``new_page(width, height)`` → (page, cdp, authenticator id): a fresh context (its own player) with a
    virtual platform authenticator of its own."""
    contexts = []
    errors: list[str] = []

    def make(width: int = 1280, height: int = 800) -> tuple[Any, Any, str]:
        ctx = browser.new_context(viewport={"width": width, "height": height}, base_url=local_server.base)
        ctx.set_default_timeout(30000)
        contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.add_init_script(CSP_WATCH)
        page.add_init_script(NAME_ASKED)
        page.on("console", lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None)
        cdp = ctx.new_cdp_session(page)
        cdp.send("WebAuthn.enable", {"enableUI": False})
        made = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})
        return page, cdp, made["authenticatorId"]

    yield make
    for ctx in contexts:
        ctx.close()
    assert not errors, f"errors in the page: {errors}"


def me(page: Any) -> Any:
    return page.evaluate("() => fetch('/api/me').then((r) => r.json()).then((d) => d.player)")


def open_dialog(page: Any) -> Any:
    page.get_by_test_id("name-chip").click()
    dialog = page.get_by_test_id("account-dialog")
    dialog.wait_for(state="visible")
    return dialog


def status_says(page: Any, words: str) -> None:
    page.wait_for_function(
        "(w) => document.querySelector('[data-testid=account-status]')?.textContent.includes(w)", arg=words
    )


def fits(page: Any, height: int) -> None:
    box = page.get_by_test_id("account-dialog").bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height, box


def register_ann(page: Any, local_server: Server) -> tuple[dict[str, Any], str]:
    """Ann names herself, starts a game against a bot (linked to her) and saves herself with a passkey."""
    page.goto("/")
    open_dialog(page)
    page.fill("[data-testid=name-input]", "Ann")
    page.click("[data-testid=name-save]")
    page.wait_for_function("() => document.querySelector('[data-testid=name-chip]')?.textContent === 'Ann'")
    page.keyboard.press("Escape")
    page.click("[data-start=thousand-bot]")
    page.wait_for_url("**/table/*")
    table_id = page.url.rsplit("/", 1)[-1]
    ann = me(page)  # the one-click table linked her seat to her player ("me": true)
    page.goto("/")
    dialog = open_dialog(page)
    assert "guest" in dialog.get_by_test_id("account-kind").inner_text()
    page.click("[data-testid=passkey-register]")
    status_says(page, "Saved")
    page.get_by_test_id("passkey").wait_for()
    assert me(page) == {**ann, "kind": "account"}
    return ann, table_id


def test_register_sign_out_and_sign_in_on_a_second_context(new_page: Any, local_server: Server) -> None:
    page, cdp, authenticator = new_page(1280, 800)
    ann, table_id = register_ann(page, local_server)
    fits(page, 800)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "account-saved-desktop.png"))
    (credential,) = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})["credentials"]
    assert credential["isResidentCredential"] and credential["rpId"] == "localhost"
    page.click("[data-testid=sign-out]")
    status_says(page, "Signed out")
    assert me(page) is None
    assert page.get_by_test_id("name-chip").inner_text() == "Set your name"

    # a second browser (a phone): the same passkey, copied onto its authenticator, signs in as Ann
    phone, phone_cdp, phone_authenticator = new_page(390, 844)
    phone_cdp.send(
        "WebAuthn.addCredential", {"authenticatorId": phone_authenticator, "credential": credential}
    )
    phone.goto("/")
    dialog = open_dialog(phone)
    assert "not played" in dialog.get_by_test_id("account-kind").inner_text()
    fits(phone, 844)
    phone.screenshot(path=str(ARTIFACTS / "account-guest-phone.png"))
    phone.click("[data-testid=passkey-sign-in]")
    status_says(phone, "Signed in as Ann")
    phone.wait_for_function("() => document.querySelector('[data-testid=name-chip]')?.textContent === 'Ann'")
    assert me(phone) == {**ann, "kind": "account"}
    assert phone.get_by_test_id("passkey").count() == 1
    fits(phone, 844)
    phone.screenshot(path=str(ARTIFACTS / "account-signed-in-phone.png"))
    # Ann's games are there: Your games lists the game she started on the other browser, and Resume holds her
    # seat here without any token saved on this phone
    phone.goto("/")
    mine = phone.get_by_test_id("your-games").locator(f"li[data-table='{table_id}']")
    mine.locator(f"[data-resume='{table_id}']").click()
    phone.wait_for_function(
        "() => document.querySelector('[data-testid=seat-badge]')?.textContent.includes('Ann')"
    )
    assert phone.evaluate(f"() => localStorage.getItem('dicehall.tokens.{table_id}')") is None
    # and the export the dialog links to holds it too
    export = phone.evaluate("() => fetch('/api/me/export').then((r) => r.json())")
    assert [g["record"]["game_id"] for g in export["games"]] == [table_id]


def test_a_replayed_assertion_is_refused(new_page: Any, local_server: Server) -> None:
    page, _cdp, _authenticator = new_page(1280, 800)
    ann, _table = register_ann(page, local_server)
    page.click("[data-testid=sign-out]")
    status_says(page, "Signed out")
    captured: list[str] = []

    def keep(route: Any) -> None:
        captured.append(route.request.post_data)
        route.continue_()

    page.route("**/api/auth/login/verify", keep)
    page.click("[data-testid=passkey-sign-in]")
    status_says(page, "Signed in as Ann")
    assert me(page)["id"] == ann["id"] and len(captured) == 1
    page.click("[data-testid=sign-out]")
    status_says(page, "Signed out")
    replayed = page.evaluate(
        """(body) => fetch('/api/auth/login/verify', {method: 'POST', headers: {'Content-Type':
        'application/json'}, body}).then(async (r) => [r.status, (await r.json()).code])""",
        captured[0],
    )
    assert replayed == [400, "challenge_expired"]
    assert me(page) is None  # the replay signed nobody in
