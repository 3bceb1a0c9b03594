"""Dice anyone can verify, in the page: the fingerprint under "Share / details" (what it means, bots apart), the
"Verify the dice" button of the analysis page with its verdict in players' words (English and Russian), and a
real-dice table saying the dice are yours. Screenshots at 1280×800 and 390×844."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .conftest import Server
from .test_analysis_view import PHONE, SMALL, analysed, finished_table

pytestmark = pytest.mark.browser

BOTS = [{"kind": "bot", "bot": "bold"}, {"kind": "bot", "bot": "random"}]


def _no_sideways_scroll(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")


def test_verify_the_dice_on_the_analysis_page(new_page: Any, server: Server, artifacts: Path) -> None:
    tid = finished_table(server, "thousand", BOTS, overrides=SMALL)
    info = server.get(f"/api/tables/{tid}")
    verdict = server.get(f"/api/tables/{tid}/verify")
    assert verdict["verdict"] == "ok" and verdict["commit"] == info["dice_commit"]
    analysed(server, tid)  # made before the pages ask, so that they find it made
    for (width, height), name in (((1280, 800), "desktop"), (PHONE, "phone")):
        page = new_page(width, height)
        page.goto(f"/table/{tid}/analysis")
        page.get_by_test_id("table-details").locator("summary").click()
        commit = page.get_by_test_id("dice-commit")
        commit.wait_for()
        assert commit.inner_text() == info["dice_commit"]
        details = page.get_by_test_id("dice-fingerprint").inner_text()
        assert (
            "Dice fingerprint:" in details and "SHA-256" in details and "Bots choose their moves" in details
        )
        page.get_by_test_id("verify-dice").click()
        result = page.get_by_test_id("verify-result")
        expected = (
            f"✓ All {verdict['rolls']} rolls of this game follow from the fingerprint shown before it began."
        )
        page.wait_for_function(
            "([el, text]) => el.textContent.startsWith(text)", arg=[result.element_handle(), expected]
        )
        assert result.get_attribute("role") == "status"
        assert "downloaded record" in result.inner_text()
        assert page.get_by_test_id("verify-dice").is_visible() and result.is_visible()
        page.get_by_test_id("step-info").wait_for()  # the whole page in the picture, the analysis loaded
        _no_sideways_scroll(page)
        page.screenshot(path=str(artifacts / f"fair-dice-verify-{name}.png"))

    page = new_page(1280, 800, locale="ru-RU")
    page.goto(f"/table/{tid}/analysis")
    page.get_by_role("button", name="Проверить кубики").click()
    result = page.get_by_test_id("verify-result")
    page.wait_for_function("(el) => el.textContent.startsWith('✓ Каждый из')", arg=result.element_handle())
    assert "следует из отпечатка" in result.inner_text()


def test_a_real_dice_table_says_the_dice_are_yours(new_page: Any, server: Server, artifacts: Path) -> None:
    created = server.post(
        "/api/tables",
        {
            "game": "thousand",
            "dice": "real",
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
        },
    )
    assert created["dice_commit"] is None
    for (width, height), name in (((1280, 800), "desktop"), (PHONE, "phone")):
        page = new_page(width, height)
        page.goto(f"/table/{created['table_id']}")
        page.get_by_test_id("table-details").locator("summary").click()
        words = page.get_by_test_id("dice-fingerprint")
        page.wait_for_function(
            "(el) => el.textContent.includes('the dice are yours')", arg=words.element_handle()
        )
        assert page.get_by_test_id("dice-commit").count() == 0
        _no_sideways_scroll(page)
        page.screenshot(path=str(artifacts / f"fair-dice-real-{name}.png"))
