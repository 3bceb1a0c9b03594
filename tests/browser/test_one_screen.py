"""One screen per decision: in every game and phase, at 1280×800 and 390×844, the controls of the decision at
hand and the dice they act on lie inside the viewport at scroll position 0 (docs/web-frontend.md, "Layout").

Real tables: against a bot, a bot's turn, hot seat, real dice, game over. Each test opens one table and looks at
it at both sizes (the page resized, as a window is); screenshots go to ``test-artifacts/one-screen/``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import Server
from .helpers import WAIT_JS, hold_seats

pytestmark = pytest.mark.browser

SIZES = [(1280, 800), (390, 844)]
BOTS = {"thousand": "cautious", "clever": "greedy", "wurf": "cautious"}

# The boxes of every rendered element matching each selector; a selector that matches nothing is reported.
MEASURE_JS = """async (sels) => {
  window.scrollTo(0, 0);
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const W = window.innerWidth, H = window.innerHeight;
  const boxes = [];
  for (const sel of sels) {
    const els = [...document.querySelectorAll(sel)].filter((e) => e.getClientRects().length > 0);
    if (!els.length) boxes.push({sel, missing: true});
    for (const e of els) {
      const r = e.getBoundingClientRect();
      const inside = r.top >= -0.5 && r.left >= -0.5 && r.bottom <= H + 0.5 && r.right <= W + 0.5;
      boxes.push({sel, inside, top: Math.round(r.top), bottom: Math.round(r.bottom),
                  left: Math.round(r.left), right: Math.round(r.right)});
    }
  }
  return {W, H, scrollX: window.scrollX, scrollY: window.scrollY,
          pageWidth: document.documentElement.scrollWidth, boxes};
}"""

# What each phase's decision is made with (the dice and the controls); every selector must match.
THOUSAND_TURN = [
    "[data-testid=turn-status]",
    "[data-testid=roll]",
    "[data-testid=set-aside]",
    "[data-testid=turn-total]",
    "[data-testid=roll-btn]",
    "[data-testid=bank-btn]",
]
CLEVER_TURN = ["[data-testid=turn-status]", "[data-testid=tray]", "[data-testid=sheet]"]
WURF_TURN = [
    "[data-testid=turn-status]",
    "[data-testid=wurf-stage]",
    "[data-testid=wurf-throw]",
    "[data-testid=wurf-end]",
    "[data-testid=wurf-power]",
]
GAME_OVER = ["[data-testid=gameover]"]


def check(page: Any, artifacts: Path, name: str, selectors: list[str], ready: Any = None) -> None:
    """At both sizes: resize, (wait for ``ready(page)``), photograph, and check that every box is on screen."""
    shots = artifacts / "one-screen"
    shots.mkdir(exist_ok=True)
    problems: list[str] = []
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        if ready is not None:
            ready(page)
        seen = page.evaluate(MEASURE_JS, selectors)
        page.screenshot(path=str(shots / f"{name}-{width}x{height}.png"))
        at = f"{name} at {width}x{height}"
        if seen["scrollY"] or seen["scrollX"]:
            problems.append(f"{at}: scrolled to {seen['scrollX']},{seen['scrollY']}")
        if seen["pageWidth"] > width:
            problems.append(f"{at}: the page scrolls sideways ({seen['pageWidth']} px)")
        problems += [f"{at}: not shown: {b['sel']}" for b in seen["boxes"] if b.get("missing")]
        problems += [
            f"{at}: off screen: {b}" for b in seen["boxes"] if not b.get("missing") and not b["inside"]
        ]
    assert not problems, "\n".join(problems)


def create(server: Server, game: str, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    table: dict[str, Any] = server.post("/api/tables", {"game": game, "seats": seats, **extra})
    return table


def hold_all(page: Any, table: dict[str, Any]) -> None:
    hold_seats(page, table["table_id"], {s["seat"]: s["token"] for s in table["seats"] if s.get("token")})


ANN = {"kind": "human", "name": "Ann"}
BOB = {"kind": "human", "name": "Bob"}


def bot(game: str) -> dict[str, Any]:
    return {"kind": "bot", "bot": BOTS[game]}


@pytest.fixture(scope="module")
def slow_server(server: Server, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A second server whose bots wait 3 s before each decision: a bot's turn lasts long enough to look at."""
    if server.proc is None:  # a server of your own (DICEHALL_BROWSER_BASE): its bots as they are
        yield server
        return
    tmp = tmp_path_factory.mktemp("slow-bots")
    srv = Server(tmp / "dicehall.sqlite", tmp / "server.log", bot_delay="3")
    srv.start()
    yield srv
    srv.stop()


TOP_SEQ = "() => Number(document.querySelector('[data-testid=log] > li')?.dataset.seq || 0)"


def press_and_wait(page: Any, key: str) -> None:
    """Press a key that makes a move, and wait for the server's event."""
    seq = page.evaluate(TOP_SEQ)
    page.keyboard.press(key)
    page.wait_for_function(f"() => ({TOP_SEQ})() > {seq}")


# -- Dice 1000 -------------------------------------------------------------------------------------------------
def wait_thousand_turn(page: Any, seat: int) -> None:
    page.wait_for_function(
        f"""() => ({WAIT_JS})() === 'act' &&
        !!document.querySelector('[data-testid=scoreboard] tr.current[data-seat="{seat}"]')"""
    )


def test_thousand_your_turn_and_the_hints(new_page: Any, server: Server, artifacts: Path) -> None:
    page = new_page(*SIZES[0])
    hold_all(page, create(server, "thousand", [ANN, bot("thousand")]))
    wait_thousand_turn(page, 0)
    check(page, artifacts, "thousand-turn", THOUSAND_TURN)
    # the hints open beside the board (desktop) or under the controls (phone), never pushing them away
    page.get_by_test_id("hint-btn").click()
    page.wait_for_selector("[data-testid=hints] li", timeout=60000)
    check(page, artifacts, "thousand-hints", [*THOUSAND_TURN, "[data-testid=hints]"])


def test_thousand_bots_turn(new_page: Any, slow_server: Server, artifacts: Path) -> None:
    page = new_page(*SIZES[0])
    table = create(slow_server, "thousand", [bot("thousand"), ANN])
    page.goto(f"{slow_server.base}/")
    stored = f'{{"1": "{table["seats"][1]["token"]}"}}'
    page.evaluate(f"localStorage.setItem('dicehall.tokens.{table['table_id']}', '{stored}')")
    page.goto(f"{slow_server.base}/table/{table['table_id']}")
    check(
        page,
        artifacts,
        "thousand-bot",
        ["[data-testid=turn-status]", "[data-testid=roll]", "[data-testid=turn-total]"],
        ready=until_bots_roll,
    )


def until_bots_roll(page: Any) -> None:
    """Wait until the bot (seat 0) has rolled and decides; Ann (seat 1) plays her turns meanwhile."""
    look = f"""() => {{
      if (document.querySelector('[data-testid=scoreboard] tr.current[data-seat="0"]')
          && document.querySelectorAll('[data-testid=roll] .die[data-face]').length) return 'bot';
      return ({WAIT_JS})() === 'act' ? 'ann' : false;
    }}"""
    for _ in range(40):
        if page.wait_for_function(look, timeout=60000).json_value() == "bot":
            return
        press_and_wait(page, "b" if page.get_by_test_id("bank-btn").is_enabled() else "r")
    raise AssertionError("the bot never rolled")


def test_thousand_hot_seat_next_player(new_page: Any, server: Server, artifacts: Path) -> None:
    page = new_page(*SIZES[0])
    hold_all(page, create(server, "thousand", [ANN, BOB]))
    # Ann plays until the turn passes to Bob on the same screen (a bank or a roll that scores nothing)
    for _ in range(60):
        page.wait_for_function(WAIT_JS)
        if page.locator('[data-testid=scoreboard] tr.current[data-seat="1"]').count():
            break
        press_and_wait(page, "b" if page.get_by_test_id("bank-btn").is_enabled() else "r")
    wait_thousand_turn(page, 1)
    check(page, artifacts, "thousand-hotseat", THOUSAND_TURN)


def test_thousand_real_dice_entry(new_page: Any, server: Server, artifacts: Path) -> None:
    page = new_page(*SIZES[0])
    hold_all(page, create(server, "thousand", [ANN, BOB], dice="real"))
    page.get_by_test_id("dice-entry").wait_for(state="visible")
    check(page, artifacts, "thousand-real", ["[data-testid=dice-entry]", "[data-testid=turn-total]"])


# -- Ganz schön clever ----------------------------------------------------------------------------------------
def test_clever_your_turn(new_page: Any, server: Server, artifacts: Path) -> None:
    page = new_page(*SIZES[0])
    hold_all(page, create(server, "clever", [ANN, bot("clever")]))
    page.wait_for_selector(".clever-root[data-state=act] .cdie.pickable")
    check(page, artifacts, "clever-turn", [*CLEVER_TURN, "[data-testid=rolled] .cdie"])
    # a die with several cells chosen: the lit cells and the die are on screen together
    many = page.locator(".cdie.pickable:not([data-moves='1'])")
    if many.count():
        many.first.click()
        page.wait_for_selector(".clever-sheet .cell.target")
        check(page, artifacts, "clever-cells", [*CLEVER_TURN, ".cdie.selected", ".clever-sheet .cell.target"])


def test_clever_bots_turn(new_page: Any, slow_server: Server, artifacts: Path) -> None:
    page = new_page(*SIZES[0])
    table = create(slow_server, "clever", [bot("clever"), ANN])
    page.goto(f"{slow_server.base}/")
    stored = f'{{"1": "{table["seats"][1]["token"]}"}}'
    page.evaluate(f"localStorage.setItem('dicehall.tokens.{table['table_id']}', '{stored}')")
    page.goto(f"{slow_server.base}/table/{table['table_id']}")
    waiting = "() => !!document.querySelector('.clever-root[data-state=wait] [data-testid=rolled] .cdie')"
    check(
        page,
        artifacts,
        "clever-bot",
        [*CLEVER_TURN, "[data-testid=rolled] .cdie"],
        ready=lambda p: p.wait_for_function(waiting, timeout=60000),
    )


def test_clever_hot_seat_handover(new_page: Any, server: Server, artifacts: Path) -> None:
    page = new_page(*SIZES[0])
    hold_all(page, create(server, "clever", [ANN, BOB]))
    page.wait_for_selector(".clever-root[data-state=handover]")
    check(page, artifacts, "clever-handover", ["[data-testid=handover]", "[data-testid=handover-ready]"])
    page.keyboard.press("Enter")
    page.wait_for_selector(".clever-root[data-state=act]")
    check(page, artifacts, "clever-hotseat", [*CLEVER_TURN, "[data-testid=rolled] .cdie"])


def test_clever_real_dice_entry(new_page: Any, server: Server, artifacts: Path) -> None:
    page = new_page(*SIZES[0])
    hold_all(page, create(server, "clever", [ANN], dice="real"))
    page.get_by_test_id("dice-entry").wait_for(state="visible")
    check(page, artifacts, "clever-real", ["[data-testid=dice-entry]"])


# -- Der große Wurf -------------------------------------------------------------------------------------------
WURF_ACT = """(seat) => {
  const b = document.querySelector('[data-testid=wurf-throw]');
  const aim = document.querySelector('[data-testid=wurf-aim]');
  const cur = document.querySelector('[data-testid=scoreboard] tr.current');
  return !!b && !b.disabled && !!aim && !aim.hidden && !!cur && cur.dataset.seat === String(seat);
}"""


def wurf_page(new_page: Any) -> Any:
    page = new_page(*SIZES[0])
    # the throws play in a quarter of the time; the layout is the same
    page.emulate_media(reduced_motion="reduce")
    return page


def test_wurf_your_turn(new_page: Any, server: Server, artifacts: Path) -> None:
    page = wurf_page(new_page)
    hold_all(page, create(server, "wurf", [ANN, bot("wurf")]))
    page.wait_for_function(WURF_ACT, arg=0, timeout=60000)
    check(page, artifacts, "wurf-turn", WURF_TURN)


def test_wurf_bots_turn(new_page: Any, slow_server: Server, artifacts: Path) -> None:
    page = wurf_page(new_page)
    table = create(slow_server, "wurf", [bot("wurf"), ANN])
    page.goto(f"{slow_server.base}/")
    stored = f'{{"1": "{table["seats"][1]["token"]}"}}'
    page.evaluate(f"localStorage.setItem('dicehall.tokens.{table['table_id']}', '{stored}')")
    page.goto(f"{slow_server.base}/table/{table['table_id']}")
    bots = """() => !!document.querySelector('[data-testid=scoreboard] tr.current[data-seat="0"]')
        && !!document.querySelector('[data-testid=wurf-stage][data-state]')"""
    check(
        page,
        artifacts,
        "wurf-bot",
        ["[data-testid=turn-status]", "[data-testid=wurf-stage]", "[data-testid=wurf-caption]"],
        ready=lambda p: p.wait_for_function(bots, timeout=60000),
    )


def test_wurf_hot_seat_next_player(new_page: Any, server: Server, artifacts: Path) -> None:
    page = wurf_page(new_page)
    # nine dice each: Ann cannot run out of dice before her turn ends (with two, both could fall out: game over)
    hold_all(page, create(server, "wurf", [ANN, BOB]))
    # Ann throws with the keys (the aim as it stands) and ends her turn when she may: then it is Bob's
    for _ in range(30):
        page.wait_for_function(
            f"() => ({WURF_ACT})(0) || ({WURF_ACT})(1) || !!document.querySelector('[data-testid=gameover]')",
            timeout=60000,
        )
        if page.evaluate(WURF_ACT, 1):
            break
        press_and_wait(page, "e" if page.get_by_test_id("wurf-end").is_enabled() else "Enter")
    page.wait_for_function(WURF_ACT, arg=1)
    check(page, artifacts, "wurf-hotseat", WURF_TURN)


def test_wurf_real_dice_entry(new_page: Any, server: Server, artifacts: Path) -> None:
    page = wurf_page(new_page)
    hold_all(page, create(server, "wurf", [ANN, BOB], dice="real"))
    page.get_by_test_id("wurf-entry").wait_for(state="visible")
    check(
        page,
        artifacts,
        "wurf-real",
        ["[data-testid=wurf-entry]", "[data-testid=wurf-entry-confirm]", "[data-testid=wurf-entry-slots]"],
    )


# -- Game over, every game ------------------------------------------------------------------------------------
@pytest.mark.parametrize("game", ["thousand", "clever", "wurf"])
def test_game_over(new_page: Any, server: Server, artifacts: Path, game: str) -> None:
    page = wurf_page(new_page) if game == "wurf" else new_page(*SIZES[0])
    table = create(server, game, [ANN, bot(game)])
    hold_all(page, table)
    page.wait_for_selector("[data-testid=resign-btn]")
    server.post(f"/api/tables/{table['table_id']}/resign", {"seat": 0, "token": table["seats"][0]["token"]})
    page.get_by_test_id("gameover").wait_for(state="visible", timeout=60000)
    # the card as it ends up: with each player's proficiency filled in (Dice 1000, Clever; Wurf has none)
    settled = "() => !document.querySelector('[data-testid=gameover] [aria-busy]')"
    check(page, artifacts, f"{game}-over", GAME_OVER, ready=lambda p: p.wait_for_function(settled))
