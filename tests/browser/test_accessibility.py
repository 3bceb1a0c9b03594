"""Every page a player uses passes axe-core (web/node_modules/axe-core, pinned in web/package-lock.json) with no
serious or critical violation, in each of the four languages at 1280×800 and in English on a phone."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from .conftest import ROOT, Server
from .helpers import hold_seats

pytestmark = pytest.mark.browser

AXE = ROOT / "web" / "node_modules" / "axe-core" / "axe.min.js"
LOCALES = {"en": "en-US", "ru": "ru-RU", "uk": "uk-UA", "pl": "pl-PL"}
CASES = [(lang, 1280, 800) for lang in LOCALES] + [("en", 390, 844)]

RUN_AXE = """async () => {
  const result = await axe.run(document, { resultTypes: ['violations'] });
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help,
                   nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ') + ' :: ' + n.failureSummary) }));
}"""


def violations(page: Any, where: str) -> list[str]:
    """axe's serious and critical violations of the page as it stands, one line each."""
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        # evaluated through the debugging protocol: the page's content security policy does not apply to it
        page.evaluate(AXE.read_text())
    found = page.evaluate(RUN_AXE)
    return [f"{where}: {v['impact']} {v['id']} ({v['help']}): {v['nodes']}" for v in found]


def finished_clever_solo(server: Server) -> str:
    created = server.post("/api/tables", {"game": "clever", "seats": [{"kind": "bot", "bot": "random"}]})
    tid = str(created["table_id"])
    end = time.monotonic() + 120
    while server.get(f"/api/tables/{tid}")["status"] != "finished":
        assert time.monotonic() < end, f"the bot did not finish table {tid}"
        time.sleep(0.2)
    return tid


def start_against_a_bot(page: Any, game: str) -> None:
    page.goto("/")
    page.click(f"[data-start={game}-bot]")
    page.wait_for_url("**/table/*")


@pytest.mark.parametrize(("lang", "width", "height"), CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_no_serious_violation_on_any_page(
    new_page: Any, server: Server, artifacts: Path, lang: str, width: int, height: int
) -> None:
    page = new_page(width, height, locale=LOCALES[lang])
    found: list[str] = []
    page.goto("/")
    page.locator("[data-game=wurf] svg").wait_for()
    assert page.get_attribute("html", "lang") == lang
    found += violations(page, "home")
    page.goto("/new?game=thousand")
    page.wait_for_selector("[data-testid=rules-box] details")
    found += violations(page, "new table")
    for game in ("clever", "wurf"):
        page.goto(f"/rules?game={game}")
        page.locator("[data-testid=howto] svg").first.wait_for()
        found += violations(page, f"how to play {game}")
    start_against_a_bot(page, "thousand")
    page.wait_for_selector("[data-testid=scoreboard] tbody tr")
    page.wait_for_function("() => !!document.querySelector('[data-testid=roll-btn]:not([disabled])')")
    found += violations(page, "Dice 1000 table")
    start_against_a_bot(page, "clever")
    page.wait_for_selector(".clever-sheet")
    found += violations(page, "Clever table")
    start_against_a_bot(page, "wurf")
    page.wait_for_selector("[data-testid=wurf-throw]", state="attached")
    found += violations(page, "Wurf table")
    page.goto("/")
    page.get_by_test_id("your-games").wait_for()
    found += violations(page, "home with Your games")
    tid = finished_clever_solo(server)
    page.goto(f"/table/{tid}/analysis")
    page.get_by_test_id("totals").wait_for()
    found += violations(page, "analysis")
    me = page.evaluate("() => fetch('/api/me').then((r) => r.json()).then((d) => d.player.id)")
    page.goto(f"/player/{me}")
    page.get_by_test_id("profile-name").wait_for()
    found += violations(page, "profile")
    assert not found, "\n".join(found)


NEWEST = """() => {
  const li = document.querySelector('[data-testid=log] > li');
  const announcer = document.querySelector('[data-testid=announcer]');
  if (!li) return { seq: 0, words: '', said: null, count: announcer.childElementCount };
  const words = [li.querySelector(':scope > .words').textContent,
                 ...[...li.querySelectorAll(':scope > ul > li')].map((x) => x.textContent)];
  const said = document.querySelector('[data-testid=announcer]').lastElementChild;
  return { seq: Number(li.dataset.seq), words: words.join(' '), said: said ? said.textContent : null,
           count: document.querySelector('[data-testid=announcer]').childElementCount };
}"""


def test_each_new_event_is_announced_in_the_words_of_the_log(new_page: Any, server: Server) -> None:
    page = new_page(1280, 800)
    created = server.post(
        "/api/tables", {"game": "thousand", "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human"}]}
    )
    hold_seats(page, created["table_id"], {s["seat"]: s["token"] for s in created["seats"]})
    page.wait_for_function("() => !!document.querySelector('[data-testid=roll-btn]:not([disabled])')")
    page.wait_for_selector("[data-testid=log] > li")  # the opening throw, drawn with the log on arrival
    live = page.get_by_test_id("announcer")
    assert live.get_attribute("aria-live") == "polite"
    # the log drawn on arrival is not read out: only what happens from now on
    assert (
        page.evaluate(NEWEST)["count"] == 0 and page.get_by_test_id("log").get_attribute("aria-live") is None
    )
    for _ in range(3):
        before = page.evaluate(NEWEST)["seq"]
        page.keyboard.press("r")
        page.wait_for_function(
            f"() => Number(document.querySelector('[data-testid=log] > li')?.dataset.seq ?? 0) > {before}"
        )
        newest = page.evaluate(NEWEST)
        assert newest["said"] == newest["words"] and newest["words"], newest
        assert newest["count"] <= 3
        page.wait_for_function(
            "() => !!document.querySelector('[data-testid=roll-btn]:not([disabled]), [data-testid=bank-btn]:not([disabled])')"
        )
        if page.get_by_test_id("roll-btn").is_disabled():
            break
