"""Der große Wurf in the browser: the three.js arena, throws played back from the server's MuJoCo motion, aiming
and rearranging by drag, the big throw, a match, the referee table entered by taps, a reload during a flight,
the frame rate, a phone and a browser without WebGL."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from dicehall.core.record import GameRecord, replay

from .conftest import Server
from .wurf_driver import arena, create, drag_die, drag_throw, open_seat, play_by_drag, screen_of, top_seq, wait_state

pytestmark = pytest.mark.browser

ANN_VS_BOT = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "cautious"}]


def record(server: Server, tid: str) -> GameRecord:
    with urllib.request.urlopen(f"{server.base}/api/tables/{tid}/record", timeout=10) as r:
        return GameRecord.from_json(json.load(r))


def test_a_whole_game_against_a_bot_by_drag_aiming(new_page: Any, server: Server, artifacts: Path) -> None:
    page = new_page(1280, 800)
    table = create(server, seats=ANN_VS_BOT, overrides={"dice_per_player": 3})
    open_seat(page, table)
    assert page.get_by_test_id("wurf-stage").get_attribute("data-state") == "3d"
    assert "near 1 it hits hard" in page.get_by_test_id("wurf-aim").inner_text()  # what power does, on screen
    shots: dict[str, bool] = {}

    def flight(p: Any) -> None:
        p.wait_for_timeout(250)  # mid-flight: the motion plays for about a second
        p.screenshot(path=str(artifacts / "wurf-flight.png"))
        shots["flight"] = True
        p.wait_for_function("() => document.querySelector('[data-testid=wurf-caption]').textContent.length > 0")
        p.screenshot(path=str(artifacts / "wurf-settled.png"))

    throws = play_by_drag(page, flight_shot=flight)
    assert throws >= 1 and shots
    page.get_by_test_id("gameover").wait_for()
    page.screenshot(path=str(artifacts / "wurf-gameover.png"))
    rec = record(server, table["table_id"])
    mine = [e.move for e in rec.events if e.actor == 0 and e.move.startswith("throw ")]
    assert len(mine) == throws  # every drag sent exactly one throw in the engine's notation
    final = replay(rec)
    assert final.is_terminal()
    log = page.get_by_test_id("log").inner_text()
    assert "Ann throws at" in log and "with power" in log
