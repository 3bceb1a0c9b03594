"""What hints and the analysis page need is made before anybody asks (warmup.py): the evaluators at start and when
a table opens, a finished table's analysis and replay as it ends; start-up does not wait for any of it."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import BOT_SETUP, UNLIMITED
from fastapi.testclient import TestClient
from webtools import connect, create, latest, play_to_end, tokens, wait_for

from dicehall.core import analysis
from dicehall.core.game import get_game
from dicehall.web import analysis_api
from dicehall.web.app import create_app
from dicehall.web.warmup import Warmer, warm_up_from_env

WARM_S = 240
"""A generous bound for the work in the background on a loaded 2-core machine (it takes a few seconds)."""


def warm_server(db_url: str) -> TestClient:
    return TestClient(create_app(db_url, bot_delay=0, settings=UNLIMITED, bot_setup=BOT_SETUP, warm_up=True))


def test_the_evaluators_of_the_default_rules_are_made_at_start(db_url: str) -> None:
    thousand = get_game("thousand").rules_type.from_preset(None)
    analysis._MADE.pop(("thousand", thousand, 2), None)
    with warm_server(db_url) as c:
        warmer = c.app.state.warmer
        assert isinstance(warmer, Warmer)
        assert c.get("/api/health").status_code == 200, "the server answers while it warms up"
        assert warmer.idle.wait(WARM_S)
        assert ("thousand", thousand, 2) in analysis._MADE
        assert any(w.startswith("evaluator thousand") for w in warmer.done)
        assert any(w.startswith("evaluator clever") for w in warmer.done)


def test_a_finished_table_has_its_analysis_and_replay_ready(db_url: str, monkeypatch) -> None:
    with warm_server(db_url) as c, connect(c) as spectator:
        warmer = c.app.state.warmer
        assert warmer.idle.wait(WARM_S)
        bots = [{"kind": "bot", "bot": "cautious"}, {"kind": "bot", "bot": "bold"}]
        t = create(c, game="thousand", seats=bots, preset="classic")
        tid = t["table_id"]
        spectator.join(tid)
        wait_for(spectator, lambda g: any(m.get("status") == "finished" for m in g), timeout=120)
        wait_for(spectator, lambda g: any(w == f"replay {tid}" for w in warmer.done), timeout=WARM_S)
        assert warmer.idle.wait(WARM_S)
        assert f"analysis {tid}" in warmer.done

        def not_again(*args: object) -> None:
            raise AssertionError("the analysis page computed what was ready")

        monkeypatch.setattr(analysis_api, "analyze", not_again)
        monkeypatch.setattr(analysis_api, "positions", not_again)
        got = c.get(f"/api/tables/{tid}/analysis")
        assert got.status_code == 200 and got.json()["game"] == "thousand"
        assert c.get(f"/api/tables/{tid}/positions").status_code == 200


def test_a_game_between_people_is_analysed_when_asked(db_url: str) -> None:
    """Made ahead only where one person played (measured: for every table, it slowed a busy server)."""
    with warm_server(db_url) as c, connect(c) as ws:
        warmer = c.app.state.warmer
        t = create(c, game="thousand", preset="classic")
        view = play_to_end(ws, latest(ws.join(t["table_id"], tokens(t))))
        assert view["state"]["terminal"]
        assert warmer.idle.wait(WARM_S)
        assert not [w for w in warmer.done if t["table_id"] in w]
        assert c.get(f"/api/tables/{t['table_id']}/analysis").status_code == 200


def test_a_table_with_hints_has_its_evaluator_made_when_it_opens(db_url: str) -> None:
    rules = get_game("thousand").rules_type.from_preset("variant2")
    analysis._MADE.pop(("thousand", rules, 3), None)
    with warm_server(db_url) as c:
        warmer = c.app.state.warmer
        seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "cautious"}]
        seats.append({"kind": "bot", "bot": "bold"})
        create(c, game="thousand", seats=seats, preset="variant2")
        assert warmer.idle.wait(WARM_S)
        assert ("thousand", rules, 3) in analysis._MADE


@pytest.mark.parametrize(("value", "on"), [("0", False), ("off", False), ("1", True), ("", True)])
def test_the_warm_up_is_turned_off_by_the_environment(
    monkeypatch, value: str, on: bool, tmp_path: Path
) -> None:
    monkeypatch.setenv("DICEHALL_WARM_UP", value)
    assert warm_up_from_env() is on
    with TestClient(create_app(f"sqlite:///{tmp_path / 'db.sqlite'}", bot_delay=0, warm_up=False)) as c:
        assert c.app.state.warmer is None


def test_the_server_says_whether_it_is_warm(db_url: str, server) -> None:
    with warm_server(db_url) as c:
        assert c.app.state.warmer.idle.wait(WARM_S)
        assert c.get("/api/warm-up").json() == {"on": True, "idle": True}
    with server() as c:
        assert c.get("/api/warm-up").json() == {"on": False, "idle": True}
