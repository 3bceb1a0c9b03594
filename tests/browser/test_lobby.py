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


def test_one_name_bots_by_strength_and_words_only_where_they_apply(new_page: Any, server: Server) -> None:
    """Seat 1 is you, under your one name (saved as your name); bots come weakest first, each with what it does
    and the strength the catalogue serves; the real-dice words show only with real dice; Der große Wurf offers
    neither hints (it has none) nor presets or options every live table fixes."""
    catalogue = {g["name"]: g for g in server.get("/api/games")}
    page = new_page(390, 844)
    page.goto("/new?game=thousand")
    page.wait_for_selector("[data-testid=rules-box][data-preset=classic] details")
    # One name field: seat 1's, named "Your name" and marked as you; no second one above the seats.
    names = page.locator("#create-form input[type=text]:visible")
    assert names.count() == 1
    assert (
        names.first.get_attribute("aria-label") == "Your name"
        and names.first.get_attribute("id") == "my-name"
    )
    assert page.locator(".seat-row").first.locator("[data-testid=seat-you]").is_visible()
    # Bots weakest first, as the server ranks them; the chosen one's line says what it does and how it measured.
    bot_row = page.locator(".seat-row").nth(1)
    order = bot_row.locator(".seat-bot option").evaluate_all("os => os.map((o) => o.value)")
    assert order == ["random", "bold", "cautious", "practical", "expert", "optimal"]
    assert order == [b["name"] for b in catalogue["thousand"]["bots"]]
    for bot in order:
        bot_row.locator(".seat-bot").select_option(bot)
        figure = next(b["strength"] for b in catalogue["thousand"]["bots"] if b["name"] == bot)
        line = bot_row.get_by_test_id("bot-info").inner_text()
        assert (
            f"Won {round(figure['share'] * 100)}% of " in line and f"against {figure['against']}." in line
        ), line
    assert "Stops at 200 points" in bot_row.locator(".seat-bot option[value=cautious]").get_attribute("title")
    # Words about real dice only when real dice are chosen.
    hint = page.get_by_test_id("dice-hint")
    assert not hint.is_visible()
    page.select_option("[data-testid=dice-mode]", "real")
    assert hint.is_visible() and "tap what fell" in hint.inner_text()
    page.select_option("[data-testid=dice-mode]", "rolled")
    assert not hint.is_visible()
    assert page.get_by_test_id("hints-row").is_visible()

    # Clever: the mean score alone, weakest first.
    page.goto("/new?game=clever")
    page.wait_for_selector("[data-testid=rules-box] details")
    bot_row = page.locator(".seat-row").nth(1)
    assert bot_row.locator(".seat-bot option").evaluate_all("os => os.map((o) => o.value)") == [
        "random",
        "greedy",
        "expert",
        "master",
    ]
    bot_row.locator(".seat-bot").select_option("master")
    assert "Scores 268 on average playing alone" in bot_row.get_by_test_id("bot-info").inner_text()

    # Der große Wurf: hints (the aiming map) on offer, and the throws of a live table are always simulated.
    page.goto("/new?game=wurf")
    page.wait_for_selector("[data-testid=rules-box] details")
    assert catalogue["wurf"]["hints"] is True and page.get_by_test_id("hints-row").is_visible()
    presets = page.locator("input[name=preset]").evaluate_all("xs => xs.map((x) => x.value)")
    assert presets == catalogue["wurf"]["live_presets"] == ["standard", "match"]
    assert page.locator("#opt-arena").count() == 0
    assert "quick" not in page.inner_text("#create-form") and "MuJoCo" not in page.inner_text("#create-form")

    # Creating the table under the one name: seat 1 is yours, and the name is saved as yours.
    page.goto("/new?game=thousand")
    page.wait_for_selector("[data-testid=rules-box][data-preset=classic] details")
    page.fill("#my-name", "Ann")
    page.click("#create")
    page.wait_for_url("**/table/*")
    page.wait_for_selector("[data-testid=scoreboard] tbody tr")
    assert "Ann" in page.inner_text("[data-testid=seat-badge]")
    table = server.get(f"/api/tables/{page.url.rsplit('/', 1)[-1]}")
    assert table["seats"][0]["name"] == "Ann" and table["seats"][0]["player"]
    page.goto("/new?game=clever")
    page.wait_for_selector(".seat-row")
    page.wait_for_function("() => document.querySelector('#my-name').value === 'Ann'")


def test_a_new_winning_score_offers_to_scale_barrel_pits_and_dump_truck(
    new_page: Any, server: Server
) -> None:
    """Lowering the target: the form says which options the server fits to it (the values its check gives),
    one click puts them in the form, and the table is made with them."""
    fitted = server.post(
        "/api/rules/check", {"game": "thousand", "preset": "classic", "overrides": {"target": 500}}
    )
    assert fitted["ok"]
    page = new_page(1280, 800)
    page.goto("/new?game=thousand")
    page.wait_for_selector("[data-testid=rules-box][data-preset=classic] details")
    offer = page.get_by_test_id("rules-offer")
    assert not offer.is_visible()
    set_rule(page, "target", "500")
    offer.wait_for()
    moved = offer.locator("li").evaluate_all("ls => ls.map((l) => l.dataset.key)")
    assert {"barrel_score", "pits", "dump_truck_score"} <= set(moved)
    barrel = offer.locator("li[data-key=barrel_score]").inner_text()
    assert "880" in barrel and str(fitted["rules"]["barrel_score"]) in barrel
    page.get_by_test_id("rules-offer-accept").click()
    page.wait_for_function("() => document.querySelector('[data-testid=rules-offer]').hidden")
    assert page.input_value("#opt-barrel_score") == str(fitted["rules"]["barrel_score"])
    assert page.input_value("#opt-dump_truck_score") == str(fitted["rules"]["dump_truck_score"])
    pits = page.locator("#opt-pits .range-row").evaluate_all(
        "rs => rs.map((r) => [r.querySelector('.range-low').value, r.querySelector('.range-high').value].map(Number))"
    )
    assert pits == fitted["rules"]["pits"]
    assert page.locator(".opt-error:visible").count() == 0
    page.click("#create")
    page.wait_for_url("**/table/*")
    table = server.get(f"/api/tables/{page.url.rsplit('/', 1)[-1]}")
    for key in ("target", "barrel_score", "dump_truck_score", "pits"):
        assert table["overrides"][key] == fitted["rules"][key], key
