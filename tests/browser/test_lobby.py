"""The table form: presets first, house rules grouped by topic with what differs from the preset, pits as a
list of ranges, and the server's own check (POST /api/rules/check) shown at the option as you type."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Server
from .helpers import set_rule

pytestmark = pytest.mark.browser


def test_rules_grouped_pits_as_ranges_and_checked_as_you_type(new_page: Any, server: Server) -> None:
    page = new_page(390, 844)
    page.goto("/new?game=thousand")
    page.wait_for_selector("[data-testid=rules-box][data-preset=classic] details")
    # Presets come first, each with what it is.
    first = page.locator("#create-form h2").first.inner_text()
    assert first == "Rules" and page.locator("[data-testid=presets] .preset").count() == 5
    # Every topic is closed and says it is as in the preset.
    topics = page.locator("details.rule-group")
    assert topics.count() == 8
    assert all(not d.evaluate("d => d.open") for d in topics.all())
    assert set(page.locator("details.rule-group .diff").all_inner_texts()) == {"as in the rules"}

    # Pits are rows of two numbers: add one, then make it reach past the barrel (880).
    pits = page.locator("details[data-topic=pits]")
    pits.locator("summary").click()
    assert page.locator("#opt-pits .range-row").count() == 2
    page.click("#opt-pits .range-add")
    row = page.locator("#opt-pits .range-row").last
    row.locator(".range-low").fill("900")
    row.locator(".range-high").fill("950")
    assert pits.locator(".diff").inner_text() == "changed: Pits"
    # The server's cross-option check answers at the option, without pressing Create.
    page.locator("[data-error-for=pits]").wait_for()
    assert "past the barrel" in page.inner_text("[data-error-for=pits]")
    # A range that ends below its start is caught at once, in the page's words.
    row.locator(".range-high").fill("850")
    page.wait_for_function(
        "() => document.querySelector('[data-error-for=pits]').textContent.includes('end above its start')"
    )
    # Removing the row makes the rules valid again: the message goes.
    row.locator("button").click()
    page.wait_for_function("() => document.querySelector('[data-error-for=pits]').hidden")
    assert pits.locator(".diff").inner_text() == "as in the rules"

    # A number outside the range the server publishes: caught before any request.
    set_rule(page, "target", "10")
    page.locator("[data-error-for=target]").wait_for()
    assert page.inner_text("[data-error-for=target]") == "At least 20."
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, (
        "the form scrolls sideways on a phone"
    )

    # Another preset rebuilds the form from that preset's values.
    page.check("input[name=preset][value=variant2]")
    page.wait_for_selector("[data-testid=rules-box][data-preset=variant2]")
    assert page.input_value("#opt-open_min") == "75"
    assert page.locator("#opt-pits .range-row").count() == 0
